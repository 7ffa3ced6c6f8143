extension Record {
    /// Appends this record as one canonical JSON line (without the newline).
    public func encode(into w: inout JSONWriter) {
        if case .unknown(_, let json) = body {
            w.raw(json)
            return
        }
        w.beginObject()
        w.key("seq"); w.int(seq)
        w.key("t"); w.int(t)
        w.key("type"); w.string(type)
        body.encodeFields(into: &w)
        w.endObject()
    }

    /// This record as one canonical JSON line (without the newline).
    public var jsonLine: String {
        var w = JSONWriter()
        encode(into: &w)
        return w.string
    }
}

extension RecordBody {
    // swiftlint:disable:next cyclomatic_complexity function_body_length
    func encodeFields(into w: inout JSONWriter) {
        switch self {
        case .header(let h):
            w.key("format"); w.string(h.format)
            w.key("version"); w.int(h.version)
            w.key("layer"); w.string(h.layer.rawValue)
            if let sdk = h.sdk { w.key("sdk"); w.string(sdk) }
            w.key("device"); w.beginObject()
            if let m = h.device.model { w.key("model"); w.string(m) }
            if let os = h.device.os { w.key("os"); w.string(os) }
            w.key("simulator"); w.bool(h.device.simulator)
            w.endObject()
            w.key("app"); w.beginObject()
            if let b = h.app.bundleId { w.key("bundleId"); w.string(b) }
            w.key("micUsageDescription"); w.bool(h.app.micUsageDescription)
            w.key("backgroundAudio"); w.bool(h.app.backgroundAudio)
            w.endObject()
            if let s = h.startedAt { w.key("startedAt"); w.string(s) }
            if let d = h.initialDefaultRoute { w.key("initialDefaultRoute"); w.string(d.rawValue) }
        case .joinChannel(let channel): w.key("channel"); w.string(channel)
        case .enterMeeting(let room): w.key("room"); w.string(room)
        case .leaveChannel, .exitMeeting, .clearRouteOverride, .sdkInterrupted, .sdkRecovered: break
        case .setDefaultRoute(let target): w.key("target"); w.string(target.rawValue)
        case .setRoute(let target, let api):
            w.key("target"); w.string(target.rawValue)
            if let api { w.key("api"); w.string(api) }
        case .setAudioModuleEnabled(let enabled): w.key("enabled"); w.bool(enabled)
        case .subscribe(let pubUid, let trackId, let layers):
            w.key("pubUid"); w.string(pubUid)
            w.key("trackId"); w.string(trackId)
            w.key("layers"); Self.strings(layers, &w)
        case .switchLayer(let pubUid, let trackId, let target):
            w.key("pubUid"); w.string(pubUid)
            w.key("trackId"); w.string(trackId)
            w.key("targetTrackId"); w.string(target)
        case .deviceConnected(let id, let kind, let name, let port):
            w.key("id"); w.string(id)
            w.key("kind"); w.string(kind.rawValue)
            if let name { w.key("name"); w.string(name) }
            if let port { w.key("port"); w.string(port) }
        case .deviceDisconnected(let id): w.key("id"); w.string(id)
        case .micPermission(let status): w.key("status"); w.string(status.rawValue)
        case .interruptionBegan(let cause): if let cause { w.key("cause"); w.string(cause.rawValue) }
        case .interruptionEnded(let resume): if let resume { w.key("shouldResume"); w.bool(resume) }
        case .callState(let state), .sdkCallStateChanged(let state): w.key("state"); w.string(state.rawValue)
        case .appState(let state): w.key("state"); w.string(state.rawValue)
        case .routeChanged(let route, let previous, let reason):
            w.key("route"); w.string(route.rawValue)
            w.key("previousRoute"); w.string(previous.rawValue)
            w.key("reason"); w.string(reason.rawValue)
        case .routeSnapshot(let route, let ports):
            w.key("route"); w.string(route.rawValue)
            if let ports { w.key("ports"); Self.strings(ports, &w) }
        case .sessionActivated(let a):
            w.key("ok"); w.bool(a.ok)
            if let e = a.error { w.key("error"); w.string(e) }
            if let c = a.category { w.key("category"); w.string(c) }
            if let m = a.mode { w.key("mode"); w.string(m) }
            w.key("options"); Self.strings(a.options, &w)
        case .sessionDeactivated(let notify): w.key("notifyOthers"); w.bool(notify)
        case .overrideOutput(let port): w.key("port"); w.string(port.rawValue)
        case .sdkQualityChanged(let overall, let previous, let mos):
            w.key("overall"); w.string(overall.rawValue)
            w.key("previous"); w.string(previous.rawValue)
            if let mos { w.key("mos"); w.double(mos) }
        case .sdkActiveSpeakers(let speakers): w.key("speakers"); Self.speakers(speakers, &w)
        case .sdkLayerSwitched(let s), .srvLayerSwitched(let s): Self.layerSwitch(s, &w)
        case .sdkError(let api, let error):
            w.key("api"); w.string(api)
            w.key("error"); w.string(error)
        case .sdkLog(let level, let message):
            w.key("level"); w.string(level)
            w.key("message"); w.string(message)
        case .connEngine(let vendor): w.key("vendor"); w.string(vendor.rawValue)
        case .connState(let state): w.key("state"); w.string(state.rawValue)
        case .qualityReport(let pub, let sub):
            w.key("pub"); Self.sample(pub, &w)
            w.key("sub"); Self.sample(sub, &w)
        case .speakers(let speaking, let stopped):
            w.key("speaking"); Self.speakers(speaking, &w)
            w.key("stopped"); Self.keys(stopped, &w)
        case .expect(let e): e.encodeFields(into: &w)
        case .unknown: break
        }
    }

