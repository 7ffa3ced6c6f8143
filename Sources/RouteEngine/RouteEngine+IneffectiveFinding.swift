import TraceFormat

// route.ineffective: the explanation of a "set but didn't take effect" report, in the layer's words.
extension RouteEngine {
    /// The finding for a call whose verdict is `deferred` (info) or `ineffective` (warning).
    func ineffectiveFinding(_ verdict: Verdict, change: RouteChange) -> Finding {
        let cause = verdict.cause ?? .notEngaged
        let call = change.spelling(api: verdict.api)
        var (why, advice) = explain(cause, causeSeq: verdict.causeSeq)
        if cause == .notEngaged, change.isDefault {
            // Setting the default before joining is the documented way to choose the first route.
            let words = LayerWords(state.layer)
            advice = "Nothing is lost: the persistent default is meant to be set before the app \(words.join)s the "
                + "\(words.session), and it is applied when the call audio path is set up."
        }
        return Finding(
            code: .routeIneffective,
            severity: verdict.verdict == .deferred ? .info : .warning,
            rule: .V1,
            seqs: [verdict.seq] + (verdict.causeSeq.map { [$0] } ?? []),
            t: verdict.t,
            message: "\(call) (seq \(verdict.seq)) was \(verdict.verdict.rawValue) (cause: \(cause.rawValue)): \(why).",
            advice: advice)
    }

    /// Why the cause keeps the call from taking effect, and what the app should do.
    private func explain(_ cause: VerdictCause, causeSeq: Int?) -> (String, String) {
        let words = LayerWords(state.layer)
        let smeeting = state.layer == .smeeting
        let at = causeSeq.map { " (seq \($0))" } ?? ""
        switch cause {
        case .notEngaged:
            return ("the call audio path is not set up yet, so the request is only recorded",
                    "Nothing is lost: the request is recorded and applied when the app \(words.join)s the \(words.session). "
                        + "To choose the route before \(words.joining), set defaultAudioRoute instead; it is the persistent default.")
        case .interrupted:
            let callback = smeeting ? "meetingAudioRouteDidRecoverFromInterruption" : "audioRouteSessionDidRecoverFromInterruption"
            return ("the audio session is interrupted\(at), so the request waits for recovery",
                    "The request is applied when the interruption recovers; refresh the UI in \(callback) rather than "
                        + "retrying the call.")
        case .audioModuleDisabled:
            return ("the audio module is disabled by setAudioModuleEnabled(false)\(at), so no call audio plays",
                    "Call setAudioModuleEnabled(true) first (as soon as the local playback ends); the route then follows "
                        + "the request.")
        case .externalRouteActive:
            let kind = state.activeDevice?.kind.rawValue ?? "external"
            let (grey, show) = smeeting
                ? ("isExternalAudioRouteActive is true", "currentAudioRoute")
                : ("currentRoute.isExternal is true", "currentRoute")
            return ("a \(kind) device has the route\(at), and iOS does not let an app take the output back from an "
                        + "external device",
                    "Grey out the speaker button while \(grey), and use \(show) to show the real route, not the call's "
                        + "success. Let the \(words.participant) pick external devices with AVRoutePickerView.")
        case .overrideActive:
            return ("the temporary override set by setAudioRoute\(at) shadows the default",
                    "The temporary override shadows the default; call clearAudioRouteOverride() if the default should "
                        + "apply now.")
        case .simulator:
            return ("the simulator has no earpiece",
                    "Verify audio routing on a real device; the simulator has no earpiece and no bluetooth route.")
        case .micDenied:
            return ("microphone permission is denied\(at), so the SDK runs in playback-only mode, which has no earpiece",
                    "The earpiece is unavailable in playback-only mode; ask the \(words.participant) for microphone "
                        + "permission before offering the earpiece.")
        case .videoChatMode:
            return ("the call session is in videoChat mode, which implies defaultToSpeaker and leaves no way to the receiver",
                    "Use mode .voiceChat when the earpiece should be reachable; in .videoChat iOS keeps the output on the "
                        + "speaker.")
        case .targetNotInCandidates, .engineNotSupported, .transportNotReady:
            return ("\(cause.rawValue)", "See the verdict's cause.")
        }
    }
}
