import TraceModel

/// Replaces personal data in records with stable keyed tokens: the same value of the same kind
/// always gives the same token under the same salt, so the replay's verdicts, divergences and
/// findings do not change. Record structure, `seq` and `t` are kept exactly.
///
/// A token is `PREFIX-` + the first 8 hex digits of HMAC-SHA256(salt, kind NUL value). Uids and
/// track ids also carry their rank among the trace's values (`uid-03-3fa2b1c9`), because the engines
/// order active speakers by uid and track id on ties (S2): tokens sort as the originals did.
public final class Redactor {
    /// What kind of personal value a field holds (shared with the recorder's source redaction).
    public typealias Kind = PersonalValue.Kind

    /// The salt used when none is given. Public and fixed: anyone can rebuild the token of a guessed
    /// value, so a per-case salt (kept with the case, not the trace) is better.
    public static let defaultSalt = "rtctrace-redact-v1"

    private let key: [UInt8]
    private var cache: [Kind: [String: String]] = [:]
    private var ranks: [Kind: [String: Int]] = [:]
    private var rankWidth: [Kind: Int] = [:]
    /// Fields changed so far, by kind.
    public private(set) var changed: [Kind: Int] = [:]

    /// Creates a redactor with a salt (the HMAC key).
    public init(salt: String = Redactor.defaultSalt) {
        key = Array(salt.utf8)
    }

    /// Learns the uids and track ids of records (a first pass), so their tokens keep their order.
    public func learn(_ record: Record) {
        forEachOrdered(record) { kind, value in
            if ranks[kind, default: [:]][value] == nil { ranks[kind, default: [:]][value] = 0 }
        }
    }

    /// Fixes the ranks of the learned values; call once after `learn` and before `redact`.
    public func finishLearning() {
        for (kind, values) in ranks {
            let sorted = values.keys.sorted()
            var table: [String: Int] = [:]
            for (i, v) in sorted.enumerated() { table[v] = i + 1 }
            ranks[kind] = table
            rankWidth[kind] = max(2, String(sorted.count).count)
        }
        cache.removeAll()
    }

