import Analysis
import Replay
import TraceModel

/// The `replay` timeline: one entry per record or timer, with the state it changed and what it produced.
package enum TimelineReport {
    /// One step as a text line (plus indented detail lines).
    package static func line(_ s: ReplayStep) -> String {
        var o = "\(formatDuration(s.t))".padded(12)
        if let r = s.record {
            o += "seq \(r.seq)".padded(10) + terminalSafe(TextCap.clip(r.type))
            if case .setRoute(_, let api?) = r.body { o += " " + terminalSafe(TextCap.clip(api)) }
        } else if let timer = s.timer {
            o += "timer".padded(10) + timer.description
        } else {
            o += "end".padded(10) + TimelineWords.endOfTrace
        }
        if let before = s.before, let after = s.state, !s.changes.isEmpty {
            o += "  " + s.changes.map { "\($0.rawValue): \(before.text($0)) → \(after.text($0))" }.joined(separator: "; ")
        }
        o += "\n"
        for v in s.verdicts {
            o += "              ⇒ verdict \(v.verdict.rawValue)\(v.cause.map { " (\($0.rawValue))" } ?? "") [\(v.rule)]\n"
        }
        for e in s.events { o += "              · " + terminalSafe(e.description) + "\n" }
        for f in s.findings {
            o += "              ! \(f.severity.rawValue) \(f.code)\(f.rule.map { " [\($0)]" } ?? ""): \(terminalSafe(f.message))\n"
        }
        if let e = s.expectation {
            o += e.passed ? "              ✓ \(e.type) \(e.expected)\n" : "              ✗ \(e.type): expected \(e.expected), got \(e.actual)\n"
        }
        // State changes and expectation values carry trace text (device ids, uids): clean it all.
        return terminalSafe(o)
    }

    /// One step as a JSON line.
    package static func json(_ s: ReplayStep) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.staticKey("kind"); w.string("step")
        w.staticKey("t"); w.int(s.t)
        if let r = s.record {
            w.staticKey("seq"); w.int(r.seq)
            w.staticKey("type"); w.string(r.type)
        } else {
            w.staticKey("timer"); w.string(s.timer?.description ?? "end")
        }
        w.staticKey("changes"); w.beginObject()
        if let before = s.before, let after = s.state {
            for c in s.changes {
                w.key(c.rawValue); w.beginArray(); w.string(before.text(c)); w.string(after.text(c)); w.endArray()
            }
        }
        w.endObject()
        // Set-valued state grows with the change, not with the set: what came and went.
        for case let .devicesChanged(added, removed) in s.events {
            w.staticKey("devicesAdded"); w.beginArray(); for id in added { w.string(id) }; w.endArray()
            w.staticKey("devicesRemoved"); w.beginArray(); for id in removed { w.string(id) }; w.endArray()
        }
        w.staticKey("verdicts"); w.beginArray()
        for v in s.verdicts { ExplainJSON.verdict(v, &w, advice: Explanation.adviceAtCall(v, findings: s.findings)) }
        w.endArray()
        w.staticKey("findings"); w.beginArray()
        for f in s.findings { ExplainJSON.finding(f, &w, advice: f.advice) }
        w.endArray()
        w.staticKey("notes"); w.beginArray()
        for e in s.events { w.string(e.description) }
        w.endArray()
        if let e = s.expectation {
            w.staticKey("expectation"); w.beginObject()
            w.staticKey("passed"); w.bool(e.passed)
            w.staticKey("expected"); w.string(e.expected)
            w.staticKey("actual"); w.string(e.actual)
            w.endObject()
        }
        w.endObject()
        return w.string
    }

    /// The divergences, for the end of the text timeline.
    package static func divergences(_ r: ReplayResult) -> String {
        guard !r.divergences.isEmpty else { return TimelineWords.noRouteDivergences }
        var o = "route divergences:\n"
        for d in r.divergences {
            o += "  \(formatDuration(d.start)) – \(formatDuration(d.end)): predicted \(d.predicted.rawValue), actual \(d.actual.rawValue), "
            o += d.explainedBy.map { "explained by \($0)" } ?? (d.startStateUnknown ? TimelineWords.unknownStartState : d.uncertain ? TimelineWords.uncertainEvidenceLost : "UNEXPLAINED")
            o += " (seqs \(d.seqs.map(String.init).joined(separator: ", ")))\n"
        }
        return o
    }
}
