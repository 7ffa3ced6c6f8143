import Replay
import TraceModel

extension TimelineSVG {
    /// The user's problem reports the app marked (`trace.report`): a line across every lane at the moment
    /// of the report, labelled with its id, where a support engineer starts reading.
    static func reportMarks(_ r: ReplayResult, _ s: Scale, from y0: Double, to y1: Double) -> String {
        guard !r.reports.isEmpty else { return "" }
        var o = "<g class=\"reportmarks\">\n"
        for m in r.reports {
            let x = s.x(m.t)
            let label = "report \(m.id)"
            let tip = label + " at \(formatDuration(m.t)) (seq \(m.seq) trace.report)" + (m.note.map { ": \($0)" } ?? "")
            let anchor = x > plotX + plotW * 0.75 ? "end" : "start"
            let lx = anchor == "end" ? x - 3 : x + 3
            o += "<g class=\"reportmark\" data-seq=\"\(m.seq)\"><title>\(HTMLEscape.text(tip))</title>"
                + "<line x1=\"\(n(x))\" y1=\"\(n(y0))\" x2=\"\(n(x))\" y2=\"\(n(y1))\" class=\"reportline\"/>"
                + "<text x=\"\(n(lx))\" y=\"\(n(y0 + 9))\" class=\"reportlabel\" text-anchor=\"\(anchor)\" data-x=\"\(n(lx))\" data-gx=\"\(n(x))\">"
                + HTMLEscape.text(label) + "</text></g>\n"
        }
        o += "</g>\n"
        return o
    }
}
