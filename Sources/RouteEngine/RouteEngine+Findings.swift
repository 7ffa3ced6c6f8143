import Contract
import TraceModel

// The route engine's other findings, in the layer's words (docs/contract.md, "Words").
extension RouteEngine {
    private var words: LayerWords { LayerWords(state.layer) }

    private var recoveredCallback: String { words.recoveredCallback }

    private func seqs(_ first: Int, _ rest: Int?...) -> [Int] {
        [first] + rest.compactMap { $0 }.filter { $0 != first }
    }

    /// R10: the trace comes from a simulator.
    func simulatorFinding(_ record: Record) -> Finding {
        Finding(code: .deviceSimulator, severity: .warning, rule: .R10, seqs: [record.seq], t: record.t,
                message: "This trace was recorded on a simulator, which has no earpiece and no bluetooth route; "
                    + "earpiece requests are ineffective and routing results say nothing about a real device.",
                advice: "Audio routing must be verified on a real device.")
    }

    /// R6: engagement requests microphone permission, which crashes without NSMicrophoneUsageDescription.
    func missingMicUsageFinding(_ record: Record) -> Finding {
        Finding(code: .appMissingMicUsageDescription, severity: .error, rule: .R6, seqs: [record.seq], t: record.t,
                message: "The app \(words.joined) the \(words.session) (seq \(record.seq)) but its Info.plist lacks "
                    + "NSMicrophoneUsageDescription; \(words.joining) requests microphone permission, so the app crashes.",
                advice: "Add NSMicrophoneUsageDescription to Info.plist: \(words.joining) the \(words.session) always sets "
                    + "up the call audio path and requests microphone permission, even for a \(words.participant) who only listens.")
    }

    /// Backgrounded while engaged without the `audio` background mode.
    func missingBackgroundAudioFinding(_ record: Record) -> Finding {
        Finding(code: .appMissingBackgroundAudio, severity: .warning, rule: nil,
                seqs: seqs(record.seq, state.engagedSeq), t: record.t,
                message: "The app went to the background (seq \(record.seq)) while in the \(words.session), and "
                    + "UIBackgroundModes lacks audio; the system suspends call audio.",
                advice: "Add audio to UIBackgroundModes in Info.plist so call audio keeps running in the background.")
    }

    /// R9: the module was still disabled when the path was torn down (`atEnd` nil) or the trace ended.
    func leftDisabledFinding(atSeq seq: Int, t: Int64, atEnd: TraceEnd?) -> Finding {
        let disabled = state.audioModuleDisabledSeq
        let when = atEnd?.phrase ?? "when the app \(words.left) the \(words.session) (seq \(seq))"
        let by = disabled.map { " by setAudioModuleEnabled(false) (seq \($0))" } ?? ""
        return Finding(code: .audioModuleLeftDisabled, severity: .warning, rule: .R9,
                       seqs: atEnd != nil ? seqs(disabled ?? seq, seq) : seqs(seq, disabled), t: t,
                       message: "The audio module, disabled\(by), was still disabled \(when); no call audio was sent or "
                           + "received meanwhile.",
                       advice: "Call setAudioModuleEnabled(true) as soon as the local playback finishes; while it is "
                           + "disabled the \(words.session) is silent, which looks exactly like nobody having a "
                           + "microphone on.")
    }

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
}
