// Q1–Q5: evaluations, level changes, reconnects, the CDN engine; and the flapping finding.
import Contract
import TraceModel

extension QualityEngine {
    /// Q1: the worse of the two levels and the smaller of the two MOS values (either, when only one is present).
    package static func evaluate(pub: QualitySample, sub: QualitySample) -> Evaluation {
        let overall = max(pub.level, sub.level)
        let mos: Double? = switch (pub.mos, sub.mos) {
        case let (a?, b?): min(a, b)
        case let (a?, nil): a
        case let (nil, b?): b
        case (nil, nil): nil
        }
        return Evaluation(overall: overall, mos: mos)
    }

    mutating func engineSelected(_ vendor: EngineVendor, seq: Int, t: Int64) {
        state.vendor = vendor
        state.vendorSeq = seq
        state.vendorFromBefore = false
        if vendor == .wangsu {
            // Q5: the CDN engine has no quality path; whatever the SFU left behind is gone.
            clearQualityCache()
            tally.noData(t: t, seq: seq)
        }
    }

    mutating func transportChanged(_ transport: ConnState, seq: Int, t: Int64) {
        let before = state.transport
        state.transport = transport
        state.transportSeq = seq
        state.transportFromBefore = false
        guard transport == .connected else { return }
        // Q7: `connected` from any other state, once the transport has been connected, is a reconnect; a
        // repeated `connected` is none.
        if state.connectedBefore && before != .connected {
            // Q4: the SDK clears its quality cache so the UI does not keep a stale level after recovery.
            // No snapshot is derived: S2 speaks of `srv.speakers` updates, and a reconnect is not one (S3).
            clearQualityCache()
            tally.reconnected(t: t, seq: seq)
        }
        state.connectedBefore = true
    }

    /// Q4/Q5: latest evaluation, baseline and speaker snapshot back to "no data".
    mutating func clearQualityCache() {
        state.latest = nil
        state.baseline = .unknown
        state.speakers = []
        speakerLevels = [:]
        speakerIDs = []
        levelsIndexed = false
        speakersContent = nil
        state.speakersSeq = nil
        state.speakersFromBefore = false
        state.baselineFromBefore = false
    }

    /// T2: the documented ranges of a quality sample's values (`pub` and `sub` together).
    static let sampleRanges: [(field: String, value: @Sendable (QualitySample) -> Double?, range: ClosedRange<Double>)] = [
        ("srv.qualityReport.score", { $0.score }, 0...100), ("srv.qualityReport.mos", { $0.mos }, 1.0...4.5),
        ("srv.qualityReport.loss", { $0.loss }, 0...1), ("srv.qualityReport.rtt", { $0.rtt }, 0...Double.infinity),
        ("srv.qualityReport.jitter", { $0.jitter }, 0...Double.infinity), ("srv.qualityReport.bitrate", { $0.bitrate }, 0...Double.infinity),
    ]

    /// T2: a value outside its documented range raises `trace.valueOutOfRange` once per record type and
    /// field; the value is used as recorded.
    mutating func valueChecks<Values: Sequence<Double>>(_ values: Values, field: String, seq: Int, t: Int64,
                                                     range: ClosedRange<Double> = 0...1, into out: inout QualitySink) {
        guard let bad = values.first(where: { !range.contains($0) }), !obligations.outOfRangeReported.contains(field) else { return }
        obligations.outOfRangeReported.insert(field)
        out.append(.finding(findings.valueOutOfRange(field: field, value: bad, range: range, seq: seq, t: t)))
    }

    /// Whether any value of the two samples is outside its documented range (`sampleRanges`), read without a
    /// closure per value: the check every report makes, almost always false.
    static func anyOutOfRange(_ pub: QualitySample, _ sub: QualitySample) -> Bool {
        func out(_ v: Double?, _ low: Double, _ high: Double) -> Bool { v.map { !($0 >= low && $0 <= high) } ?? false }
        return out(pub.score, 0, 100) || out(sub.score, 0, 100) || out(pub.mos, 1.0, 4.5) || out(sub.mos, 1.0, 4.5)
            || out(pub.loss, 0, 1) || out(sub.loss, 0, 1) || out(pub.rtt, 0, .infinity) || out(sub.rtt, 0, .infinity)
            || out(pub.jitter, 0, .infinity) || out(sub.jitter, 0, .infinity) || out(pub.bitrate, 0, .infinity)
            || out(sub.bitrate, 0, .infinity)
    }

    mutating func reportReceived(pub: QualitySample, sub: QualitySample, seq: Int, t: Int64, into out: inout QualitySink) {
        if Self.anyOutOfRange(pub, sub) {
            for (field, value, range) in Self.sampleRanges {
                // The pub value first, then the sub value: the first one out of range is the one reported.
                let a = value(pub), b = value(sub)
                guard a.map({ !range.contains($0) }) == true || b.map({ !range.contains($0) }) == true else { continue }
                valueChecks([a, b].compactMap { $0 }, field: field, seq: seq, t: t, range: range, into: &out)
            }
        }
        guard state.vendor == .seaStart else { return }  // Q5
        let evaluation = Self.evaluate(pub: pub, sub: sub)
        state.latest = evaluation  // Q3
        tally.report(seq: seq, t: t, pub: pub, sub: sub, evaluation: evaluation)
        guard evaluation.overall != state.baseline else { return }  // Q2
        var change = LevelChange(seq: seq, t: t, previous: state.baseline, overall: evaluation.overall,
                                 mos: evaluation.mos)
        change.previousUnknown = state.baselineFromBefore
        state.baselineFromBefore = false
        state.baseline = evaluation.overall
        // `changes` backs expect.qualityChanges; past the cap only the count goes on (bounded memory).
        if state.changes.count < Self.maxKeptChanges { state.changes.append(change) }
        state.unmatchedChanges.append(change)
        tally.levelChanged(change)
        out.append(.levelChange(change))
        // +1: an SDK event exactly `matchWindowMs` after the change still matches (the window is inclusive).
        setDeadline(.matchWindow(changeSeq: seq), due: t.saturatingAdd(options.matchWindowMs).saturatingAdd(1), into: &out)
        if flappingCheck(change) {
            // Phrased only where it is kept (the marks are the episode's changes, this one last).
            let marks = state.recentChanges, findings = QualityFindings(layer: state.layer, options: options)
            out.finding(.qualityFlapping, seq: change.seq, t: change.t) { findings.flapping(marks) }
        }
    }

    /// Whether quality.flapping is raised now: once per episode; an episode ends after a full window without any change.
    mutating func flappingCheck(_ change: LevelChange) -> Bool {
        let limit = max(options.flappingChanges, 0)
        state.recentChanges.append(ChangeMark(seq: change.seq, t: change.t, overall: change.overall))
        if state.recentChanges.count > limit + 1 { state.recentChanges.removeFirst() }
        if var episode = state.flapping {
            if change.t - episode.endT <= options.flappingWindowMs {
                episode.endSeq = change.seq
                episode.endT = change.t
                episode.changes += 1
                state.flapping = episode
                return false
            }
            tally.record(flapping: episode)
            state.flapping = nil
        }
        guard state.recentChanges.count == limit + 1, let first = state.recentChanges.first,
              change.t - first.t <= options.flappingWindowMs else { return false }
        state.flapping = FlappingEpisode(startSeq: first.seq, startT: first.t, endSeq: change.seq, endT: change.t,
                                         changes: state.recentChanges.count)
        return true
    }
}
