// What each finding code means, how serious it is and the rule it belongs to: the one info table.
import TraceModel

extension FindingCode {
    /// The severity the code is raised with; `route.ineffective` is `info` for a deferred call and
    /// `route.divergence` is `error` when unexplained, so these two give the most common one.
    public var severity: Severity {
        switch self {
        case .interruptionNotRecovered, .interruptionRecoveredWithoutActivation, .appMissingMicUsageDescription,
             .sessionNotRebuiltAfterReset, .callkitNoDidActivate:
            .error
        case .interruptionEndNeverArrived:
            .info
        default:
            .warning
        }
    }

    /// The contract rule the code belongs to, when one does.
    public var rule: RuleID? {
        switch self {
        case .routeIneffective: .V1
        case .routeDivergence: .X2
        case .interruptionNotRecovered: .I3
        case .interruptionPrematureReactivation, .interruptionRecoveredWithoutActivation: .I4
        case .interruptionEndNeverArrived: .I6
        case .audioModuleLeftDisabled, .audioModuleDisabledWhileSpeaking: .R9
        case .sessionMissingAllowBluetooth, .sessionMissingDefaultToSpeaker: .R11
        case .sessionChangedByOtherComponent: .R12
        case .sessionNotRebuiltAfterReset: .I5
        case .callkitActivatedBeforeDidActivate, .callkitNoDidActivate: .I7
        case .appMissingMicUsageDescription: .R6
        case .deviceSimulator: .R10
        case .qualitySpuriousChange, .qualityMissedChange, .qualityFlapping: .Q2
        case .speakersMismatch: .S2
        case .layerTargetNotInCandidates: .L2
        case .layerSwitchNotConfirmed: .L3
        case .sessionMissingNotifyOthers, .sessionWrongMode, .appMissingBackgroundAudio,
             .traceLimitExceeded:
            nil
        }
    }

    /// A short title.
    public var title: String {
        switch self {
        case .routeIneffective: "A route call did not take effect"
        case .routeDivergence: "The device played another route than the contract predicts"
        case .interruptionNotRecovered: "No recovery after an interruption"
        case .interruptionPrematureReactivation: "Reactivation while a system call is up"
        case .interruptionRecoveredWithoutActivation: "Recovered callback without reactivation"
        case .interruptionEndNeverArrived: "An interruption's end never arrived"
        case .audioModuleLeftDisabled: "Audio module left disabled"
        case .audioModuleDisabledWhileSpeaking: "Audio module disabled while someone speaks"
        case .sessionMissingNotifyOthers: "Deactivated without notifyOthers"
        case .sessionMissingAllowBluetooth: "Call session without allowBluetooth"
        case .sessionMissingDefaultToSpeaker: "Call session without defaultToSpeaker"
        case .sessionWrongMode: "Call session in a mode without echo cancellation"
        case .sessionChangedByOtherComponent: "Another component changed the audio session"
        case .sessionNotRebuiltAfterReset: "Session not rebuilt after a media services reset"
        case .callkitActivatedBeforeDidActivate: "Session activated before CallKit's didActivate"
        case .callkitNoDidActivate: "CallKit never activated the session"
        case .appMissingMicUsageDescription: "Info.plist lacks NSMicrophoneUsageDescription"
        case .appMissingBackgroundAudio: "No background audio mode"
        case .deviceSimulator: "Recorded on a simulator"
        case .qualitySpuriousChange: "A quality change the engine did not derive"
        case .qualityMissedChange: "A derived quality change the SDK did not emit"
        case .qualityFlapping: "Quality level flapping"
        case .speakersMismatch: "Active speakers differ from the derived snapshot"
        case .layerTargetNotInCandidates: "Layer switch target outside the candidates"
        case .layerSwitchNotConfirmed: "Layer switch not confirmed"
        case .traceLimitExceeded: "An engine limit was reached"
        }
    }

