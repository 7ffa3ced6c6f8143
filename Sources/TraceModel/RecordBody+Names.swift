// How reports name a record: a short description and the fields that identify it across traces.

extension RecordBody {
    /// A short description of what the record says, for reports that point at it ("bluetooth \"AirPods
    /// Pro\"", "speaker → receiver (override)"); empty where the type says it all. Trace text is clipped
    /// (TextCap) and still needs the renderer's escaping.
    public var summary: String {
        switch self {
        case let .deviceConnected(id, kind, name, _): "\(kind.rawValue) \(name.map { "\"\(TextCap.clip($0))\"" } ?? TextCap.clip(id))"
        case .deviceDisconnected(let id): TextCap.clip(id)
        case let .setRoute(target, api): TextCap.clip(api ?? target.rawValue)
        case .setDefaultRoute(let target): target.rawValue
        case .micPermission(let status): status.rawValue
        case .callState(let s), .sdkCallStateChanged(let s): s.rawValue
        case .appState(let s): s.rawValue
        case .interruptionBegan(let cause, let wasSuspended):
            (cause?.rawValue ?? "") + (wasSuspended == true ? (cause == nil ? "wasSuspended" : ", wasSuspended") : "")
        case let .callKit(event, callId): event.rawValue + (callId.map { " \(TextCap.clip($0))" } ?? "")
        case let .routeChanged(route, previous, reason): "\(previous.rawValue) → \(route.rawValue) (\(reason.rawValue))"
        case .routeSnapshot(let route, _): route.rawValue
        case .setAudioModuleEnabled(let e): e ? "true" : "false"
        case .sessionActivated(let a):
            a.ok ? "\(a.category ?? "?")/\(a.mode ?? "?") [\(a.options.joined(separator: ","))]" : "failed: \(a.error ?? "?")"
        case let .sessionDeactivated(notify, ok, error):
            ok == false ? "failed: \(error ?? "?")" : notify ? "notifyOthers" : "without notifyOthers"
        case .connState(let s): s.rawValue
        case .connEngine(let v): v.rawValue
        case let .switchLayer(_, track, target): "\(TextCap.clip(track)) → \(TextCap.clip(target))"
        case let .sdkQualityChanged(overall, previous, _): "\(previous.rawValue) → \(overall.rawValue)"
        case .joinChannel(let c, _): TextCap.clip(c)
        case .enterMeeting(let r, _): TextCap.clip(r)
        case let .sdkError(api, error): "\(TextCap.clip(api)): \(TextCap.clip(error))"
        case let .dropped(count, _, _): "\(count) records"
        case let .report(id, _): TextCap.clip(id)
        case let .paused(fromT, toT, reason): "\(reason.rawValue), \(formatDuration(fromT))–\(formatDuration(toT))"
        case .system(let s): "\(s.processName): \(s.summary)"
        case .header, .leaveChannel, .exitMeeting, .clearRouteOverride, .subscribe, .mediaServicesReset, .interruptionEnded,
             .overrideOutput, .sdkInterrupted, .sdkRecovered, .sdkActiveSpeakers, .sdkLayerSwitched, .sdkLog, .qualityReport,
             .speakers, .srvLayerSwitched, .checkpoint, .expect, .unknown:
            ""
        }
    }
}

extension RecordBody {
    /// The fields that identify the record when two traces of one scenario are compared (targets,
    /// device ids, states, events, layer ids), never its time or free text such as log lines.
    public var identity: String {
        switch self {
        case .setDefaultRoute(let target), .setRoute(let target, _): target.rawValue
        case .setAudioModuleEnabled(let enabled): enabled ? "true" : "false"
        case let .subscribe(pubUid, trackId, _): "\(pubUid)/\(trackId)"
        case let .switchLayer(pubUid, trackId, target): "\(pubUid)/\(trackId) → \(target)"
        case let .deviceConnected(id, kind, _, _): "\(kind.rawValue) \(id)"
        case .deviceDisconnected(let id): id
        case .micPermission(let status): status.rawValue
        case .interruptionBegan(let cause, _): cause?.rawValue ?? ""
        case .callState(let s), .sdkCallStateChanged(let s): s.rawValue
        case .appState(let s): s.rawValue
        case let .routeChanged(route, _, reason): "\(route.rawValue) (\(reason.rawValue))"
        case .routeSnapshot(let route, _): route.rawValue
        case .sessionActivated(let a): a.ok ? "\(a.category ?? "?")/\(a.mode ?? "?")" : "failed"
        case let .sessionDeactivated(n, ok, _): ok == false ? "failed" : n ? "notifyOthers" : "without notifyOthers"
        case .overrideOutput(let port): port.rawValue
        case let .sdkQualityChanged(overall, previous, _): "\(previous.rawValue) → \(overall.rawValue)"
        case .sdkLayerSwitched(let s), .srvLayerSwitched(let s): "\(s.pubUid)/\(s.trackId) → \(s.toTrackId)"
        case let .sdkError(api, error): "\(api) \(error)"
        case .connEngine(let v): v.rawValue
        case .connState(let s): s.rawValue
        case let .qualityReport(pub, sub): "\(pub.level.rawValue)/\(sub.level.rawValue)"
        case .system(let s): "\(s.process) \(s.summary)"
        case .header, .joinChannel, .leaveChannel, .enterMeeting, .exitMeeting, .clearRouteOverride, .mediaServicesReset,
             .interruptionEnded, .callKit, .sdkInterrupted, .sdkRecovered, .sdkActiveSpeakers, .sdkLog, .speakers, .dropped,
             .checkpoint, .paused, .expect, .unknown:
            ""
        case .report(let id, _): id
        }
    }
}
