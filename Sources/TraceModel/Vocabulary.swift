/// A closed set of string values that a trace field may take.
public protocol TraceVocabulary: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {}

extension TraceVocabulary {
    /// Hashed by its case, not by its text: the replay counts findings, verdicts and fates keyed by these
    /// values for every one it meets, and hashing the spelling each time cost more than the count. Equal
    /// values are the same case, so the hash agrees with `==`.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        // A case without a payload is its one-byte tag (`VocabularyDecodingTests` holds the vocabularies to it).
        if MemoryLayout<Self>.size == 1 {
            hasher.combine(unsafeBitCast(self, to: UInt8.self))
        } else {
            hasher.combine(rawValue)
        }
    }
}

/// An open set of string values (contract T1): the values the format lists, and any other kept as it was
/// written (`unlisted`), so that a value iOS adds later is neither an error nor lost.
public protocol OpenVocabulary: RawRepresentable, Hashable, Sendable where RawValue == String {
    /// The values the format lists, in its order.
    static var listed: [Self] { get }
    /// A value the format does not list.
    static func unlisted(_ raw: String) -> Self
    /// The unlisted value's text, or nil for a listed value.
    var unlistedValue: String? { get }
    /// Whether an unlisted value is one the format documents all the same (a word iOS is known to send,
    /// or a documented pattern such as `reason5`): no personal text, so redaction keeps it.
    static func isDocumented(_ raw: String) -> Bool
}

extension OpenVocabulary {
    /// The listed value spelled `rawValue`, else `unlisted(rawValue)`: never fails. Inlinable, so that the
    /// decoder's copy is specialised to the vocabulary (unspecialised, the search boxed each value it tried).
    @inlinable
    public init(rawValue: String) {
        self = Self.listed.first { $0.rawValue == rawValue } ?? .unlisted(rawValue)
    }

    /// Whether the format lists this value.
    public var isListed: Bool { unlistedValue == nil }

    /// Only listed values, by default.
    public static func isDocumented(_ raw: String) -> Bool { false }

    /// Whether the value is a word of the format's vocabulary (listed or documented), which redaction
    /// keeps in clear; any other value of an open field may be anyone's text and becomes a token.
    public var keptInClear: Bool { unlistedValue.map(Self.isDocumented) ?? true }
}

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

/// The kind of an external output device (open: a kind iOS adds later is kept as `unlisted`, T1).
public enum DeviceKind: OpenVocabulary {
    case bluetooth, headset, airplay, carAudio
    case unlisted(String)

    public static let listed: [DeviceKind] = [.bluetooth, .headset, .airplay, .carAudio]

    /// A port type the system names (the recorder keeps a port type its table does not know as the kind).
    public static func isDocumented(_ raw: String) -> Bool { SystemVocabulary.portTypes.contains(raw) }

    /// The value as written in a trace.
    public var rawValue: String {
        switch self {
        case .bluetooth: "bluetooth"
        case .headset: "headset"
        case .airplay: "airplay"
        case .carAudio: "carAudio"
        case .unlisted(let raw): raw
        }
    }

    /// The unlisted value's text, or nil for a listed value.
    public var unlistedValue: String? {
        if case .unlisted(let raw) = self { return raw }
        return nil
    }

    /// The five-state route that plays through a device of this kind; nil for the kinds the five states
    /// have no value for (AirPlay, CarPlay, an unlisted kind: R14).
    public var route: Route? {
        switch self {
        case .bluetooth: .bluetooth
        case .headset: .headset
        case .airplay, .carAudio, .unlisted: nil
        }
    }

    /// The kind a connected device has: a port of `AirPlay` or `CarAudio` makes it that kind whatever
    /// the recorded kind says (R14; recorders before v3 wrote `bluetooth` for both).
    public static func of(kind: DeviceKind, port: String?) -> DeviceKind {
        switch port {
        case "AirPlay"?: .airplay
        case "CarAudio"?: .carAudio
        default: kind
        }
    }
}

/// Microphone permission as the system reports it (open, T1).
public enum MicPermission: OpenVocabulary {
    case granted, denied, undetermined
    case unlisted(String)

    public static let listed: [MicPermission] = [.granted, .denied, .undetermined]

    /// A permission code written as its number (the recorder's spelling of a code it cannot name).
    public static func isDocumented(_ raw: String) -> Bool { SystemVocabulary.isNumber(raw) }

    /// The value as written in a trace.
    public var rawValue: String {
        switch self {
        case .granted: "granted"
        case .denied: "denied"
        case .undetermined: "undetermined"
        case .unlisted(let raw): raw
        }
    }

    /// The unlisted value's text, or nil for a listed value.
    public var unlistedValue: String? {
        if case .unlisted(let raw) = self { return raw }
        return nil
    }
}

