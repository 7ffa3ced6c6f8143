import QualityEngine
import Replay
import TraceFormat

/// The support engineer's answer, as text: a summary, then each item with cause, records, rule and advice.
public enum ExplainText {
    /// Renders the explanation of a replay result.
    public static func render(_ r: ReplayResult, colour: Bool = false) -> String {
        var o = ""
        let w = r.words
        func bold(_ s: String) -> String { colour ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
        o += bold("\(Wording.title(r)): \(terminalSafe(r.file))") + "\n"
        if let h = r.header {
            o += "  device    \(terminalSafe(h.device.model ?? "?")), \(terminalSafe(h.device.os ?? "?"))\(h.device.simulator ? " (simulator)" : "")"
            o += h.sdk.map { ", \(terminalSafe($0))" } ?? ""
            o += "\n"
        } else {
            o += "  device    unknown (the trace has no header)\n"
        }
        o += "  duration  \(formatDuration(r.durationMs)), \(r.records) records\n"
        if r.problemCount > 0 { o += "  damage    \(r.problemCount) problem\(r.problemCount == 1 ? "" : "s") while reading (see stderr; run 'rtctrace verify')\n" }
        o += "\n" + bold("Summary") + "\n"
        let failing = r.notTakingEffect
        let calls = r.verdictCount
        o += "  \(r.notTakingEffectCount) of \(calls) call\(calls == 1 ? "" : "s") did not take effect"
        o += r.layerCallCount == 0 ? "" : " (\(calls - r.layerCallCount) route, \(r.layerCallCount) layer)"
        o += "\n"
        var byCause: [String: Int] = [:]
        for (key, n) in r.notTakingEffectCounts {
            let parts = key.split(separator: " ")
            let cause = parts.count > 1 ? VerdictCause(rawValue: String(parts[1])) : nil
            let outcome = OutcomeKind(rawValue: String(parts.first ?? ""))
            let why = cause.map { Wording.cause($0, w) } ?? outcome.map { Wording.outcome($0, w) } ?? "?"
            byCause["\(parts.first ?? ""): \(why)", default: 0] += n
        }
        for (k, n) in byCause.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) { o += "    \(n) \(k)\n" }
        let late = r.tookEffectLate
        if !late.isEmpty { o += "  \(late.count) call\(late.count == 1 ? "" : "s") took effect late (deferred, applied later)\n" }
        let unexplained = r.divergences.filter { !$0.explained }
        o += "  \(r.divergences.count) route divergence\(r.divergences.count == 1 ? "" : "s") (\(unexplained.count) unexplained, \(r.divergences.count - unexplained.count) explained)\n"
        let sev = Severity.allCases.reversed().map { s in (s, r.findings.filter { $0.severity == s }.count) }
        o += "  findings: " + sev.map { "\($0.1) \($0.0.rawValue)\($0.1 == 1 || $0.0 == .info ? "" : "s")" }.joined(separator: ", ")
        o += r.findingsDropped > 0 ? " (+\(r.findingsDropped) not listed)" : ""
        o += "\n"
        if let q = r.quality, q.reports > 0 { o += "  quality: " + QualityText.oneLine(q) + "\n" }
        o += "  " + (r.hasIssues ? "Needs attention: see below." : "Nothing is wrong: every call did what the contract predicts.") + "\n"

        if !failing.isEmpty {
            o += "\n" + bold("Calls that did not take effect") + "\n"
            for v in failing.prefix(200) { o += verdictItem(v, r) }
            if r.notTakingEffectCount > 200 { o += "  … \(r.notTakingEffectCount - 200) more (see --json)\n" }
        }
        if !late.isEmpty {
            o += "\n" + bold("Calls that took effect late") + "\n"
            for v in late.prefix(200) { o += lateItem(v, r) }
        }
        if !r.divergences.isEmpty {
            o += "\n" + bold("Route divergences (unexplained first)") + "\n"
            for d in unexplained + r.divergences.filter(\.explained) { o += divergenceItem(d, r) }
        }
        let others = r.findings.filter { $0.code != .routeIneffective && $0.code != .routeDivergence }
            .sorted { ($0.severity, -$0.t) > ($1.severity, -$1.t) }
        if !others.isEmpty {
            o += "\n" + bold("Findings (most severe first)") + "\n"
            for f in others { o += findingItem(f, r) }
        }
        if let q = r.quality, q.reports > 0 || q.vendor == .wangsu {
            o += "\n" + bold("Quality") + "\n" + QualityText.block(q, findings: r.findingCounts)
        }
        return o
    }

