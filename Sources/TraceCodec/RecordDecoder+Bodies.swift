import TraceModel
extension RecordDecoder {
    func decodeBody(_ type: RecordKind, _ r: FieldReader) throws -> RecordBody {
        switch type {
        case .qualityReport:
            let pub = try r.object("pub", scratch: nested) { try Self.sample($0) }!
            let sub = try r.object("sub", scratch: nested) { try Self.sample($0) }!
            return .qualityReport(pub: pub, sub: sub)
        case .speakers:
            let speaking = try r.objectArray("speaking", scratch: nested) { try Self.speaker($0) }
            let stopped = try r.objectArray("stopped", scratch: nested) { s in
                SpeakerKey(uid: try s.string("uid"), trackId: try s.string("trackId"))
            }
            return .speakers(speaking: speaking, stopped: stopped)
        case .sdkActiveSpeakers:
            return .sdkActiveSpeakers(speakers: try r.objectArray("speakers", scratch: nested) { try Self.speaker($0) })
        case .sdkQualityChanged:
            return .sdkQualityChanged(overall: try r.vocabulary("overall"), previous: try r.vocabulary("previous"),
                                      mos: try r.optionalDouble("mos"))
        case .header: return .header(try header(r))
        case .joinChannel: return .joinChannel(channel: try r.string("channel"), uid: try r.optionalString("uid"))
        case .leaveChannel: return .leaveChannel
        case .enterMeeting: return .enterMeeting(room: try r.string("room"), uid: try r.optionalString("uid"))
        case .exitMeeting: return .exitMeeting
        case .setDefaultRoute: return .setDefaultRoute(target: try r.vocabulary("target"))
        case .setRoute: return .setRoute(target: try r.vocabulary("target"), api: try r.optionalString("api"))
        case .clearRouteOverride: return .clearRouteOverride
        case .setAudioModuleEnabled: return .setAudioModuleEnabled(enabled: try r.bool("enabled"))
        case .subscribe:
            return .subscribe(pubUid: try r.string("pubUid"), trackId: try r.string("trackId"), layers: try r.stringArray("layers"))
        case .switchLayer:
            return .switchLayer(pubUid: try r.string("pubUid"), trackId: try r.string("trackId"),
                                targetTrackId: try r.string("targetTrackId"))
        case .deviceConnected:
            return .deviceConnected(id: try r.string("id"), kind: try r.openVocabulary("kind"),
                                    name: try r.optionalString("name"), port: try r.optionalString("port"))
        case .deviceDisconnected: return .deviceDisconnected(id: try r.string("id"))
        case .micPermission: return .micPermission(status: try r.openVocabulary("status"))
        case .interruptionBegan:
            return .interruptionBegan(cause: try r.optionalOpenVocabulary("cause"), wasSuspended: try r.optionalBool("wasSuspended"))
        case .interruptionEnded: return .interruptionEnded(shouldResume: try r.optionalBool("shouldResume"))
        case .callState: return .callState(state: try r.openVocabulary("state"))
        case .appState: return .appState(state: try r.openVocabulary("state"))
        case .mediaServicesReset: return .mediaServicesReset
        case .callKit: return .callKit(event: try r.openVocabulary("event"), callId: try r.optionalString("callId"))
        case .routeChanged:
            return .routeChanged(route: try r.vocabulary("route"), previousRoute: try r.vocabulary("previousRoute"),
                                 reason: try r.vocabulary("reason"))
        case .routeSnapshot: return .routeSnapshot(route: try r.vocabulary("route"), ports: try r.optionalStringArray("ports"))
        case .sessionActivated:
            return .sessionActivated(SessionActivation(
                ok: try r.bool("ok"), error: try r.optionalString("error"), category: try r.optionalString("category"),
                mode: try r.optionalString("mode"), options: try r.optionalStringArray("options") ?? []))
        case .sessionDeactivated:
            return .sessionDeactivated(notifyOthers: try r.bool("notifyOthers"), ok: try r.optionalBool("ok"),
                                       error: try r.optionalString("error"))
        case .overrideOutput: return .overrideOutput(port: try r.vocabulary("port"))
        case .sdkInterrupted: return .sdkInterrupted
        case .sdkRecovered: return .sdkRecovered
        case .sdkCallStateChanged: return .sdkCallStateChanged(state: try r.listedVocabulary("state"))
        case .sdkLayerSwitched: return .sdkLayerSwitched(try Self.layerSwitch(r))
        case .sdkError: return .sdkError(api: try r.string("api"), error: try r.string("error"))
        case .sdkLog: return .sdkLog(level: try r.string("level"), message: try r.string("message"))
        case .connEngine: return .connEngine(vendor: try r.vocabulary("vendor"))
        case .connState: return .connState(state: try r.vocabulary("state"))
        case .srvLayerSwitched: return .srvLayerSwitched(try Self.layerSwitch(r))
        case .dropped:
            let count = try r.int("count")
            guard count >= 0, count <= Int64(Int32.max) * 1024 else { throw FieldFault.notNonNegative("count", got: count) }
            return .dropped(count: Int(count), fromT: try r.int("fromT"), toT: try r.int("toT"))
        case .checkpoint:
            var c = try r.object("state", scratch: nested) { try checkpoint($0) }!
            c.source = try r.optionalVocabulary("source")
            return .checkpoint(c)
        case .report:
            return .report(id: try r.string("id"), note: try r.optionalString("note"))
        case .paused:
            return .paused(fromT: try r.int("fromT"), toT: try r.int("toT"), reason: try r.openVocabulary("reason"))
        case .sysSessionActivated:
            return .system(try Self.system(r, .sessionActivated(
                ok: try r.bool("ok"), error: try r.optionalString("error"), controllingPid: try Self.optionalPid(r, "controllingPid"),
                controllingProcess: try r.optionalString("controllingProcess"))))
        case .sysRouteChanged: return .system(try Self.system(r, .routeChanged(reason: try r.optionalVocabulary("reason"))))
        case .sysPropertySet: return .system(try Self.system(r, .propertySet(key: try r.string("key"), value: try r.string("value"))))
        case .sysPlaying:
            return .system(try Self.system(r, .playing(try r.bool("playing"), category: try r.optionalString("category"))))
        case .sysAppState: return .system(try Self.system(r, .appState(state: try r.string("state"))))
        }
    }

