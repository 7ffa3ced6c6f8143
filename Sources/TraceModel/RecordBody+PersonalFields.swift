// The one personal-field map: which string fields of which record hold personal values, and why the
// others are in clear.

/// What a string field of a record holds, as the one personal-field map below declares it.
public enum FieldPrivacy: Equatable, Sendable {
    /// A personal value of this kind: replaced by `redact` and by the recorder's source redaction.
    case personal(PersonalValue.Kind)
    /// Left in clear, for this reason.
    case clear(ClearReason)

    /// Why a string field is not personal.
    public enum ClearReason: String, Sendable {
        /// Words of the SDK's or the system's vocabulary: a value an open vocabulary lists or documents
        /// (a category, a mode, an option, a device kind, a call state, …) or a call spelled as Swift
        /// spells it (`setAudioRoute(.speaker)`). Any other value of such a field is personal.
        case vocabulary
        /// A record type the format does not define that follows the naming rule (`CustomRecordName`:
        /// `x.rtpStats`), a name an SDK chose.
        case recordName
        /// The SDK's product and version, or the device's model and OS.
        case product
        /// A wall-clock time.
        case time
        /// A problem report's id, which the app shows its user to paste into a ticket: what support joins on.
        case reportId
    }
}

/// One string field of a record: where it is, what it holds, and how private it is.
public struct StringField: Sendable {
    /// The field's path, e.g. `speakers[].uid`.
    public let path: StaticString
    /// The field's privacy.
    public let privacy: FieldPrivacy

    @usableFromInline init(_ path: StaticString, _ privacy: FieldPrivacy) {
        self.path = path
        self.privacy = privacy
    }
}

extension RecordBody {
    /// The body with each string field that `transform` answers replaced by its answer (nil keeps it); nil
    /// when nothing changed. This is the one place that says which fields of which record hold personal
    /// values: every string field of every type is named here with its privacy (identifiers are
    /// personal; a field is clear only with the reason), so redaction, source redaction and any size
    /// estimate walk the same fields. Nothing is allocated when nothing changes.
    public func mapStrings(_ transform: (String, StringField) -> String?) -> RecordBody? {
        var holds = true
        return mapStrings(transform, holdsStringField: &holds)
    }

