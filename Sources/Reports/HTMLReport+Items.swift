import Analysis
import Contract
import Replay
import TraceModel

/// The report's lists, laid out from the explanation (calls that did not take effect, calls that took
/// effect late, divergences, grouped findings, quality), each item linked to its marker on the timeline.
extension HTMLReport {
    /// The explanation of a verdict, as the lines a marker's tooltip shows.
    static func verdictLines(_ v: Verdict, _ r: ReplayResult) -> [String] {
        let c = Explanation.call(v, r)
        return [c.headline] + c.lines.map(\.plain)
    }

    /// The explanation of finding `index` of `r`, as the lines a marker's tooltip shows, with the advice the
    /// explanation tells it with (a call's finding: what became of the call).
    static func findingLines(_ index: Int, _ r: ReplayResult, _ advice: Explanation.FindingAdvice) -> [String] {
        let f = r.findings[index]
        var head = "\(f.severity.rawValue) \(f.code)" + (f.rule.map { " [\($0)]" } ?? "") + " at \(formatDuration(f.t))"
        head += f.seqs.isEmpty ? "" : ", seq " + f.seqs.map(String.init).joined(separator: ", ")
        return [head, f.message, "advice: " + advice.advice(index, r)]
    }

    /// The explanation of a divergence, as the lines a marker's tooltip shows.
    static func divergenceLines(_ d: Divergence, index: Int, _ r: ReplayResult) -> [String] {
        let item = Explanation.divergence(d, index: index, r)
        return [item.headline] + item.lines.map(\.plain)
    }

    /// An item as HTML: the headline bold, each line a paragraph with its label emphasised; each `seq N`
    /// of the lines that has an anchor on the page (other than the item's own, `seq`) links to it.
    static func block(_ headline: String, _ lines: [Explanation.Line], _ anchors: Anchors, seq: Int?) -> String {
        var o = "<p class=\"head\">\(HTMLEscape.text(headline.trimmingSpaces))</p>\n"
        for line in lines {
            let text = anchors.linked(HTMLEscape.text(line.text), except: seq)
            if let label = line.label {
                o += "<p class=\"\(HTMLEscape.identifier(label))\"><b>\(HTMLEscape.text(label))</b>: \(text)</p>\n"
            } else {
                o += "<p>\(text)</p>\n"
            }
        }
        return o
    }

    /// The links under an item: to its marker, and to the item itself as `#seq-N` when it owns that anchor.
    static func links(marker: String, _ text: String, seq: Int?, key: String, _ anchors: Anchors) -> String {
        var o = "<p class=\"links\"><a href=\"#\(marker)\" data-marker=\"\(marker)\">\(text)</a>"
        if let id = anchors.id(seq, key) { o += " · <a class=\"permalink\" href=\"#\(id)\">link: #\(id)</a>" }
        return o + "</p>\n"
    }

    /// The calls that did not take effect, drawn beside the timeline (`tag` is `aside` or `section`),
    /// then those that took effect late.
    static func callsSection(_ e: Explanation, _ anchors: Anchors, tag: String, checks: [AdviceCheck] = []) -> String {
        var o = "<\(tag) id=\"calls\" class=\"calls\">\n<h2>" + ReportPageWords.callsHeading + "</h2>\n"
        if let note = e.routeContractNotApplied {
            o += "<p class=\"none route-contract\">\(HTMLEscape.text(note.prefix(1).uppercased() + note.dropFirst())).</p>\n"
        }
        if e.calls.isEmpty { o += "<p class=\"none\">\(HTMLEscape.text(noCallFailed(e)))</p>\n" }
        for c in e.calls { o += card(c, anchors, badge: badge(checks, .call, seq: c.verdict.seq, LayerWords(e.layer))) }
        if e.callsNotListed > 0 { o += "<p class=\"more\">" + ReportPageWords.moreNotListed(e.callsNotListed) + "</p>\n" }
        if !e.lateCalls.isEmpty {
            o += "<h2>" + ReportPageWords.lateCallsHeading + "</h2>\n"
            for c in e.lateCalls { o += card(c, anchors) }
        }
        o += "</\(tag)>\n"
        return o
    }

    /// What is said when no call is listed as not taking effect: an all-clear only where every call was
    /// judged on a state the replay knew and the whole trace was read.
    static func noCallFailed(_ e: Explanation) -> String {
        let n = e.undeterminedCalls
        if n > 0 {
            return ReportPageWords.undeterminedCalls(n)
                + ReportPageWords.sessionPartUnknown(n == 1 ? "it" : "them")
        }
        if e.partial {
            return ReportPageWords.noCallReplayedFailedToTake
                + ReportPageWords.beforeItIsKnown
        }
        if !e.unread.isEmpty || e.unexplainable != nil {
            return ReportPageWords.noCallThatCouldBeRead
        }
        return ReportPageWords.everyCallTookEffectAsThe
    }

    /// The badge of an item's advice checked by replay, if it was.
    static func badge(_ checks: [AdviceCheck], _ kind: WhatIfProblem.Kind, seq: Int?, code: String? = nil, _ w: LayerWords) -> String {
        guard let c = checks.first(where: { $0.kind == kind && $0.seq == seq && (code == nil || $0.subject == code) }) else { return "" }
        let label = switch c.verdict {
        case .verified, .alternativeVerified: "advice verified"
        case .doesNotApply, .changedNotResolved: ReportPageWords.adviceDoesNotApplyHere
        case .cannotPlace, .notVerifiable: ReportPageWords.adviceNotChecked
        }
        return "<p class=\"advice-check \(c.verdict.rawValue)\"><b>\(label)</b> \(HTMLEscape.text(AdviceCheckReport.words(c, w)))</p>\n"
    }