    /// A `sys.*` record: the common fields around its event.
    static func system(_ r: FieldReader, _ event: SystemLogRecord.Event) throws -> SystemLogRecord {
        let uncertainty = try r.optionalInt("uncertaintyMs")
        if let u = uncertainty, u < 0 { throw FieldFault.notNonNegative("uncertaintyMs", got: u) }
        return SystemLogRecord(event, process: try r.string("process"), pid: try optionalPid(r, "pid"), session: try r.optionalString("session"),
                               wall: try r.string("wall"), isSelf: try r.bool("self"), timeSource: try r.vocabulary("timeSource"),
                               uncertaintyMs: uncertainty)
    }

    /// A process id: an integer 0…2^31−1.
    static func optionalPid(_ r: FieldReader, _ key: StaticString) throws -> Int? {
        guard let v = try r.optionalInt(key) else { return nil }
        guard v >= 0, v <= Int64(Int32.max) else { throw FieldFault.notAProcessID(r.name(key), got: v, max: Int32.max) }
        return Int(v)
    }

    /// A type outside the fixed table: an expectation, or a type this version does not know.
    func decodeOther(type: String, _ r: FieldReader, line: UnsafeBufferPointer<UInt8>) throws -> RecordBody {
        if type.hasPrefix("expect."), let e = try expectation(String(type.dropFirst(7)), r) { return .expect(e) }
        guard let json = String(validating: line, as: UTF8.self) else {
            throw FieldFault.typeNotUTF8
        }
        return .unknown(type: type, json: json)
    }

    static func sample(_ s: FieldReader) throws -> QualitySample {
        QualitySample(level: try s.vocabulary("level"), score: try s.optionalDouble("score"), mos: try s.optionalDouble("mos"),
                      loss: try s.optionalDouble("loss"), rtt: try s.optionalDouble("rtt"),
                      jitter: try s.optionalDouble("jitter"), bitrate: try s.optionalDouble("bitrate"))
    }

    static func speaker(_ s: FieldReader) throws -> Speaker {
        Speaker(uid: try s.string("uid"), trackId: try s.string("trackId"), level: try s.double("level"))
    }

