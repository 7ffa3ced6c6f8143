/// One line of a trace: its position, its time and what happened.
public struct Record: Equatable, Sendable {
    /// Position in the trace; strictly increasing by 1.
    public var seq: Int
    /// Milliseconds since the trace started (monotonic clock).
    public var t: Int64
    /// The typed content of the record.
    public var body: RecordBody

    /// Creates a record.
    public init(seq: Int, t: Int64, _ body: RecordBody) {
        self.seq = seq
        self.t = t
        self.body = body
    }

    /// The record's `type` string, e.g. `api.setRoute`.
    public var type: String { body.type }

    /// The largest `t` a record may carry: 2^53 ms, the largest integer every JSON reader holds exactly
    /// (contract v2: a record outside 0…2^53 is undecodable).
    public static let maxT: Int64 = 1 << 53
}

/// The typed content of a record, one case per record type of the trace format.
public enum RecordBody: Equatable, Sendable {
    indirect case header(TraceHeader)
    // api.*
    case joinChannel(channel: String)
    case leaveChannel
    case enterMeeting(room: String)
    case exitMeeting
    case setDefaultRoute(target: RouteTarget)
    case setRoute(target: RouteTarget, api: String?)
    case clearRouteOverride
    case setAudioModuleEnabled(enabled: Bool)
    case subscribe(pubUid: String, trackId: String, layers: [String])
    case switchLayer(pubUid: String, trackId: String, targetTrackId: String)
    // os.*
    case deviceConnected(id: String, kind: DeviceKind, name: String?, port: String?)
    case deviceDisconnected(id: String)
    case micPermission(status: MicPermission)
    case interruptionBegan(cause: InterruptionCause?)
    case interruptionEnded(shouldResume: Bool?)
    case callState(state: CallState)
    case appState(state: AppState)
    case mediaServicesReset
    case callKit(event: CallKitEvent, callId: String?)
    // obs.*
    case routeChanged(route: Route, previousRoute: Route, reason: RouteChangeReason)
    case routeSnapshot(route: Route, ports: [String]?)
    case sessionActivated(SessionActivation)
    case sessionDeactivated(notifyOthers: Bool)
    case overrideOutput(port: OverridePort)
    // sdk.*
    case sdkInterrupted
    case sdkRecovered
    case sdkCallStateChanged(state: CallState)
    case sdkQualityChanged(overall: QualityLevel, previous: QualityLevel, mos: Double?)
    case sdkActiveSpeakers(speakers: [Speaker])
    indirect case sdkLayerSwitched(LayerSwitch)
    case sdkError(api: String, error: String)
    case sdkLog(level: String, message: String)
    // conn.*, srv.*
    case connEngine(vendor: EngineVendor)
    case connState(state: ConnState)
    case qualityReport(pub: QualitySample, sub: QualitySample)
    case speakers(speaking: [Speaker], stopped: [SpeakerKey])
    indirect case srvLayerSwitched(LayerSwitch)
    // trace.*
    /// The recorder dropped `count` records made between `fromT` and `toT` (its queue was full); since version 2.
    case dropped(count: Int, fromT: Int64, toT: Int64)
    // expect.*
    indirect case expect(Expectation)
    /// A record whose `type` this version does not know; kept whole as its JSON text.
    case unknown(type: String, json: String)

    /// The record's `type` string.
    public var type: String {
        switch self {
        case .header: "trace.header"
        case .joinChannel: "api.joinChannel"
        case .leaveChannel: "api.leaveChannel"
        case .enterMeeting: "api.enterMeeting"
        case .exitMeeting: "api.exitMeeting"
        case .setDefaultRoute: "api.setDefaultRoute"
        case .setRoute: "api.setRoute"
        case .clearRouteOverride: "api.clearRouteOverride"
        case .setAudioModuleEnabled: "api.setAudioModuleEnabled"
        case .subscribe: "api.subscribe"
        case .switchLayer: "api.switchLayer"
        case .deviceConnected: "os.deviceConnected"
        case .deviceDisconnected: "os.deviceDisconnected"
        case .micPermission: "os.micPermission"
        case .interruptionBegan: "os.interruptionBegan"
        case .interruptionEnded: "os.interruptionEnded"
        case .callState: "os.callState"
        case .appState: "os.appState"
        case .mediaServicesReset: "os.mediaServicesReset"
        case .callKit: "os.callKit"
        case .routeChanged: "obs.routeChanged"
        case .routeSnapshot: "obs.routeSnapshot"
        case .sessionActivated: "obs.sessionActivated"
        case .sessionDeactivated: "obs.sessionDeactivated"
        case .overrideOutput: "obs.overrideOutput"
        case .sdkInterrupted: "sdk.interrupted"
        case .sdkRecovered: "sdk.recovered"
        case .sdkCallStateChanged: "sdk.callStateChanged"
        case .sdkQualityChanged: "sdk.qualityChanged"
        case .sdkActiveSpeakers: "sdk.activeSpeakers"
        case .sdkLayerSwitched: "sdk.layerSwitched"
        case .sdkError: "sdk.error"
        case .sdkLog: "sdk.log"
        case .connEngine: "conn.engine"
        case .connState: "conn.state"
        case .qualityReport: "srv.qualityReport"
        case .speakers: "srv.speakers"
        case .srvLayerSwitched: "srv.layerSwitched"
        case .dropped: "trace.dropped"
        case .expect(let e): e.type
        case .unknown(let type, _): type
        }
    }

    /// Whether this is an `api.*` call that gets a verdict.
    public var isVerdictCall: Bool {
        switch self {
        case .setRoute, .setDefaultRoute, .clearRouteOverride, .switchLayer: true
        default: false
        }
    }
}

/// An `obs.sessionActivated` record's content.
public struct SessionActivation: Equatable, Sendable {
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
    private var values: (Double, Double, Double, Double, Double, Double)

    /// The marker for an absent value (decoded values are always finite).
    private static let absent = Double.nan

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

    /// Creates a sample.
    public init(level: QualityLevel, score: Double? = nil, mos: Double? = nil, loss: Double? = nil,
                rtt: Double? = nil, jitter: Double? = nil, bitrate: Double? = nil) {
        self.level = level
        values = (score ?? Self.absent, mos ?? Self.absent, loss ?? Self.absent, rtt ?? Self.absent,
                  jitter ?? Self.absent, bitrate ?? Self.absent)
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