    static func strings(_ list: [String], _ w: inout JSONWriter) {
        w.beginArray()
        for s in list { w.string(s) }
        w.endArray()
    }

    static func speakers(_ list: [Speaker], _ w: inout JSONWriter) {
        w.beginArray()
        for s in list {
            w.beginObject()
            w.key("uid"); w.string(s.uid)
            w.key("trackId"); w.string(s.trackId)
            w.key("level"); w.double(s.level)
            w.endObject()
        }
        w.endArray()
    }

    static func keys(_ list: [SpeakerKey], _ w: inout JSONWriter) {
        w.beginArray()
        for s in list {
            w.beginObject()
            w.key("uid"); w.string(s.uid)
            w.key("trackId"); w.string(s.trackId)
            w.endObject()
        }
        w.endArray()
    }

    static func sample(_ s: QualitySample, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("level"); w.string(s.level.rawValue)
        if let v = s.score { w.key("score"); w.double(v) }
        if let v = s.mos { w.key("mos"); w.double(v) }
        if let v = s.loss { w.key("loss"); w.double(v) }
        if let v = s.rtt { w.key("rtt"); w.double(v) }
        if let v = s.jitter { w.key("jitter"); w.double(v) }
        if let v = s.bitrate { w.key("bitrate"); w.double(v) }
        w.endObject()
    }

    static func layerSwitch(_ s: LayerSwitch, _ w: inout JSONWriter) {
        w.key("pubUid"); w.string(s.pubUid)
        w.key("trackId"); w.string(s.trackId)
        if let f = s.fromTrackId { w.key("fromTrackId"); w.string(f) }
        w.key("toTrackId"); w.string(s.toTrackId)
        w.key("reason"); w.string(s.reason)
        if let l = s.latencyMs { w.key("latencyMs"); w.double(l) }
    }
}

extension Expectation {
    func encodeFields(into w: inout JSONWriter) {
        switch kind {
        case .route(let r): w.key("route"); if let r { w.string(r.rawValue) } else { w.null() }
        case .target(let t): w.key("target"); w.string(t.rawValue)
        case .override(let t): w.key("target"); if let t { w.string(t.rawValue) } else { w.null() }
        case .engaged(let v), .interrupted(let v): w.key("value"); w.bool(v)
        case .audioModule(let v): w.key("enabled"); w.bool(v)
        case .verdict(let ref, let verdict, let cause):
            w.key("ref"); w.int(ref)
            w.key("verdict"); w.string(verdict.rawValue)
            if let cause { w.key("cause"); w.string(cause.rawValue) }
        case .quality(let q):
            if let q {
                w.key("overall"); w.string(q.overall.rawValue)
                if let mos = q.mos { w.key("mos"); w.double(mos) }
            } else {
                w.key("value"); w.null()
            }
        case .qualityChanges(let changes):
            w.key("changes"); w.beginArray()
            for c in changes {
                w.beginObject()
                w.key("previous"); w.string(c.previous.rawValue)
                w.key("overall"); w.string(c.overall.rawValue)
                w.endObject()
            }
            w.endArray()
        case .speakers(let keys): w.key("speakers"); RecordBody.keys(keys, &w)
        case .finding(let code, let count):
            w.key("code"); w.string(code)
            if let count { w.key("count"); w.int(count) }
        case .noFinding(let code): w.key("code"); w.string(code)
        case .divergences(let count): w.key("count"); w.int(count)
        }
        if atEnd { w.key("at"); w.string("end") }
        if let rule { w.key("rule"); w.string(rule) }
    }
}
