// The stable finding codes as identifiers: what golden traces expect and reports print (their meaning: Contract).

/// A stable diagnostic code; the raw value is the code reports print and golden traces expect.
public enum FindingCode: String, CaseIterable, Sendable, Comparable, CustomStringConvertible {
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

    /// The code as written, e.g. `route.ineffective`.
    public var description: String { rawValue }

    /// Catalogue order (the order of `allCases`).
    public static func < (a: FindingCode, b: FindingCode) -> Bool { a.order < b.order }

    private var order: Int { Self.allCases.firstIndex(of: self)! }

    /// The family before the dot (`route`, `session`, …).
    public var family: String { String(rawValue.prefix { $0 != "." }) }
}
