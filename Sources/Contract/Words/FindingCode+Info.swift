// What each finding code means, how serious it is and the rule it belongs to: the one info table.
import TraceModel

/// What the catalogue says about a finding code.
package struct FindingInfo: Sendable {
    /// The severity the code is raised with; `route.ineffective` is `info` for a deferred call and
    /// `route.divergence` is `error` when unexplained, so these two give the most common one.
    package let severity: Severity
    /// The contract rule the code belongs to, when one does.
    package let rule: RuleID?
    /// The triage tag a trace with the code gets; nil for `route.ineffective`, raised for every call that
    /// waited or failed: the tags of calls follow their outcomes instead (`TriageTag.followsOutcomes`).
    package let tag: TriageTag?
    /// A short title.
    package let title: String
    /// One paragraph: when the code is raised and what it means.
    package let summary: String
    /// An example of the advice reports give with the code (in SRTC words; SMeeting reports use its own).
    package let exampleAdvice: String
}

extension FindingCode {
    /// The catalogue's entry for the code.
    package var info: FindingInfo {
        switch self {
        case .routeIneffective: FindingInfo(severity: .warning, rule: .V1, tag: nil, title: "A route call did not take effect",
            summary: "Raised once per route call whose verdict is ineffective (warning) or deferred (info), with the cause and the record that created it. This is the answer to \"I set the speaker but it didn't take effect\".",
            exampleAdvice: "Grey out the speaker button while currentRoute.isExternal is true, and use currentRoute to show the real route, not the call's success.")
        case .routeDivergence: FindingInfo(severity: .warning, rule: .X2, tag: .routeDivergence, title: "The device played another route than the contract predicts",
            summary: "Raised for every divergence (X2): explained (warning) when another finding accounts for it, unexplained (error) when nothing recorded does, which is the bug to escalate.",
            exampleAdvice: "Escalate to the SRTC SDK team with this trace when it is unexplained; when a finding explains it, fix the cause that finding names.")
        case .interruptionNotRecovered: FindingInfo(severity: .error, rule: .I3, tag: .interruptionNotRecovered, title: "No recovery after an interruption",
            summary: "The contract recovered from an interruption (I3), but neither a successful session activation nor the SDK's recovered callback followed within the recovery window: call audio stays silent.",
            exampleAdvice: "Reactivate the session and fire audioRouteSessionDidRecoverFromInterruption once the system call has ended and the app is in the foreground.")
        case .interruptionPrematureReactivation: FindingInfo(severity: .warning, rule: .I4, tag: .prematureReactivation, title: "Reactivation while a system call is up",
            summary: "The SDK reactivated the audio session while a system call was still up and the interruption had not recovered; the activation is bound to fail (I4).",
            exampleAdvice: "Reactivate only when the system call has ended and the app is in the foreground; retry at those moments.")
        case .interruptionRecoveredWithoutActivation: FindingInfo(severity: .error, rule: .I4, tag: .recoveredWithoutReactivation, title: "Recovered callback without reactivation",
            summary: "The SDK fired its recovered callback without a successful session activation since the interruption began: the UI says audio is back while it is dead (I4).",
            exampleAdvice: "Fire audioRouteSessionDidRecoverFromInterruption only after a successful reactivation.")
        case .interruptionEndNeverArrived: FindingInfo(severity: .info, rule: .I6, tag: .interruptionEndNeverArrived, title: "An interruption's end never arrived",
            summary: "iOS never delivered the end of an interruption; the contract recovered at a moment I6 names as if it had ended.",
            exampleAdvice: "Do not wait for the interruption's end alone: also try to reactivate when the app returns to the foreground and after the system call ends.")
        case .audioModuleLeftDisabled: FindingInfo(severity: .warning, rule: .R9, tag: .audioModuleLeftDisabled, title: "Audio module left disabled",
            summary: "The audio module was still disabled at the leave or exit, or at the end of the trace: nothing was sent or heard meanwhile.",
            exampleAdvice: "Call setAudioModuleEnabled(true) as soon as the local playback finishes.")
        case .audioModuleDisabledWhileSpeaking: FindingInfo(severity: .warning, rule: .R9, tag: .audioModuleDisabledWhileSpeaking, title: "Audio module disabled while someone speaks",
            summary: "The audio module was disabled while someone was speaking: raised once per disabled period, at the first moment of it at which the speaker snapshot is non-empty.",
            exampleAdvice: "Only disable the audio module when the whole channel needs no call audio; to mute, use the microphone switch or unsubscribe.")
        case .sessionMissingNotifyOthers: FindingInfo(severity: .warning, rule: nil, tag: .sessionMissingNotifyOthers, title: "Deactivated without notifyOthers",
            summary: "The SDK deactivated the audio session without notifyOthersOnDeactivation, so other apps' audio does not resume.",
            exampleAdvice: "Deactivate with setActive(false, options: .notifyOthersOnDeactivation) when leaving the channel.")
        case .sessionMissingAllowBluetooth: FindingInfo(severity: .warning, rule: .R11, tag: .sessionMissingAllowBluetooth, title: "Call session without allowBluetooth",
            summary: "A call session was activated without allowBluetooth in a mode that does not imply it (not voiceChat or videoChat): bluetooth headsets are not used for call audio.",
            exampleAdvice: "Include .allowBluetooth in the playAndRecord category options, or use mode .voiceChat, which implies it.")
        case .sessionMissingDefaultToSpeaker: FindingInfo(severity: .warning, rule: .R11, tag: .sessionMissingDefaultToSpeaker, title: "Call session without defaultToSpeaker",
            summary: "A call session was activated without defaultToSpeaker while the persistent default is the speaker, in a mode that does not imply it (not videoChat): audio starts on the earpiece.",
            exampleAdvice: "Activate the session with .defaultToSpeaker when the default route is the speaker.")
        case .sessionWrongMode: FindingInfo(severity: .warning, rule: nil, tag: .sessionWrongMode, title: "Call session in a mode without echo cancellation",
            summary: "A call session's mode is neither voiceChat nor videoChat: echo cancellation is off and the other side hears an echo.",
            exampleAdvice: "Use mode .voiceChat (or .videoChat for video) with the playAndRecord category.")
        case .sessionChangedByOtherComponent: FindingInfo(severity: .warning, rule: .R12, tag: .sessionChangedByOtherComponent, title: "Another component changed the audio session",
            summary: "A category or override route change away from the predicted route that nothing the SDK or the system recorded accounts for: another part of the app, or another SDK, reconfigured the audio session (R12).",
            exampleAdvice: "Find the other caller of setCategory, setMode or overrideOutputAudioPort in the app (a player, another SDK) and keep it from reconfiguring the session during a call.")
        case .sessionNotRebuiltAfterReset: FindingInfo(severity: .error, rule: .I5, tag: .sessionNotRebuiltAfterReset, title: "Session not rebuilt after a media services reset",
            summary: "After a media services reset the SDK did not activate the audio session again within the recovery window: every audio object is gone and the call is silent (I5).",
            exampleAdvice: "Handle mediaServicesWereResetNotification: rebuild the audio objects, reconfigure and reactivate the session, and re-apply the route.")
        case .callkitActivatedBeforeDidActivate: FindingInfo(severity: .warning, rule: .I7, tag: .callkitActivationRace, title: "Session activated before CallKit's didActivate",
            summary: "The SDK activated the audio session itself after CallKit's answer or start action and before CallKit's didActivate: it races CallKit, which may leave the call without audio (I7).",
            exampleAdvice: "With CallKit, configure the session but do not activate it; start audio in provider(_:didActivate:).")
        case .callkitNoDidActivate: FindingInfo(severity: .error, rule: .I7, tag: .callkitNoDidActivate, title: "CallKit never activated the session",
            summary: "A CallKit answer or start was not followed by didActivate within the recovery window: the call has no audio (I7).",
            exampleAdvice: "Check the CXProviderConfiguration and that the action is fulfilled; start audio only in provider(_:didActivate:).")
        case .appMissingMicUsageDescription: FindingInfo(severity: .error, rule: .R6, tag: .appMissingMicUsageDescription, title: "Info.plist lacks NSMicrophoneUsageDescription",
            summary: "The app engaged the call audio path while its Info.plist lacks NSMicrophoneUsageDescription; requesting microphone permission crashes the app.",
            exampleAdvice: "Add NSMicrophoneUsageDescription to Info.plist.")
        case .appMissingBackgroundAudio: FindingInfo(severity: .warning, rule: nil, tag: .appMissingBackgroundAudio, title: "No background audio mode",
            summary: "The app went to the background during a call without the audio background mode: the system suspends call audio.",
            exampleAdvice: "Add audio to UIBackgroundModes in Info.plist.")
        case .deviceSimulator: FindingInfo(severity: .warning, rule: .R10, tag: .simulatorTrace, title: "Recorded on a simulator",
            summary: "The trace comes from a simulator, which has no earpiece and no bluetooth route: routing results say nothing about a real device (R10).",
            exampleAdvice: "Verify audio routing on a real device.")
        case .qualitySpuriousChange: FindingInfo(severity: .warning, rule: .Q2, tag: .qualitySpuriousChange, title: "A quality change the engine did not derive",
            summary: "The SDK emitted a quality level change that matches no change derived from the server reports within the match window before it.",
            exampleAdvice: "Emit a level change only when the evaluated level differs from the last one emitted.")
        case .qualityMissedChange: FindingInfo(severity: .warning, rule: .Q2, tag: .qualityMissedChange, title: "A derived quality change the SDK did not emit",
            summary: "A level change derived from the server reports was not emitted by the SDK within the match window after it.",
            exampleAdvice: "Emit a level change for every change of the evaluated level.")
        case .qualityFlapping: FindingInfo(severity: .warning, rule: .Q2, tag: .qualityFlapping, title: "Quality level flapping",
            summary: "More level changes than the flapping threshold within the flapping window: the indicator flickers for the user.",
            exampleAdvice: "Smooth the indicator (for example k of n reports and a hold time) before showing it.")
        case .speakersMismatch: FindingInfo(severity: .warning, rule: .S2, tag: .activeSpeakersMismatch, title: "Active speakers differ from the derived snapshot",
            summary: "An active-speaker snapshot the SDK emitted differs (uids, track ids and order) from the snapshot derived from the server's updates.",
            exampleAdvice: "Merge the server's updates into one set, sort by level, and clear it at a reconnect.")
        case .layerTargetNotInCandidates: FindingInfo(severity: .warning, rule: .L2, tag: .layerTargetNotInCandidates, title: "Layer switch target outside the candidates",
            summary: "switchLayer asked for a layer the subscription does not offer; the server will not switch (L2).",
            exampleAdvice: "Only switch to a layer the subscription declared.")
        case .layerSwitchNotConfirmed: FindingInfo(severity: .warning, rule: .L3, tag: .layerSwitchNotConfirmed, title: "Layer switch not confirmed",
            summary: "An accepted switchLayer was not confirmed by a server layer switch with reason client within the layer timeout (L3).",
            exampleAdvice: "Check the layer switch path on the server and the SDK's confirmation handling.")
        case .traceLimitExceeded: FindingInfo(severity: .warning, rule: nil, tag: .engineLimitExceeded, title: "An engine limit was reached",
            summary: "An engine limit (speakers, connected devices or subscriptions) was reached; further additions were ignored, so results past that point are approximate.",
            exampleAdvice: "Treat results after this point as approximate; the trace is far outside a normal call's size.")
        case .routeOverrideFlushed: FindingInfo(severity: .info, rule: .R15, tag: .overrideFlushed, title: "iOS flushed the temporary route",
            summary: "The override was set, then a device change or the recovery from an interruption opened a flush window, and the device settled on the route without the override: iOS dropped the temporary setting, which the SDK documents as by design, not a bug. The prediction follows the default from then on (R15).",
            exampleAdvice: "This is by design: set defaultAudioRoute for a lasting choice, and re-apply the temporary route after the device change or the interruption.")
        case .sessionCallPathNotUp: FindingInfo(severity: .error, rule: .R17, tag: .callPathNotUp, title: "The call audio path did not come up",
            summary: "No successful playAndRecord activation (or CallKit didActivate) came within the recovery window after an engagement or a recovery: the call has no receiver and no microphone (R17). The finding names the failed activation's error, or the category the session was activated in.",
            exampleAdvice: "Activate the session in category playAndRecord when the call starts, retry a failed activation (cannotInterruptOthers, insufficientPriority) once the other audio stops, and never reactivate a call in playback.")
        case .sessionNotDeactivated: FindingInfo(severity: .warning, rule: .R18, tag: .sessionNotDeactivated, title: "The session was not deactivated at the leave",
            summary: "A leave or exit was not followed, within the recovery window, by a successful deactivation (or CallKit's didDeactivate): other apps' audio does not resume (R18). The finding names the error of a failed deactivation (e.g. isBusy).",
            exampleAdvice: "Deactivate with setActive(false, options: .notifyOthersOnDeactivation) after stopping audio I/O, and retry when it fails with isBusy.")
        case .interruptionRecoveredEarly: FindingInfo(severity: .info, rule: .I8, tag: .interruptionRecoveredEarly, title: "The SDK recovered before the documented condition",
            summary: "A successful call-session activation while an interruption was open, with no system call up, recovered it (I8) although the app was in the background, where the documents do not recover. Audio is back; the report says so rather than escalating.",
            exampleAdvice: "Nothing to fix for the call; recover in the foreground if the app must follow the documented order.")
        case .interruptionNeverRecovered: FindingInfo(severity: .error, rule: .I10, tag: .interruptionNeverRecovered, title: "The call stayed silent after an interruption",
            summary: "An interruption that began while engaged was still open at the leave or the end of the trace, longer than the recovery window, with no system call up and the app in the foreground: no end came and nothing recovered it (I10). The call had no audio from the interruption on.",
            exampleAdvice: "Do not wait for the interruption's end alone: reactivate when the app is in the foreground and no system call is up.")
        case .callkitNoReactivation: FindingInfo(severity: .error, rule: .I11, tag: .callkitNoReactivation, title: "CallKit did not reactivate a resumed call",
            summary: "A CallKit call held by a didDeactivate was resumed by the user (unhold), but no didActivate followed within the recovery window: the call stays silent (I11).",
            exampleAdvice: "Fulfil the CXSetHeldCallAction and let CallKit reactivate the session; start audio again only in provider(_:didActivate:).")
        case .callkitBuiltInRouteChosen: FindingInfo(severity: .info, rule: .I13, tag: .callkitBuiltInRouteChosen, title: "CallKit put the call on the built-in route",
            summary: "A call answered through CallKit started on the receiver or the speaker although a bluetooth device was connected (answered on the phone's screen): iOS chose the route at didActivate, so it is not a divergence (I13). Until the next route call the prediction follows iOS's choice.",
            exampleAdvice: "Nothing to fix: let the user pick the device with AVRoutePickerView, or route to it explicitly after didActivate.")
        case .interruptionNoInterruptedCallback: FindingInfo(severity: .warning, rule: .I14, tag: .noInterruptedCallback, title: "No interrupted callback",
            summary: "An interruption began while engaged but the SDK's interrupted callback did not fire within the match window (I14 a): the UI does not show that audio stopped.",
            exampleAdvice: "Fire the interrupted callback for every interruption that begins while the call is up (calls, Siri, other apps).")
        case .interruptionNoRecoveredCallback: FindingInfo(severity: .warning, rule: .I14, tag: .noRecoveredCallback, title: "No recovered callback after the recovery",
            summary: "The session was activated again after a recovery, but the SDK's recovered callback did not fire within the recovery window (I14 b): the UI is never refreshed.",
            exampleAdvice: "Fire the recovered callback once the reactivation succeeds.")
        case .interruptionDuplicateRecovered: FindingInfo(severity: .warning, rule: .I14, tag: .duplicateRecoveredCallback, title: "A second recovered callback",
            summary: "The recovered callback fired a second time for one recovery, before another interruption began (I14 c); the documents say it fires once.",
            exampleAdvice: "Fire the recovered callback exactly once per recovery.")
        case .speakersMissedSnapshot: FindingInfo(severity: .warning, rule: .S3, tag: .activeSpeakersMissedSnapshot, title: "An active-speaker snapshot was skipped",
            summary: "A derived active-speaker snapshot (the empty one included) was not answered by an SDK snapshot within the match window (S3): the documents say the event is not skipped when nobody speaks.",
            exampleAdvice: "Emit the snapshot after every server update, an empty array when nobody speaks.")
        case .layerSwitchNotSent: FindingInfo(severity: .warning, rule: .L4, tag: .layerSwitchNotSent, title: "A layer switch failed to send",
            summary: "switchLayer was accepted, then the SDK reported webrtcError for it within the match window: the request never reached the server (L4). Its outcome is rejected and no confirmation is expected.",
            exampleAdvice: "Handle SRTCError.webrtcError from switchLayer: retry when the signalling connection is back.")
        case .traceUnknownValue: FindingInfo(severity: .warning, rule: .T1, tag: .unknownValue, title: "A value the format does not list",
            summary: "An open field (an interruption reason, a device kind, a call or app state, a permission, a CallKit event, a session category or mode) held a value this version does not list (T1); the record was kept and read as the contract says.",
            exampleAdvice: "Nothing to fix in the app; a newer iOS value was read as the contract says for values it does not list.")
        case .traceValueOutOfRange: FindingInfo(severity: .warning, rule: .T2, tag: .valueOutOfRange, title: "A value outside its documented range",
            summary: "A quality or speaker value was outside its documented range (T2: level and loss 0 to 1, MOS 1.0 to 4.5, score 0 to 100, RTT, jitter and bitrate at least 0). It is used as recorded.",
            exampleAdvice: "Check the SDK's conversion of the server's values.")
        case .deviceNotIOS: FindingInfo(severity: .info, rule: .R16, tag: .notIOS, title: "Not an iOS trace: the route contract does not apply",
            summary: "The header names macOS: AudioRouteSession exists only on iOS, so routes are not predicted and route calls get no verdict (R16). Quality, speakers and layers are checked as usual.",
            exampleAdvice: "On macOS, select the output with setOutputDevice(_:) (SRTC) or setAudioOutput(deviceId:) (SMeeting).")
        case .traceCheckpointMismatch: FindingInfo(severity: .warning, rule: nil, tag: .checkpointMismatch, title: "A checkpoint disagrees with the replayed state",
            summary: "A part's trace.checkpoint (the state the SDK knew when the part began) differs from the state the replay of the earlier parts derived; the finding names the fields. The replay keeps its own state.",
            exampleAdvice: "Compare the named fields: the SDK's state and the documented contract part ways there.")
        }
    }

    /// The severity the code is raised with (`info.severity`).
    package var severity: Severity { info.severity }
    /// The contract rule the code belongs to (`info.rule`).
    package var rule: RuleID? { info.rule }
    /// The triage tag a trace with the code gets (`info.tag`).
    package var tag: TriageTag? { info.tag }
    /// A short title (`info.title`).
    package var title: String { info.title }
    /// When the code is raised and what it means (`info.summary`).
    package var summary: String { info.summary }
    /// An example of the advice reports give with the code (`info.exampleAdvice`).
    package var exampleAdvice: String { info.exampleAdvice }
}

extension RuleID {
    /// The finding codes through which the rule shows in reports: the codes that belong to it, and
    /// for rules that decide other codes' verdicts or explanations, those.
    package var relatedCodes: [FindingCode] {
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
