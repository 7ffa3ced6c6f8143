import Contract
import TraceModel

// The interruption.* findings: recovery from interruptions and the SDK's callbacks (I3, I4, I6, I8, I10, I14),
// phrased in `FindingWords+Interruption.swift`.
extension RouteEngine {
    /// I4, first half: a reactivation while a system call is still up.
    func prematureReactivationFinding(_ record: Record) -> Finding {
        Finding(code: .interruptionPrematureReactivation, severity: .warning, rule: .I4,
                seqs: seqs(record.seq, state.interruptionSeq), t: record.t,
                FindingWords.prematureReactivation(seq: record.seq, callState: state.callState))
    }

    /// I4, second half: the recovered callback without a successful reactivation.
    func recoveredWithoutActivationFinding(_ record: Record) -> Finding {
        Finding(code: .interruptionRecoveredWithoutActivation, severity: .error, rule: .I4,
                seqs: seqs(record.seq, state.interruptionSeq), t: record.t,
                FindingWords.recoveredWithoutActivation(seq: record.seq, words))
    }

    /// I3: the engine recovered, but the SDK neither reactivated nor fired its callback in time.
    func notRecoveredFinding(_ pending: PendingConfirmation, t: Int64) -> Finding {
        Finding(code: .interruptionNotRecovered, severity: .error, rule: .I3,
                seqs: seqs(pending.triggerSeq, pending.interruptionSeq), t: t,
                FindingWords.notRecovered(triggerSeq: pending.triggerSeq, recoveredAt: pending.recoveredAt,
                                          window: options.recoveryWindowMs, words))
    }

    /// I6: an interruption recovered at a moment I6 names, without its end.
    func endNeverArrivedFinding(interruptionSeq: Int, triggerSeq: Int, byTimer: Bool, t: Int64, byActivation: Bool = false) -> Finding {
        let moment: FindingWords.RecoveryMoment = byActivation ? .activation : byTimer ? .retry(delay: options.retryDelayMs) : .foreground
        // An I8 recovery is the SDK's own: it already recovered early, so the finding cites I8 and says so.
        return Finding(code: .interruptionEndNeverArrived, severity: .info, rule: byActivation ? .I8 : .I6, seqs: [triggerSeq, interruptionSeq],
                       t: t, FindingWords.endNeverArrived(interruptionSeq: interruptionSeq, triggerSeq: triggerSeq, moment, words))
    }

    /// I8: the SDK recovered while the app was in the background.
    func recoveredEarlyFinding(_ record: Record, interruptionSeq: Int) -> Finding {
        Finding(code: .interruptionRecoveredEarly, severity: .info, rule: .I8, seqs: [record.seq, interruptionSeq], t: record.t,
                FindingWords.recoveredEarly(seq: record.seq, interruptionSeq: interruptionSeq))
    }

    /// I10: an interruption that never ended.
    func neverRecoveredFinding(beganSeq: Int, beganAt: Int64, endSeq: Int?, t: Int64, end: TraceEnd = .end) -> Finding {
        Finding(code: .interruptionNeverRecovered, severity: .error, rule: .I10, seqs: [beganSeq] + (endSeq.map { [$0] } ?? []), t: t,
                FindingWords.neverRecovered(beganSeq: beganSeq, beganAt: beganAt, endSeq: endSeq, t: t, end: end, words))
    }

    /// I14 (a): no interrupted callback.
    func noInterruptedCallbackFinding(interruptionSeq: Int, at began: Int64, t: Int64) -> Finding {
        Finding(code: .interruptionNoInterruptedCallback, severity: .warning, rule: .I14, seqs: [interruptionSeq], t: t,
                FindingWords.noInterruptedCallback(interruptionSeq: interruptionSeq, began: began, window: options.matchWindowMs))
    }

    /// I14 (b): no recovered callback after a recovery that reactivated.
    func noRecoveredCallbackFinding(_ window: CallbackWindow, t: Int64) -> Finding {
        Finding(code: .interruptionNoRecoveredCallback, severity: .warning, rule: .I14,
                seqs: (window.triggerSeq.map { [$0] } ?? []) + [window.interruptionSeq], t: t,
                FindingWords.noRecoveredCallback(recoveredAt: window.t, window: options.recoveryWindowMs, words))
    }

    /// I14 (c): a second recovered callback for one recovery.
    func duplicateRecoveredFinding(seq: Int, t: Int64) -> Finding {
        Finding(code: .interruptionDuplicateRecovered, severity: .warning, rule: .I14, seqs: [seq], t: t,
                FindingWords.duplicateRecovered(seq: seq, words))
    }
}
