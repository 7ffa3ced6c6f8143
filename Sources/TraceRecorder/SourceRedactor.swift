import TraceModel

/// Replaces personal values with keyed tokens before a record is written (`"redacted":"source"`).
///
/// The keying is `rtctrace redact`'s (`PersonalValue.token`), under a per-install salt. Unlike the
/// command, it sees one record at a time and cannot rank uids and track ids by their original order,
/// so tokens carry no rank (the contract lets `speakers.mismatch` ignore the order of equal levels in
/// such traces). Error texts that are bare identifiers (`engineNotSupported`) are codes, not personal,
/// and are kept; any other error text is replaced.
struct SourceRedactor {
    private let key: [UInt8]
    private var cache: [PersonalValue.Kind: [String: String]] = [:]
    private var cached = 0
    /// Values held in the token cache at most (a long meeting must not grow it without bound).
    static let cacheLimit = 4096

    init(salt: [UInt8]) { key = salt }

    /// The token for a value.
    mutating func token(_ kind: PersonalValue.Kind, _ value: String) -> String {
        if let t = cache[kind]?[value] { return t }
        let t = PersonalValue.token(key: key, kind: kind, value: value)
        // Log lines are mostly distinct: caching them would only evict the values that repeat.
        if kind != .logMessage && kind != .errorText {
            if cached >= Self.cacheLimit { cache.removeAll(keepingCapacity: true); cached = 0 }
            cache[kind, default: [:]][value] = t
            cached += 1
        }
        return t
    }

    private mutating func token(_ kind: PersonalValue.Kind, _ value: String?) -> String? { value.map { token(kind, $0) } }

    /// Whether an error text is a bare code (a letter, then letters, digits, `_` or `.`; at most 64 bytes).
    static func isCode(_ s: String) -> Bool {
        let u = s.utf8
        guard let first = u.first, u.count <= 64, (first | 0x20) >= 97 && (first | 0x20) <= 122 else { return false }
        return u.allSatisfy { b in (b | 0x20) >= 97 && (b | 0x20) <= 122 || b >= 48 && b <= 57 || b == 95 || b == 46 }
    }

    private mutating func errorText(_ s: String) -> String { Self.isCode(s) ? s : token(.errorText, s) }

    /// A route snapshot's `PORTTYPE:PORTNAME` with the name (the user-visible device name) replaced.
    private mutating func port(_ p: String) -> String {
        guard let colon = p.firstIndex(of: ":") else { return p }
        return String(p[...colon]) + token(.deviceName, String(p[p.index(after: colon)...]))
    }

    /// The body with every personal value replaced.
    mutating func redact(_ body: RecordBody) -> RecordBody {
        switch body {
        case .joinChannel(let channel): return .joinChannel(channel: token(.channel, channel))
        case .enterMeeting(let room): return .enterMeeting(room: token(.room, room))
        case .subscribe(let pub, let track, let layers):
            return .subscribe(pubUid: token(.uid, pub), trackId: token(.trackId, track), layers: layers.map { token(.trackId, $0) })
        case .switchLayer(let pub, let track, let target):
            return .switchLayer(pubUid: token(.uid, pub), trackId: token(.trackId, track), targetTrackId: token(.trackId, target))
        case .deviceConnected(let id, let kind, let name, let port):
            return .deviceConnected(id: token(.deviceId, id), kind: kind, name: token(.deviceName, name), port: port)
        case .deviceDisconnected(let id): return .deviceDisconnected(id: token(.deviceId, id))
        case .routeSnapshot(let route, let ports): return .routeSnapshot(route: route, ports: ports.map { $0.map { port($0) } })
        case .sessionActivated(var a):
            a.error = a.error.map { errorText($0) }
            return .sessionActivated(a)
        case .sdkActiveSpeakers(let speakers): return .sdkActiveSpeakers(speakers: speakers.map { speaker($0) })
        case .speakers(let speaking, let stopped):
            return .speakers(speaking: speaking.map { speaker($0) },
                             stopped: stopped.map { SpeakerKey(uid: token(.uid, $0.uid), trackId: token(.trackId, $0.trackId)) })
        case .sdkLayerSwitched(let s): return .sdkLayerSwitched(layerSwitch(s))
        case .srvLayerSwitched(let s): return .srvLayerSwitched(layerSwitch(s))
        case .sdkError(let api, let error): return .sdkError(api: api, error: errorText(error))
        case .sdkLog(let level, let message): return .sdkLog(level: level, message: token(.logMessage, message))
        default: return body
        }
    }

    private mutating func speaker(_ s: Speaker) -> Speaker {
        Speaker(uid: token(.uid, s.uid), trackId: token(.trackId, s.trackId), level: s.level)
    }

    private mutating func layerSwitch(_ s: LayerSwitch) -> LayerSwitch {
        var o = s
        o.pubUid = token(.uid, s.pubUid)
        o.trackId = token(.trackId, s.trackId)
        o.fromTrackId = token(.trackId, s.fromTrackId)
        o.toTrackId = token(.trackId, s.toTrackId)
        return o
    }
}