    private static func card(_ c: Explanation.Call, _ anchors: Anchors, badge: String = "") -> String {
        let v = c.verdict, key = "item-v-\(v.seq)"
        return "<article class=\"card verdict v-\(v.verdict.rawValue)\" id=\"\(key)\" data-seq=\"\(v.seq)\">\n" + anchors.span(v.seq, key)
            + block(c.headline, c.lines, anchors, seq: v.seq) + badge + links(marker: "m-v-\(v.seq)", ReportPageWords.showOnTheTimeline, seq: v.seq, key: key, anchors) + "</article>\n"
    }

    /// A divergence's class (and tone): explained (X3), begun from an unknown start state (not judged), or
    /// unexplained.
    static func divergenceClass(_ d: Divergence) -> String {
        d.explained ? "explained" : d.startStateUnknown ? "unknown-start" : d.uncertain ? "uncertain" : "unexplained"
    }

    static func divergencesSection(_ e: Explanation, _ anchors: Anchors) -> String {
        guard !e.divergences.isEmpty else { return "" }
        var o = "<section id=\"divergences\">\n<h2>" + ReportPageWords.divergencesHeading + "</h2>\n"
        for (listIndex, d) in e.divergences.enumerated() {
            let key = "item-d-\(listIndex)", seq = Anchors.seq(of: d.divergence)
            o += "<article class=\"card divergence \(divergenceClass(d.divergence))\" id=\"\(key)\""
            o += (seq.map { " data-seq=\"\($0)\"" } ?? "") + ">\n" + anchors.span(seq, key)
            o += block(d.headline, d.lines, anchors, seq: seq)
            o += links(marker: "m-d-\(listIndex)", ReportPageWords.showOnTheTimeline, seq: seq, key: key, anchors) + "</article>\n"
        }
        if e.divergencesNotListed > 0 { o += "<p class=\"more\">" + ReportPageWords.moreNotListed(e.divergencesNotListed) + "</p>\n" }
        o += "</section>\n"
        return o
    }

    /// The findings, grouped and ordered as `explain` lists them.
    static func findingsSection(_ e: Explanation, _ anchors: Anchors, checks: [AdviceCheck] = []) -> String {
        var o = "<section id=\"findings\">\n<h2>" + ReportPageWords.findingsHeading + "</h2>\n"
        if e.groups.isEmpty {
            o += "<p class=\"none\">" + ReportPageWords.noOtherFindings + "</p>\n</section>\n"
            return o
        }
        o += "<ol class=\"findings\">\n"
        for g in e.groups.prefix(listCap) {
            let key = "item-f-\(g.firstIndex)", seq = g.first.seqs.first
            o += "<li class=\"card finding s-\(g.severity.rawValue)\" id=\"\(key)\"" + (seq.map { " data-seq=\"\($0)\"" } ?? "") + ">\n"
            o += anchors.span(seq, key) + block(g.headline, g.lines, anchors, seq: seq)
            o += badge(checks, .finding, seq: seq, code: g.first.code.rawValue, LayerWords(e.layer))
            o += links(marker: "m-f-\(g.firstIndex)", ReportPageWords.showTheFirstOnTheTimeline, seq: seq, key: key, anchors) + "</li>\n"
        }
        o += "</ol>\n"
        if e.findingsNotListed > 0 { o += "<p class=\"more\">" + ReportPageWords.findingsNotKept(e.findingsNotListed) + "</p>\n" }
        o += "</section>\n"
        return o
    }

    /// What the device's system log names (E1), only in a trace that holds `sys.*` records.
    static func systemLogSection(_ e: Explanation, _ anchors: Anchors) -> String {
        guard !e.systemLog.isEmpty else { return "" }
        var o = "<section id=\"system-log\">\n<h2>" + ReportPageWords.systemLogHeading + "</h2>\n<p class=\"hint\">" + ReportPageWords.systemLogHint + "</p>\n<ul class=\"system-log\">\n"
        for i in e.systemLog {
            o += "<li>" + block(ExplainText.subject(i, e), [Explanation.Line(ReportPageWords.systemLogLine, i.text)], anchors, seq: nil) + "</li>\n"
        }
        return o + "</ul>\n</section>\n"
    }

    static func qualitySection(_ e: Explanation) -> String {
        guard let q = e.quality, q.reports > 0 || q.vendor == .wangsu else { return "" }
        return "<section id=\"quality\">\n<h2>Quality</h2>\n<pre>" + HTMLEscape.text(QualityText.block(q, findings: e.findingCounts)) + "</pre>\n</section>\n"
    }
}

extension Explanation.Line {
    /// The line as plain text: `label: text`.
    var plain: String { (label.map { $0 + ": " } ?? "") + text }
}

extension Explanation {
    /// The group that tells the finding at `index` of `ReplayResult.findings` (its item on the page).
    func groupIndex(ofFinding index: Int, _ r: ReplayResult) -> Int? {
        guard index < r.findings.count else { return nil }
        let f = r.findings[index]
        return groups.first { $0.code == f.code && $0.severity == f.severity && $0.first.t <= f.t }?.firstIndex
    }
}
