/// The reference decoding path: `Decodable` conformances used with Foundation's `JSONDecoder`.
///
/// The fast `RecordDecoder` must produce exactly the records this path produces; a test compares
/// both over the golden corpus and random records, and the benchmark measures one against the other.
/// (An unknown type's `json` holds the line as given, so it is only comparable for known types.)
import TraceModel

extension Record: Decodable {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
        init(_ s: String) { stringValue = s }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let seq = try c.decode(Int.self, forKey: Key("seq"))
        guard seq >= 0 else { throw DecodingError.dataCorruptedError(forKey: Key("seq"), in: c, debugDescription: "negative seq") }
        let t = try c.decode(Int64.self, forKey: Key("t"))
        guard t >= 0, t <= Record.maxT else { throw DecodingError.dataCorruptedError(forKey: Key("t"), in: c, debugDescription: "t outside 0…2^53") }
        self.init(seq: seq, t: t, try RecordBody.decode(type: try c.decode(String.self, forKey: Key("type")), c),
                  late: try c.decodeIfPresent(Bool.self, forKey: Key("late")) ?? false)
    }
}

private typealias C = KeyedDecodingContainer<Record.Key>
private typealias K = Record.Key

private extension KeyedDecodingContainer where K == Record.Key {
    func str(_ k: String) throws -> String { try decode(String.self, forKey: K(k)) }
    func optStr(_ k: String) throws -> String? { try decodeIfPresent(String.self, forKey: K(k)) }
    func bool(_ k: String) throws -> Bool { try decode(Bool.self, forKey: K(k)) }
    func optBool(_ k: String) throws -> Bool? { try decodeIfPresent(Bool.self, forKey: K(k)) }
    func optDouble(_ k: String) throws -> Double? { try decodeIfPresent(Double.self, forKey: K(k)) }
    func voc<E: TraceVocabulary>(_ k: String) throws -> E {
        let raw = try str(k)
        guard let v = E(rawValue: raw) else { throw DecodingError.dataCorruptedError(forKey: K(k), in: self, debugDescription: "unknown value \(raw)") }
        return v
    }
    func optVoc<E: TraceVocabulary>(_ k: String) throws -> E? {
        guard let raw = try optStr(k) else { return nil }
        guard let v = E(rawValue: raw) else { throw DecodingError.dataCorruptedError(forKey: K(k), in: self, debugDescription: "unknown value \(raw)") }
        return v
    }
    func ovoc<E: OpenVocabulary>(_ k: String) throws -> E { E(rawValue: try str(k)) }
    func optOvoc<E: OpenVocabulary>(_ k: String) throws -> E? { try optStr(k).map { E(rawValue: $0) } }
    func nested(_ k: String) throws -> C { try nestedContainer(keyedBy: K.self, forKey: K(k)) }
    func list(_ k: String) throws -> [C] {
        var u = try nestedUnkeyedContainer(forKey: K(k))
        var out: [C] = []
        while !u.isAtEnd { out.append(try u.nestedContainer(keyedBy: K.self)) }
        return out
    }
    func isNull(_ k: String) -> Bool { contains(K(k)) && ((try? decodeNil(forKey: K(k))) ?? false) }
    /// A seq member that may be null (none) or absent (not asserted).
    func ref(_ k: String) -> Expectation.RecordRef? {
        guard contains(K(k)) else { return nil }
        return isNull(k) ? Expectation.RecordRef.none : (try? decode(Int.self, forKey: K(k))).map { .seq($0) }
    }
}

private func refSample(_ c: C) throws -> QualitySample {
    QualitySample(level: try c.voc("level"), score: try c.optDouble("score"), mos: try c.optDouble("mos"), loss: try c.optDouble("loss"),
                  rtt: try c.optDouble("rtt"), jitter: try c.optDouble("jitter"), bitrate: try c.optDouble("bitrate"))
}

private func speaker(_ c: C) throws -> Speaker {
    Speaker(uid: try c.str("uid"), trackId: try c.str("trackId"), level: try c.decode(Double.self, forKey: K("level")))
}

private func key(_ c: C) throws -> SpeakerKey { SpeakerKey(uid: try c.str("uid"), trackId: try c.str("trackId")) }

