extension Record {
    /// Appends this record as one canonical JSON line (without the newline).
    public func encode(into w: inout JSONWriter) {
        if case .unknown(_, let json) = body {
            w.raw(json)
            return
        }
        w.beginObject()
        w.staticKey("seq"); w.int(seq)
        w.staticKey("t"); w.int(t)
        w.staticKey("type"); w.string(type)
        body.encodeFields(into: &w)
        if late { w.staticKey("late"); w.bool(true) }
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
            w.staticKey("format"); w.string(h.format)
            w.staticKey("version"); w.int(h.version)
            w.staticKey("layer"); w.string(h.layer.rawValue)
            if let sdk = h.sdk { w.staticKey("sdk"); w.string(sdk) }
            w.staticKey("device"); w.beginObject()
            if let m = h.device.model { w.staticKey("model"); w.string(m) }
            if let os = h.device.os { w.staticKey("os"); w.string(os) }
            w.staticKey("simulator"); w.bool(h.device.simulator)
            w.endObject()
            w.staticKey("app"); w.beginObject()
            if let b = h.app.bundleId { w.staticKey("bundleId"); w.string(b) }
            if let v = h.app.version { w.staticKey("version"); w.string(v) }
            w.staticKey("micUsageDescription"); w.bool(h.app.micUsageDescription)
            w.staticKey("backgroundAudio"); w.bool(h.app.backgroundAudio)
            w.endObject()
            if let s = h.startedAt { w.staticKey("startedAt"); w.string(s) }
            if let d = h.initialDefaultRoute { w.staticKey("initialDefaultRoute"); w.string(d.rawValue) }
            if let r = h.redacted { w.staticKey("redacted"); w.string(r.rawValue) }
            if let s = h.session {
                w.staticKey("session"); w.beginObject()
                w.staticKey("id"); w.string(s.id)
                w.staticKey("part"); w.int(s.part)
                if s.resumed { w.staticKey("resumed"); w.bool(true) }
                w.endObject()
            }
        case let .joinChannel(channel, uid):
            w.staticKey("channel"); w.string(channel)
            if let uid { w.staticKey("uid"); w.string(uid) }
        case let .enterMeeting(room, uid):
            w.staticKey("room"); w.string(room)
            if let uid { w.staticKey("uid"); w.string(uid) }
        case .leaveChannel, .exitMeeting, .clearRouteOverride, .sdkInterrupted, .sdkRecovered, .mediaServicesReset: break
        case .callKit(let event, let callId):
            w.staticKey("event"); w.string(event.rawValue)
            if let callId { w.staticKey("callId"); w.string(callId) }
        case .dropped(let count, let fromT, let toT):
            w.staticKey("count"); w.int(count)
            w.staticKey("fromT"); w.int(fromT)
            w.staticKey("toT"); w.int(toT)
        case .setDefaultRoute(let target): w.staticKey("target"); w.string(target.rawValue)
        case .setRoute(let target, let api):
            w.staticKey("target"); w.string(target.rawValue)
            if let api { w.staticKey("api"); w.string(api) }
        case .setAudioModuleEnabled(let enabled): w.staticKey("enabled"); w.bool(enabled)
        case .subscribe(let pubUid, let trackId, let layers):
            w.staticKey("pubUid"); w.string(pubUid)
            w.staticKey("trackId"); w.string(trackId)
            w.staticKey("layers"); Self.strings(layers, &w)
        case .switchLayer(let pubUid, let trackId, let target):
            w.staticKey("pubUid"); w.string(pubUid)
            w.staticKey("trackId"); w.string(trackId)
            w.staticKey("targetTrackId"); w.string(target)
        case .deviceConnected(let id, let kind, let name, let port):
            w.staticKey("id"); w.string(id)
            w.staticKey("kind"); w.string(kind.rawValue)
            if let name { w.staticKey("name"); w.string(name) }
            if let port { w.staticKey("port"); w.string(port) }
        case .deviceDisconnected(let id): w.staticKey("id"); w.string(id)
        case .micPermission(let status): w.staticKey("status"); w.string(status.rawValue)
        case .interruptionBegan(let cause, let wasSuspended):
            if let cause { w.staticKey("cause"); w.string(cause.rawValue) }
            if let wasSuspended { w.staticKey("wasSuspended"); w.bool(wasSuspended) }
        case .interruptionEnded(let resume): if let resume { w.staticKey("shouldResume"); w.bool(resume) }
        case .callState(let state), .sdkCallStateChanged(let state): w.staticKey("state"); w.string(state.rawValue)
        case .appState(let state): w.staticKey("state"); w.string(state.rawValue)
        case .routeChanged(let route, let previous, let reason):
            w.staticKey("route"); w.string(route.rawValue)
            w.staticKey("previousRoute"); w.string(previous.rawValue)
            w.staticKey("reason"); w.string(reason.rawValue)
        case .routeSnapshot(let route, let ports):
            w.staticKey("route"); w.string(route.rawValue)
            if let ports { w.staticKey("ports"); Self.strings(ports, &w) }
        case .sessionActivated(let a):
            w.staticKey("ok"); w.bool(a.ok)
            if let e = a.error { w.staticKey("error"); w.string(e) }
            if let c = a.category { w.staticKey("category"); w.string(c) }
            if let m = a.mode { w.staticKey("mode"); w.string(m) }
            w.staticKey("options"); Self.strings(a.options, &w)
        case .sessionDeactivated(let notify, let ok, let error):
            w.staticKey("notifyOthers"); w.bool(notify)
            if let ok { w.staticKey("ok"); w.bool(ok) }
            if let error { w.staticKey("error"); w.string(error) }
        case .overrideOutput(let port): w.staticKey("port"); w.string(port.rawValue)
        case .sdkQualityChanged(let overall, let previous, let mos):
            w.staticKey("overall"); w.string(overall.rawValue)
            w.staticKey("previous"); w.string(previous.rawValue)
            if let mos { w.staticKey("mos"); w.double(mos) }
        case .sdkActiveSpeakers(let speakers): w.staticKey("speakers"); Self.speakers(speakers, &w)
        case .sdkLayerSwitched(let s), .srvLayerSwitched(let s): Self.layerSwitch(s, &w)
        case .sdkError(let api, let error):
            w.staticKey("api"); w.string(api)
            w.staticKey("error"); w.string(error)
        case .sdkLog(let level, let message):
            w.staticKey("level"); w.string(level)
            w.staticKey("message"); w.string(message)
        case .connEngine(let vendor): w.staticKey("vendor"); w.string(vendor.rawValue)
        case .connState(let state): w.staticKey("state"); w.string(state.rawValue)
        case .qualityReport(let pub, let sub):
            w.staticKey("pub"); Self.sample(pub, &w)
            w.staticKey("sub"); Self.sample(sub, &w)
        case .speakers(let speaking, let stopped):
            w.staticKey("speaking"); Self.speakers(speaking, &w)
            w.staticKey("stopped"); Self.keys(stopped, &w)
        case .checkpoint(let c):
            if let source = c.source { w.staticKey("source"); w.string(source.rawValue) }
            w.staticKey("state"); Self.checkpoint(c, &w)
        case .report(let id, let note):
            w.staticKey("id"); w.string(id)
            if let note { w.staticKey("note"); w.string(note) }
        case .paused(let fromT, let toT, let reason):
            w.staticKey("fromT"); w.int(fromT)
            w.staticKey("toT"); w.int(toT)
            w.staticKey("reason"); w.string(reason.rawValue)
        case .system(let s): Self.system(s, &w)
        case .expect(let e): e.encodeFields(into: &w)
        case .unknown: break
        }
    }

    /// A `sys.*` record's fields: the common ones, then the event's.
    static func system(_ s: SystemLogRecord, _ w: inout JSONWriter) {
        w.staticKey("process"); w.string(s.process)
        if let pid = s.pid { w.staticKey("pid"); w.int(pid) }
        if let session = s.session { w.staticKey("session"); w.string(session) }
        w.staticKey("wall"); w.string(s.wall)
        w.staticKey("self"); w.bool(s.isSelf)
        w.staticKey("timeSource"); w.string(s.timeSource.rawValue)
        if let u = s.uncertaintyMs { w.staticKey("uncertaintyMs"); w.int(u) }
        switch s.event {
        case let .sessionActivated(ok, error, pid, controlling):
            w.staticKey("ok"); w.bool(ok)
            if let error { w.staticKey("error"); w.string(error) }
            if let pid { w.staticKey("controllingPid"); w.int(pid) }
            if let controlling { w.staticKey("controllingProcess"); w.string(controlling) }
        case .routeChanged(let reason):
            if let reason { w.staticKey("reason"); w.string(reason.rawValue) }
        case let .propertySet(key, value):
            w.staticKey("key"); w.string(key)
            w.staticKey("value"); w.string(value)
        case let .playing(playing, category):
            w.staticKey("playing"); w.bool(playing)
            if let category { w.staticKey("category"); w.string(category) }
        case .appState(let state):
            w.staticKey("state"); w.string(state)
        }
    }

    static func checkpoint(_ c: TraceCheckpoint, _ w: inout JSONWriter) {
        w.beginObject()
        w.staticKey("defaultRoute"); w.string(c.defaultRoute.rawValue)
        w.staticKey("override"); w.string(c.override?.rawValue)
        w.staticKey("engaged"); w.bool(c.engaged)
        w.staticKey("audioModuleEnabled"); w.bool(c.audioModuleEnabled)
        w.staticKey("micPermission"); w.string(c.micPermission.rawValue)
        w.staticKey("devices"); w.beginArray()
        for d in c.devices {
            w.beginObject()
            w.staticKey("id"); w.string(d.id)
            w.staticKey("kind"); w.string(d.kind.rawValue)
            if let n = d.name { w.staticKey("name"); w.string(n) }
            if let p = d.port { w.staticKey("port"); w.string(p) }
            w.endObject()
        }
        w.endArray()
        w.staticKey("currentRoute"); w.string(c.currentRoute?.rawValue)
        w.staticKey("callState"); w.string(c.callState.rawValue)
        w.staticKey("appState"); w.string(c.appState.rawValue)
        w.staticKey("interrupted"); w.bool(c.interrupted)
        w.staticKey("transport")
        if let t = c.transport {
            w.beginObject()
            w.staticKey("engine"); w.string(t.engine.rawValue)
            w.staticKey("state"); w.string(t.state.rawValue)
            w.endObject()
        } else { w.null() }
        w.staticKey("session")
        if let s = c.session {
            w.beginObject()
            w.staticKey("category"); w.string(s.category)
            w.staticKey("mode"); w.string(s.mode)
            w.staticKey("options"); strings(s.options, &w)
            w.endObject()
        } else { w.null() }
        w.endObject()
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
            w.staticKey("uid"); w.string(s.uid)
            w.staticKey("trackId"); w.string(s.trackId)
            w.staticKey("level"); w.double(s.level)
            w.endObject()
        }
        w.endArray()
    }

    static func keys(_ list: [SpeakerKey], _ w: inout JSONWriter) {
        w.beginArray()
        for s in list {
            w.beginObject()
            w.staticKey("uid"); w.string(s.uid)
            w.staticKey("trackId"); w.string(s.trackId)
            w.endObject()
        }
        w.endArray()
    }

    static func sample(_ s: QualitySample, _ w: inout JSONWriter) {
        w.beginObject()
        w.staticKey("level"); w.string(s.level.rawValue)
        if let v = s.score { w.staticKey("score"); w.double(v) }
        if let v = s.mos { w.staticKey("mos"); w.double(v) }
        if let v = s.loss { w.staticKey("loss"); w.double(v) }
        if let v = s.rtt { w.staticKey("rtt"); w.double(v) }
        if let v = s.jitter { w.staticKey("jitter"); w.double(v) }
        if let v = s.bitrate { w.staticKey("bitrate"); w.double(v) }
        w.endObject()
    }

    static func layerSwitch(_ s: LayerSwitch, _ w: inout JSONWriter) {
        w.staticKey("pubUid"); w.string(s.pubUid)
        w.staticKey("trackId"); w.string(s.trackId)
        if let f = s.fromTrackId { w.staticKey("fromTrackId"); w.string(f) }
        w.staticKey("toTrackId"); w.string(s.toTrackId)
        w.staticKey("reason"); w.string(s.reason)
        if let l = s.latencyMs { w.staticKey("latencyMs"); w.double(l) }
    }
}

