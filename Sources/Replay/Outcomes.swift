import Contract
import TraceModel

// V2 in the model reports read: whether a call took effect in the end, and how late.
extension Verdict {
    /// Whether the call took effect in the end: its outcome is `applied` or `noop` (V2); a call the contract
    /// gives no outcome (`api.switchLayer`) by its verdict.
    public var tookEffect: Bool { outcome?.tookEffect ?? (verdict == .applied || verdict == .noop) }

    /// Whether the call is known not to have taken effect: decided, and not `applied` or `noop` in the end.
    /// An `undetermined` call (the state it met is unknown) is neither.
    public var didNotTakeEffect: Bool { verdict != .undetermined && !tookEffect }

    /// A deferred call that was applied later (V2): how long after the call, and the record that applied it.
    public var lateEffect: LateEffect? {
        guard verdict == .deferred, let o = outcome, o.kind == .applied else { return nil }
        return LateEffect(delayMs: o.t - t, seq: o.seq)
    }

    /// The key calls that did not take effect are counted by: the outcome (or, without one, the verdict)
    /// and its cause; a pending call keeps the cause it was deferred for.
    public var notTakingEffectKey: OutcomeKey {
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
public struct LateEffect: Equatable, Sendable {
    /// Milliseconds from the call to the moment it was applied.
    public var delayMs: Int64
    /// The engagement or recovery record that applied it; nil when a timer did (I3's retry).
    public var seq: Int?

    /// Creates a late effect.
    public init(delayMs: Int64, seq: Int?) {
        self.delayMs = delayMs
        self.seq = seq
    }
}

/// A route call whose outcome is still pending, as the replayer tracks it.
struct PendingCall {
    /// The key it is counted under while it does not take effect.
    var key: OutcomeKey
    /// Its index among the kept verdicts, when kept.
    var verdict: Int?
}

extension Replayer {
    /// A call's outcome was decided after its verdict (a pending route call, V2; a switch whose send
    /// failed, L4): the verdict and the counts follow. The call's findings are not touched: the outcome is
    /// data on the verdict, phrased by the reports.
    func decided(_ callSeq: Int, _ outcome: Outcome) {
        let call: PendingCall
        if let pending = pendingCalls.removeValue(forKey: callSeq) {
            call = pending
        } else if let i = verdictIndex[callSeq], let before = result.verdicts[i].outcome {
            // A call whose outcome was decided at the call (it took effect, so it was not counted).
            guard before.tookEffect else { return }
            call = PendingCall(key: result.verdicts[i].notTakingEffectKey, verdict: i)
            result.notTakingEffectCounts[call.key, default: 0] += 1
        } else {
            return
        }
        result.notTakingEffectCounts[call.key, default: 0] -= 1
        if result.notTakingEffectCounts[call.key] == 0 { result.notTakingEffectCounts[call.key] = nil }
        var verdict: Verdict?
        if let i = call.verdict {
            result.verdicts[i].outcome = outcome
            verdict = result.verdicts[i]
        }
        if !outcome.tookEffect {
            let key = verdict?.notTakingEffectKey ?? OutcomeKey(kind: outcome.kind, cause: outcome.cause)
            result.notTakingEffectCounts[key, default: 0] += 1
        }
    }
}