private func refLayerSwitch(_ c: C) throws -> LayerSwitch {
    LayerSwitch(pubUid: try c.str("pubUid"), trackId: try c.str("trackId"), fromTrackId: try c.optStr("fromTrackId"),
                toTrackId: try c.str("toTrackId"), reason: try c.str("reason"), latencyMs: try c.optDouble("latencyMs"))
}

private func refCheckpoint(_ c: C) throws -> TraceCheckpoint {
    var cp = TraceCheckpoint(defaultRoute: try c.voc("defaultRoute"), override: c.isNull("override") ? nil : try c.optVoc("override"),
                             engaged: try c.bool("engaged"), audioModuleEnabled: try c.bool("audioModuleEnabled"),
                             micPermission: try c.ovoc("micPermission"))
    cp.devices = try c.list("devices").map {
        TraceCheckpoint.Device(id: try $0.str("id"), kind: try $0.ovoc("kind"), name: try $0.optStr("name"), port: try $0.optStr("port"))
    }
    cp.currentRoute = c.isNull("currentRoute") ? nil : try c.optVoc("currentRoute")
    cp.callState = try c.ovoc("callState")
    cp.appState = try c.ovoc("appState")
    cp.interrupted = try c.bool("interrupted")
    if c.contains(K("transport")) && !c.isNull("transport") {
        let t = try c.nested("transport")
        cp.transport = .init(engine: try t.voc("engine"), state: try t.voc("state"))
    }
    if c.contains(K("session")) && !c.isNull("session") {
        let s = try c.nested("session")
        cp.session = .init(category: try s.str("category"), mode: try s.str("mode"), options: try s.decodeIfPresent([String].self, forKey: K("options")) ?? [])
    }
    return cp
}

private func refSystem(_ c: C, _ event: SystemLogRecord.Event) throws -> SystemLogRecord {
    SystemLogRecord(event, process: try c.str("process"), pid: try c.decodeIfPresent(Int.self, forKey: K("pid")), session: try c.optStr("session"),
                    wall: try c.str("wall"), isSelf: try c.bool("self"), timeSource: try c.voc("timeSource"),
                    uncertaintyMs: try c.decodeIfPresent(Int64.self, forKey: K("uncertaintyMs")))
}

