// Whether the advice given with a finding code or a cause can be checked by replaying the trace with
// edits, and which edits follow it: a column of the code and cause tables, as data.
import TraceModel

/// One edit the advice stands for, relative to the item it is given with (the call, or the finding's
/// first record); a what-if resolves it against the trace.
package enum AdviceEdit: Equatable, Sendable {
    /// Adds a category option to every session activation.
    case setOption(String)
    /// Sets the mode of every session activation.
    case mode(String)
    /// Moves the item's record to just after the next record of one of these kinds.
    case moveAfterNext([RecordKind])
    /// Inserts a record (JSON without `seq` and `t`) just before the item's record.
    case insertBefore(String)
    /// Inserts a record just before the next record of one of these kinds after the item's.
    case insertBeforeNext([RecordKind], String)
    /// Inserts a record just after the next record of one of these kinds after the item's.
    case insertAfterNext([RecordKind], String)
    /// Replaces the item's record with this one.
    case replace(String)
    /// Inserts a copy of the last successful session activation before the item just after the next
    /// record of one of these kinds (reactivating there).
    case reactivateAfterNext([RecordKind])
}

/// Whether an advice can be proved on a trace, and how.
package enum AdviceProof: Equatable, Sendable {
    /// The advice as edits; later lists are the catalogue's alternatives, offered when the first does
    /// not change the outcome.
    case edits([[AdviceEdit]])
    /// The advice cannot be expressed as edits of the trace, and why.
    case notExpressible(String)

    /// Whether a replay can check it.
    package var isVerifiable: Bool {
        switch self {
        case .edits: true
        case .notExpressible: false
        }
    }
}
