import Replay
import TraceModel

/// The quality graphs as inline SVG: round-trip time, loss, jitter, bitrate and MOS for `pub` and
/// `sub` over time, at the timeline's scale (same plot area, same zoom), with the level changes and
/// reconnects drawn across them.
///
/// Each run of a series (no break between its points) is one `polyline` carrying the points' seqs
/// (`data-seqs`) and recorded values (`data-values`), and each graph its value range (`data-min`,
/// `data-max`) and plot rows (`data-top`, `data-bottom`): the script reads them for the read-out under
/// the pointer, and a test can check every drawn point against its record.
enum GraphsSVG {
    static let panelH = 56.0
    static let panelStep = 76.0
    static let top = 22.0
    /// Points drawn per series at most (each time bucket's lowest and highest).
    static let pointCap = 800

    static func render(_ r: ReplayResult, lanes all: [Lane]) -> String {
        let graphs = all.filter { if case .graph = $0.kind { true } else { false } }
        guard graphs.contains(where: { $0.series.contains { !$0.points.isEmpty } }) else {
            return "<p class=\"none\" id=\"graphs\">" + ReportPageWords.nothingToGraph + "</p>\n"
        }
        let s = TimelineSVG.scale(r)
        let height = top + Double(graphs.count) * panelStep + 4
        var o = "<h3 class=\"graphs-title\">Quality over time: <span class=\"key t-pub\">pub</span> and <span class=\"key t-sub\">sub</span>, "
        o += "as each <code>srv.qualityReport</code> recorded them</h3>\n"
        o += "<div id=\"readout\" class=\"readout\" aria-live=\"polite\"></div>\n"
        o += TimelineSVG.open("graphs-svg", s, height: height, label: "quality graphs")
        o += "<g class=\"labels\">\n"
        var ranges: [(Double, Double)] = []
        for (i, g) in graphs.enumerated() {
            let y0 = top + Double(i) * panelStep, y1 = y0 + panelH
            let range = Self.range(g)
            ranges.append(range)
            let metric: QualityMetric = if case .graph(let m) = g.kind { m } else { .mos }
            // The title between the axis's top and bottom labels, which stand at the plot's edge.
            o += "<text x=\"\(n(4))\" y=\"\(n((y0 + y1) / 2 + 4))\" class=\"graphlabel\">\(HTMLEscape.text(g.title))</text>\n"
            o += "<text x=\"\(n(TimelineSVG.plotX - 6))\" y=\"\(n(y0 + 4))\" class=\"axislabel\" data-top-of=\"\(metric.rawValue)\">\(HTMLEscape.text(axisText(range.1, metric)))</text>"
            o += "<text x=\"\(n(TimelineSVG.plotX - 6))\" y=\"\(n(y1))\" class=\"axislabel\">\(HTMLEscape.text(axisText(range.0, metric)))</text>\n"
            for y in [y0, (y0 + y1) / 2, y1] {
                o += "<line x1=\"\(n(TimelineSVG.plotX))\" y1=\"\(n(y))\" x2=\"\(n(TimelineSVG.plotX + TimelineSVG.plotW))\" y2=\"\(n(y))\" class=\"grid\"/>"
            }
            o += "\n"
        }
        o += "</g>\n<g clip-path=\"url(#clip-graphs-svg)\">\n"
        o += TimelineSVG.axis(s, from: 12, to: height - 2)
        o += "<g class=\"zoom-layer\">\n"
        o += guides(all, s, from: top - 6, to: height - 4)
        for (i, g) in graphs.enumerated() {
            let y0 = top + Double(i) * panelStep
            o += panel(g, s, range: ranges[i], top: y0, bottom: y0 + panelH)
        }
        o += "</g>\n</g>\n</svg>\n"
        return o
    }

    static func n(_ v: Double) -> String { fixed(v, 1) }

    /// The range a graph's axis covers: the metric's base range, grown to a round top (and down to any
    /// value below it) so every recorded value is drawn inside it.
    static func range(_ g: Lane) -> (Double, Double) {
        let metric: QualityMetric = if case .graph(let m) = g.kind { m } else { .mos }
        var (lo, hi) = metric.baseRange
        for s in g.series {
            for p in s.points {
                lo = min(lo, p.value)
                hi = max(hi, p.value)
            }
        }
        if metric != .mos { hi = roundUp(hi) }
        return (lo, hi > lo ? hi : lo + 1)
    }