extension RecordBody {
    fileprivate static func decode(type: String, _ c: C) throws -> RecordBody {
        switch type {
        case "trace.header":
            guard try c.str("format") == "rtctrace", try c.decode(Int.self, forKey: K("version")) == 1 else {
                throw DecodingError.dataCorruptedError(forKey: K("format"), in: c, debugDescription: "not an rtctrace v1 header")
            }
            var h = TraceHeader(layer: try c.voc("layer"), sdk: try c.optStr("sdk"), startedAt: try c.optStr("startedAt"),
                                initialDefaultRoute: try c.optVoc("initialDefaultRoute"), redacted: try c.optVoc("redacted"))
            if c.contains(K("session")) && !c.isNull("session") {
                let s = try c.nested("session")
                h.session = .init(id: try s.str("id"), part: try s.decode(Int.self, forKey: K("part")), resumed: try s.optBool("resumed") ?? false)
            }
            if c.contains(K("device")) && !c.isNull("device") {
                let d = try c.nested("device")
                h.device = .init(model: try d.optStr("model"), os: try d.optStr("os"), simulator: try d.optBool("simulator") ?? false)
            }
            if c.contains(K("app")) && !c.isNull("app") {
                let a = try c.nested("app")
                h.app = .init(bundleId: try a.optStr("bundleId"), version: try a.optStr("version"), micUsageDescription: try a.optBool("micUsageDescription") ?? true,
                              backgroundAudio: try a.optBool("backgroundAudio") ?? true)
            }
            return .header(h)
        case "api.joinChannel": return .joinChannel(channel: try c.str("channel"), uid: try c.optStr("uid"))
        case "api.leaveChannel": return .leaveChannel
        case "api.enterMeeting": return .enterMeeting(room: try c.str("room"), uid: try c.optStr("uid"))
        case "api.exitMeeting": return .exitMeeting
        case "api.setDefaultRoute": return .setDefaultRoute(target: try c.voc("target"))
        case "api.setRoute": return .setRoute(target: try c.voc("target"), api: try c.optStr("api"))
        case "api.clearRouteOverride": return .clearRouteOverride
        case "api.setAudioModuleEnabled": return .setAudioModuleEnabled(enabled: try c.bool("enabled"))
        case "api.subscribe":
            return .subscribe(pubUid: try c.str("pubUid"), trackId: try c.str("trackId"), layers: try c.decode([String].self, forKey: K("layers")))
        case "api.switchLayer":
            return .switchLayer(pubUid: try c.str("pubUid"), trackId: try c.str("trackId"), targetTrackId: try c.str("targetTrackId"))
        case "os.deviceConnected":
            return .deviceConnected(id: try c.str("id"), kind: try c.ovoc("kind"), name: try c.optStr("name"), port: try c.optStr("port"))
        case "os.deviceDisconnected": return .deviceDisconnected(id: try c.str("id"))
        case "os.micPermission": return .micPermission(status: try c.ovoc("status"))
        case "os.interruptionBegan": return .interruptionBegan(cause: try c.optOvoc("cause"), wasSuspended: try c.optBool("wasSuspended"))
        case "os.interruptionEnded": return .interruptionEnded(shouldResume: try c.optBool("shouldResume"))
        case "os.callState": return .callState(state: try c.ovoc("state"))
        case "os.appState": return .appState(state: try c.ovoc("state"))
        case "os.mediaServicesReset": return .mediaServicesReset
        case "os.callKit": return .callKit(event: try c.ovoc("event"), callId: try c.optStr("callId"))
        case "obs.routeChanged":
            return .routeChanged(route: try c.voc("route"), previousRoute: try c.voc("previousRoute"), reason: try c.voc("reason"))
        case "obs.routeSnapshot": return .routeSnapshot(route: try c.voc("route"), ports: try c.decodeIfPresent([String].self, forKey: K("ports")))
        case "obs.sessionActivated":
            return .sessionActivated(SessionActivation(ok: try c.bool("ok"), error: try c.optStr("error"), category: try c.optStr("category"),
                                                       mode: try c.optStr("mode"), options: try c.decodeIfPresent([String].self, forKey: K("options")) ?? []))
        case "obs.sessionDeactivated":
            return .sessionDeactivated(notifyOthers: try c.bool("notifyOthers"), ok: try c.optBool("ok"), error: try c.optStr("error"))
        case "obs.overrideOutput": return .overrideOutput(port: try c.voc("port"))
        case "sdk.interrupted": return .sdkInterrupted
        case "sdk.recovered": return .sdkRecovered
        case "sdk.callStateChanged": return .sdkCallStateChanged(state: try c.ovoc("state"))
        case "sdk.qualityChanged":
            return .sdkQualityChanged(overall: try c.voc("overall"), previous: try c.voc("previous"), mos: try c.optDouble("mos"))
        case "sdk.activeSpeakers": return .sdkActiveSpeakers(speakers: try c.list("speakers").map(speaker))
        case "sdk.layerSwitched": return .sdkLayerSwitched(try refLayerSwitch(c))
        case "sdk.error": return .sdkError(api: try c.str("api"), error: try c.str("error"))
        case "sdk.log": return .sdkLog(level: try c.str("level"), message: try c.str("message"))
        case "conn.engine": return .connEngine(vendor: try c.voc("vendor"))
        case "conn.state": return .connState(state: try c.voc("state"))
        case "srv.qualityReport": return .qualityReport(pub: try refSample(c.nested("pub")), sub: try refSample(c.nested("sub")))
        case "srv.speakers": return .speakers(speaking: try c.list("speaking").map(speaker), stopped: try c.list("stopped").map(key))
        case "srv.layerSwitched": return .srvLayerSwitched(try refLayerSwitch(c))
        case "trace.dropped":
            return .dropped(count: try c.decode(Int.self, forKey: K("count")), fromT: try c.decode(Int64.self, forKey: K("fromT")),
                            toT: try c.decode(Int64.self, forKey: K("toT")))
        case "trace.checkpoint":
            var cp = try refCheckpoint(c.nested("state"))
            cp.source = try c.optVoc("source")
            return .checkpoint(cp)
        case "trace.report": return .report(id: try c.str("id"), note: try c.optStr("note"))
        case "trace.paused":
            return .paused(fromT: try c.decode(Int64.self, forKey: K("fromT")), toT: try c.decode(Int64.self, forKey: K("toT")),
                           reason: try c.ovoc("reason"))
        case "sys.sessionActivated":
            return .system(try refSystem(c, .sessionActivated(ok: try c.bool("ok"), error: try c.optStr("error"),
                                                              controllingPid: try c.decodeIfPresent(Int.self, forKey: K("controllingPid")),
                                                              controllingProcess: try c.optStr("controllingProcess"))))
        case "sys.routeChanged": return .system(try refSystem(c, .routeChanged(reason: try c.optVoc("reason"))))
        case "sys.propertySet": return .system(try refSystem(c, .propertySet(key: try c.str("key"), value: try c.str("value"))))
        case "sys.playing": return .system(try refSystem(c, .playing(try c.bool("playing"), category: try c.optStr("category"))))
        case "sys.appState": return .system(try refSystem(c, .appState(state: try c.str("state"))))
        default:
            if type.hasPrefix("expect."), let e = try expectation(String(type.dropFirst(7)), c) { return .expect(e) }
            return .unknown(type: type, json: "")
        }
    }

