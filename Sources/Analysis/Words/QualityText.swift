import QualityEngine
import TraceModel

/// The quality summary in plain words.
package enum QualityText {
    package static let levels: [QualityLevel?] = [.excellent, .good, .poor, .lost, .unknown, nil]

    static func name(_ l: QualityLevel?) -> String { l?.rawValue ?? "no data" }

    /// One line: the time split across levels and whose side was bad.
    package static func oneLine(_ q: QualitySummary) -> String {
        let total = max(q.time.total, 1)
        let parts = levels.compactMap { l -> String? in
            let ms = q.time[l]
            return ms == 0 ? nil : "\(name(l)) \(fixed(Double(ms) * 100 / Double(total), 0))%"
        }
        return parts.joined(separator: ", ") + "; " + q.attributionSentence
    }

    /// The stretches with no records: what the trace cannot say anything about.
    /// The stretches without records; `missing` gives the stretches where a part of the session is
    /// missing, which are said to be that instead of a suspended app.
    /// `known` gives the stretches whose cause the trace knows (X5: a lost frame, a drop, a restart), said
    /// of the gaps they overlap instead of a guess.
    package static func gapsSentence(_ q: QualitySummary, missing: [(fromT: Int64, toT: Int64)] = [],
                                    known: [(fromT: Int64, toT: Int64, why: String)] = []) -> String {
        let inMissing = { (g: QualitySummary.Interval) in missing.contains { g.startT >= $0.fromT && g.startT < $0.toT } }
        let cause = { (g: QualitySummary.Interval) in known.first { $0.fromT <= g.endT && $0.toT >= g.startT }?.why }
        let listed = q.gaps.prefix(5)
        if listed.contains(where: { cause($0) != nil }) {
            return "no records: \(q.gapCount) stretch\(q.gapCount == 1 ? "" : "es") longer than \(formatDuration(q.gapThresholdMs))"
                + " (three report periods): "
                + listed.map { g in "\(formatDuration(g.durationMs)) from \(formatDuration(g.startT)) (seq \(g.startSeq)–\(g.endSeq)): "
                    + (cause(g) ?? (inMissing(g) ? "a part of the session is missing there" : "the app was suspended or the recorder stopped")) }
                    .joined(separator: "; ") + (q.gapCount > 5 ? "; …" : "")
                + "; that time counts as no data"
        }
        let why = q.gaps.prefix(5).allSatisfy(inMissing) ? "a part of the session is missing there"
            : q.gaps.prefix(5).contains(where: inMissing) ? "a part of the session is missing, or the app was suspended or the recorder stopped"
            : "the app was suspended or the recorder stopped"
        return "no records: \(q.gapCount) stretch\(q.gapCount == 1 ? "" : "es") longer than \(formatDuration(q.gapThresholdMs))"
            + " (three report periods): "
            + q.gaps.prefix(5).map { "\(formatDuration($0.durationMs)) from \(formatDuration($0.startT)) (seq \($0.startSeq)–\($0.endSeq))" }
                .joined(separator: ", ") + (q.gapCount > 5 ? ", …" : "")
            + "; \(why), so that time counts as no data"
    }

    /// The full block for `explain`.
    package static func block(_ q: QualitySummary, findings: [FindingCode: Int]) -> String {
        var o = ""
        if q.vendor == .wangsu {
            o += "  engine: CDN (wangsu): no quality, speaker or layer events; getConnectionQuality() is null (Q5)\n"
            return o
        }
        let total = max(q.time.total, 1)
        o += "  reports: \(q.reports), level changes: \(q.levelChanges), reconnects: \(q.reconnects)\n"
        for l in levels where q.time[l] > 0 {
            o += "  " + name(l).padded(10) + formatDuration(q.time[l]).padded(14) + fixed(Double(q.time[l]) * 100 / Double(total), 1) + "%\n"
        }
        if let worst = q.worst {
            o += "  worst: poor or lost for \(formatDuration(worst.durationMs)), from \(formatDuration(worst.startT)) (seq \(worst.startSeq)) to \(formatDuration(worst.endT)) (seq \(worst.endSeq))\n"
        }
        if let lo = q.mosMin, let hi = q.mosMax { o += "  mos: \(fixed(lo, 2))–\(fixed(hi, 2))\n" }
        let a = q.attribution
        o += "  attribution [Q6]: " + q.attributionSentence
        o += " (pub poor/lost \(formatDuration(a.pubBadMs)), sub \(formatDuration(a.subBadMs)), both \(formatDuration(a.bothBadMs)))\n"
        if q.flappingEpisodeCount > 0 {
            o += "  flapping: \(q.flappingEpisodeCount) episode\(q.flappingEpisodeCount == 1 ? "" : "s")"
            o += q.flappingEpisodes.prefix(3).map { " \(formatDuration($0.startT))–\(formatDuration($0.endT))" }.joined(separator: ",") + "\n"
        }
        o += "  an app prompting on every change to poor/lost would have prompted \(q.rawPromptCount) time\(q.rawPromptCount == 1 ? "" : "s")"
        if let h = q.hysteresis {
            o += "; with hysteresis (\(h.model.k) of \(h.model.n), hold \(formatDuration(h.model.holdMs))) \(h.episodeCount) time\(h.episodeCount == 1 ? "" : "s")"
        }
        o += "\n"
        return o
    }
}
