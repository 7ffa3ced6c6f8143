import Contract
import TraceModel

// The findings of contract v2 (the failure modes of the field), in the layer's words (seeds/README.md).
extension RouteEngine {
    private var words: LayerWords { LayerWords(state.layer) }

    private var recoveredCallback: String { words.recoveredCallback }

    /// R12: a route change that nothing the SDK or the system recorded accounts for.
    func changedByOtherComponentFinding(_ record: Record, route: Route, reason: RouteChangeReason,
                                        predicted: Route) -> Finding {
        Finding(code: .sessionChangedByOtherComponent, severity: .warning, rule: .R12, seqs: [record.seq], t: record.t,
                message: "The route changed to \(route.rawValue) (seq \(record.seq), reason \(reason.rawValue)) while the "
                    + "contract predicts \(predicted.rawValue), and no call into the SDK, system event or session "
                    + "activation in the \(formatDuration(options.matchWindowMs)) before accounts for it: another part of the app, "
                    + "or another SDK, changed the audio session's category, mode or output override behind the "
                    + "\(words.product) SDK's back (iOS drops the SDK's override on any such change).",
                advice: "Find the other caller of setCategory, setMode or overrideOutputAudioPort in the app (a media "
                    + "player, a recording or camera component, another SDK) and keep it from reconfiguring the "
                    + "audio session while the \(words.participant) is in the \(words.session); the \(words.product) "
                    + "SDK should re-apply its route after such a change.")
    }

    /// I5: no successful activation within the recovery window after a media services reset.
    func notRebuiltFinding(resetSeq: Int, t: Int64) -> Finding {
        Finding(code: .sessionNotRebuiltAfterReset, severity: .error, rule: .I5, seqs: [resetSeq], t: t,
                message: "The system reset media services (seq \(resetSeq)) while in the \(words.session), destroying the "
                    + "audio session's configuration and every audio object, and no successful audio session "
                    + "activation followed within \(formatDuration(options.recoveryWindowMs)): the \(words.session) has no call "
                    + "audio until the SDK rebuilds it.",
                advice: "Handle AVAudioSession.mediaServicesWereResetNotification: rebuild the audio objects, configure "
                    + "and activate the session again, re-apply the route (override, default and audio module switch "
                    + "survive the reset) and fire \(recoveredCallback).")
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

    /// I7, first half: the SDK activated the session inside a CallKit window.
    func activatedBeforeDidActivateFinding(_ record: Record, window: CallKitWindow) -> Finding {
        Finding(code: .callkitActivatedBeforeDidActivate, severity: .warning, rule: .I7, seqs: [record.seq, window.actionSeq],
                t: record.t,
                message: "The audio session was activated (seq \(record.seq)) after the CallKit action at seq "
                    + "\(window.actionSeq) and before CallKit's provider(_:didActivate:): the SDK races CallKit, which "
                    + "activates the session itself, and the call may have no audio.",
                advice: "For a call reported through CallKit, configure the audio session but do not activate it; start "
                    + "the \(words.session)'s audio in provider(_:didActivate:).")
    }

    /// I7, second half: no `didActivate` within the recovery window after an answer or start.
    func noDidActivateFinding(_ window: CallKitWindow, t: Int64) -> Finding {
        Finding(code: .callkitNoDidActivate, severity: .error, rule: .I7, seqs: [window.actionSeq], t: t,
                message: "CallKit did not report provider(_:didActivate:) within \(formatDuration(options.recoveryWindowMs)) after "
                    + "the CallKit action at seq \(window.actionSeq): the call has no audio.",
                advice: "Check that the CXAnswerCallAction or CXStartCallAction is fulfilled and that the session is "
                    + "configured (not activated) before it; start the \(words.session)'s audio only in "
                    + "provider(_:didActivate:).")
    }

    /// An engine limit: too many connected external devices.
    func deviceLimitFinding(_ record: Record) -> Finding {
        Finding(code: .traceLimitExceeded, severity: .warning, rule: nil, seqs: [record.seq], t: record.t,
                message: "The limit of \(Self.deviceLimit) connected external devices was reached at seq \(record.seq): "
                    + "this connection and any further ones beyond the limit are ignored, so routing results past this "
                    + "point are approximate.",
                advice: "Treat routing results after seq \(record.seq) as approximate; no real device connects this many "
                    + "outputs at once, so check the recorder for a loop.")
    }
}
