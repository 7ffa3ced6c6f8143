import Replay
import TraceFormat

/// The report's lists: calls that did not take effect, divergences, findings and quality, each item
/// linked to its marker on the timeline; and the plain-text explanations markers show.
extension HTMLReport {
    /// The finding that carries the message and advice for a verdict, if any.
    static func finding(for v: Verdict, in r: ReplayResult) -> Finding? {
        r.findings.first { ($0.code == .routeIneffective || $0.code.family == "layer") && $0.seqs.first == v.seq }
    }

    /// The explanation of a verdict, as plain text lines (escaped by whoever renders them).
    static func verdictLines(_ v: Verdict, _ r: ReplayResult) -> [String] {
        let w = r.words
        var head = "seq \(v.seq) at \(formatDuration(v.t))  \(v.call)\(v.api.map { " " + $0 } ?? "") → \(v.verdict.rawValue)"
        head += (v.cause.map { " (\($0.rawValue))" } ?? "") + " [\(v.rule)]"
        var lines = [head]
        if let c = v.cause { lines.append("why: " + Wording.cause(c, w)) }
        if let cs = v.causeSeq { lines.append("cause record: " + Wording.record(cs, in: r)) }
        if let outcome = Wording.outcomeLine(v, in: r) { lines.append("outcome: " + outcome + " [V2]") }
        if let f = finding(for: v, in: r) {
            lines.append(f.message)
            lines.append("advice: " + f.advice)
        } else if let c = v.cause {
            lines.append("advice: " + Wording.advice(c, w))
        }
        return lines
    }

    /// The explanation of a finding, as plain text lines.
    static func findingLines(_ f: Finding) -> [String] {
        var head = "\(f.severity.rawValue) \(f.code)" + (f.rule.map { " [\($0)]" } ?? "") + " at \(formatDuration(f.t))"
        head += f.seqs.isEmpty ? "" : ", seq " + f.seqs.map(String.init).joined(separator: ", ")
        return [head, f.message, "advice: " + f.advice]
    }

    /// The explanation of a divergence, as plain text lines.
    static func divergenceLines(_ d: Divergence, _ r: ReplayResult) -> [String] {
        var lines = ["\(d.explained ? "explained" : "UNEXPLAINED") divergence \(formatDuration(d.start)) – \(formatDuration(d.end))"
            + (d.openAtEnd ? " (end of trace)" : "") + ": predicted \(d.predicted.rawValue), device played \(d.actual.rawValue) [\(d.explained ? "X3" : "X2")]"]
        if let p = d.predictedBy {
            lines.append("prediction set by " + Wording.predictionSource(p, in: r) + " [X4]")
        } else if let s = d.predictedSeq {
            lines.append("prediction set by " + Wording.record(s, in: r))
        }
        if let s = d.actualSeq { lines.append("actual route from " + Wording.record(s, in: r)) }
        if let a = d.afterAppliedCall { lines.append("right after the applied call " + Wording.record(a, in: r) + ": accepted, but it did not take effect") }
        if let by = d.explainedBy { lines.append("explained by \(by)" + (d.explainedBySeq.map { " (" + Wording.record($0, in: r) + ")" } ?? "")) }
        if let f = r.findings.first(where: { $0.code == .routeDivergence && $0.seqs == d.seqs }) { lines.append("advice: " + f.advice) }
        return lines
    }

    /// Lines as HTML: the first bold, the rest as paragraphs, labels (`why:`, `advice:`) emphasised.
    static func block(_ lines: [String]) -> String {
        var o = ""
        for (i, line) in lines.enumerated() {
            if i == 0 { o += "<p class=\"head\">\(HTMLEscape.text(line))</p>\n"; continue }
            if let colon = line.firstIndex(of: ":"), ["why", "advice", "cause record", "outcome"].contains(String(line[..<colon])) {
                let label = String(line[..<colon]), rest = String(line[line.index(after: colon)...]).trimmingSpaces
                o += "<p class=\"\(HTMLEscape.identifier(label))\"><b>\(HTMLEscape.text(label))</b>: \(HTMLEscape.text(rest))</p>\n"
            } else {
                o += "<p>\(HTMLEscape.text(line))</p>\n"
            }
        }
        return o
    }

    /// The calls that did not take effect, drawn beside the timeline (`tag` is `aside` or `section`).
    static func callsSection(_ r: ReplayResult, tag: String) -> String {
        let failing = r.notTakingEffect
        var o = "<\(tag) id=\"calls\" class=\"calls\">\n<h2>Calls that did not take effect</h2>\n"
        if failing.isEmpty {
            o += "<p class=\"none\">Every call did what the contract predicts.</p>\n</\(tag)>\n"
            return o
        }
        for v in failing.prefix(listCap) {
            o += "<article class=\"card verdict v-\(v.verdict.rawValue)\" id=\"item-v-\(v.seq)\">\n"
            o += block(verdictLines(v, r))
            o += "<p class=\"links\"><a href=\"#m-v-\(v.seq)\" data-marker=\"m-v-\(v.seq)\">show on the timeline</a></p>\n</article>\n"
        }
        if failing.count > listCap { o += "<p class=\"more\">\(failing.count - listCap) more not listed.</p>\n" }
        o += "</\(tag)>\n"
        return o
    }

    static func divergencesSection(_ r: ReplayResult) -> String {
        guard !r.divergences.isEmpty else { return "" }
        var o = "<section id=\"divergences\">\n<h2>Route divergences (unexplained first)</h2>\n"
        let ordered = r.divergences.enumerated().filter { !$0.element.explained } + r.divergences.enumerated().filter { $0.element.explained }
        for (i, d) in ordered.prefix(listCap) {
            o += "<article class=\"card divergence \(d.explained ? "explained" : "unexplained")\" id=\"item-d-\(i)\">\n"
            o += block(divergenceLines(d, r))
            o += "<p class=\"links\"><a href=\"#m-d-\(i)\" data-marker=\"m-d-\(i)\">show on the timeline</a></p>\n</article>\n"
        }
        o += "</section>\n"
        return o
    }

    static func findingsSection(_ r: ReplayResult) -> String {
        var o = "<section id=\"findings\">\n<h2>Findings</h2>\n"
        if r.findings.isEmpty {
            o += "<p class=\"none\">No findings.</p>\n</section>\n"
            return o
        }
        o += "<ol class=\"findings\">\n"
        for (i, f) in r.findings.enumerated().prefix(listCap) {
            o += "<li class=\"card finding s-\(f.severity.rawValue)\" id=\"item-f-\(i)\">\n"
            o += block(findingLines(f))
            o += "<p class=\"links\"><a href=\"#m-f-\(i)\" data-marker=\"m-f-\(i)\">show on the timeline</a></p>\n</li>\n"
        }
        o += "</ol>\n"
        let left = r.findings.count - min(r.findings.count, listCap) + r.findingsDropped
        if left > 0 { o += "<p class=\"more\">\(left) more findings not listed (counts by code are in the explain output).</p>\n" }
        o += "</section>\n"
        return o
    }

    static func qualitySection(_ r: ReplayResult) -> String {
        guard let q = r.quality, q.reports > 0 || q.vendor == .wangsu else { return "" }
        return "<section id=\"quality\">\n<h2>Quality</h2>\n<pre>" + HTMLEscape.text(QualityText.block(q, findings: r.findingCounts)) + "</pre>\n</section>\n"
    }
}
