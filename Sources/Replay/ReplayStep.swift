import Contract
import QualityEngine
import RouteEngine
import TraceCodec
import TraceModel

/// What one replayed record (or fired timer) did, for the `replay` timeline and the report lanes.
public struct ReplayStep: Sendable {
    /// When.
    public var t: Int64
    /// The record, or nil for a timer or the end of the trace.
    public var record: Record?
    /// The timer that fired, when a timer made the step.
    public var timer: ReplayTimer?
    /// The state before the step (nil for an expectation, which changes nothing).
    public var before: StateSnapshot?
    /// The state after the step.
    public var state: StateSnapshot?
    /// The fields that changed, in `StateField` order.
    public var changes: [StateField] = []
    /// Verdicts decided.
    public var verdicts: [Verdict] = []
    /// Findings raised.
    public var findings: [Finding] = []
    /// Other derived events (level changes, speaker snapshots, recoveries, devices).
    public var events: [ReplayEvent] = []
    /// The outcome, when the record is an expectation.
    public var expectation: ExpectationResult?

    init(t: Int64, record: Record?, expectation: ExpectationResult? = nil) {
        self.t = t
        self.record = record
        self.expectation = expectation
    }

    /// Sets the states around the step and what changed between them.
    mutating func settle(from before: StateSnapshot, to after: StateSnapshot) {
        self.before = before
        state = after
        changes = after.changes(from: before)
    }
}
