import Analysis
import Replay
import TraceModel

/// The report's timeline as inline SVG: an axis, one lane per state, divergences shaded over the
/// route lanes, and rows of markers for verdicts and findings (each with a tooltip and a link to its item).
enum TimelineSVG {
    static let width = 1000.0
    static let plotX = 132.0
    static let plotW = 856.0
    static let laneH = 20.0
    static let laneStep = 26.0
    static let top = 44.0
    /// Segments drawn per lane at most: more would be narrower than a pixel.
    static let segmentCap = 500

    struct Scale {
        let t0: Int64
        let span: Double
        func x(_ t: Int64) -> Double { TimelineSVG.plotX + Double(t - t0) / span * TimelineSVG.plotW }
    }

    static func render(_ r: ReplayResult, _ e: Explanation, lanes: [Lane]) -> String {
        let t0 = r.firstT ?? 0
        let scale = Scale(t0: t0, span: Double(max(1, (r.lastT ?? t0) - t0)))
        let callsY = top + Double(lanes.count) * laneStep
        let findingsY = callsY + laneStep
        let height = findingsY + laneStep + 8
        var o = "<div class=\"timeline-row\">\n<div class=\"timeline-box\">\n"
        o += "<svg id=\"timeline-svg\" viewBox=\"0 0 \(n(width)) \(n(height))\" "
        o += "width=\"100%\" role=\"img\" aria-label=\"timeline of the trace\">\n"
        o += axis(scale, r, height: height)
        let routeRows = lanes.prefix(2).count
        o += divergences(r, scale, rows: routeRows)
        for (i, lane) in lanes.enumerated() { o += laneGroup(lane, y: top + Double(i) * laneStep, scale) }
        o += gaps(r, scale, rows: lanes.count)
        o += guides(r, scale, bottom: callsY + laneH)
        o += row("calls", "calls", y: callsY) + verdictMarkers(r, scale, y: callsY)
        o += row("findings", "findings", y: findingsY) + findingMarkers(r, e, scale, y: findingsY)
        o += "</svg>\n</div>\n"
        o += HTMLReport.callsSection(e, tag: "aside")
        o += "</div>\n"
        return o
    }

    static func n(_ v: Double) -> String { fixed(v, 1) }

