import Contract
import TraceModel

extension Replayer {
    static let indexCap = 10_000

    /// The kinds no report points at: the bulk of a trace (quality, speakers, logs).
    @inline(__always)
    static func isUnindexed(_ kind: RecordKind) -> Bool {
        kind == .qualityReport || kind == .speakers || kind == .sdkActiveSpeakers || kind == .sdkLog
    }

    /// Keeps type, time and a short detail of the records reports may point at (not the bulk kinds,
    /// expectations or unknown types).
    func index(_ r: Record) {
        guard let kind = r.body.kind, !Self.isUnindexed(kind) else { return }
        // The system log's records and the interruptions they explain have room beyond the cap: what the
        // explanation cites from the system log (E1) must not be lost to a long trace's calls.
        let evidence = kind.family == .sys || kind == .interruptionBegan
        guard result.recordIndex.count < (evidence ? 2 * Self.indexCap : Self.indexCap) else { return }
        var entry = IndexedRecord(type: kind.rawValue, t: r.t, detail: TextCap.clip(r.body.summary, 2 * TextCap.characters))
        if case .setRoute(let target, _) = r.body { entry.target = target }
        if case .setDefaultRoute(let target) = r.body { entry.target = target }
        if case .deviceConnected(_, let kind, _, _) = r.body { entry.deviceKind = kind }
        if case .interruptionBegan(let cause, _) = r.body { entry.interruptionCause = cause }
        if case .system(let s) = r.body { entry.system = s }
        result.recordIndex[r.seq] = entry
    }

    /// Findings that need both engines: the audio module disabled while someone speaks (R9), a state raised
    /// once per disabled period at its first record with a non-empty speaker snapshot: the disabling call
    /// itself, or the speaker update that makes the snapshot non-empty.
    func crossEngineChecks(_ record: Record, into step: inout ReplayStep) {
        let disables: Bool
        if case .setAudioModuleEnabled(false) = record.body { disables = true } else { disables = false }
        guard disables || record.body.kind == .speakers else { return }
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
