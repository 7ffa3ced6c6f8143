import TraceModel

// The session.* findings' sentences: the audio session as the SDK configured, activated and rebuilt it (R11,
// R12, R17, R18, I5).
extension FindingWords {
    /// `session.missingNotifyOthers`: a deactivation at `seq` without `notifyOthers`.
    package static func missingNotifyOthers(seq: Int, _ words: LayerWords) -> FindingSentences {
        FindingSentences(
            message: "The audio session was deactivated (seq \(seq)) without notifyOthersOnDeactivation; "
                + "other apps' audio (music) will not resume.",
            advice: "Deactivate with setActive(false, options: .notifyOthersOnDeactivation) when the app "
                + "\(words.leave)s the \(words.session).")
    }

    /// `session.missingAllowBluetooth` (R11): a call session activated at `seq` without `allowBluetooth`.
    package static func missingAllowBluetooth(seq: Int) -> FindingSentences {
        FindingSentences(
            message: "A call session was activated (seq \(seq)) without the allowBluetooth option, in a mode "
                + "that does not imply it; bluetooth headsets will not be used for call audio.",
            advice: "Include .allowBluetooth (and .allowBluetoothA2DP) in the playAndRecord category options, or "
                + "use mode .voiceChat, which implies it.")
    }

    /// `session.missingDefaultToSpeaker` (R11): a call session without `defaultToSpeaker` while the default is the speaker.
    package static func missingDefaultToSpeaker(seq: Int) -> FindingSentences {
        FindingSentences(
            message: "A call session was activated (seq \(seq)) without the defaultToSpeaker option while "
                + "the persistent default is speaker; call audio starts on the earpiece.",
            advice: "defaultAudioRoute = .speaker maps to the defaultToSpeaker category option; the session "
                + "must be activated with it.")
    }

    /// `session.wrongMode`: a call session whose mode has no echo cancellation.
    package static func wrongMode(_ mode: String?, seq: Int) -> FindingSentences {
        FindingSentences(
            message: "A call session was activated (seq \(seq)) with mode \(mode ?? "(none)"), neither "
                + "voiceChat nor videoChat; echo cancellation is off and the other side hears an echo.",
            advice: "Use mode .voiceChat (or .videoChat for video) with the playAndRecord category.")
    }

    /// `session.changedByOtherComponent` (R12): a route change nothing recorded within `window` accounts for.
    package static func changedByOtherComponent(route: Route, reason: RouteChangeReason, predicted: Route, seq: Int, window: Int64,
                                                _ words: LayerWords) -> FindingSentences {
        FindingSentences(
            message: "The route changed to \(route.rawValue) (seq \(seq), reason \(reason.rawValue)) while the "
                + "contract predicts \(predicted.rawValue), and no call into the SDK, system event or session "
                + "activation in the \(formatDuration(window)) before accounts for it: another part of the app, "
                + "or another SDK, changed the audio session's category, mode or output override behind the "
                + "\(words.product) SDK's back (iOS drops the SDK's override on any such change).",
            advice: "Find the other caller of setCategory, setMode or overrideOutputAudioPort in the app (a media "
                + "player, a recording or camera component, another SDK) and keep it from reconfiguring the "
                + "audio session while the \(words.participant) is in the \(words.session); the \(words.product) "
                + "SDK should re-apply its route after such a change.")
    }

    /// `session.notRebuiltAfterReset` (I5): no successful activation within `window` after the reset at `resetSeq`.
    package static func notRebuiltAfterReset(resetSeq: Int, window: Int64, _ words: LayerWords) -> FindingSentences {
        FindingSentences(
            message: "The system reset media services (seq \(resetSeq)) while in the \(words.session), destroying the "
                + "audio session's configuration and every audio object, and no successful audio session "
                + "activation followed within \(formatDuration(window)): the \(words.session) has no call "
                + "audio until the SDK rebuilds it.",
            advice: "Handle AVAudioSession.mediaServicesWereResetNotification: rebuild the audio objects, configure "
                + "and activate the session again, re-apply the route (override, default and audio module switch "
                + "survive the reset) and fire \(words.recoveredCallback).")
    }

    /// Why the call path did not come up: the category the session was activated in instead, the error of the
    /// last activation, or neither.
    package enum CallPathFailure: Sendable {
        case otherCategory(String), failed(String), noActivation
    }

    /// `session.callPathNotUp` (R17): no playAndRecord activation within `window` after the engagement or the
    /// recovery at `seq`.
    package static func callPathNotUp(seq: Int, afterRecovery: Bool, _ failure: CallPathFailure, window: Int64,
                                      _ words: LayerWords) -> FindingSentences {
        let after = afterRecovery ? "the recovery at seq \(seq)" : "the app \(words.joined) the \(words.session) (seq \(seq))"
        let why = switch failure {
        case .otherCategory(let other): "the session was activated in category \(TextCap.clip(other)), which gives no receiver and no microphone"
        case .failed(let error): "the activation failed with \(TextCap.clip(error))"
        case .noActivation: "no activation came"
        }
        return FindingSentences(
            message: "No successful playAndRecord activation (or CallKit didActivate) came within "
                + "\(formatDuration(window)) after \(after): \(why). The call has no call audio path.",
            advice: "Activate the audio session in category playAndRecord when the call starts and after every "
                + "recovery; retry a failed activation (cannotInterruptOthers, insufficientPriority) once the other "
                + "audio stops, and never reactivate a call in playback.")
    }

    /// `session.notDeactivated` (R18): no successful deactivation within `window` after the leave or exit at `seq`.
    package static func notDeactivated(seq: Int, lastError: String?, window: Int64, _ words: LayerWords) -> FindingSentences {
        let failed = lastError.map { "; the deactivation failed with \(TextCap.clip($0))" } ?? ""
        return FindingSentences(
            message: "The app \(words.left) the \(words.session) (seq \(seq)), but no successful deactivation of the "
                + "audio session followed within \(formatDuration(window))\(failed): other apps' audio does not resume.",
            advice: "Stop audio I/O, then deactivate with setActive(false, options: .notifyOthersOnDeactivation) when the "
                + "app \(words.leave)s the \(words.session); retry when it fails with isBusy.")
    }
}
