import Contract
import TraceModel

// The interruption.* findings: recovery from interruptions and the SDK's callbacks (I3, I4, I6, I8, I10, I14),
// in the layer's words.
extension RouteEngine {
    /// I4, first half: a reactivation while a system call is still up.
    func prematureReactivationFinding(_ record: Record) -> Finding {
        Finding(code: .interruptionPrematureReactivation, severity: .warning, rule: .I4,
                seqs: seqs(record.seq, state.interruptionSeq), t: record.t,
                message: "The audio session was reactivated (seq \(record.seq)) while the system call is still "
                    + "\(state.callState.rawValue) and the interruption has not recovered; this reactivation is bound to fail.",
                advice: "Reactivate only when the system call has ended (idle or disconnected) and the app is in the "
                    + "foreground; retry at those moments instead of at the end of the interruption.")
    }

    /// I4, second half: the recovered callback without a successful reactivation.
    func recoveredWithoutActivationFinding(_ record: Record) -> Finding {
        Finding(code: .interruptionRecoveredWithoutActivation, severity: .error, rule: .I4,
                seqs: seqs(record.seq, state.interruptionSeq), t: record.t,
                message: "The recovered callback fired (seq \(record.seq)) without a successful audio session "
                    + "activation since the interruption began; call audio is still dead while the UI says it recovered.",
                advice: "Fire \(recoveredCallback) only after the audio session has been reactivated successfully.")
    }

    /// I3: the engine recovered, but the SDK neither reactivated nor fired its callback in time.
    func notRecoveredFinding(_ pending: PendingConfirmation, t: Int64) -> Finding {
        Finding(code: .interruptionNotRecovered, severity: .error, rule: .I3,
                seqs: seqs(pending.triggerSeq, pending.interruptionSeq), t: t,
                message: "Recovery conditions held at seq \(pending.triggerSeq) (at \(formatDuration(pending.recoveredAt))), but "
                    + "neither a successful audio session activation nor the recovered callback followed within "
                    + "\(formatDuration(options.recoveryWindowMs)); call audio stays silent after the interruption.",
                advice: "The SDK must reactivate the session and fire \(recoveredCallback) once the system call has "
                    + "ended and the app is in the foreground; check its retries at those moments.")
    }

    /// I6: an interruption recovered at a moment I6 names, without its end.
    func endNeverArrivedFinding(interruptionSeq: Int, triggerSeq: Int, byTimer: Bool, t: Int64, byActivation: Bool = false) -> Finding {
        let moment = byActivation
            ? "when the SDK activated its call session again (seq \(triggerSeq)) with no system call up (I8)"
            : byTimer
            ? "\(formatDuration(options.retryDelayMs)) after the system call ended (seq \(triggerSeq))"
            : "when the app returned to the foreground (seq \(triggerSeq)) with no system call up"
        // An I8 recovery is the SDK's own: it already recovered early, so the finding cites I8 and says so.
        return Finding(code: .interruptionEndNeverArrived, severity: .info, rule: byActivation ? .I8 : .I6, seqs: [triggerSeq, interruptionSeq],
                       t: t,
                       message: "The interruption that began at seq \(interruptionSeq) never got its "
                           + "os.interruptionEnded; iOS does not guarantee one. The contract recovered \(moment), as if "
                           + "it had ended, and the route is re-applied.",
                       advice: byActivation
                           ? "Nothing to fix: the SDK recovered without waiting for the end of the interruption, as it should "
                               + "(I8); keep firing \(recoveredCallback) at that activation."
                           : "Do not wait for the end of the interruption alone: also try to reactivate the session "
                               + "when the app returns to the foreground and a few seconds after a system call ends, then "
                               + "fire \(recoveredCallback).")
    }

    /// I8: the SDK recovered while the app was in the background.
    func recoveredEarlyFinding(_ record: Record, interruptionSeq: Int) -> Finding {
        Finding(code: .interruptionRecoveredEarly, severity: .info, rule: .I8, seqs: [record.seq, interruptionSeq], t: record.t,
                message: "The SDK activated its call session again (seq \(record.seq)) while the app was in the background, "
                    + "recovering from the interruption that began at seq \(interruptionSeq) before the documented condition "
                    + "(the app in the foreground) held. Audio is back.",
                advice: "Nothing to fix for the call; recover in the foreground if the app must follow the documented order.")
    }

    /// I10: an interruption that never ended.
    func neverRecoveredFinding(beganSeq: Int, beganAt: Int64, endSeq: Int?, t: Int64, end: TraceEnd = .end) -> Finding {
        let until = endSeq.map { "when the app \(words.left) the \(words.session) (seq \($0))" } ?? end.phrase
        return Finding(code: .interruptionNeverRecovered, severity: .error, rule: .I10, seqs: [beganSeq] + (endSeq.map { [$0] } ?? []), t: t,
                       message: "The interruption that began at seq \(beganSeq) (at \(formatDuration(beganAt))) was still open \(until), "
                           + "\(formatDuration(t - beganAt)) later, with no system call up and the app in the foreground: no end came "
                           + "and nothing recovered it, so the call had no audio from the interruption on.",
                       advice: "Do not wait for the interruption's end alone: reactivate the session when the app is in the "
                           + "foreground and no system call is up, then fire \(words.recoveredCallback).")
    }

    /// I14 (a): no interrupted callback.
    func noInterruptedCallbackFinding(interruptionSeq: Int, at began: Int64, t: Int64) -> Finding {
        Finding(code: .interruptionNoInterruptedCallback, severity: .warning, rule: .I14, seqs: [interruptionSeq], t: t,
                message: "The interruption at seq \(interruptionSeq) (at \(formatDuration(began))) was not followed by the SDK's "
                    + "interrupted callback (sdk.interrupted) within \(formatDuration(options.matchWindowMs)).",
                advice: "Fire the interrupted callback for every interruption that begins while the call is up (a system call, "
                    + "Siri, another app), so the UI shows that audio stopped.")
    }

    /// I14 (b): no recovered callback after a recovery that reactivated.
    func noRecoveredCallbackFinding(_ window: CallbackWindow, t: Int64) -> Finding {
        Finding(code: .interruptionNoRecoveredCallback, severity: .warning, rule: .I14,
                seqs: (window.triggerSeq.map { [$0] } ?? []) + [window.interruptionSeq], t: t,
                message: "The session was activated again after the recovery at \(formatDuration(window.t)), but the SDK's "
                    + "recovered callback (\(words.recoveredCallback)) did not fire within \(formatDuration(options.recoveryWindowMs)): "
                    + "the UI is never refreshed.",
                advice: "Fire \(words.recoveredCallback) once the reactivation succeeds.")
    }

    /// I14 (c): a second recovered callback for one recovery.
    func duplicateRecoveredFinding(seq: Int, t: Int64) -> Finding {
        Finding(code: .interruptionDuplicateRecovered, severity: .warning, rule: .I14, seqs: [seq], t: t,
                message: "The SDK's recovered callback fired again (seq \(seq)) for one recovery, before another "
                    + "interruption began; the documents say it fires once.",
                advice: "Fire \(words.recoveredCallback) exactly once per recovery.")
    }
}
