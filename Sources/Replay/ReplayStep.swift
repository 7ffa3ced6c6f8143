import Contract
import QualityEngine
import RouteEngine
import TraceCodec
import TraceModel

/// What one replayed record (or fired timer) did, for the `replay` timeline and the report lanes.
package struct ReplayStep: Sendable {
    /// When.
    package var t: Int64
    /// The record, or nil for a timer or the end of the trace.
    package var record: Record?
    /// The timer that fired, when a timer made the step.
    package var timer: ReplayTimer?
    /// The state before the step (nil for an expectation, which changes nothing).
    package var before: StateSnapshot?
    /// The state after the step.
    package var state: StateSnapshot?
    /// The fields that changed, in `StateField` order.
    package var changes: [StateField] = []
    /// Verdicts decided.
    package var verdicts: [Verdict] = []
    /// Findings raised.
    package var findings: [Finding] = []
    /// Other derived events (level changes, speaker snapshots, recoveries, devices).
    package var events: [ReplayEvent] = []
    /// The outcome, when the record is an expectation.
    package var expectation: ExpectationResult?

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

/// A timer of one of the engines, as the replay's queue holds it and a step names it.
package enum ReplayTimer: Equatable, Sendable, CustomStringConvertible {
    /// A route engine timer.
    case route(RouteTimerKind)
    /// A quality engine timer.
    case quality(QualityTimerKind)

    /// `route timer KIND` or `quality timer KIND`, for the timeline.
    package var description: String {
        switch self {
        case .route(let kind): "route timer \(kind)"
        case .quality(let kind): "quality timer \(kind)"
        }
    }
}

/// What a step derived besides verdicts and findings: typed, so renderers never parse prose.
package enum ReplayEvent: Equatable, Sendable {
    /// The route engine recovered from an interruption (I3, I5, I6): the SDK's recovered callback is due.
    case recovered(t: Int64)
    /// The quality engine derived a level change (Q2).
    case levelChange(previous: QualityLevel, overall: QualityLevel)
    /// The active-speaker snapshot after a server update (S2): its first members and how many in all.
    case speakers(first: [SpeakerKey], count: Int)
    /// External devices came or went with this record.
    case devicesChanged(added: [String], removed: [String])
    /// A divergence that started at `start` has lasted longer than the tolerance: it counts (X2).
    case divergenceCounted(start: Int64)
    /// What became of a deferred route call was decided (V2).
    case outcomeDecided(callSeq: Int, outcome: Outcome)
}
