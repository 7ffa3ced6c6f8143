import TraceFormat

extension Replayer {
    static let indexCap = 10_000

    /// Keeps type, time and a short detail of the records reports may point at.
    func index(_ r: Record) {
        guard result.recordIndex.count < Self.indexCap else { return }
        let detail: String
        switch r.body {
        case .qualityReport, .speakers, .sdkActiveSpeakers, .sdkLog, .expect, .unknown: return
        case .deviceConnected(let id, let kind, let name, _): detail = "\(kind.rawValue) \(name.map { "\"\(TextCap.clip($0))\"" } ?? TextCap.clip(id))"
        case .deviceDisconnected(let id): detail = id
        case .setRoute(let target, let api): detail = api ?? target.rawValue
        case .setDefaultRoute(let target): detail = target.rawValue
        case .micPermission(let status): detail = status.rawValue
        case .callState(let s), .sdkCallStateChanged(let s): detail = s.rawValue
        case .appState(let s): detail = s.rawValue
        case .interruptionBegan(let cause): detail = cause?.rawValue ?? ""
        case .routeChanged(let route, let prev, let reason): detail = "\(prev.rawValue) → \(route.rawValue) (\(reason.rawValue))"
        case .routeSnapshot(let route, _): detail = route.rawValue
        case .setAudioModuleEnabled(let e): detail = e ? "true" : "false"
        case .sessionActivated(let a): detail = a.ok ? "\(a.category ?? "?")/\(a.mode ?? "?") [\(a.options.joined(separator: ","))]" : "failed: \(a.error ?? "?")"
        case .sessionDeactivated(let n): detail = n ? "notifyOthers" : "without notifyOthers"
        case .connState(let s): detail = s.rawValue
        case .connEngine(let v): detail = v.rawValue
        case .switchLayer(_, let track, let target): detail = "\(track) → \(target)"
        case .sdkQualityChanged(let o, let p, _): detail = "\(p.rawValue) → \(o.rawValue)"
        default: detail = ""
        }
        var entry = IndexedRecord(type: TextCap.clip(r.type), t: r.t, detail: TextCap.clip(detail, 2 * TextCap.characters))
        switch r.body {
        case .setRoute(let target, _), .setDefaultRoute(let target): entry.target = target
        case .deviceConnected(_, let kind, _, _): entry.deviceKind = kind
        default: break
        }
        result.recordIndex[r.seq] = entry
    }

    /// Notes the records that later explain divergences.
    func noteContext(_ record: Record) {
        switch record.body {
        case .sessionActivated(let a) where a.isCallSession:
            lastCallSession = (record.seq, a.options)
        case .interruptionBegan:
            lastInterruptionBegan = record.t
            interruptionFindings.removeAll()
        default: break
        }
    }

    /// Findings that need both engines: the audio module disabled while someone speaks (R9).
    func crossEngineChecks(_ record: Record) {
        guard case .setAudioModuleEnabled(false) = record.body, route.state.audioModuleEnabled,
              !quality.state.speakers.isEmpty else { return }
        let w = result.words
        let who = quality.state.speakers.prefix(3).map(\.uid).joined(separator: ", ")
        raise(Finding(
            code: .audioModuleDisabledWhileSpeaking, severity: .warning, rule: .R9, seqs: [record.seq], t: record.t,
            message: "setAudioModuleEnabled(false) stopped call audio while \(quality.state.speakers.count) \(w.participant)\(quality.state.speakers.count == 1 ? " was" : "s were") speaking (\(who)): nobody is heard until it is re-enabled",
            advice: "Only disable the audio module when the whole \(w.session) needs no call audio (e.g. playing a recording); to mute, use the microphone switch or unsubscribe."))
    }

    /// The finding that accounts for a divergence (X3), if any: its code and the record behind it.
    func explanation(predicted: Route, actual: Route, start: Int64) -> (FindingCode, Int)? {
        if route.state.simulator { return (.deviceSimulator, 0) }
        if predicted == .bluetooth, let s = lastCallSession, !s.options.contains("allowBluetooth") {
            return (.sessionMissingAllowBluetooth, s.seq)
        }
        if predicted == .speaker, actual == .receiver, route.state.override == nil, route.state.defaultTarget == .speaker,
           let s = lastCallSession, !s.options.contains("defaultToSpeaker") {
            return (.sessionMissingDefaultToSpeaker, s.seq)
        }
        if let began = lastInterruptionBegan, start >= began, let f = interruptionFindings.last {
            return (f.code, f.seq)
        }
        return nil
    }
}