    /// The token for a value of a kind.
    public func token(_ kind: Kind, _ value: String) -> String {
        if let t = cache[kind]?[value] { return t }
        var rankText: String?
        if let rank = ranks[kind]?[value], let width = rankWidth[kind] {
            let digits = String(rank)
            rankText = String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let t = PersonalValue.token(key: key, kind: kind, value: value, rank: rankText)
        // Log messages are mostly distinct: caching them would grow with the trace.
        if kind != .logMessage && kind != .errorText { cache[kind, default: [:]][value] = t }
        return t
    }

    func map(_ kind: Kind, _ value: String) -> String {
        changed[kind, default: 0] += 1
        return token(kind, value)
    }

    func map(_ kind: Kind, _ value: String?) -> String? { value.map { map(kind, $0) } }

    /// The record with every personal value replaced.
    public func redact(_ r: Record) -> Record {
        var out = r
        switch r.body {
        case .header(var h):
            h.app.bundleId = map(.bundleId, h.app.bundleId)
            if let s = h.session { h.session = .init(id: map(.sessionId, s.id), part: s.part) }
            // The header says who redacted; a trace redacted at the source keeps saying so (its uid order is lost).
            h.redacted = h.redacted ?? .redact
            out.body = .header(h)
        case .joinChannel(let channel): out.body = .joinChannel(channel: map(.channel, channel))
        case .enterMeeting(let room): out.body = .enterMeeting(room: map(.room, room))
        case .subscribe(let pub, let track, let layers):
            out.body = .subscribe(pubUid: map(.uid, pub), trackId: map(.trackId, track), layers: layers.map { map(.trackId, $0) })
        case .switchLayer(let pub, let track, let target):
            out.body = .switchLayer(pubUid: map(.uid, pub), trackId: map(.trackId, track), targetTrackId: map(.trackId, target))
        case .deviceConnected(let id, let kind, let name, let port):
            out.body = .deviceConnected(id: map(.deviceId, id), kind: kind, name: map(.deviceName, name), port: port.map(portType))
        case .routeSnapshot(let route, let ports):
            out.body = .routeSnapshot(route: route, ports: ports?.map(portEntry))
        case .sdkError(let api, let error):
            out.body = .sdkError(api: api, error: errorText(error))
        case .sessionActivated(var a):
            if let e = a.error {
                a.error = errorText(e)
                out.body = .sessionActivated(a)
            }
        case .deviceDisconnected(let id): out.body = .deviceDisconnected(id: map(.deviceId, id))
        case .sdkActiveSpeakers(let speakers): out.body = .sdkActiveSpeakers(speakers: speakers.map(redact))
        case .speakers(let speaking, let stopped):
            out.body = .speakers(speaking: speaking.map(redact), stopped: stopped.map(redact))
        case .sdkLayerSwitched(let s): out.body = .sdkLayerSwitched(redact(s))
        case .srvLayerSwitched(let s): out.body = .srvLayerSwitched(redact(s))
        case .sdkLog(let level, let message): out.body = .sdkLog(level: level, message: map(.logMessage, message))
        case .expect(var e):
            if case .speakers(let keys) = e.kind {
                e.kind = .speakers(keys.map(redact))
                out.body = .expect(e)
            }
        case .unknown(let type, let json):
            // Fields of an unknown type cannot be judged: keep only seq, t and type.
            var w = JSONWriter()
            w.beginObject()
            w.key("seq"); w.int(r.seq)
            w.key("t"); w.int(r.t)
            w.key("type"); w.string(type)
            w.endObject()
            if w.string != json { changed[.unknownRecord, default: 0] += 1 }
            out.body = .unknown(type: type, json: w.string)
        default: break
        }
        return out
    }

    /// A port type is vocabulary; anything else in a port field is a name a user gave a device.
    private func portType(_ port: String) -> String {
        SystemVocabulary.portTypes.contains(port) ? port : map(.portName, port)
    }

    /// `PORTTYPE:PORTNAME` keeps the type and replaces the name (often the owner's own name).
    private func portEntry(_ entry: String) -> String {
        guard let colon = entry.firstIndex(of: ":") else { return portType(entry) }
        let type = String(entry[..<colon])
        let name = String(entry[entry.index(after: colon)...])
        return portType(type) + ":" + map(.deviceName, name)
    }

    /// An error text keeps a known error code at its start; the rest (addresses, emails, raw uids) is
    /// replaced.
    private func errorText(_ text: String) -> String {
        guard let code = SystemVocabulary.leadingErrorCode(text) else { return map(.errorText, text) }
        let rest = text.dropFirst(code.count)
        return rest.isEmpty ? String(code) : String(code) + ": " + map(.errorText, String(rest))
    }

    private func redact(_ s: Speaker) -> Speaker {
        Speaker(uid: map(.uid, s.uid), trackId: map(.trackId, s.trackId), level: s.level)
    }

    private func redact(_ k: SpeakerKey) -> SpeakerKey {
        SpeakerKey(uid: map(.uid, k.uid), trackId: map(.trackId, k.trackId))
    }

    private func redact(_ s: LayerSwitch) -> LayerSwitch {
        var o = s
        o.pubUid = map(.uid, s.pubUid)
        o.trackId = map(.trackId, s.trackId)
        o.fromTrackId = map(.trackId, s.fromTrackId)
        o.toTrackId = map(.trackId, s.toTrackId)
        return o
    }

    /// Calls `body` for every uid and track id in a record (the values whose order matters).
    private func forEachOrdered(_ r: Record, _ body: (Kind, String) -> Void) {
        func speaker(_ uid: String, _ track: String) { body(.uid, uid); body(.trackId, track) }
        func layer(_ s: LayerSwitch) {
            speaker(s.pubUid, s.trackId)
            if let f = s.fromTrackId { body(.trackId, f) }
            body(.trackId, s.toTrackId)
        }
        switch r.body {
        case .subscribe(let pub, let track, let layers):
            speaker(pub, track)
            for l in layers { body(.trackId, l) }
        case .switchLayer(let pub, let track, let target):
            speaker(pub, track)
            body(.trackId, target)
        case .sdkActiveSpeakers(let list): for s in list { speaker(s.uid, s.trackId) }
        case .speakers(let speaking, let stopped):
            for s in speaking { speaker(s.uid, s.trackId) }
            for s in stopped { speaker(s.uid, s.trackId) }
        case .sdkLayerSwitched(let s), .srvLayerSwitched(let s): layer(s)
        case .expect(let e):
            if case .speakers(let keys) = e.kind { for k in keys { speaker(k.uid, k.trackId) } }
        default: break
        }
    }
}
