import Contract
import TraceModel

// V2 in the model reports read: whether a call took effect in the end, and how late.
extension Verdict {
    /// Whether the call took effect in the end: its outcome is `applied` or `noop` (V2); a call the contract
    /// gives no outcome (`api.switchLayer`) by its verdict.
    package var tookEffect: Bool { outcome?.tookEffect ?? (verdict == .applied || verdict == .noop) }

    /// Whether the call is known not to have taken effect: decided, and not `applied` or `noop` in the end.
    /// An `undetermined` call (the state it met is unknown) is neither.
    package var didNotTakeEffect: Bool { verdict != .undetermined && !tookEffect }

    /// A deferred call that was applied later (V2): how long after the call, and the record that applied it.
    package var lateEffect: LateEffect? {
        guard verdict == .deferred, let o = outcome, o.kind == .applied else { return nil }
        return LateEffect(delayMs: o.t - t, seq: o.seq)
    }

    /// The key calls that did not take effect are counted by: the outcome (or, without one, the verdict)
    /// and its cause; a pending call keeps the cause it was deferred for.
    package var notTakingEffectKey: OutcomeKey {
        guard let o = outcome else {
            let kind: OutcomeKind = switch verdict {
            case .applied: .applied
            case .noop: .noop
            case .deferred: .pending
            case .ineffective: .ineffective
            case .rejected: .rejected
            case .undetermined: .undetermined
            }
            return OutcomeKey(kind: kind, cause: cause)
        }
        return OutcomeKey(kind: o.kind, cause: o.kind == .pending ? cause : o.cause)
    }
}

/// How a deferred call took effect later (V2).
package struct LateEffect: Equatable, Sendable {
    /// Milliseconds from the call to the moment it was applied.
    package var delayMs: Int64
    /// The engagement or recovery record that applied it; nil when a timer did (I3's retry).
    package var seq: Int?

    /// Creates a late effect.
    package init(delayMs: Int64, seq: Int?) {
        self.delayMs = delayMs
        self.seq = seq
    }
}

/// What became of one call, as far as triage counts calls: its kind, its verdict with the cause it met,
/// and its outcome with the cause the outcome gives (V2). Every call is counted under one fate, kept
/// up to date as outcomes are decided, over all calls (not only the kept verdicts).
package struct CallFate: Hashable, Sendable, Comparable {
    /// The call's record type (`api.setRoute`, `api.setDefaultRoute`, `api.switchLayer`, …).
    package var call: RecordKind
    /// The verdict at the call.
    package var verdict: VerdictKind
    /// The verdict's cause (why the call was deferred, ineffective or rejected).
    package var verdictCause: VerdictCause?
    /// The outcome (nil for a call the contract gives none).
    package var outcome: OutcomeKind?
    /// The outcome's cause, when it has one of its own (`ineffective` when a deferred call was applied, `rejected`).
    package var outcomeCause: VerdictCause?

    /// The fate of a verdict as it stands.
    package init(_ v: Verdict) {
        call = v.call
        verdict = v.verdict
        verdictCause = v.cause
        outcome = v.outcome?.kind
        outcomeCause = v.outcome?.cause
    }

    /// Whether the call took effect in the end (`Verdict.tookEffect`).
    package var tookEffect: Bool {
        if let outcome { return outcome == .applied || outcome == .noop }
        return verdict == .applied || verdict == .noop
    }

    /// Whether the call is known not to have taken effect (`Verdict.didNotTakeEffect`).
    package var didNotTakeEffect: Bool { verdict != .undetermined && !tookEffect }

    /// Whether the call was deferred and took effect later (V2).
    package var tookEffectLate: Bool { verdict == .deferred && tookEffect }

    /// The causes that made the call wait or fail: the verdict's, then the outcome's when it differs.
    package var causes: [VerdictCause] {
        var out: [VerdictCause] = []
        if let c = verdictCause { out.append(c) }
        if let c = outcomeCause, c != verdictCause { out.append(c) }
        return out
    }

    /// Ordered by call, verdict, cause, outcome and outcome cause, by their names.
    package static func < (a: CallFate, b: CallFate) -> Bool {
        (a.call.rawValue, a.verdict.rawValue, a.verdictCause?.rawValue ?? "", a.outcome?.rawValue ?? "", a.outcomeCause?.rawValue ?? "")
            < (b.call.rawValue, b.verdict.rawValue, b.verdictCause?.rawValue ?? "", b.outcome?.rawValue ?? "", b.outcomeCause?.rawValue ?? "")
    }
}

/// A route call whose outcome is still pending, as the replayer tracks it.
struct PendingCall {
    /// The key it is counted under while it does not take effect.
    var key: OutcomeKey
    /// Its fate as it stands (pending).
    var fate: CallFate
    /// Its index among the kept verdicts, when kept.
    var verdict: Int?
}