    private static func expectation(_ name: String, _ c: C) throws -> Expectation? {
        let kind: Expectation.Kind
        switch name {
        case "route": kind = .route(c.isNull("route") ? nil : try c.voc("route"))
        case "target": kind = .target(try c.voc("target"))
        case "override": kind = .override(c.isNull("target") ? nil : try c.voc("target"))
        case "engaged": kind = .engaged(try c.bool("value"))
        case "audioModule": kind = .audioModule(try c.bool("enabled"))
        case "interrupted": kind = .interrupted(try c.bool("value"))
        case "verdict": kind = .verdict(ref: try c.decode(Int.self, forKey: K("ref")), verdict: try c.voc("verdict"), cause: try c.optVoc("cause"))
        case "quality":
            kind = c.isNull("value") && !c.contains(K("overall")) ? .quality(nil)
                : .quality(.init(overall: try c.voc("overall"), mos: try c.optDouble("mos")))
        case "qualityChanges":
            kind = .qualityChanges(try c.list("changes").map { .init(previous: try $0.voc("previous"), overall: try $0.voc("overall")) })
        case "speakers": kind = .speakers(try c.list("speakers").map(key))
        case "finding": kind = .finding(code: try c.voc("code"), count: try c.decodeIfPresent(Int.self, forKey: K("count")))
        case "noFinding": kind = .noFinding(code: try c.voc("code"))
        case "divergences": kind = .divergences(count: try c.decode(Int.self, forKey: K("count")))
        case "outcome":
            kind = .outcome(ref: try c.decode(Int.self, forKey: K("ref")), outcome: try c.voc("outcome"), cause: try c.optVoc("cause"),
                            by: c.ref("by"))
        case "predictedBy":
            // Codable sees only the first of two `seq` members (the record's own), so this path cannot read the
            // asserted one; the fast decoder can (tests compare these records without it).
            var explanation: Expectation.Explained?
            if c.contains(K("explained")) || c.contains(K("explainedBy")) || c.contains(K("status")) {
                let by: FindingCode?? = c.contains(K("explainedBy")) ? .some(c.isNull("explainedBy") ? nil : try c.voc("explainedBy")) : .none
                explanation = .init(explained: try c.optBool("explained"), by: by, status: try c.optVoc("status"))
            }
            kind = .predictedBy(ref: try c.decode(Int.self, forKey: K("ref")), rule: try c.voc("rule"), seq: nil,
                                appliedBy: c.ref("appliedBy"), explanation: explanation)
        case "damage": kind = .damage(lost: try c.decode([[Int]].self, forKey: K("lost")).map { $0[0]...$0[1] })
        default: return nil
        }
        var atEnd = false
        if let at = try c.optStr("at") {
            guard at == "end" else { throw DecodingError.dataCorruptedError(forKey: K("at"), in: c, debugDescription: "at must be end") }
            atEnd = true
        }
        // expect.predictedBy's `rule` is the asserted branch, not the rule pinned.
        if case .predictedBy = kind { return Expectation(kind, atEnd: atEnd) }
        return Expectation(kind, atEnd: atEnd, rule: try c.optVoc("rule"))
    }
}
