// What each verdict cause is in the contract: the rule behind it and the triage tag it gives, one row per
// cause (its words: CauseWording.swift).
import TraceModel

/// One row of the causes' table (`VerdictCause.info`).
package struct CauseInfo: Sendable {
    /// The rule behind the cause: the branch of the contract that made the call not take effect (none for
    /// an unknown state, which is no rule's doing).
    package let rule: RuleID?
    /// The triage tag a trace with a call of this cause gets.
    package let tag: TriageTag
}

extension VerdictCause {
    /// The cause's row of the table.
    package var info: CauseInfo {
        switch self {
        case .notEngaged: CauseInfo(rule: .R6, tag: .routeRequestBeforeCall)
        case .interrupted: CauseInfo(rule: .I1, tag: .routeRequestDuringInterruption)
        case .audioModuleDisabled: CauseInfo(rule: .R9, tag: .routeRequestWhileAudioModuleDisabled)
        case .externalRouteActive: CauseInfo(rule: .R4, tag: .speakerBlockedByExternalDevice)
        case .overrideActive: CauseInfo(rule: .R2, tag: .defaultShadowedByOverride)
        case .simulator: CauseInfo(rule: .R10, tag: .simulatorTrace)
        case .micDenied: CauseInfo(rule: .R7, tag: .micDeniedPlaybackOnly)
        case .videoChatMode: CauseInfo(rule: .R11, tag: .earpieceBlockedByVideoChatMode)
        case .targetNotInCandidates: CauseInfo(rule: .L2, tag: .layerTargetNotInCandidates)
        case .engineNotSupported: CauseInfo(rule: .L1, tag: .layerSwitchOnCDN)
        case .transportNotReady: CauseInfo(rule: .L1, tag: .layerSwitchBeforeConnected)
        case .webrtcError: CauseInfo(rule: .L4, tag: .layerSwitchNotSent)
        case .stateUnknown: CauseInfo(rule: nil, tag: .partialSession)
        case .restarted: CauseInfo(rule: .RS1, tag: .appRestarted)
        }
    }

    /// The rule behind the cause (`info.rule`).
    package var rule: RuleID? { info.rule }
    /// The triage tag of the cause (`info.tag`).
    package var tag: TriageTag { info.tag }
}
