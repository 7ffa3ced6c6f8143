import Contract
import TraceModel

// V2: what became of each route call. A deferred call changes the state at the call (V1); what waits is
// its audible effect, decided at the engagement or recovery, unless a later call or a leave decides first.
extension RouteEngine {
    /// The outcome decided at the call: the verdict itself, or `pending` for a deferred call.
    static func outcomeAtCall(_ verdict: Verdict) -> Outcome {
        let kind: OutcomeKind
        switch verdict.verdict {
        case .deferred: return Outcome(kind: .pending, t: verdict.t, seq: nil)
        case .applied: kind = .applied
        case .noop: kind = .noop
        case .ineffective: kind = .ineffective
        case .rejected: kind = .rejected
        case .undetermined: kind = .undetermined
        }
        return Outcome(kind: kind, cause: verdict.cause, t: verdict.t, seq: verdict.seq)
    }

    /// A call that changed its part of the state (the override, or the default) supersedes the pending call of
    /// that part; the part is no longer one an engagement or recovery applied (X4), and a deferred call
    /// becomes the pending one.
    mutating func supersede(_ isDefault: Bool, by record: Record, deferred: Bool, into out: inout RouteSink) {
        let pending = isDefault ? state.pendingDefaultCall : state.pendingOverrideCall
        let now: Int? = deferred ? record.seq : nil
        if isDefault {
            state.pendingDefaultCall = now
            state.defaultAppliedBy = nil
        } else {
            state.pendingOverrideCall = now
            state.overrideAppliedBy = nil
        }
        guard let pending else { return }
        out.append(.outcome(callSeq: pending, Outcome(kind: .superseded, t: record.t, seq: record.seq)))
    }

    /// Decides the pending calls at an engagement or a recovery, in call order, on the state at that moment
    /// (V1's causes without `notEngaged` and `interrupted`): the first cause that holds gives `ineffective`,
    /// none gives `applied`. `by` is the deciding record, nil for a timer.
    mutating func decidePendingCalls(t: Int64, by seq: Int?, into out: inout RouteSink) {
        guard state.pendingOverrideCall != nil || state.pendingDefaultCall != nil else { return }
        var calls: [(seq: Int, isDefault: Bool)] = []
        if let call = state.pendingOverrideCall { calls.append((call, false)) }
        if let call = state.pendingDefaultCall { calls.append((call, true)) }
        calls.sort { $0.seq < $1.seq }
        for call in calls {
            let outcome: Outcome
            if let (cause, _) = firstCause(isDefault: call.isDefault) {
                outcome = Outcome(kind: .ineffective, cause: cause, t: t, seq: seq)
            } else {
                outcome = Outcome(kind: .applied, t: t, seq: seq)
            }
            if call.isDefault {
                state.pendingDefaultCall = nil
                state.defaultAppliedBy = seq
            } else {
                state.pendingOverrideCall = nil
                state.overrideAppliedBy = seq
            }
            out.append(.outcome(callSeq: call.seq, outcome))
        }
    }
}