/// What began an audio-session interruption (open, T1: an unlisted reason reads as `unknown`).
public enum InterruptionCause: OpenVocabulary {
    case systemCall, siri, otherApp, unknown
    /// `AVAudioSession.InterruptionReason.appWasSuspended`: a stale interruption (I9).
    case appWasSuspended
    case unlisted(String)

    public static let listed: [InterruptionCause] = [.systemCall, .siri, .otherApp, .unknown, .appWasSuspended]

    /// A reason iOS sends that the format names (`builtInMicMuted`, …), or `reasonN` (one the recorder cannot name).
    public static func isDocumented(_ raw: String) -> Bool { SystemVocabulary.isInterruptionReason(raw) }

    /// The value as written in a trace.
    public var rawValue: String {
        switch self {
        case .systemCall: "systemCall"
        case .siri: "siri"
        case .otherApp: "otherApp"
        case .unknown: "unknown"
        case .appWasSuspended: "appWasSuspended"
        case .unlisted(let raw): raw
        }
    }

    /// The unlisted value's text, or nil for a listed value.
    public var unlistedValue: String? {
        if case .unlisted(let raw) = self { return raw }
        return nil
    }
}

/// The system call state as CallKit reports it (open, T1).
public enum CallState: OpenVocabulary {
    case idle, incoming, dialing, connected, held, disconnected
    case unlisted(String)

    public static let listed: [CallState] = [.idle, .incoming, .dialing, .connected, .held, .disconnected]

    /// The value as written in a trace.
    public var rawValue: String {
        switch self {
        case .idle: "idle"
        case .incoming: "incoming"
        case .dialing: "dialing"
        case .connected: "connected"
        case .held: "held"
        case .disconnected: "disconnected"
        case .unlisted(let raw): raw
        }
    }

    /// The unlisted value's text, or nil for a listed value.
    public var unlistedValue: String? {
        if case .unlisted(let raw) = self { return raw }
        return nil
    }

    /// Whether a system call is up (a reactivation now is bound to fail, I4).
    public var isCallUp: Bool {
        switch self {
        case .incoming, .dialing, .connected, .held: true
        case .idle, .disconnected, .unlisted: false
        }
    }
}

/// The app's own call as CallKit reports it (I7, I11; open, T1).
public enum CallKitEvent: OpenVocabulary {
    case answer, start, end, didActivate, didDeactivate
    /// CXSetHeldCallAction with `isOnHold` true / false (I11).
    case hold, unhold
    case unlisted(String)

    public static let listed: [CallKitEvent] = [.answer, .start, .end, .didActivate, .didDeactivate, .hold, .unhold]

    /// The value as written in a trace.
    public var rawValue: String {
        switch self {
        case .answer: "answer"
        case .start: "start"
        case .end: "end"
        case .didActivate: "didActivate"
        case .didDeactivate: "didDeactivate"
        case .hold: "hold"
        case .unhold: "unhold"
        case .unlisted(let raw): raw
        }
    }

    /// The unlisted value's text, or nil for a listed value.
    public var unlistedValue: String? {
        if case .unlisted(let raw) = self { return raw }
        return nil
    }

    /// Whether the event is an action that hands audio activation to CallKit (`answer`, `start`).
    public var opensActivationWindow: Bool { self == .answer || self == .start }
}

/// Who replaced a trace's personal values: the recorder on the device, or the `redact` command.
public enum RedactedBy: String, TraceVocabulary {
    case source, redact
}

/// App lifecycle state (open, T1).
public enum AppState: OpenVocabulary {
    case foreground, background
    case unlisted(String)

    public static let listed: [AppState] = [.foreground, .background]

    /// The value as written in a trace.
    public var rawValue: String {
        switch self {
        case .foreground: "foreground"
        case .background: "background"
        case .unlisted(let raw): raw
        }
    }

    /// The unlisted value's text, or nil for a listed value.
    public var unlistedValue: String? {
        if case .unlisted(let raw) = self { return raw }
        return nil
    }
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
    /// The state the call met is unknown (a part replayed without the parts before it and without a
    /// checkpoint), so no verdict can be derived from it.
    case undetermined
}

/// Why a call got a verdict other than `applied` or `noop`.
public enum VerdictCause: String, TraceVocabulary {
    case notEngaged, interrupted, audioModuleDisabled, externalRouteActive, overrideActive
    case simulator, micDenied, videoChatMode, targetNotInCandidates, engineNotSupported, transportNotReady
    /// A sent `switchLayer` failed on the signalling channel (L4): the outcome's cause, never a verdict's.
    case webrtcError
    /// The state before the part is unknown: the verdict is `undetermined`.
    case stateUnknown
}

/// What became of a route call in the end (contract V2): its verdict when decided at the call, or
/// what happened later to a deferred one.
public enum OutcomeKind: String, TraceVocabulary {
    case applied, noop, ineffective, superseded, dropped, pending, rejected
    /// The call's verdict is `undetermined`: what became of it cannot be decided either.
    case undetermined
}
