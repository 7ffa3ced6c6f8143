/// A closed set of string values that a trace field may take.
public protocol TraceVocabulary: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {}

/// What an app can ask the route API for: only the two built-in outputs (R1).
public enum RouteTarget: String, TraceVocabulary {
    case speaker, earpiece

    /// The route this target produces when nothing overrides it.
    public var route: Route { self == .speaker ? .speaker : .receiver }
}

/// Where sound actually comes out: the SDK's five-state route.
public enum Route: String, TraceVocabulary {
    case speaker, receiver, bluetooth, headset, unknown

    /// Whether the route is an external device (bluetooth or wired headset).
    public var isExternal: Bool { self == .bluetooth || self == .headset }
}

/// The system's reason for a route change.
public enum RouteChangeReason: String, TraceVocabulary {
    case newDeviceAvailable, oldDeviceUnavailable, override, categoryChange, wakeFromSleep
    case noSuitableRouteForCategory, routeConfigurationChange, unknown
}

/// A connection-quality level, ordered best to worst for "worse of" (`unknown` sorts first).
public enum QualityLevel: String, TraceVocabulary, Comparable {
    case unknown, excellent, good, poor, lost

    /// Position in the contract's order `unknown` < `excellent` < `good` < `poor` < `lost`.
    public var rank: Int {
        switch self {
        case .unknown: 0
        case .excellent: 1
        case .good: 2
        case .poor: 3
        case .lost: 4
        }
    }

    /// Whether the level counts as a bad network (`poor` or `lost`).
    public var isBad: Bool { self == .poor || self == .lost }

    public static func < (lhs: QualityLevel, rhs: QualityLevel) -> Bool { lhs.rank < rhs.rank }
}

/// The product layer an app is written against; it decides the words of every report.
public enum Layer: String, TraceVocabulary {
    case srtc, smeeting
}

/// The kind of an external output device.
public enum DeviceKind: String, TraceVocabulary {
    case bluetooth, headset

    /// The route that plays through a device of this kind.
    public var route: Route { self == .bluetooth ? .bluetooth : .headset }
}

/// Microphone permission as the system reports it.
public enum MicPermission: String, TraceVocabulary {
    case granted, denied, undetermined
}

/// What began an audio-session interruption.
public enum InterruptionCause: String, TraceVocabulary {
    case systemCall, siri, otherApp, unknown
}

/// The system call state as CallKit reports it.
public enum CallState: String, TraceVocabulary {
    case idle, incoming, dialing, connected, held, disconnected

    /// Whether a system call is up (a reactivation now is bound to fail, I4).
    public var isCallUp: Bool {
        switch self {
        case .incoming, .dialing, .connected, .held: true
        case .idle, .disconnected: false
        }
    }
}

/// The app's own call as CallKit reports it (I7).
public enum CallKitEvent: String, TraceVocabulary {
    case answer, start, end, didActivate, didDeactivate

    /// Whether the event is an action that hands audio activation to CallKit (`answer`, `start`).
    public var opensActivationWindow: Bool { self == .answer || self == .start }
}

/// Who replaced a trace's personal values: the recorder on the device, or the `redact` command.
public enum RedactedBy: String, TraceVocabulary {
    case source, redact
}

/// App lifecycle state.
public enum AppState: String, TraceVocabulary {
    case foreground, background
}

/// The port passed to `overrideOutputAudioPort`.
public enum OverridePort: String, TraceVocabulary {
    case speaker, none
}

/// Which media engine a session uses.
public enum EngineVendor: String, TraceVocabulary {
    case seaStart, wangsu
}

/// The signalling transport state.
public enum ConnState: String, TraceVocabulary {
    case connecting, connected, reconnecting, disconnected
}

/// The verdict on an app call (contract, "Verdicts on calls").
public enum VerdictKind: String, TraceVocabulary {
    case applied, noop, deferred, ineffective, rejected
}

/// Why a call got a verdict other than `applied` or `noop`.
public enum VerdictCause: String, TraceVocabulary {
    case notEngaged, interrupted, audioModuleDisabled, externalRouteActive, overrideActive
    case simulator, micDenied, videoChatMode, targetNotInCandidates, engineNotSupported, transportNotReady
}

/// What became of a route call in the end (contract V2): its verdict when decided at the call, or
/// what happened later to a deferred one.
public enum OutcomeKind: String, TraceVocabulary {
    case applied, noop, ineffective, superseded, dropped, pending, rejected
}