    /// One paragraph: when the code is raised and what it means.
    public var summary: String {
        switch self {
        case .routeIneffective: "Raised once per route call whose verdict is ineffective (warning) or deferred (info), with the cause and the record that created it. This is the answer to \"I set the speaker but it didn't take effect\"."
        case .routeDivergence: "Raised for every divergence (X2): explained (warning) when another finding accounts for it, unexplained (error) when nothing recorded does, which is the bug to escalate."
        case .interruptionNotRecovered: "The contract recovered from an interruption (I3), but neither a successful session activation nor the SDK's recovered callback followed within the recovery window: call audio stays silent."
        case .interruptionPrematureReactivation: "The SDK reactivated the audio session while a system call was still up and the interruption had not recovered; the activation is bound to fail (I4)."
        case .interruptionRecoveredWithoutActivation: "The SDK fired its recovered callback without a successful session activation since the interruption began: the UI says audio is back while it is dead (I4)."
        case .interruptionEndNeverArrived: "iOS never delivered the end of an interruption; the contract recovered at a moment I6 names as if it had ended."
        case .audioModuleLeftDisabled: "The audio module was still disabled at the leave or exit, or at the end of the trace: nothing was sent or heard meanwhile."
        case .audioModuleDisabledWhileSpeaking: "The audio module was disabled while someone was speaking: raised once per disabled period, at the first moment of it at which the speaker snapshot is non-empty."
        case .sessionMissingNotifyOthers: "The SDK deactivated the audio session without notifyOthersOnDeactivation, so other apps' audio does not resume."
        case .sessionMissingAllowBluetooth: "A call session was activated without allowBluetooth in a mode that does not imply it (not voiceChat or videoChat): bluetooth headsets are not used for call audio."
        case .sessionMissingDefaultToSpeaker: "A call session was activated without defaultToSpeaker while the persistent default is the speaker, in a mode that does not imply it (not videoChat): audio starts on the earpiece."
        case .sessionWrongMode: "A call session's mode is neither voiceChat nor videoChat: echo cancellation is off and the other side hears an echo."
        case .sessionChangedByOtherComponent: "A category or override route change away from the predicted route that nothing the SDK or the system recorded accounts for: another part of the app, or another SDK, reconfigured the audio session (R12)."
        case .sessionNotRebuiltAfterReset: "After a media services reset the SDK did not activate the audio session again within the recovery window: every audio object is gone and the call is silent (I5)."
        case .callkitActivatedBeforeDidActivate: "The SDK activated the audio session itself after CallKit's answer or start action and before CallKit's didActivate: it races CallKit, which may leave the call without audio (I7)."
        case .callkitNoDidActivate: "A CallKit answer or start was not followed by didActivate within the recovery window: the call has no audio (I7)."
        case .appMissingMicUsageDescription: "The app engaged the call audio path while its Info.plist lacks NSMicrophoneUsageDescription; requesting microphone permission crashes the app."
        case .appMissingBackgroundAudio: "The app went to the background during a call without the audio background mode: the system suspends call audio."
        case .deviceSimulator: "The trace comes from a simulator, which has no earpiece and no bluetooth route: routing results say nothing about a real device (R10)."
        case .qualitySpuriousChange: "The SDK emitted a quality level change that matches no change derived from the server reports within the match window before it."
        case .qualityMissedChange: "A level change derived from the server reports was not emitted by the SDK within the match window after it."
        case .qualityFlapping: "More level changes than the flapping threshold within the flapping window: the indicator flickers for the user."
        case .speakersMismatch: "An active-speaker snapshot the SDK emitted differs (uids, track ids and order) from the snapshot derived from the server's updates."
        case .layerTargetNotInCandidates: "switchLayer asked for a layer the subscription does not offer; the server will not switch (L2)."
        case .layerSwitchNotConfirmed: "An accepted switchLayer was not confirmed by a server layer switch with reason client within the layer timeout (L3)."
        case .traceLimitExceeded: "An engine limit (speakers, connected devices or subscriptions) was reached; further additions were ignored, so results past that point are approximate."
        }
    }

