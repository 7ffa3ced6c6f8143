import Contract
import QualityEngine
import RouteEngine
import TraceCodec
import TraceModel

/// A record's type and time, kept so reports can name the records findings point at.
package struct IndexedRecord: Equatable, Sendable {
    /// The record type.
    package var type: String
    /// Its time.
    package var t: Int64
    /// A short description of its content (e.g. `bluetooth "AirPods"`).
    package var detail: String
    /// What a route call asked for.
    package var target: RouteTarget?
    /// The kind of an external device that connected.
    package var deviceKind: DeviceKind?
    /// The user-visible name of an external device that connected, when recorded.
    package var deviceName: String?
    /// The id of the external device that connected or disconnected.
    package var deviceId: String?
    /// An interruption's cause as recorded (nil: none recorded).
    package var interruptionCause: InterruptionCause?
    /// What the system log said, for a `sys.*` record (E1: evidence the explanation cites).
    package var system: SystemLogRecord?
}
