import Contract
import QualityEngine
import RouteEngine
import TraceCodec
import TraceModel

/// A record's type and time, kept so reports can name the records findings point at. It keeps the record's
/// body, and says what reports read of it only when asked: most indexed records are never named by a report,
/// so their description is not made while the trace is replayed.
package struct IndexedRecord: Equatable, Sendable {
    /// Its time.
    package let t: Int64
    /// What the record says.
    package let body: RecordBody

    /// A record of `body` at `t`.
    package init(t: Int64, body: RecordBody) {
        self.t = t
        self.body = body
    }

    /// The record type.
    package var type: String { body.type }
    /// A short description of its content (e.g. `bluetooth "AirPods"`).
    package var detail: String { TextCap.clip(body.summary, 2 * TextCap.characters) }

    /// What a route call asked for.
    package var target: RouteTarget? {
        if case .setRoute(let target, _) = body { return target }
        if case .setDefaultRoute(let target) = body { return target }
        return nil
    }

    /// The kind of an external device that connected.
    package var deviceKind: DeviceKind? {
        // R14: a port of AirPlay or CarAudio sets the kind whatever `kind` says.
        guard case let .deviceConnected(_, kind, _, port) = body else { return nil }
        return DeviceKind.of(kind: kind, port: port)
    }

    /// The user-visible name of an external device that connected, when recorded.
    package var deviceName: String? {
        guard case let .deviceConnected(_, _, name, _) = body else { return nil }
        return name
    }

    /// The id of the external device that connected or disconnected.
    package var deviceId: String? {
        if case .deviceConnected(let id, _, _, _) = body { return id }
        if case .deviceDisconnected(let id) = body { return id }
        return nil
    }

    /// An interruption's cause as recorded (nil: none recorded).
    package var interruptionCause: InterruptionCause? {
        guard case .interruptionBegan(let cause, _) = body else { return nil }
        return cause
    }

    /// What the system log said, for a `sys.*` record (E1: evidence the explanation cites).
    package var system: SystemLogRecord? {
        guard case .system(let s) = body else { return nil }
        return s
    }
}
