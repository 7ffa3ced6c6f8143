import Replay
import TraceModel

extension TimelineSVG {
    /// The user's problem reports the app marked (`trace.report`): a line across every lane at the moment
    /// of the report, labelled with its id (in `labelLayer`), where a support engineer starts reading.
    static func reportMarks(_ r: ReplayResult, _ s: Scale, from y0: Double, to y1: Double) -> String {
        guard !r.reports.isEmpty else { return "" }
        var o = "<g class=\"reportmarks\">\n"
        for m in r.reports {
            let x = s.x(m.t)
            let tip = ReportPageWords.reportMark(m.id, formatDuration(m.t), m.seq) + (m.note.map { ": \($0)" } ?? "")
            o += "<g class=\"reportmark\" data-seq=\"\(m.seq)\"><title>\(HTMLEscape.text(tip))</title>"
                + "<line x1=\"\(n(x))\" y1=\"\(n(y0))\" x2=\"\(n(x))\" y2=\"\(n(y1))\" class=\"reportline\"/></g>\n"
        }
        o += "</g>\n"
        return o
    }
}
