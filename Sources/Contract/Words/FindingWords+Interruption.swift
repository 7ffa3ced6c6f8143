import TraceModel

// The interruption.* findings' sentences: recovery from interruptions and the SDK's callbacks (I3, I4, I6, I8,
// I10, I14).
extension FindingWords {
    /// `interruption.prematureReactivation` (I4): a reactivation at `seq` while the system call is `callState`.
    package static func prematureReactivation(seq: Int, callState: CallState) -> FindingSentences {
        FindingSentences(
            message: "The audio session was reactivated (seq \(seq)) while the system call is still "
                + "\(callState.rawValue) and the interruption has not recovered; this reactivation is bound to fail.",
            advice: "Reactivate only when the system call has ended (idle or disconnected) and the app is in the "
                + "foreground; retry at those moments instead of at the end of the interruption.")
    }

    /// `interruption.recoveredWithoutActivation` (I4): the recovered callback at `seq` without a reactivation.
    package static func recoveredWithoutActivation(seq: Int, _ words: LayerWords) -> FindingSentences {
        FindingSentences(
            message: "The recovered callback fired (seq \(seq)) without a successful audio session "
                + "activation since the interruption began; call audio is still dead while the UI says it recovered.",
            advice: "Fire \(words.recoveredCallback) only after the audio session has been reactivated successfully.")
    }

    /// `interruption.notRecovered` (I3): recovery held at `triggerSeq`, and nothing followed within `window`.
    package static func notRecovered(triggerSeq: Int, recoveredAt: Int64, window: Int64, _ words: LayerWords) -> FindingSentences {
        FindingSentences(
            message: "Recovery conditions held at seq \(triggerSeq) (at \(formatDuration(recoveredAt))), but "
                + "neither a successful audio session activation nor the recovered callback followed within "
                + "\(formatDuration(window)); call audio stays silent after the interruption.",
            advice: "The SDK must reactivate the session and fire \(words.recoveredCallback) once the system call has "
                + "ended and the app is in the foreground; check its retries at those moments.")
    }

    /// The moment I6 (or I8) recovered an interruption whose end never came.
    package enum RecoveryMoment: Sendable {
        /// The SDK activated its call session again with no system call up (I8).
        case activation
        /// `delay` after the system call ended.
        case retry(delay: Int64)
        /// The app returned to the foreground with no system call up.
        case foreground
    }

    /// `interruption.endNeverArrived` (I6): the interruption at `interruptionSeq` recovered at `moment` (`triggerSeq`).
    package static func endNeverArrived(interruptionSeq: Int, triggerSeq: Int, _ moment: RecoveryMoment,
                                        _ words: LayerWords) -> FindingSentences {
        let when = switch moment {
        case .activation: "when the SDK activated its call session again (seq \(triggerSeq)) with no system call up (I8)"
        case .retry(let delay): "\(formatDuration(delay)) after the system call ended (seq \(triggerSeq))"
        case .foreground: "when the app returned to the foreground (seq \(triggerSeq)) with no system call up"
        }
        let byActivation = if case .activation = moment { true } else { false }
        return FindingSentences(
            message: "The interruption that began at seq \(interruptionSeq) never got its "
                + "os.interruptionEnded; iOS does not guarantee one. The contract recovered \(when), as if "
                + "it had ended, and the route is re-applied.",
            advice: byActivation
                ? "Nothing to fix: the SDK recovered without waiting for the end of the interruption, as it should "
                    + "(I8); keep firing \(words.recoveredCallback) at that activation."
                : "Do not wait for the end of the interruption alone: also try to reactivate the session "
                    + "when the app returns to the foreground and a few seconds after a system call ends, then "
                    + "fire \(words.recoveredCallback).")
    }

    /// `interruption.recoveredEarly` (I8): the SDK recovered at `seq` while the app was in the background.
    package static func recoveredEarly(seq: Int, interruptionSeq: Int) -> FindingSentences {
        FindingSentences(
            message: "The SDK activated its call session again (seq \(seq)) while the app was in the background, "
                + "recovering from the interruption that began at seq \(interruptionSeq) before the documented condition "
                + "(the app in the foreground) held. Audio is back.",
            advice: "Nothing to fix for the call; recover in the foreground if the app must follow the documented order.")
    }

    /// `interruption.neverRecovered` (I10): the interruption begun at `beganSeq` still open at `t`, at the leave
    /// or exit `endSeq` or at the trace's `end`.
    package static func neverRecovered(beganSeq: Int, beganAt: Int64, endSeq: Int?, t: Int64, end: TraceEnd,
                                       _ words: LayerWords) -> FindingSentences {
        let until = endSeq.map { "when the app \(words.left) the \(words.session) (seq \($0))" } ?? end.phrase
        return FindingSentences(
            message: "The interruption that began at seq \(beganSeq) (at \(formatDuration(beganAt))) was still open \(until), "
                + "\(formatDuration(t - beganAt)) later, with no system call up and the app in the foreground: no end came "
                + "and nothing recovered it, so the call had no audio from the interruption on.",
            advice: "Do not wait for the interruption's end alone: reactivate the session when the app is in the "
                + "foreground and no system call is up, then fire \(words.recoveredCallback).")
    }

    /// `interruption.noInterruptedCallback` (I14): no interrupted callback within `window` of the interruption.
    package static func noInterruptedCallback(interruptionSeq: Int, began: Int64, window: Int64) -> FindingSentences {
        FindingSentences(
            message: "The interruption at seq \(interruptionSeq) (at \(formatDuration(began))) was not followed by the SDK's "
                + "interrupted callback (sdk.interrupted) within \(formatDuration(window)).",
            advice: "Fire the interrupted callback for every interruption that begins while the call is up (a system call, "
                + "Siri, another app), so the UI shows that audio stopped.")
    }

    /// `interruption.noRecoveredCallback` (I14): no recovered callback within `window` after the recovery at `recoveredAt`.
    package static func noRecoveredCallback(recoveredAt: Int64, window: Int64, _ words: LayerWords) -> FindingSentences {
        FindingSentences(
            message: "The session was activated again after the recovery at \(formatDuration(recoveredAt)), but the SDK's "
                + "recovered callback (\(words.recoveredCallback)) did not fire within \(formatDuration(window)): "
                + "the UI is never refreshed.",
            advice: "Fire \(words.recoveredCallback) once the reactivation succeeds.")
    }

    /// `interruption.duplicateRecovered` (I14): a second recovered callback at `seq` for one recovery.
    package static func duplicateRecovered(seq: Int, _ words: LayerWords) -> FindingSentences {
        FindingSentences(
            message: "The SDK's recovered callback fired again (seq \(seq)) for one recovery, before another "
                + "interruption began; the documents say it fires once.",
            advice: "Fire \(words.recoveredCallback) exactly once per recovery.")
    }
}