    /// The smallest 1, 2, 2.5 or 5 × 10ⁿ at or above `v` (for v > 0).
    static func roundUp(_ v: Double) -> Double {
        guard v > 0, v.isFinite else { return 1 }
        var p = 1.0
        while p * 10 <= v { p *= 10 }
        while p > v { p /= 10 }
        for m in [1.0, 2, 2.5, 5, 10] where m * p >= v { return m * p }
        return 10 * p
    }

    static func axisText(_ v: Double, _ m: QualityMetric) -> String {
        let shown = m.shown(v)
        let text = shown == shown.rounded() && abs(shown) < 1e9 ? "\(Int64(shown))" : fixed(shown, abs(shown) < 1 ? 2 : 1)
        return m.unit.isEmpty ? text : text + " " + m.unit
    }

    /// A recorded value as the shortest text that reads back as the same number.
    static func value(_ v: Double) -> String {
        let s = "\(v)"
        return s.hasSuffix(".0") ? String(s.dropLast(2)) : s
    }

    static func panel(_ g: Lane, _ s: TimelineSVG.Scale, range: (Double, Double), top y0: Double, bottom y1: Double) -> String {
        let (lo, hi) = range
        func y(_ v: Double) -> Double { y1 - (v - lo) / (hi - lo) * (y1 - y0) }
        let metric: QualityMetric = if case .graph(let m) = g.kind { m } else { .mos }
        let id = HTMLEscape.identifier(g.id)
        // The panel clips its lines to its rows: the script may stretch them to the values in view.
        var o = "<clipPath id=\"clip-graph-\(id)\"><rect x=\"\(n(TimelineSVG.plotX))\" y=\"\(n(y0 - 1))\" width=\"\(n(TimelineSVG.plotW))\" "
        o += "height=\"\(n(y1 - y0 + 2))\"/></clipPath>\n"
        o += "<g class=\"graph\" data-graph=\"\(id)\" data-title=\"\(HTMLEscape.text(g.title))\" data-unit=\"\(HTMLEscape.text(metric.unit))\" "
        o += "data-min=\"\(value(lo))\" data-max=\"\(value(hi))\" data-base=\"\(value(metric.baseRange.1))\" data-top=\"\(n(y0))\" data-bottom=\"\(n(y1))\""
        o += metric == .mos ? " data-fixed=\"1\"" : ""
        o += " clip-path=\"url(#clip-graph-\(id))\"><g class=\"lines\">\n"
        for series in g.series {
            let side = HTMLEscape.identifier(series.side)
            let name = "\(HTMLEscape.identifier(g.id))-\(side)"
            var runs: [[SeriesPoint]] = []
            for p in SeriesBuilder.thin(series.points, buckets: pointCap) {
                if p.breakBefore || runs.isEmpty { runs.append([p]) } else { runs[runs.count - 1].append(p) }
            }
            for run in runs {
                let seqs = run.map { String($0.seq) }.joined(separator: " ")
                let values = run.map { value($0.value) }.joined(separator: " ")
                if run.count == 1, let p = run.first {
                    let x = s.x(p.t)
                    o += "<circle class=\"dot t-\(side)\" data-series=\"\(name)\" data-seqs=\"\(seqs)\" data-values=\"\(values)\" "
                        + "cx=\"\(n(x))\" cy=\"\(n(y(p.value)))\" r=\"2\" data-x=\"\(n(x))\"/>\n"
                    continue
                }
                var pts = ""
                pts.reserveCapacity(run.count * 12)
                for p in run {
                    if !pts.isEmpty { pts += " " }
                    pts += n(s.x(p.t)) + "," + n(y(p.value))
                }
                o += "<polyline class=\"line series t-\(side)\" data-series=\"\(name)\" data-seqs=\"\(seqs)\" data-values=\"\(values)\" points=\"\(pts)\"/>\n"
            }
        }
        o += "</g></g>\n"
        return o
    }

    /// The level changes and reconnects (the `qualityChanges` lane's marks) as vertical lines across the graphs.
    static func guides(_ lanes: [Lane], _ s: TimelineSVG.Scale, from y0: Double, to y1: Double) -> String {
        guard let lane = lanes.first(where: { $0.id == "qualityChanges" }) else { return "" }
        var o = ""
        for m in TimelineSVG.drawnMarks(lane) {
            let x = n(s.x(m.t))
            let tip = "\(m.value) at \(formatDuration(m.t))" + (m.seq.map { " · seq \($0)" } ?? "")
            o += "<line class=\"vline t-\(HTMLEscape.identifier(m.tone))\" x1=\"\(x)\" y1=\"\(n(y0))\" x2=\"\(x)\" y2=\"\(n(y1))\"><title>\(HTMLEscape.text(tip))</title></line>\n"
        }
        return o
    }
}
