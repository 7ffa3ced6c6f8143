import Analysis
import Replay
import TraceModel

/// The support engineer's answer, as text: a summary, then each item with cause, records, rule and advice.
package struct ExplainText {
    /// Whether to use bold headings (a terminal that did not ask for NO_COLOR).
    package var colour: Bool

    /// Creates the renderer.
    package init(colour: Bool = false) {
        self.colour = colour
    }

    /// Renders the explanation of a replay result.
    package static func render(_ r: ReplayResult, colour: Bool = false) -> String {
        ExplainText(colour: colour).render(Explanation(r))
    }

    /// Renders an explanation.
    package func render(_ e: Explanation) -> String {
        func bold(_ s: String) -> String { colour ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
        var o = bold("\(e.title): \(terminalSafe(e.file))" + (e.session.map { " (\($0))" } ?? "")) + "\n"
        o += "  device    \(terminalSafe(e.device))\n"
        o += "  duration  \(e.duration)\n"
        for r in e.reports { o += "  report    \(terminalSafe(r))\n" }
        if let d = e.damage { o += "  damage    \(d)\n" }
        o += "\n" + bold("Summary") + "\n"
        for l in e.summary { o += (l.nested ? "    " : "  ") + terminalSafe(l.text) + "\n" }
        if !e.calls.isEmpty {
            o += "\n" + bold(ExplainWords.callsThatDidNotTakeEffect) + "\n"
            for c in e.calls { o += item(c.headline, c.lines) }
            if e.callsNotListed > 0 { o += "  … \(e.callsNotListed) more (see --json)\n" }
        }
        if !e.lateCalls.isEmpty {
            o += "\n" + bold(ExplainWords.callsThatTookEffectLate) + "\n"
            for c in e.lateCalls { o += item(c.headline, c.lines) }
        }
        if !e.divergences.isEmpty {
            o += "\n" + bold(ExplainWords.routeDivergencesUnexplainedFirst) + "\n"
            for d in e.divergences { o += item(d.headline, d.lines) }
            if e.divergencesNotListed > 0 { o += ExplainWords.moreInSummary(e.divergencesNotListed) }
        }
        if !e.groups.isEmpty {
            o += "\n" + bold(ExplainWords.findingsMostSevereFirstRepeatsGrouped) + "\n"
            for g in e.groups { o += item(g.headline, g.lines) }
        }
        if !e.systemLog.isEmpty {
            o += "\n" + bold(ExplainWords.fromTheSystemLogENamed) + "\n"
            for i in e.systemLog { o += "  " + terminalSafe(Self.subject(i, e)) + ExplainWords.fromTheSystemLog + terminalSafe(i.text) + "\n" }
        }
        if let q = e.quality, q.reports > 0 || q.vendor == .wangsu {
            o += "\n" + bold("Quality") + "\n" + QualityText.block(q, findings: e.findingCounts)
        }
        return o
    }

    /// What an item of the system log explains, as its heading.
    static func subject(_ i: SystemLogEvidence.Item, _ e: Explanation) -> String {
        switch i.subject {
        case .finding(_, let code): "\(code.rawValue) at \(formatDuration(i.t))"
        case .interruption(let seq): ExplainWords.interruptionWithoutCause(formatDuration(i.t), seq)
        }
    }

    private func item(_ headline: String, _ lines: [Explanation.Line]) -> String {
        var o = "  " + terminalSafe(headline) + "\n"
        for l in lines { o += "      " + (l.label.map { $0 + ": " } ?? "") + terminalSafe(l.text) + "\n" }
        return o
    }
}