    static func layerSwitch(_ r: FieldReader) throws -> LayerSwitch {
        LayerSwitch(pubUid: try r.string("pubUid"), trackId: try r.string("trackId"),
                    fromTrackId: try r.optionalString("fromTrackId"), toTrackId: try r.string("toTrackId"),
                    reason: try r.string("reason"), latencyMs: try r.optionalDouble("latencyMs"))
    }

    func header(_ r: FieldReader) throws -> TraceHeader {
        let format = try r.string("format")
        guard format == "rtctrace" else { throw FieldFault(field: "format", reason: "expected \"rtctrace\", got \"\(format.prefix(40))\"") }
        let version = try r.int("version")
        guard version == 1 else { throw FieldFault.unsupportedVersion(version) }
        var h = TraceHeader(layer: try r.vocabulary("layer"))
        h.sdk = try r.optionalString("sdk")
        h.startedAt = try r.optionalString("startedAt")
        h.initialDefaultRoute = try r.optionalVocabulary("initialDefaultRoute")
        h.redacted = try r.optionalVocabulary("redacted")
        h.session = try r.object("session", scratch: nested, optional: true) { s in
            let part = try s.int("part")
            guard part >= 1, part <= Int64(Int32.max) else { throw FieldFault.notPositive(s.name("part"), got: part) }
            return TraceHeader.Session(id: try s.string("id"), part: Int(part), resumed: try s.optionalBool("resumed") ?? false)
        }
        if let d = try r.object("device", scratch: nested, optional: true, { d in
            TraceHeader.Device(model: try d.optionalString("model"), os: try d.optionalString("os"),
                               simulator: try d.optionalBool("simulator") ?? false)
        }) { h.device = d }
        if let a = try r.object("app", scratch: nested, optional: true, { a in
            TraceHeader.App(bundleId: try a.optionalString("bundleId"), version: try a.optionalString("version"),
                            micUsageDescription: try a.optionalBool("micUsageDescription") ?? true,
                            backgroundAudio: try a.optionalBool("backgroundAudio") ?? true)
        }) { h.app = a }
        return h
    }

    /// A checkpoint's `state` object (trace-format.md, since version 3).
    func checkpoint(_ c: FieldReader) throws -> TraceCheckpoint {
        var cp = TraceCheckpoint(defaultRoute: try c.vocabulary("defaultRoute"),
                                 override: c.isNull("override") ? nil : try c.optionalVocabulary("override"),
                                 engaged: try c.bool("engaged"), audioModuleEnabled: try c.bool("audioModuleEnabled"),
                                 micPermission: try c.openVocabulary("micPermission"))
        let deep = JSONFields()
        cp.devices = try c.objectArray("devices", scratch: deep) { d in
            TraceCheckpoint.Device(id: try d.string("id"), kind: try d.openVocabulary("kind"),
                                   name: try d.optionalString("name"), port: try d.optionalString("port"))
        }
        cp.currentRoute = c.isNull("currentRoute") ? nil : try c.optionalVocabulary("currentRoute")
        cp.callState = try c.openVocabulary("callState")
        cp.appState = try c.openVocabulary("appState")
        cp.interrupted = try c.bool("interrupted")
        cp.transport = try c.object("transport", scratch: deep, optional: true) { t in
            TraceCheckpoint.Transport(engine: try t.vocabulary("engine"), state: try t.vocabulary("state"))
        }
        cp.session = try c.object("session", scratch: deep, optional: true) { s in
            TraceCheckpoint.Configuration(category: try s.string("category"), mode: try s.string("mode"),
                                          options: try s.optionalStringArray("options") ?? [])
        }
        return cp
    }

