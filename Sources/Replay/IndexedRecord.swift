import Contract
import QualityEngine
import RouteEngine
import TraceCodec
import TraceModel

/// A record's type and time, kept so reports can name the records findings point at.
public struct IndexedRecord: Equatable, Sendable {
    /// The record type.
    public var type: String
    /// Its time.
    public var t: Int64
    /// A short description of its content (e.g. `bluetooth "AirPods"`).
    public var detail: String
    /// What a route call asked for.
    public var target: RouteTarget?
    /// The kind of an external device that connected.
    public var deviceKind: DeviceKind?
    /// The user-visible name of an external device that connected, when recorded.
    public var deviceName: String?
    /// The id of the external device that connected or disconnected.
    public var deviceId: String?
    /// An interruption's cause as recorded (nil: none recorded).
    public var interruptionCause: InterruptionCause?
    /// What the system log said, for a `sys.*` record (E1: evidence the explanation cites).
    public var system: SystemLogRecord?
}
