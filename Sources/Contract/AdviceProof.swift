// Whether the advice given with a finding code or a cause can be checked by replaying the trace with
// edits, and which edits follow it: a column of the code and cause tables, as data.
import TraceModel

/// One edit the advice stands for, relative to the item it is given with (the call, or the finding's
/// first record); a what-if resolves it against the trace.
public enum AdviceEdit: Equatable, Sendable {
    /// Adds a category option to every session activation.
    case setOption(String)
    /// Sets the mode of every session activation.
    case mode(String)
    /// Moves the item's record to just after the next record of one of these kinds.
    case moveAfterNext([RecordKind])
    /// Inserts a record (JSON without `seq` and `t`) just before the item's record.
    case insertBefore(String)
    /// Inserts a record just before the next record of one of these kinds after the item's.
    case insertBeforeNext([RecordKind], String)
    /// Inserts a record just after the next record of one of these kinds after the item's.
    case insertAfterNext([RecordKind], String)
    /// Replaces the item's record with this one.
    case replace(String)
    /// Inserts a copy of the last successful session activation before the item just after the next
    /// record of one of these kinds (reactivating there).
    case reactivateAfterNext([RecordKind])
}

/// Whether an advice can be proved on a trace, and how.
public enum AdviceProof: Equatable, Sendable {
    /// The advice as edits; later lists are the catalogue's alternatives, offered when the first does
    /// not change the outcome.
    case edits([[AdviceEdit]])
    /// The advice cannot be expressed as edits of the trace, and why.
    case notExpressible(String)

    /// Whether a replay can check it.
    public var isVerifiable: Bool {
        switch self {
        case .edits: true
        case .notExpressible: false
        }
    }

    // Reasons shared by several codes.
    static let history = "the finding is raised by what the device or the SDK reported, which a replay with edits cannot re-create"
    static let settings = "the fix is outside the recorded calls (the app's Info.plist, the device, the user's settings)"
    static let sdkSide = "the advice is for the SDK's own code, which the trace records only as callbacks"
    static let none = "there is nothing for the app to change"
    static let deactivate = #"{"type":"obs.sessionDeactivated","notifyOthers":true,"ok":true}"#
}

extension FindingCode {
    /// How the code's advice is checked by replay (`rules CODE` states it).
    public var adviceProof: AdviceProof {
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
        case .layerTargetNotInCandidates: .notExpressible("which layer to ask for is the app's choice among those served")
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
    public var adviceProof: AdviceProof {
        switch self {
        case .notEngaged: .edits([[.moveAfterNext([.joinChannel, .enterMeeting])]])
        case .interrupted: .notExpressible("the request is applied at the recovery; the advice is about the UI")
        case .audioModuleDisabled: .edits([[.insertBefore(#"{"type":"api.setAudioModuleEnabled","enabled":true}"#)]])
        case .externalRouteActive: .notExpressible("the advice is about the UI: iOS gives the output back only when the external device goes")
        case .overrideActive: .edits([[.insertBefore(#"{"type":"api.clearRouteOverride"}"#)]])
        case .videoChatMode: .edits([[.mode("voiceChat")]])
        case .simulator, .micDenied: .notExpressible(AdviceProof.settings)
        case .targetNotInCandidates: .notExpressible("which layer to ask for is the app's choice among those served")
        case .engineNotSupported: .notExpressible("the stream vendor decides it, not a call")
        case .transportNotReady: .edits([[.moveAfterNext([.connState])]])
        case .webrtcError: .notExpressible("the signalling channel decides it")
        case .stateUnknown: .notExpressible("the advice is to replay the whole session")
        case .restarted: .notExpressible("the app's process restarted, which no edit of the calls undoes")
        }
    }
}