    /// An example of the advice reports give with the code (in SRTC words; SMeeting reports use its own).
    public var exampleAdvice: String {
        switch self {
        case .routeIneffective: "Grey out the speaker button while currentRoute.isExternal is true, and use currentRoute to show the real route, not the call's success."
        case .routeDivergence: "Escalate to the SRTC SDK team with this trace when it is unexplained; when a finding explains it, fix the cause that finding names."
        case .interruptionNotRecovered: "Reactivate the session and fire audioRouteSessionDidRecoverFromInterruption once the system call has ended and the app is in the foreground."
        case .interruptionPrematureReactivation: "Reactivate only when the system call has ended and the app is in the foreground; retry at those moments."
        case .interruptionRecoveredWithoutActivation: "Fire audioRouteSessionDidRecoverFromInterruption only after a successful reactivation."
        case .interruptionEndNeverArrived: "Do not wait for the interruption's end alone: also try to reactivate when the app returns to the foreground and after the system call ends."
        case .audioModuleLeftDisabled: "Call setAudioModuleEnabled(true) as soon as the local playback finishes."
        case .audioModuleDisabledWhileSpeaking: "Only disable the audio module when the whole channel needs no call audio; to mute, use the microphone switch or unsubscribe."
        case .sessionMissingNotifyOthers: "Deactivate with setActive(false, options: .notifyOthersOnDeactivation) when leaving the channel."
        case .sessionMissingAllowBluetooth: "Include .allowBluetooth in the playAndRecord category options, or use mode .voiceChat, which implies it."
        case .sessionMissingDefaultToSpeaker: "Activate the session with .defaultToSpeaker when the default route is the speaker."
        case .sessionWrongMode: "Use mode .voiceChat (or .videoChat for video) with the playAndRecord category."
        case .sessionChangedByOtherComponent: "Find the other caller of setCategory, setMode or overrideOutputAudioPort in the app (a player, another SDK) and keep it from reconfiguring the session during a call."
        case .sessionNotRebuiltAfterReset: "Handle mediaServicesWereResetNotification: rebuild the audio objects, reconfigure and reactivate the session, and re-apply the route."
        case .callkitActivatedBeforeDidActivate: "With CallKit, configure the session but do not activate it; start audio in provider(_:didActivate:)."
        case .callkitNoDidActivate: "Check the CXProviderConfiguration and that the action is fulfilled; start audio only in provider(_:didActivate:)."
        case .appMissingMicUsageDescription: "Add NSMicrophoneUsageDescription to Info.plist."
        case .appMissingBackgroundAudio: "Add audio to UIBackgroundModes in Info.plist."
        case .deviceSimulator: "Verify audio routing on a real device."
        case .qualitySpuriousChange: "Emit a level change only when the evaluated level differs from the last one emitted."
        case .qualityMissedChange: "Emit a level change for every change of the evaluated level."
        case .qualityFlapping: "Smooth the indicator (for example k of n reports and a hold time) before showing it."
        case .speakersMismatch: "Merge the server's updates into one set, sort by level, and clear it at a reconnect."
        case .layerTargetNotInCandidates: "Only switch to a layer the subscription declared."
        case .layerSwitchNotConfirmed: "Check the layer switch path on the server and the SDK's confirmation handling."
        case .traceLimitExceeded: "Treat results after this point as approximate; the trace is far outside a normal call's size."
        }
    }
}

extension RuleID {
    /// The finding codes through which the rule shows in reports: the codes that belong to it, and
    /// for rules that decide other codes' verdicts or explanations, those.
    public var relatedCodes: [FindingCode] {
        let own = FindingCode.allCases.filter { $0.rule == self }
        let more: [FindingCode]
        switch self {
        case .R2, .R3, .R5, .R7: more = [.routeIneffective]
        case .R8, .X1, .X3, .X4: more = [.routeDivergence]
        case .R11: more = [.sessionMissingAllowBluetooth, .sessionMissingDefaultToSpeaker, .sessionWrongMode]
        case .I1, .I2: more = [.interruptionNotRecovered]
        case .V2: more = [.routeIneffective]
        case .Q4: more = [.speakersMismatch, .qualityMissedChange]
        default: more = []
        }
        return own + more.filter { !own.contains($0) }
    }
}