    /// The map itself: `mapStrings`, telling `holdsStringField` false when the record's type holds no
    /// string field at all (the one arm below that walks nothing), whatever its values.
    private func mapStrings(_ transform: (String, StringField) -> String?, holdsStringField: inout Bool) -> RecordBody? {
        func t(_ s: String, _ path: StaticString, _ p: FieldPrivacy) -> String? { transform(s, StringField(path, p)) }
        func t(_ s: String?, _ path: StaticString, _ p: FieldPrivacy) -> String?? { s.map { transform($0, StringField(path, p)) } }
        func list<T>(_ items: [T], _ each: (T) -> T?) -> [T]? {
            var out: [T]?
            for (i, item) in items.enumerated() {
                guard let new = each(item) else { out?.append(item); continue }
                if out == nil { out = Array(items[..<i]) }
                out!.append(new)
            }
            return out
        }
        func speaker(_ s: Speaker) -> Speaker? {
            let u = t(s.uid, "speakers[].uid", .personal(.uid)), k = t(s.trackId, "speakers[].trackId", .personal(.trackId))
            return u == nil && k == nil ? nil : Speaker(uid: u ?? s.uid, trackId: k ?? s.trackId, level: s.level)
        }
        func key(_ s: SpeakerKey) -> SpeakerKey? {
            let u = t(s.uid, "stopped[].uid", .personal(.uid)), k = t(s.trackId, "stopped[].trackId", .personal(.trackId))
            return u == nil && k == nil ? nil : SpeakerKey(uid: u ?? s.uid, trackId: k ?? s.trackId)
        }
        func layer(_ s: LayerSwitch) -> LayerSwitch? {
            var o = s
            var changed = false
            if let v = t(s.pubUid, "pubUid", .personal(.uid)) { o.pubUid = v; changed = true }
            if let v = t(s.trackId, "trackId", .personal(.trackId)) { o.trackId = v; changed = true }
            if let v = t(s.fromTrackId, "fromTrackId", .personal(.trackId)), let v { o.fromTrackId = v; changed = true }
            if let v = t(s.toTrackId, "toTrackId", .personal(.trackId)) { o.toTrackId = v; changed = true }
            if let v = t(s.reason, "reason", .personal(.layerReason)) { o.reason = v; changed = true }
            return changed ? o : nil
        }
        func changed(_ values: String?...) -> Bool { values.contains { $0 != nil } }
        // An open vocabulary's value (T1) is in clear when the format lists or documents it; any other
        // value may be anyone's text.
        func open<V: OpenVocabulary>(_ v: V, _ path: StaticString) -> V? {
            t(v.rawValue, path, v.keptInClear ? .clear(.vocabulary) : .personal(.unlistedValue)).map(V.init(rawValue:))
        }
        func word(_ v: String, _ path: StaticString, listed: Bool) -> String? { t(v, path, listed ? .clear(.vocabulary) : .personal(.unlistedValue)) }
        func word(_ v: String?, _ path: StaticString, listed: (String) -> Bool) -> String?? { v.map { word($0, path, listed: listed($0)) } }
        func options(_ o: [String], _ path: StaticString) -> [String]? {
            list(o) { word($0, path, listed: SystemVocabulary.isCategoryOption($0)) }
        }
        func api(_ v: String, _ path: StaticString) -> String? {
            t(v, path, SystemVocabulary.isCallSpelling(v) ? .clear(.vocabulary) : .personal(.apiCall))
        }
        switch self {
        case .header(let h):
            var o = h
            let sdk = t(h.sdk, "sdk", .clear(.product)), model = t(h.device.model, "device.model", .clear(.product))
            let os = t(h.device.os, "device.os", .clear(.product)), bundle = t(h.app.bundleId, "app.bundleId", .personal(.bundleId))
            let version = t(h.app.version, "app.version", .clear(.product)), started = t(h.startedAt, "startedAt", .clear(.time))
            let session = h.session.map { t($0.id, "session.id", .personal(.sessionId)) }
            guard changed(sdk ?? nil, model ?? nil, os ?? nil, bundle ?? nil, version ?? nil, started ?? nil, session ?? nil) else { return nil }
            // Each is nil when unchanged (an absent field, or one the transform kept): only answers replace.
            if let sdk = sdk ?? nil { o.sdk = sdk }
            if let model = model ?? nil { o.device.model = model }
            if let os = os ?? nil { o.device.os = os }
            if let bundle = bundle ?? nil { o.app.bundleId = bundle }
            if let version = version ?? nil { o.app.version = version }
            if let started = started ?? nil { o.startedAt = started }
            if let id = session ?? nil { o.session?.id = id }
            return .header(o)
        case let .joinChannel(channel, uid):
            let c = t(channel, "channel", .personal(.channel)), u = t(uid, "uid", .personal(.uid))
            guard changed(c, u ?? nil) else { return nil }
            return .joinChannel(channel: c ?? channel, uid: (u ?? nil) ?? uid)
        case let .enterMeeting(room, uid):
            let r = t(room, "room", .personal(.room)), u = t(uid, "uid", .personal(.uid))
            guard changed(r, u ?? nil) else { return nil }
            return .enterMeeting(room: r ?? room, uid: (u ?? nil) ?? uid)
        case .setRoute(let target, let call):
            return call.flatMap { api($0, "api") }.map { .setRoute(target: target, api: $0) }
        case let .subscribe(pub, track, layers):
            let p = t(pub, "pubUid", .personal(.uid)), k = t(track, "trackId", .personal(.trackId))
            let l = list(layers) { t($0, "layers[]", .personal(.trackId)) }
            guard p != nil || k != nil || l != nil else { return nil }
            return .subscribe(pubUid: p ?? pub, trackId: k ?? track, layers: l ?? layers)
        case let .switchLayer(pub, track, target):
            let p = t(pub, "pubUid", .personal(.uid)), k = t(track, "trackId", .personal(.trackId))
            let g = t(target, "targetTrackId", .personal(.trackId))
            guard changed(p, k, g) else { return nil }
            return .switchLayer(pubUid: p ?? pub, trackId: k ?? track, targetTrackId: g ?? target)
        case let .deviceConnected(id, kind, name, port):
            let i = t(id, "id", .personal(.deviceId)), n = t(name, "name", .personal(.deviceName)), p = t(port, "port", .personal(.port))
            let k = open(kind, "kind")
            guard changed(i, n ?? nil, p ?? nil) || k != nil else { return nil }
            return .deviceConnected(id: i ?? id, kind: k ?? kind, name: (n ?? nil) ?? name, port: (p ?? nil) ?? port)
        case .deviceDisconnected(let id): return t(id, "id", .personal(.deviceId)).map { .deviceDisconnected(id: $0) }
        case let .callKit(event, callId):
            let e = open(event, "event"), c = t(callId, "callId", .personal(.callId))
            guard e != nil || (c ?? nil) != nil else { return nil }
            return .callKit(event: e ?? event, callId: (c ?? nil) ?? callId)
        case .micPermission(let status): return open(status, "status").map { .micPermission(status: $0) }
        case let .interruptionBegan(cause, wasSuspended):
            return cause.flatMap { open($0, "cause") }.map { .interruptionBegan(cause: $0, wasSuspended: wasSuspended) }
        case .callState(let state): return open(state, "state").map { .callState(state: $0) }
        case .appState(let state): return open(state, "state").map { .appState(state: $0) }
        case let .paused(fromT, toT, reason): return open(reason, "reason").map { .paused(fromT: fromT, toT: toT, reason: $0) }
        case let .routeSnapshot(route, ports):
            guard let ports, let p = list(ports, { t($0, "ports[]", .personal(.portEntry)) }) else { return nil }
            return .routeSnapshot(route: route, ports: p)
        case .sessionActivated(let a):
            var o = a
            let e = t(a.error, "error", .personal(.errorText))
            let c = word(a.category, "category") { SessionActivation.listedCategories.contains($0) }
            let m = word(a.mode, "mode") { SessionActivation.listedModes.contains($0) }, opts = options(a.options, "options[]")
            guard changed(e ?? nil, c ?? nil, m ?? nil) || opts != nil else { return nil }
            if let e = e ?? nil { o.error = e }
            if let c = c ?? nil { o.category = c }
            if let m = m ?? nil { o.mode = m }
            if let opts { o.options = opts }
            return .sessionActivated(o)
        case let .sessionDeactivated(notify, ok, error):
            return t(error, "error", .personal(.errorText)).flatMap { $0 }.map { .sessionDeactivated(notifyOthers: notify, ok: ok, error: $0) }
        case .sdkActiveSpeakers(let speakers): return list(speakers, speaker).map { .sdkActiveSpeakers(speakers: $0) }
        case let .speakers(speaking, stopped):
            let a = list(speaking, speaker), b = list(stopped, key)
            guard a != nil || b != nil else { return nil }
            return .speakers(speaking: a ?? speaking, stopped: b ?? stopped)
        case .sdkLayerSwitched(let s): return layer(s).map { .sdkLayerSwitched($0) }
        case .srvLayerSwitched(let s): return layer(s).map { .srvLayerSwitched($0) }
        case let .sdkError(call, error):
            let a = api(call, "api"), e = t(error, "error", .personal(.errorText))
            guard changed(a, e) else { return nil }
            return .sdkError(api: a ?? call, error: e ?? error)
        case let .sdkLog(level, message):
            let l = t(level, "level", .personal(.logLevel)), m = t(message, "message", .personal(.logMessage))
            guard changed(l, m) else { return nil }
            return .sdkLog(level: l ?? level, message: m ?? message)
        case .checkpoint(let c):
            var o = c
            let devices = list(c.devices) { d -> TraceCheckpoint.Device? in
                let i = t(d.id, "devices[].id", .personal(.deviceId)), n = t(d.name, "devices[].name", .personal(.deviceName))
                let p = t(d.port, "devices[].port", .personal(.port)), k = open(d.kind, "devices[].kind")
                guard changed(i, n ?? nil, p ?? nil) || k != nil else { return nil }
                return TraceCheckpoint.Device(id: i ?? d.id, kind: k ?? d.kind, name: (n ?? nil) ?? d.name, port: (p ?? nil) ?? d.port)
            }
            let category = c.session.map { word($0.category, "session.category", listed: SessionActivation.listedCategories.contains($0.category)) }
            let mode = c.session.map { word($0.mode, "session.mode", listed: SessionActivation.listedModes.contains($0.mode)) }
            let options = c.session.map { s in options(s.options, "session.options[]") }
            let mic = open(c.micPermission, "micPermission"), call = open(c.callState, "callState"), app = open(c.appState, "appState")
            guard devices != nil || changed((category ?? nil) ?? nil, (mode ?? nil) ?? nil) || (options ?? nil) != nil
                || mic != nil || call != nil || app != nil else { return nil }
            if let devices { o.devices = devices }
            if let mic { o.micPermission = mic }
            if let call { o.callState = call }
            if let app { o.appState = app }
            if let v = (category ?? nil) ?? nil { o.session?.category = v }
            if let v = (mode ?? nil) ?? nil { o.session?.mode = v }
            if let v = options ?? nil { o.session?.options = v }
            return .checkpoint(o)
        case let .report(id, note):
            let i = t(id, "id", .clear(.reportId)), n = t(note, "note", .personal(.logMessage))
            guard changed(i, n ?? nil) else { return nil }
            return .report(id: i ?? id, note: (n ?? nil) ?? note)
        case .system(let s):
            return s.mapStrings(transform).map { .system($0) }
        case .expect(let e):
            guard case .speakers(let keys) = e.kind, let k = list(keys, key) else { return nil }
            var o = e
            o.kind = .speakers(k)
            return .expect(o)
        case .unknown(let type, let json):
            // The fields of a type this version does not know cannot be judged: all of them are personal.
            // Its type name is an SDK's name when it follows the naming rule, else anyone's text.
            let n = t(type, "type", CustomRecordName.follows(type) ? .clear(.recordName) : .personal(.recordType))
            let j = t(json, ModelWords.unknownRecordFields, .personal(.unknownRecord))
            guard changed(n, j) else { return nil }
            return .unknown(type: n ?? type, json: j ?? json)
        case .leaveChannel, .exitMeeting, .setDefaultRoute, .clearRouteOverride, .setAudioModuleEnabled,
             .interruptionEnded, .mediaServicesReset, .routeChanged,
             .overrideOutput, .sdkInterrupted, .sdkRecovered, .sdkCallStateChanged, .sdkQualityChanged, .connEngine,
             .connState, .qualityReport, .dropped:
            // No string field but values of closed vocabularies (enums), numbers and booleans.
            holdsStringField = false
            return nil
        }
    }

    /// Calls `visit` for every string field of the body (the fields `mapStrings` walks). Returns false
    /// when the record's type holds no string field at all, whatever its values: the map's own answer,
    /// which a caller may keep per `RecordKind` and not walk that type's records again.
    @discardableResult
    public func forEachString(_ visit: (String, StringField) -> Void) -> Bool {
        var holds = true
        // The walk changes nothing, so its result is nil: matched rather than destroyed whole, which
        // would go through every case of the enum.
        if case .some = mapStrings({ s, f in visit(s, f); return nil }, holdsStringField: &holds) {}
        return holds
    }
}