    /// Decodes `expect.NAME`; nil for a name this version does not know (kept as an unknown record).
    func expectation(_ name: String, _ r: FieldReader) throws -> Expectation? {
        let kind: Expectation.Kind
        switch name {
        case "route": kind = .route(r.isNull("route") ? nil : try r.vocabulary("route"))
        case "target": kind = .target(try r.vocabulary("target"))
        case "override": kind = .override(r.isNull("target") ? nil : try r.vocabulary("target"))
        case "engaged": kind = .engaged(try r.bool("value"))
        case "audioModule": kind = .audioModule(try r.bool("enabled"))
        case "interrupted": kind = .interrupted(try r.bool("value"))
        case "verdict":
            let ref = try r.int("ref")
            guard ref >= 0, ref < Int64(Int32.max) * 1024 else { throw FieldFault.notASeq("ref") }
            kind = .verdict(ref: Int(ref), verdict: try r.vocabulary("verdict"), cause: try r.optionalVocabulary("cause"))
        case "quality":
            if r.has("value") && r.isNull("value") && !r.has("overall") {
                kind = .quality(nil)
            } else {
                kind = .quality(Expectation.QualityValue(overall: try r.vocabulary("overall"), mos: try r.optionalDouble("mos")))
            }
        case "qualityChanges":
            kind = .qualityChanges(try r.objectArray("changes", scratch: nested) { c in
                Expectation.LevelChangePair(previous: try c.vocabulary("previous"), overall: try c.vocabulary("overall"))
            })
        case "speakers":
            kind = .speakers(try r.objectArray("speakers", scratch: nested) { s in
                SpeakerKey(uid: try s.string("uid"), trackId: try s.string("trackId"))
            })
        case "finding":
            let count = try r.optionalInt("count").map { Int($0) }
            kind = .finding(code: try r.vocabulary("code"), count: count)
        case "noFinding": kind = .noFinding(code: try r.vocabulary("code"))
        case "divergences": kind = .divergences(count: Int(try r.int("count")))
        case "outcome":
            kind = .outcome(ref: try seqRef("ref", r), outcome: try r.vocabulary("outcome"), cause: try r.optionalVocabulary("cause"),
                            by: r.has("by") ? .init(r.isNull("by") ? nil : try seqRef("by", r)) : nil)
        case "predictedBy":
            let ref = try r.int("ref")
            guard ref >= 0, ref <= Int64(Int32.max) else { throw FieldFault.notADivergenceIndex }
            var explanation: Expectation.Explained?
            if r.has("explained") || r.has("explainedBy") || r.has("status") {
                let by: FindingCode?? = r.has("explainedBy") ? .some(r.isNull("explainedBy") ? nil : try r.vocabulary("explainedBy")) : .none
                explanation = Expectation.Explained(explained: try r.optionalBool("explained"), by: by,
                                                    status: try r.optionalVocabulary("status"))
            }
            kind = .predictedBy(ref: Int(ref), rule: try r.vocabulary("rule"), seq: try assertedSeq(r),
                                appliedBy: r.has("appliedBy") ? .init(r.isNull("appliedBy") ? nil : try seqRef("appliedBy", r)) : nil,
                                explanation: explanation)
        case "damage": kind = .damage(lost: try r.seqRanges("lost"))
        default: return nil
        }
        // expect.predictedBy's `rule` is the asserted branch, not the rule pinned.
        if case .predictedBy = kind { return Expectation(kind, atEnd: try atEnd(r)) }
        return Expectation(kind, atEnd: try atEnd(r), rule: try r.optionalVocabulary("rule"))
    }

    private func atEnd(_ r: FieldReader) throws -> Bool {
        guard let at = try r.optionalString("at") else { return false }
        guard at == "end" else { throw FieldFault(field: "at", reason: "unknown value \"\(at.prefix(40))\" (expected \"end\")") }
        return true
    }

    /// expect.predictedBy's `seq` shares its name with the record's own position: it is the second `seq`
    /// member (writers write the record's first); with only one, the record behind the branch is not asserted.
    private func assertedSeq(_ r: FieldReader) throws -> Expectation.RecordRef? {
        guard let at = r.fields.findSecond("seq", in: r.bytes) else { return nil }
        var c = JSONCursor(r.bytes, from: at)
        if c.readNull() { return Expectation.RecordRef.none }
        c = JSONCursor(r.bytes, from: at)
        let v = try r.wrap("seq") { try c.readInt() }
        guard v >= 0, v < Int64(Int32.max) * 1024 else { throw FieldFault.notASeq("seq", orNull: true) }
        return .seq(Int(v))
    }

    /// A member holding the seq of a record.
    private func seqRef(_ key: StaticString, _ r: FieldReader) throws -> Int {
        let v = try r.int(key)
        guard v >= 0, v < Int64(Int32.max) * 1024 else { throw FieldFault.notASeq(r.name(key)) }
        return Int(v)
    }
}
