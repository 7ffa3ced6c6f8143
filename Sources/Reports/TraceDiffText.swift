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
        if d.a.layer != d.b.layer { o += DiffWords.noteTheTracesComeFromDifferent }
        o += DiffWords.pairedRecords(d.paired)
        if d.changedCalls > 0 { o += DiffWords.changedCalls(d.changedCalls) }
        o += DiffWords.unpairedCounts(d.a.unpairedCount, d.b.unpairedCount)
        o += DiffWords.toleranceNote(formatDuration(d.toleranceMs))
        if d.offsetMs != 0 {
            o += DiffWords.clockOffset(d.offsetMs > 0 ? "" : "-", formatDuration(abs(d.offsetMs)), d.offsetMs > 0 ? "behind" : "ahead of")
                + DiffWords.timesBelowAreASB
        }
        o += "\n"
        guard let first = d.differences.first else {
            o += DiffWords.theTracesBehaveTheSameEvery
            return o + unpaired(d)
        }
        o += DiffWords.differenceCount(d.differenceCount)
        o += DiffWords.firstDifference(formatDuration(first.t)) + heading(first) + "\n" + sides(first, w, indent: "  ")
        if d.differences.count > 1 {
            o += DiffWords.everyDifferenceInTimeOrder
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
        case .call: s = DiffWords.callArgumentsChanged(terminalSafe(x.subject))
        case .end: s = DiffWords.oneTraceGoesOnAfterThe
        case .shift: s = DiffWords.clockStep(terminalSafe(x.bValue ?? ""), terminalSafe(x.aValue ?? ""))
        case .verdict: s = DiffWords.verdictOf(terminalSafe(x.subject))
        case .outcome: s = DiffWords.outcomeOf(terminalSafe(x.subject))
        case .predictedRoute: s = DiffWords.thePredictedRoute
        case .actualRoute: s = DiffWords.theRouteTheDevicePlayed
        case .divergence: s = DiffWords.aRouteDivergence
        case .finding: s = "finding \(x.subject)"
        case .quality: s = DiffWords.theQualityLevel
        }
        if let r = x.rule { s += " [\(r)]" }
        switch x.kind {
        case .predictedRoute, .actualRoute, .quality:
            s += x.until.map { ", until \(formatDuration($0))" } ?? DiffWords.toTheEnd
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
                s += DiffWords.missingStretch(name, formatDuration(m.fromT), formatDuration(m.toT), m.seqText, m.cause.words)
            }
            return s + "\n"
        }
        return line("A", x.a, x.aValue, x.aCause, x.aSteps, x.aMissing) + line("B", x.b, x.bValue, x.bCause, x.bSteps, x.bMissing)
    }

    static func describe(_ kind: Difference.Kind, _ value: String?, _ cause: VerdictCause?, _ w: LayerWords) -> String {
        guard let value else {
            switch kind {
            case .verdict, .outcome, .call: return DiffWords.noSuchCall
            case .divergence: return "no divergence"
            case .finding: return "not raised"
            case .predictedRoute, .actualRoute, .quality, .end, .shift: return "none"
            }
        }
        if value == Difference.missing { return value }
        var s = terminalSafe(value)
        if kind == .finding { s = "raised (\(s))" }
        if let cause { s += " (\(cause.rawValue)): " + cause.reason(w) }
        return s
    }

    static func unpaired(_ d: TraceDiff) -> String {
        var o = ""
        for (name, side) in [("A", d.a), ("B", d.b)] where side.unpairedCount > 0 {
            o += DiffWords.unpairedHeading(name, side.unpairedCount)
            for r in side.unpaired.prefix(10) { o += "  seq \(r.seq) \(terminalSafe(r.type)) at \(formatDuration(r.t))\n" }
            if side.unpairedCount > 10 { o += "  … \(side.unpairedCount - 10) more (see --json)\n" }
        }
        return o
    }
}