    static func verdictItem(_ v: Verdict, _ r: ReplayResult) -> String {
        let w = r.words
        var o = "  seq \(v.seq) at \(formatDuration(v.t))  \(v.call)\(v.api.map { " " + terminalSafe($0) } ?? "") → \(v.verdict.rawValue)"
        o += v.cause.map { " (\($0.rawValue))" } ?? ""
        o += " [\(v.rule)]\n"
        if let c = v.cause { o += "      why: " + Wording.cause(c, w) + "\n" }
        if let outcome = Wording.outcomeLine(v, in: r) { o += "      outcome: " + outcome + " [V2]\n" }
        if let cs = v.causeSeq { o += "      cause record: " + Wording.record(cs, in: r) + "\n" }
        let finding = r.findings.first { ($0.code == .routeIneffective || $0.code.family == "layer") && $0.seqs.first == v.seq }
        if let f = finding {
            o += "      " + terminalSafe(f.message) + "\n"
            o += "      advice: " + terminalSafe(f.advice) + "\n"
        } else if let c = v.cause {
            o += "      advice: " + Wording.advice(c, w) + "\n"
        }
        return o
    }

    static func lateItem(_ v: Verdict, _ r: ReplayResult) -> String {
        var o = "  " + Wording.record(v.seq, in: r) + " → deferred" + (v.cause.map { " (\($0.rawValue))" } ?? "") + " [V2]\n"
        if let outcome = Wording.outcomeLine(v, in: r) { o += "      " + outcome + "\n" }
        return o
    }

    static func divergenceItem(_ d: Divergence, _ r: ReplayResult) -> String {
        var o = "  \(d.explained ? "explained  " : "UNEXPLAINED")  \(formatDuration(d.start)) – \(formatDuration(d.end))\(d.openAtEnd ? " (end of trace)" : "")"
        o += ": predicted \(d.predicted.rawValue), device played \(d.actual.rawValue) [\(d.explained ? "X3" : "X2")]\n"
        if let p = d.predictedBy {
            o += "      prediction set by " + Wording.predictionSource(p, in: r) + " [X4]\n"
        } else if let s = d.predictedSeq {
            o += "      prediction set by " + Wording.record(s, in: r) + "\n"
        }
        if let s = d.actualSeq { o += "      actual route from " + Wording.record(s, in: r) + "\n" }
        if let a = d.afterAppliedCall { o += "      right after the applied call " + Wording.record(a, in: r) + ": accepted, but it did not take effect\n" }
        if let f = r.findings.first(where: { $0.code == .routeDivergence && $0.seqs == d.seqs }) {
            o += "      advice: " + terminalSafe(f.advice) + "\n"
        }
        if let by = d.explainedBy { o += "      explained by \(by)" + (d.explainedBySeq.map { " (" + Wording.record($0, in: r) + ")" } ?? "") + "\n" }
        return o
    }

    static func findingItem(_ f: Finding, _ r: ReplayResult) -> String {
        var o = "  " + f.severity.rawValue.padded(8) + f.code.rawValue + (f.rule.map { " [\($0)]" } ?? "") + " at \(formatDuration(f.t))"
        o += f.seqs.isEmpty ? "\n" : ", seq " + f.seqs.map(String.init).joined(separator: ", ") + "\n"
        o += "      " + terminalSafe(f.message) + "\n"
        o += "      advice: " + terminalSafe(f.advice) + "\n"
        return o
    }
}

extension String {
    /// The string padded with spaces to at least `width` characters.
    func padded(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}