    static func axis(_ s: Scale, _ r: ReplayResult, height: Double) -> String {
        let span = Int64(s.span)
        let steps: [Int64] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000,
                              300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 43_200_000, 86_400_000]
        let step = steps.first { span / $0 <= 10 } ?? max(1, span / 10)
        var o = "<g class=\"axis\">\n"
        var t = (s.t0 / step) * step
        if t < s.t0 { t += step }
        while t <= s.t0 + span {
            let x = n(s.x(t))
            o += "<line x1=\"\(x)\" y1=\"14\" x2=\"\(x)\" y2=\"\(n(height - 6))\" class=\"tick\"/>"
            o += "<text x=\"\(x)\" y=\"11\" class=\"ticklabel\">\(HTMLEscape.text(tickLabel(t, step: step)))</text>\n"
            t += step
        }
        o += "</g>\n"
        return o
    }

    static func tickLabel(_ t: Int64, step: Int64) -> String {
        if step < 1000 { return fixed(Double(t) / 1000, step < 10 ? 3 : step < 100 ? 2 : 1) + "s" }
        if step < 60_000 { return "\(t / 1000)s" }
        let m = t / 60_000
        return m >= 60 ? "\(m / 60)h\(m % 60 < 10 ? "0" : "")\(m % 60)m" : "\(m)m"
    }

    static func laneGroup(_ lane: Lane, y: Double, _ s: Scale) -> String {
        let e = HTMLEscape.text
        var o = "<g class=\"lane\" data-lane=\"\(HTMLEscape.identifier(lane.id))\">\n"
        o += "<text x=\"\(n(plotX - 6))\" y=\"\(n(y + 14))\" class=\"lanelabel\">\(e(lane.title))</text>\n"
        for seg in LaneBuilder.bound(lane.segments, max: segmentCap) {
            let x0 = s.x(seg.start), x1 = max(s.x(seg.end), x0 + 0.8)
            let w = x1 - x0
            var tip = "\(lane.title): \(seg.value) · \(formatDuration(seg.start)) – \(formatDuration(seg.end))"
            if let q = seg.seq { tip += " · seq \(q)" }
            o += "<rect x=\"\(n(x0))\" y=\"\(n(y))\" width=\"\(n(w))\" height=\"\(n(laneH))\" class=\"seg t-\(HTMLEscape.identifier(seg.tone))\">"
            o += "<title>\(e(tip))</title></rect>"
            if !seg.quiet, Double(seg.value.count) * 6.2 + 6 < w {
                o += "<text x=\"\(n(x0 + 3))\" y=\"\(n(y + 14))\" class=\"seglabel\">\(e(seg.value))</text>"
            }
            o += "\n"
        }
        o += "</g>\n"
        return o
    }

    static func row(_ id: String, _ title: String, y: Double) -> String {
        "<g class=\"lane markers\" data-lane=\"\(id)\"><text x=\"\(n(plotX - 6))\" y=\"\(n(y + 14))\" class=\"lanelabel\">\(HTMLEscape.text(title))</text>"
            + "<line x1=\"\(n(plotX))\" y1=\"\(n(y + laneH / 2))\" x2=\"\(n(plotX + plotW))\" y2=\"\(n(y + laneH / 2))\" class=\"rowline\"/></g>\n"
    }

    /// A marker: an SVG link with an id, its explanation as tooltip and as `data-detail` for the script.
    static func marker(id: String, item: String, lines: [String], shape: String, cls: String) -> String {
        let detail = HTMLEscape.text(lines.joined(separator: "\n"))
        return "<a href=\"#\(item)\" id=\"\(id)\" class=\"marker \(cls)\" data-item=\"\(item)\" data-detail=\"\(detail)\" tabindex=\"0\">"
            + "<title>\(detail)</title>\(shape)</a>\n"
    }

    static func divergences(_ r: ReplayResult, _ s: Scale, rows: Int) -> String {
        guard rows > 0 else { return "" }
        var o = ""
        for (listIndex, (index, d)) in Explanation.divergenceOrder(r).enumerated().prefix(HTMLReport.markerCap) {
            let x0 = s.x(d.start), x1 = max(s.x(d.end), x0 + 2)
            let shape = "<rect x=\"\(n(x0))\" y=\"\(n(top - 3))\" width=\"\(n(x1 - x0))\" height=\"\(n(Double(rows) * laneStep + 2))\"/>"
            o += marker(id: "m-d-\(listIndex)", item: "item-d-\(listIndex)", lines: HTMLReport.divergenceLines(d, index: index, r), shape: shape,
                        cls: "divergence \(d.explained ? "explained" : "unexplained")")
        }
        return o
    }

    /// Hatched regions where the trace has no records (the app was suspended, the recorder stopped):
    /// no lane may look solid there.
    static func gaps(_ r: ReplayResult, _ s: Scale, rows: Int) -> String {
        guard let q = r.quality, !q.gaps.isEmpty else { return "" }
        var o = "<defs><pattern id=\"nodata\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
        o += "<rect width=\"6\" height=\"6\" fill=\"#ffffff\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#8a94a6\" stroke-width=\"2\"/></pattern></defs>\n"
        for g in q.gaps {
            let x0 = s.x(g.startT), x1 = max(s.x(g.endT), x0 + 2)
            let text = "no records for \(formatDuration(g.durationMs)) from \(formatDuration(g.startT)) (seq \(g.startSeq)–\(g.endSeq)): no data"
            o += "<rect class=\"nodata\" x=\"\(n(x0))\" y=\"\(n(top - 3))\" width=\"\(n(x1 - x0))\" height=\"\(n(Double(rows) * laneStep + 2))\" "
                + "fill=\"url(#nodata)\" fill-opacity=\"0.85\"><title>\(HTMLEscape.text(text))</title></rect>\n"
        }
        return o
    }

    /// Dashed guides at calls that did not take effect, a dotted link back to their cause record, and a label.
    static func guides(_ r: ReplayResult, _ s: Scale, bottom: Double) -> String {
        var o = "<g class=\"guides\">\n"
        var lastLabelX = -1000.0
        for v in r.verdicts.filter({ !Explanation.tookEffect($0) }).prefix(50) {
            let x = s.x(v.t)
            o += "<line x1=\"\(n(x))\" y1=\"\(n(top - 14))\" x2=\"\(n(x))\" y2=\"\(n(bottom))\" class=\"guide\"/>\n"
            if x - lastLabelX > 150 {
                let label = "seq \(v.seq) \(v.verdict.rawValue)" + (v.cause.map { " (\($0.rawValue))" } ?? "")
                let anchor = x > plotX + plotW * 0.75 ? "end" : "start"
                o += "<text x=\"\(n(anchor == "end" ? x - 3 : x + 3))\" y=\"\(n(top - 6))\" class=\"callout\" text-anchor=\"\(anchor)\">\(HTMLEscape.text(label))</text>\n"
                lastLabelX = x
            }
        }
        o += "</g>\n"
        return o
    }

    static func verdictMarkers(_ r: ReplayResult, _ s: Scale, y: Double) -> String {
        let cy = y + laneH / 2
        let telling = r.verdicts.filter { !Explanation.tookEffect($0) || $0.verdict == .deferred }
        let rest = r.verdicts.filter { Explanation.tookEffect($0) && $0.verdict != .deferred }
        let chosen = (telling + rest).prefix(HTMLReport.markerCap).sorted { $0.seq < $1.seq }
        var o = ""
        for v in chosen where v.causeSeq != nil && !v.tookEffect {
            guard let cs = v.causeSeq, let rec = r.recordIndex[cs] else { continue }
            let cx = s.x(rec.t), x = s.x(v.t)
            o += "<g class=\"cause\"><title>\(HTMLEscape.text("cause of seq \(v.seq): " + Wording.record(cs, in: r)))</title>"
            o += "<line x1=\"\(n(cx))\" y1=\"\(n(cy))\" x2=\"\(n(x))\" y2=\"\(n(cy))\" class=\"causeline\"/>"
            o += "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"4\" class=\"causedot\"/>"
            o += "<text x=\"\(n(cx))\" y=\"\(n(y - 1))\" class=\"causelabel\">cause: seq \(cs)</text></g>\n"
        }
        // A deferred call is joined to where its outcome was decided (V2): where it took effect late,
        // or what superseded or dropped it.
        for v in chosen where v.verdict == .deferred {
            guard let outcome = v.outcome, outcome.kind != .pending else { continue }
            let x0 = s.x(v.t), x1 = s.x(outcome.t)
            let what = outcome.kind == .applied ? "took effect \(formatDuration(outcome.t - v.t)) later" : outcome.kind.rawValue
            let by = outcome.seq.map { " (" + Wording.record($0, in: r) + ")" } ?? ""
            o += "<g class=\"outcome o-\(outcome.kind.rawValue)\"><title>\(HTMLEscape.text("seq \(v.seq): \(what)\(by) [V2]"))</title>"
            o += "<line x1=\"\(n(x0))\" y1=\"\(n(cy))\" x2=\"\(n(x1))\" y2=\"\(n(cy))\" class=\"outcomeline\"/>"
            o += "<rect x=\"\(n(x1 - 4))\" y=\"\(n(cy - 4))\" width=\"8\" height=\"8\" class=\"outcomedot\"/></g>\n"
        }
        for v in chosen {
            let shape = "<circle cx=\"\(n(s.x(v.t)))\" cy=\"\(n(cy))\" r=\"6\"/>"
            let listed = !Explanation.tookEffect(v) || v.verdict == .deferred
            o += marker(id: "m-v-\(v.seq)", item: listed ? "item-v-\(v.seq)" : "m-v-\(v.seq)", lines: HTMLReport.verdictLines(v, r),
                        shape: shape, cls: "verdict v-\(v.verdict.rawValue)")
        }
        return o
    }

    static func findingMarkers(_ r: ReplayResult, _ e: Explanation, _ s: Scale, y: Double) -> String {
        let indexed = Array(r.findings.enumerated().prefix(HTMLReport.listCap))
        let chosen = indexed.sorted { ($0.element.severity, -$0.offset) > ($1.element.severity, -$1.offset) }
            .prefix(HTMLReport.markerCap).sorted { $0.offset < $1.offset }
        var o = ""
        for (i, f) in chosen {
            let x = s.x(f.t), y0 = y + 3, y1 = y + laneH - 3
            let shape = "<path d=\"M\(n(x)) \(n(y0)) L\(n(x + 6)) \(n(y1)) L\(n(x - 6)) \(n(y1)) Z\"/>"
            let item = f.code == .routeIneffective ? "item-v-\(f.seqs.first ?? 0)"
                : f.code == .routeDivergence ? "divergences" : "item-f-\(e.groupIndex(ofFinding: i, r) ?? i)"
            o += marker(id: "m-f-\(i)", item: item, lines: HTMLReport.findingLines(f), shape: shape, cls: "finding s-\(f.severity.rawValue)")
        }
        return o
    }
}
