import Analysis
import Replay
import TraceModel

/// The self-contained HTML report: the `explain` summary, a timeline drawn as inline SVG with a lane
/// per state, a mark per moment the contract reads and a marker per verdict and finding, the quality
/// graphs at the timeline's scale, and the lists linked to the timeline by `#seq-N` anchors.
///
/// The page loads nothing from anywhere (no network, scripts, fonts, images or style sheets outside
/// it), works without its small inline script (it then shows the whole trace; markers carry SVG
/// tooltips and links), and prints. Every string that comes from the trace goes through
/// `HTMLEscape.text`; the script reads trace text only from escaped `<title>`s and writes it with
/// `textContent`. The output depends only on the result and the lanes, so the same trace always gives
/// the same bytes.
package enum HTMLReport {
    /// Markers drawn per kind (verdicts, findings); the most telling come first when there are more.
    package static let markerCap = 1000
    /// Findings listed in full; beyond this the list says how many are left out.
    package static let listCap = 1000

    /// Renders the report page for a replay result and the lanes collected during it.
    /// `checks`: the advice of each item checked by replay (`report --verify-advice`), drawn as a badge on its item.
    package static func render(_ r: ReplayResult, lanes: [Lane], checks: [AdviceCheck] = []) -> String {
        let explanation = Explanation(r)
        let anchors = Anchors.make(r, explanation, lanes)
        let e = HTMLEscape.text
        let title = "\(Wording.title(r)) report: \(r.file)" + (Wording.sessionName(r).map { " (\($0))" } ?? "")
        var o = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        o += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        o += "<title>\(e(title))</title>\n<style>\n\(Palette.css)\(style)</style>\n</head>\n<body>\n"
        o += TimelineSVG.nodataPattern
        o += header(r)
        o += notices(explanation)
        o += summary(explanation)
        o += "<section id=\"timeline\">\n<h2>Timeline</h2>\n"
        o += "<p class=\"hint\">" + ReportPageWords.timelineHint
        o += "<code>#seq-N</code> (its record's seq).</p>\n"
        o += toolbar
        o += "<div class=\"timeline-row\">\n<div class=\"timeline-box\" id=\"timeline-box\" tabindex=\"0\">\n"
        o += TimelineSVG.render(r, explanation, lanes: lanes, anchors: anchors)
        o += GraphsSVG.render(r, lanes: lanes)
        o += "</div>\n"
        o += HTMLReport.callsSection(explanation, anchors, tag: "aside", checks: checks)
        o += "</div>\n"
        o += "<div id=\"detail\" class=\"detail\" role=\"status\" aria-live=\"polite\">" + ReportPageWords.selectAMarker + "</div>\n"
        o += Palette.legend()
        o += "</section>\n"
        o += divergencesSection(explanation, anchors)
        o += findingsSection(explanation, anchors, checks: checks)
        o += systemLogSection(explanation, anchors)
        o += qualitySection(explanation)
        o += "<details id=\"explain-text\">\n<summary>The full <code>rtctrace explain</code> output</summary>\n<pre>"
        o += e(ExplainText().render(explanation))
        o += "</pre>\n</details>\n"
        o += "<footer>" + ReportPageWords.generatedBy(e(r.file)) + "</footer>\n"
        o += "<script>\n\(script)</script>\n</body>\n</html>\n"
        return o
    }

    /// Zoom and pan controls: hidden until the script shows them (without it the page shows the whole trace).
    static let toolbar = """
    <div class="toolbar" id="toolbar" hidden>
    <button type="button" data-zoom="in" title="zoom in (+ or W)">+</button><button type="button" data-zoom="out" title="zoom out (− or S)">−</button>\
    <button type="button" data-zoom="left" title="pan left (← or A)">←</button><button type="button" data-zoom="right" title="pan right (→ or D)">→</button>\
    <button type="button" data-zoom="reset" title="whole trace (0)">whole trace</button>
    <span class="view" id="view-range"></span>
    <span class="keys">Ctrl/⌘ + wheel or + − W S: zoom at the pointer · drag, wheel sideways, ← → A D: pan · double-click: zoom in · 0: whole trace</span>
    </div>

    """

    static func header(_ r: ReplayResult) -> String {
        let e = HTMLEscape.text
        var o = "<header>\n<h1>\(e(Wording.title(r))) report</h1>\n<p class=\"meta\"><span class=\"file\">\(e(r.file))</span>"
        if let session = Wording.sessionName(r) { o += " · <span class=\"session\">\(e(session))</span>" }
        if let h = r.header {
            o += " · \(e(h.device.model ?? "?")), \(e(h.device.os ?? "?"))\(h.device.simulator ? " (simulator)" : "")"
            if let sdk = h.sdk { o += " · \(e(sdk))" }
        } else {
            o += ReportPageWords.deviceUnknownTheTraceHasNo
        }
        o += " · \(e(formatDuration(r.durationMs))), \(r.records) records</p>\n"
        let unread = Wording.unread(r)
        let status = r.unexplainable.map { ("attention", ReportPageWords.cannotBeExplained + e($0)) }
            ?? (!unread.isEmpty ? ("attention", ReportPageWords.notAllOfItCouldBe + e(unread.joined(separator: "; ")))
            : (r.session?.isPartial ?? false) ? ("attention", ReportPageWords.partialJudgementWithheldWhereTheState)
                : (r.session?.isIncomplete ?? false) ? ("attention", ReportPageWords.partialJudgedFromACheckpointWithout)
                : r.hasIssues ? ("attention", "Needs attention")
                : ("ok", ReportPageWords.nothingIsWrong))
        o += "<p class=\"status \(status.0)\">\(status.1)</p>\n</header>\n"
        return o
    }

    /// What the reader must know before anything else: a partial session, damage. Nothing when neither.
    static func notices(_ e: Explanation) -> String {
        guard !(e.sessionNotes.isEmpty && e.damageNotes.isEmpty) else { return "" }
        var o = "<section id=\"notices\" class=\"notices\" role=\"alert\">\n<h2>" + ReportPageWords.noticesHeading + "</h2>\n<ul>\n"
        for note in e.sessionNotes {
            o += note.withheld ? "<li class=\"partial\"><b>Partial</b>: " : "<li class=\"session\"><b>Session</b>: "
            o += HTMLEscape.text(note.text) + "</li>\n"
        }
        for note in e.damageNotes { o += "<li class=\"damage\"><b>Damage</b>: \(HTMLEscape.text(note))</li>\n" }
        return o + "</ul>\n</section>\n"
    }

    /// The summary, from the same explanation `explain` prints.
    static func summary(_ e: Explanation) -> String {
        var o = "<section id=\"summary\">\n<h2>Summary</h2>\n<ul class=\"summary\">\n"
        for line in e.summary { o += "<li\(line.nested ? " class=\"sub\"" : "")>\(HTMLEscape.text(line.text))</li>\n" }
        o += "</ul>\n</section>\n"
        return o
    }
}

extension String {
    /// The string without leading and trailing spaces.
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