extension Expectation {
    func encodeFields(into w: inout JSONWriter) {
        switch kind {
        case .route(let r): w.staticKey("route"); w.string(r?.rawValue)
        case .target(let t): w.staticKey("target"); w.string(t.rawValue)
        case .override(let t): w.staticKey("target"); w.string(t?.rawValue)
        case .engaged(let v), .interrupted(let v): w.staticKey("value"); w.bool(v)
        case .audioModule(let v): w.staticKey("enabled"); w.bool(v)
        case .verdict(let ref, let verdict, let cause):
            w.staticKey("ref"); w.int(ref)
            w.staticKey("verdict"); w.string(verdict.rawValue)
            if let cause { w.staticKey("cause"); w.string(cause.rawValue) }
        case .quality(let q):
            if let q {
                w.staticKey("overall"); w.string(q.overall.rawValue)
                if let mos = q.mos { w.staticKey("mos"); w.double(mos) }
            } else {
                w.staticKey("value"); w.null()
            }
        case .qualityChanges(let changes):
            w.staticKey("changes"); w.beginArray()
            for c in changes {
                w.beginObject()
                w.staticKey("previous"); w.string(c.previous.rawValue)
                w.staticKey("overall"); w.string(c.overall.rawValue)
                w.endObject()
            }
            w.endArray()
        case .speakers(let keys): w.staticKey("speakers"); RecordBody.keys(keys, &w)
        case .finding(let code, let count):
            w.staticKey("code"); w.string(code.rawValue)
            if let count { w.staticKey("count"); w.int(count) }
        case .noFinding(let code): w.staticKey("code"); w.string(code.rawValue)
        case .divergences(let count): w.staticKey("count"); w.int(count)
        case .outcome(let ref, let outcome, let cause, let by):
            w.staticKey("ref"); w.int(ref)
            w.staticKey("outcome"); w.string(outcome.rawValue)
            if let cause { w.staticKey("cause"); w.string(cause.rawValue) }
            if let by { w.staticKey("by"); Self.ref(by, &w) }
        case .predictedBy(let ref, let branch, let seq, let appliedBy, let explanation):
            w.staticKey("ref"); w.int(ref)
            w.staticKey("rule"); w.string(branch.rawValue)
            if let seq { w.staticKey("seq"); Self.ref(seq, &w) }
            if let appliedBy { w.staticKey("appliedBy"); Self.ref(appliedBy, &w) }
            if let explained = explanation?.explained { w.staticKey("explained"); w.bool(explained) }
            if let explanation, case .some(let by) = explanation.by {
                w.staticKey("explainedBy")
                w.string(by?.rawValue)
            }
            if let status = explanation?.status { w.staticKey("status"); w.string(status.rawValue) }
        case .damage(let lost):
            w.staticKey("lost"); w.beginArray()
            for r in lost { w.beginArray(); w.int(r.lowerBound); w.int(r.upperBound); w.endArray() }
            w.endArray()
        }
        if atEnd { w.staticKey("at"); w.string("end") }
        // expect.predictedBy's `rule` is its branch, written above.
        if let rule, kind.name != "predictedBy" { w.staticKey("rule"); w.string(rule.rawValue) }
    }

    static func ref(_ ref: RecordRef, _ w: inout JSONWriter) {
        w.int(ref.seq)
    }
}
