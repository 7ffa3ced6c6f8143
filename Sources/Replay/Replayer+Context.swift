import Contract
import TraceModel

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
        case .callKit(let event, let callId): detail = event.rawValue + (callId.map { " \($0)" } ?? "")
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

    /// Findings that need both engines: the audio module disabled while someone speaks (R9), a state raised
    /// once per disabled period at its first record with a non-empty speaker snapshot: the disabling call
    /// itself, or the speaker update that makes the snapshot non-empty.
    func crossEngineChecks(_ record: Record, into step: inout ReplayStep) {
        switch record.body {
        case .setAudioModuleEnabled(false), .speakers: break
        default: return
        }
        guard !route.state.audioModuleEnabled, let period = route.state.audioModuleDisabledSeq,
              disabledWhileSpeakingReported != period, !quality.state.speakers.isEmpty else { return }
        disabledWhileSpeakingReported = period
        let w = result.words
        let speakers = quality.state.speakers
        let who = speakers.prefix(3).map(\.uid).joined(separator: ", ")
        let count = "\(speakers.count) \(w.participant)\(speakers.count == 1 ? " was" : "s were")"
        let message = record.seq == period
            ? "setAudioModuleEnabled(false) stopped call audio while \(count) speaking (\(who)): nobody is heard until it is re-enabled"
            : "while the audio module was disabled by setAudioModuleEnabled(false) (seq \(period)), \(count) speaking "
                + "(\(who), from seq \(record.seq)): nobody is heard until it is re-enabled"
        raise(Finding(
            code: .audioModuleDisabledWhileSpeaking, severity: .warning, rule: .R9,
            seqs: record.seq == period ? [period] : [record.seq, period], t: record.t, message: message,
            advice: "Only disable the audio module when the whole \(w.session) needs no call audio (e.g. playing a recording); to mute, use the microphone switch or unsubscribe."),
              into: &step)
    }
}
