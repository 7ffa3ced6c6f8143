import Analysis
import Contract
import Replay
import TraceModel

/// A trace diff for a person, in the words of the traces' layer.
package enum TraceDiffText {
    /// Renders the diff: the pairing, the first difference in full, then every difference.
    package static func render(_ d: TraceDiff) -> String {
        let w = LayerWords(d.a.layer)
        var o = "A: \(terminalSafe(d.a.file)) (\(w.product), \(d.a.records) records)\n"
        o += "B: \(terminalSafe(d.b.file)) (\(LayerWords(d.b.layer).product), \(d.b.records) records)\n"
        if d.a.layer != d.b.layer { o += "note: the traces come from different layers; the words below are A's\n" }
        o += "\(d.paired) records paired by type and identifying fields"
        if d.changedCalls > 0 { o += " (\(d.changedCalls) of them call\(d.changedCalls == 1 ? "" : "s") made with other arguments)" }
        o += "; \(d.a.unpairedCount) only in A, \(d.b.unpairedCount) only in B; "
        o += "stretches of \(formatDuration(d.toleranceMs)) or less do not count\n"
        if d.offsetMs != 0 {
            o += "B runs \(d.offsetMs > 0 ? "" : "-")\(formatDuration(abs(d.offsetMs))) \(d.offsetMs > 0 ? "behind" : "ahead of") A (the median over the first paired records); "
                + "times below are A's, B's compared after the shift\n"
        }
        o += "\n"
        guard let first = d.differences.first else {
            o += "The traces behave the same: every paired call got the same verdict, and the routes, divergences, findings and quality levels agree.\n"
            return o + unpaired(d)
        }
        o += "The behaviour differs: \(d.differenceCount) difference\(d.differenceCount == 1 ? "" : "s").\n\n"
        o += "First difference at \(formatDuration(first.t)): " + heading(first) + "\n" + sides(first, w, indent: "  ")
        if d.differences.count > 1 {
            o += "\nEvery difference, in time order\n"
            for (i, x) in d.differences.enumerated() {
                o += "  \(i + 1). \(formatDuration(x.t))  " + heading(x) + "\n" + sides(x, w, indent: "       ")
            }
            if d.differenceCount > d.differences.count { o += "  … \(d.differenceCount - d.differences.count) more (see --json)\n" }
        }
        return o + unpaired(d)
    }

    static func heading(_ x: Difference) -> String {
        var s: String
        switch x.kind {
        case .call: s = "the call \(terminalSafe(x.subject)) was made with other arguments"
        case .end: s = "one trace goes on after the other ends"
        case .shift: s = "B's clock moves against A's: \(terminalSafe(x.bValue ?? "")) from here on (\(terminalSafe(x.aValue ?? "")) before); later times are compared after the move"
        case .verdict: s = "the verdict on \(terminalSafe(x.subject))"
        case .outcome: s = "what became of \(terminalSafe(x.subject))"
        case .predictedRoute: s = "the predicted route"
        case .actualRoute: s = "the route the device played"
        case .divergence: s = "a route divergence"
        case .finding: s = "finding \(x.subject)"
        case .quality: s = "the quality level"
        }
        if let r = x.rule { s += " [\(r)]" }
        switch x.kind {
        case .predictedRoute, .actualRoute, .quality:
            s += x.until.map { ", until \(formatDuration($0))" } ?? ", to the end"
        default: break
        }
        return s
    }

    static func sides(_ x: Difference, _ w: LayerWords, indent: String) -> String {
        func line(_ name: String, _ r: DiffRecord?, _ value: String?, _ cause: VerdictCause?, _ steps: [Difference.Step],
                  _ missing: LostStretch?) -> String {
            var s = indent + name + "  "
            s += r.map { "seq \($0.seq) \(terminalSafe($0.type)) at \(formatDuration($0.t))" } ?? "no record"
            s += ": " + describe(x.kind, value, cause, w)
            for step in steps { s += ", then \(terminalSafe(step.value)) from \(formatDuration(step.t))" }
            // What the trace does not have there, and why: not the state carried across it.
            if let m = missing {
                s += " (\(name)'s records from \(formatDuration(m.fromT)) to \(formatDuration(m.toT)) are missing, \(m.seqText): \(m.cause.words))"
            }
            return s + "\n"
        }
        return line("A", x.a, x.aValue, x.aCause, x.aSteps, x.aMissing) + line("B", x.b, x.bValue, x.bCause, x.bSteps, x.bMissing)
    }

    static func describe(_ kind: Difference.Kind, _ value: String?, _ cause: VerdictCause?, _ w: LayerWords) -> String {
        guard let value else {
            switch kind {
            case .verdict, .outcome, .call: return "no such call"
            case .divergence: return "no divergence"
            case .finding: return "not raised"
            case .predictedRoute, .actualRoute, .quality, .end, .shift: return "none"
            }
        }
        if value == Difference.missing { return value }
        var s = terminalSafe(value)
        if kind == .finding { s = "raised (\(s))" }
        if let cause { s += " (\(cause.rawValue)): " + Wording.cause(cause, w) }
        return s
    }

    static func unpaired(_ d: TraceDiff) -> String {
        var o = ""
        for (name, side) in [("A", d.a), ("B", d.b)] where side.unpairedCount > 0 {
            o += "\nRecords only in \(name) (\(side.unpairedCount))\n"
            for r in side.unpaired.prefix(10) { o += "  seq \(r.seq) \(terminalSafe(r.type)) at \(formatDuration(r.t))\n" }
            if side.unpairedCount > 10 { o += "  … \(side.unpairedCount - 10) more (see --json)\n" }
        }
        return o
    }
}
