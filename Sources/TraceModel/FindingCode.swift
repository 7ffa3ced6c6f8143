// The stable finding codes as identifiers: what golden traces expect and reports print (their meaning: Contract).

/// A stable diagnostic code; the raw value is the code reports print and golden traces expect.
public enum FindingCode: String, TraceVocabulary, Comparable, CustomStringConvertible {
    case routeIneffective = "route.ineffective"
    case routeDivergence = "route.divergence"
    case interruptionNotRecovered = "interruption.notRecovered"
    case interruptionPrematureReactivation = "interruption.prematureReactivation"
    case interruptionRecoveredWithoutActivation = "interruption.recoveredWithoutActivation"
    case interruptionEndNeverArrived = "interruption.endNeverArrived"
    case audioModuleLeftDisabled = "audioModule.leftDisabled"
    case audioModuleDisabledWhileSpeaking = "audioModule.disabledWhileSpeaking"
    case sessionMissingNotifyOthers = "session.missingNotifyOthers"
    case sessionMissingAllowBluetooth = "session.missingAllowBluetooth"
    case sessionMissingDefaultToSpeaker = "session.missingDefaultToSpeaker"
    case sessionWrongMode = "session.wrongMode"
    case sessionChangedByOtherComponent = "session.changedByOtherComponent"
    case sessionNotRebuiltAfterReset = "session.notRebuiltAfterReset"
    case callkitActivatedBeforeDidActivate = "callkit.activatedBeforeDidActivate"
    case callkitNoDidActivate = "callkit.noDidActivate"
    case appMissingMicUsageDescription = "app.missingMicUsageDescription"
    case appMissingBackgroundAudio = "app.missingBackgroundAudio"
    case deviceSimulator = "device.simulator"
    case qualitySpuriousChange = "quality.spuriousChange"
    case qualityMissedChange = "quality.missedChange"
    case qualityFlapping = "quality.flapping"
    case speakersMismatch = "speakers.mismatch"
    case layerTargetNotInCandidates = "layer.targetNotInCandidates"
    case layerSwitchNotConfirmed = "layer.switchNotConfirmed"
    case traceLimitExceeded = "trace.limitExceeded"
    // Contract v3
    case routeOverrideFlushed = "route.overrideFlushed"
    case sessionCallPathNotUp = "session.callPathNotUp"
    case sessionNotDeactivated = "session.notDeactivated"
    case interruptionRecoveredEarly = "interruption.recoveredEarly"
    case interruptionNeverRecovered = "interruption.neverRecovered"
    case callkitNoReactivation = "callkit.noReactivation"
    case callkitBuiltInRouteChosen = "callkit.builtInRouteChosen"
    case interruptionNoInterruptedCallback = "interruption.noInterruptedCallback"
    case interruptionNoRecoveredCallback = "interruption.noRecoveredCallback"
    case interruptionDuplicateRecovered = "interruption.duplicateRecovered"
    case speakersMissedSnapshot = "speakers.missedSnapshot"
    case layerSwitchNotSent = "layer.switchNotSent"
    case traceUnknownValue = "trace.unknownValue"
    case traceValueOutOfRange = "trace.valueOutOfRange"
    case deviceNotIOS = "device.notIOS"
    // Sessions in parts
    case traceCheckpointMismatch = "trace.checkpointMismatch"

    /// The code as written, e.g. `route.ineffective`.
    public var description: String { rawValue }

    /// Catalogue order (the order of `allCases`).
    public static func < (a: FindingCode, b: FindingCode) -> Bool { a.order < b.order }

    private var order: Int { Self.allCases.firstIndex(of: self)! }

    /// The family before the dot (`route`, `session`, …).
    public var family: FindingFamily { FindingFamily(rawValue: String(rawValue.prefix { $0 != "." }))! }
}

/// The family of a finding code, the word before its dot: which part of the contract raised it.
public enum FindingFamily: String, CaseIterable, Sendable {
    case route, interruption, audioModule, session, callkit, app, device, quality, speakers, layer, trace

    /// Whether the route engine raises codes of this family (the families R16 turns off on macOS).
    public var isRouteEngine: Bool {
        switch self {
        case .route, .interruption, .session, .callkit, .audioModule, .app, .device: true
        case .quality, .speakers, .layer, .trace: false
        }
    }
}
