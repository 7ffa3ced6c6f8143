import Contract
import TraceModel

// The session.* findings: the audio session as the SDK configured, activated and rebuilt it (R11, R12, R17,
// R18, I5), in the layer's words.
extension RouteEngine {
    /// `obs.sessionDeactivated` without `notifyOthers`.
    func missingNotifyOthersFinding(_ record: Record) -> Finding {
        Finding(code: .sessionMissingNotifyOthers, severity: .warning, rule: nil, seqs: [record.seq], t: record.t,
                message: "The audio session was deactivated (seq \(record.seq)) without notifyOthersOnDeactivation; "
                    + "other apps' audio (music) will not resume.",
                advice: "Deactivate with setActive(false, options: .notifyOthersOnDeactivation) when the app "
                    + "\(words.leave)s the \(words.session).")
    }

    /// A call session without `allowBluetooth` (R4's bluetooth route is then never used).
    func missingAllowBluetoothFinding(_ record: Record) -> Finding {
        Finding(code: .sessionMissingAllowBluetooth, severity: .warning, rule: .R11, seqs: [record.seq], t: record.t,
                message: "A call session was activated (seq \(record.seq)) without the allowBluetooth option, in a mode "
                    + "that does not imply it; bluetooth headsets will not be used for call audio.",
                advice: "Include .allowBluetooth (and .allowBluetoothA2DP) in the playAndRecord category options, or "
                    + "use mode .voiceChat, which implies it.")
    }

    /// A call session without `defaultToSpeaker` while the persistent default is the speaker.
    func missingDefaultToSpeakerFinding(_ record: Record) -> Finding {
        Finding(code: .sessionMissingDefaultToSpeaker, severity: .warning, rule: .R11,
                seqs: seqs(record.seq, state.defaultSeq), t: record.t,
                message: "A call session was activated (seq \(record.seq)) without the defaultToSpeaker option while "
                    + "the persistent default is speaker; call audio starts on the earpiece.",
                advice: "defaultAudioRoute = .speaker maps to the defaultToSpeaker category option; the session "
                    + "must be activated with it.")
    }

    /// A call session whose mode has no echo cancellation.
    func wrongModeFinding(_ mode: String?, _ record: Record) -> Finding {
        Finding(code: .sessionWrongMode, severity: .warning, rule: nil, seqs: [record.seq], t: record.t,
                message: "A call session was activated (seq \(record.seq)) with mode \(mode ?? "(none)"), neither "
                    + "voiceChat nor videoChat; echo cancellation is off and the other side hears an echo.",
                advice: "Use mode .voiceChat (or .videoChat for video) with the playAndRecord category.")
    }

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

    /// R17: the call path did not come up.
    func callPathNotUpFinding(_ window: CallPathWindow, t: Int64) -> Finding {
        let after = window.afterRecovery ? "the recovery at seq \(window.seq)" : "the app \(words.joined) the \(words.session) (seq \(window.seq))"
        let why: String
        if let other = window.otherCategory {
            why = "the session was activated in category \(TextCap.clip(other)), which gives no receiver and no microphone"
        } else if let error = window.lastError {
            why = "the activation failed with \(TextCap.clip(error))"
        } else {
            why = "no activation came"
        }
        return Finding(code: .sessionCallPathNotUp, severity: .error, rule: .R17, seqs: [window.seq], t: t,
                       message: "No successful playAndRecord activation (or CallKit didActivate) came within "
                           + "\(formatDuration(options.recoveryWindowMs)) after \(after): \(why). The call has no call audio path.",
                       advice: "Activate the audio session in category playAndRecord when the call starts and after every "
                           + "recovery; retry a failed activation (cannotInterruptOthers, insufficientPriority) once the other "
                           + "audio stops, and never reactivate a call in playback.")
    }

    /// R18: the session was not deactivated at the leave or exit.
    func notDeactivatedFinding(_ window: DeactivationWindow, t: Int64) -> Finding {
        let failed = window.lastError.map { "; the deactivation failed with \(TextCap.clip($0))" } ?? ""
        return Finding(code: .sessionNotDeactivated, severity: .warning, rule: .R18, seqs: [window.seq], t: t,
                       message: "The app \(words.left) the \(words.session) (seq \(window.seq)), but no successful deactivation of the "
                           + "audio session followed within \(formatDuration(options.recoveryWindowMs))\(failed): other apps' audio does not resume.",
                       advice: "Stop audio I/O, then deactivate with setActive(false, options: .notifyOthersOnDeactivation) when the "
                           + "app \(words.leave)s the \(words.session); retry when it fails with isBusy.")
    }
}
