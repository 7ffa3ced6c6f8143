import Contract
import TraceModel

/// A timer the quality engine asks the replayer to deliver back through `QualityEngine.fire(_:)` at `due`.
@usableFromInline package typealias QualityTimer = EngineTimer<QualityTimerKind>

/// The purposes a quality engine timer can have.
@usableFromInline
package enum QualityTimerKind: Equatable, Sendable {
    /// The match window after the derived level change caused by report `changeSeq` has closed.
    case matchWindow(changeSeq: Int)
    /// The confirmation timeout of the accepted `api.switchLayer` with seq `callSeq` has passed (L3).
    case layerConfirm(callSeq: Int)
    /// The match window after the derived speaker snapshot of update `snapshotSeq` has closed (S3).
    case snapshotWindow(snapshotSeq: Int)
}

/// Where the quality engine writes what a record, timer or end produced.
@usableFromInline package typealias QualitySink = OutputSink<QualityOutput>

/// What replaying a record (or firing a timer) produced: data, never side effects.
///
/// The rare outputs that hold many fields (a verdict, a finding kept, an outcome) are
/// boxed, so that an output is small and copied without a walk over their fields: the replay copies every
/// output it reads, and nearly all are counted findings and deadlines.
@usableFromInline
package enum QualityOutput: Equatable, Sendable {
    /// A derived level change (Q2), what `didChangeConnectionQuality` should have carried.
    case levelChange(QualityEngine.LevelChange)
    /// The full active-speaker snapshot after a `srv.speakers` update (S2), even when empty.
    case snapshot([Speaker])
    /// The verdict on an `api.switchLayer` call (L1, L2, V1).
    indirect case verdict(Verdict)
    /// A diagnostic.
    indirect case finding(Finding)
    /// A diagnostic counted, not built: its driver keeps no more findings and nobody observes.
    case counted(FindingCount)
    /// A timer to schedule.
    case timer(QualityTimer)
    /// What became of an accepted `api.switchLayer` was decided after its verdict (L4: rejected when its
    /// send failed).
    indirect case outcome(callSeq: Int, Outcome)
}

extension QualityOutput: FindingOutput {}

extension QualityEngine: Engine {
    @inlinable
    package static func role(of output: QualityOutput) -> EngineOutputRole<QualityTimerKind> {
        switch output {
        case .verdict(let v): .verdict(v)
        case .finding(let f): .finding(f)
        case .counted(let c): .counted(c)
        case .timer(let t): .timer(t)
        case let .outcome(callSeq, outcome): .outcome(callSeq: callSeq, outcome)
        case .levelChange, .snapshot: .event
        }
    }
}
