// Why each code's and cause's advice can or cannot be proved by replay, and with which edits: the proof
// column of the code and cause tables, one row per case, with the reasons in the contract's words.
import TraceModel

extension AdviceProof {
    // Reasons shared by several codes.
    static let history = "the finding is raised by what the device or the SDK reported, which a replay with edits cannot re-create"
    static let settings = "the fix is outside the recorded calls (the app's Info.plist, the device, the user's settings)"
    static let sdkSide = "the advice is for the SDK's own code, which the trace records only as callbacks"
    static let none = "there is nothing for the app to change"
    static let deactivate = #"{"type":"obs.sessionDeactivated","notifyOthers":true,"ok":true}"#
    static let layerChoice = "which layer to ask for is the app's choice among those served"
}

extension FindingCode {
    /// How the code's advice is checked by replay (`rules CODE` states it).
    package var adviceProof: AdviceProof {
        switch self {
        case .routeIneffective: .notExpressible("the call's cause carries the advice, and the cause's proof applies")
        case .routeDivergence: .notExpressible(AdviceProof.history)
        case .interruptionNotRecovered: .edits([[.reactivateAfterNext([.interruptionEnded])]])
        case .interruptionPrematureReactivation: .edits([[.moveAfterNext([.callState])]])
        case .interruptionRecoveredWithoutActivation: .notExpressible(AdviceProof.history)
        case .interruptionEndNeverArrived: .notExpressible(AdviceProof.none)
        case .audioModuleLeftDisabled:
            .edits([[.insertBeforeNext([.leaveChannel, .exitMeeting], #"{"type":"api.setAudioModuleEnabled","enabled":true}"#)]])
        case .audioModuleDisabledWhileSpeaking: .notExpressible("when the audio module may be disabled is the product's choice, not a record to move")
        case .sessionMissingNotifyOthers: .edits([[.replace(AdviceProof.deactivate)]])
        case .sessionMissingAllowBluetooth: .edits([[.setOption("allowBluetooth")], [.mode("voiceChat")]])
        case .sessionMissingDefaultToSpeaker: .edits([[.setOption("defaultToSpeaker")], [.mode("videoChat")]])
        case .sessionWrongMode: .edits([[.mode("voiceChat")], [.mode("videoChat")]])
        case .sessionChangedByOtherComponent: .notExpressible(AdviceProof.history)
        case .sessionNotRebuiltAfterReset: .edits([[.reactivateAfterNext([.mediaServicesReset])]])
        case .callkitActivatedBeforeDidActivate: .edits([[.moveAfterNext([.callKit])]])
        case .callkitNoDidActivate: .notExpressible("CallKit's configuration decides it, which the trace does not record")
        case .appMissingMicUsageDescription, .appMissingBackgroundAudio, .deviceSimulator, .deviceNotIOS:
            .notExpressible(AdviceProof.settings)
        case .qualitySpuriousChange, .qualityMissedChange, .speakersMismatch, .speakersMissedSnapshot,
             .interruptionNoInterruptedCallback, .interruptionNoRecoveredCallback, .interruptionDuplicateRecovered:
            .notExpressible(AdviceProof.sdkSide)
        case .qualityFlapping: .notExpressible("the advice is about the UI (smoothing the indicator)")
        case .layerTargetNotInCandidates: .notExpressible(AdviceProof.layerChoice)
        case .layerSwitchNotConfirmed, .layerSwitchNotSent: .notExpressible("the server and the signalling channel decide it")
        case .traceLimitExceeded, .traceUnknownValue, .traceValueOutOfRange, .traceCheckpointMismatch, .interruptionRecoveredEarly,
             .callkitBuiltInRouteChosen, .routeOverrideFlushed:
            .notExpressible(AdviceProof.none)
        case .sessionCallPathNotUp: .notExpressible("whether a retried activation succeeds is the device's answer")
        case .sessionNotDeactivated: .edits([[.insertAfterNext([.leaveChannel, .exitMeeting], AdviceProof.deactivate)]])
        case .interruptionNeverRecovered: .edits([[.reactivateAfterNext([.appState, .callState])]])
        case .callkitNoReactivation: .notExpressible("CallKit's held-call action decides it, which the trace does not record")
        }
    }
}

extension VerdictCause {
    /// How the cause's advice is checked by replay.
    package var adviceProof: AdviceProof {
        switch self {
        case .notEngaged: .edits([[.moveAfterNext([.joinChannel, .enterMeeting])]])
        case .interrupted: .notExpressible("the request is applied at the recovery; the advice is about the UI")
        case .audioModuleDisabled: .edits([[.insertBefore(#"{"type":"api.setAudioModuleEnabled","enabled":true}"#)]])
        case .externalRouteActive: .notExpressible("the advice is about the UI: iOS gives the output back only when the external device goes")
        case .overrideActive: .edits([[.insertBefore(#"{"type":"api.clearRouteOverride"}"#)]])
        case .videoChatMode: .edits([[.mode("voiceChat")]])
        case .simulator, .micDenied: .notExpressible(AdviceProof.settings)
        case .targetNotInCandidates: .notExpressible(AdviceProof.layerChoice)
        case .engineNotSupported: .notExpressible("the stream vendor decides it, not a call")
        case .transportNotReady: .edits([[.moveAfterNext([.connState])]])
        case .webrtcError: .notExpressible("the signalling channel decides it")
        case .stateUnknown: .notExpressible("the advice is to replay the whole session")
        case .restarted: .notExpressible("the app's process restarted, which no edit of the calls undoes")
        }
    }
}
