// The values records carry: session activations, quality samples, speakers, layer switches.

/// An `obs.sessionActivated` record's content.
public struct SessionActivation: Equatable, Sendable {
    /// Categories and modes the format lists (T1: any other is kept, and warned about once).
    public static let listedCategories: Set<String> = ["playAndRecord", "playback", "record", "ambient", "soloAmbient", "multiRoute"]
    public static let listedModes: Set<String> = ["default", "voiceChat", "videoChat", "gameChat", "measurement", "moviePlayback",
                                                  "spokenAudio", "videoRecording", "voicePrompt"]

    /// Whether activation succeeded.
    public var ok: Bool
    /// The error when it failed.
    public var error: String?
    /// The `AVAudioSession` category, e.g. `playAndRecord`.
    public var category: String?
    /// The mode, e.g. `voiceChat`.
    public var mode: String?
    /// Category options, e.g. `allowBluetooth`.
    public var options: [String]
    /// Creates an activation; `allowBluetoothHFP` (the option's newer name) is read as `allowBluetooth`.
    public init(ok: Bool, error: String? = nil, category: String? = nil, mode: String? = nil, options: [String] = []) {
        self.ok = ok
        self.error = error
        self.category = category
        self.mode = mode
        self.options = options.contains("allowBluetoothHFP")
            ? options.map { $0 == "allowBluetoothHFP" ? "allowBluetooth" : $0 } : options
    }

    /// Whether this is a successful `playAndRecord` activation (a *call session*).
    public var isCallSession: Bool { ok && category == "playAndRecord" }

    /// Whether the mode is one of the two chat modes, which imply echo cancellation and `allowBluetooth`.
    public var isChatMode: Bool { mode == "voiceChat" || mode == "videoChat" }

    /// Whether the session has `option`, as its own or applied by iOS for its mode (R11): `allowBluetooth`
    /// in `voiceChat`, `allowBluetooth` and `defaultToSpeaker` in `videoChat`.
    public func has(_ option: String) -> Bool {
        if options.contains(option) { return true }
        switch option {
        case "allowBluetooth": return isChatMode
        case "defaultToSpeaker": return mode == "videoChat"
        default: return false
        }
    }
}

/// One server or SDK quality sample (`pub` or `sub`).
///
/// The optional measurements are stored as plain Doubles with a NaN marker for "absent", so a
/// sample (and a quality report record, the most frequent kind) stays small to copy.
public struct QualitySample: Equatable, Sendable {
    /// The server's level.
    public var level: QualityLevel
    @usableFromInline var values: (Double, Double, Double, Double, Double, Double)

    /// The marker for an absent value (decoded values are always finite).
    @inlinable static var absent: Double { .nan }

    @inline(__always) private static func get(_ v: Double) -> Double? { v.isNaN ? nil : v }

    /// Score 0–100.
    public var score: Double? { get { Self.get(values.0) } set { values.0 = newValue ?? Self.absent } }
    /// Mean opinion score 1.0–4.5.
    public var mos: Double? { get { Self.get(values.1) } set { values.1 = newValue ?? Self.absent } }
    /// Packet loss ratio 0–1.
    public var loss: Double? { get { Self.get(values.2) } set { values.2 = newValue ?? Self.absent } }
    /// Round-trip time, ms.
    public var rtt: Double? { get { Self.get(values.3) } set { values.3 = newValue ?? Self.absent } }
    /// Jitter, ms.
    public var jitter: Double? { get { Self.get(values.4) } set { values.4 = newValue ?? Self.absent } }
    /// Bitrate, kbps.
    public var bitrate: Double? { get { Self.get(values.5) } set { values.5 = newValue ?? Self.absent } }

    /// Creates a sample. Inlinable: the decoder builds one per `pub` and `sub` of the most frequent record.
    @inlinable
    public init(level: QualityLevel, score: Double? = nil, mos: Double? = nil, loss: Double? = nil,
                rtt: Double? = nil, jitter: Double? = nil, bitrate: Double? = nil) {
        self.level = level
        values = (score ?? Self.absent, mos ?? Self.absent, loss ?? Self.absent, rtt ?? Self.absent,
                  jitter ?? Self.absent, bitrate ?? Self.absent)
    }

    /// Creates a sample from its measurements in the order of its members (score, mos, loss, rtt, jitter,
    /// bitrate), NaN where one is absent: what the decoder reads.
    @inlinable
    package init(level: QualityLevel, values: (Double, Double, Double, Double, Double, Double)) {
        self.level = level
        self.values = values
    }

    public static func == (a: QualitySample, b: QualitySample) -> Bool {
        a.level == b.level && a.score == b.score && a.mos == b.mos && a.loss == b.loss && a.rtt == b.rtt
            && a.jitter == b.jitter && a.bitrate == b.bitrate
    }
}

/// Identifies one audio track of one user.
public struct SpeakerKey: Hashable, Sendable, Comparable {
    /// User id.
    public var uid: String
    /// Track id.
    public var trackId: String
    /// Creates a key.
    public init(uid: String, trackId: String) {
        self.uid = uid
        self.trackId = trackId
    }

    public static func < (a: SpeakerKey, b: SpeakerKey) -> Bool {
        a.uid != b.uid ? a.uid < b.uid : a.trackId < b.trackId
    }
}

/// An active speaker with its normalised level (0–1).
public struct Speaker: Equatable, Sendable {
    /// User id.
    public var uid: String
    /// Track id.
    public var trackId: String
    /// Normalised linear volume 0–1.
    public var level: Double
    /// Creates a speaker entry.
    public init(uid: String, trackId: String, level: Double) {
        self.uid = uid
        self.trackId = trackId
        self.level = level
    }

    /// The (uid, trackId) key.
    public var key: SpeakerKey { SpeakerKey(uid: uid, trackId: trackId) }
}

/// A simulcast layer switch as the server or the SDK reported it.
public struct LayerSwitch: Equatable, Sendable {
    /// Publisher's uid.
    public var pubUid: String
    /// The stable subscription handle.
    public var trackId: String
    /// The layer switched from.
    public var fromTrackId: String?
    /// The layer switched to.
    public var toTrackId: String
    /// Server reason: `bwe_down`, `bwe_up`, `client`, …
    public var reason: String
    /// Time the switch took.
    public var latencyMs: Double?
    /// Creates a layer switch.
    public init(pubUid: String, trackId: String, fromTrackId: String? = nil, toTrackId: String,
                reason: String, latencyMs: Double? = nil) {
        self.pubUid = pubUid
        self.trackId = trackId
        self.fromTrackId = fromTrackId
        self.toTrackId = toTrackId
        self.reason = reason
        self.latencyMs = latencyMs
    }
}
