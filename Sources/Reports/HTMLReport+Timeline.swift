import Analysis
import Contract
import Replay
import TraceModel

/// The report's timeline as inline SVG: an axis, one lane per state with its moments, divergences
/// shaded over the route lanes, and rows of markers for verdicts and findings (each with a tooltip
/// and a link to its item).
///
/// Everything placed in time is drawn once, at the whole trace's scale, inside a `zoom-layer` group;
/// the page's script zooms and pans by giving that group a horizontal scale and offset, and gives
/// each glyph (an element with `data-x`: a dot, a triangle, a label) the inverse scale around its
/// own x so it keeps its shape. Without the script the page shows the whole trace as drawn.
enum TimelineSVG {
    static let width = 1000.0
    static let plotX = 132.0
    static let plotW = 856.0
    static let laneH = 20.0
    static let laneStep = 26.0
    /// The first lane's top when there is one row of call labels (`lanesTop`).
    static let top = 44.0
    /// Space between the last lane and the calls row, where the causes' labels go.
    static let causeRoom = 8.0
    /// Segments drawn per lane at most: more would be narrower than a pixel.
    static let segmentCap = 500
    /// Marks drawn per lane at most (closer ones are merged, and say how many they stand for).
    static let markCap = 500

    struct Scale {
        let t0: Int64
        let span: Double
        func x(_ t: Int64) -> Double { TimelineSVG.plotX + Double(t - t0) / span * TimelineSVG.plotW }
    }

    static func scale(_ r: ReplayResult) -> Scale {
        let t0 = r.firstT ?? 0
        return Scale(t0: t0, span: Double(max(1, (r.lastT ?? t0) - t0)))
    }

    /// The `svg` element's opening tag: what the script needs to map time to x.
    static func open(_ id: String, _ s: Scale, height: Double, label: String) -> String {
        "<svg id=\"\(id)\" class=\"zoomable\" viewBox=\"0 0 \(n(width)) \(n(height))\" width=\"100%\" data-t0=\"\(s.t0)\" "
            + "data-span=\"\(Int64(s.span))\" data-plot=\"\(n(plotX)) \(n(plotW))\" role=\"img\" aria-label=\"\(HTMLEscape.text(label))\">\n"
            + "<defs><clipPath id=\"clip-\(id)\"><rect x=\"\(n(plotX))\" y=\"0\" width=\"\(n(plotW))\" height=\"\(n(height))\"/></clipPath></defs>\n"
    }

    static func render(_ r: ReplayResult, _ e: Explanation, lanes all: [Lane], anchors: Anchors) -> String {
        let lanes = all.filter { if case .graph = $0.kind { false } else { true } }
        let scale = scale(r)
        let top = lanesTop(r)
        // Room above the calls row for the labels of their causes.
        let callsY = top + Double(lanes.count) * laneStep + causeRoom
        let findingsY = callsY + laneStep
        let height = findingsY + laneStep + 8
        var o = open("timeline-svg", scale, height: height, label: ReportPageWords.timelineOfTheTrace)
        o += "<g class=\"labels\">\n"
        for (i, lane) in lanes.enumerated() { o += label(lane.title, y: top + Double(i) * laneStep) }
        o += label("calls", y: callsY) + label("findings", y: findingsY) + "</g>\n"
        o += "<g clip-path=\"url(#clip-timeline-svg)\">\n"
        o += axis(scale, from: 14, to: height - 6)
        o += "<g class=\"zoom-layer\">\n"
        o += divergences(r, scale, top: top, rows: min(2, lanes.count))
        for (i, lane) in lanes.enumerated() { o += laneGroup(lane, y: top + Double(i) * laneStep, scale, anchors) }
        o += gaps(r, scale, from: top - 3, height: Double(lanes.count) * laneStep + 2)
        o += guides(r, scale, bottom: callsY + laneH)
        o += reportMarks(r, scale, from: 14, to: findingsY + laneH)
        o += row("calls", y: callsY) + verdictMarkers(r, scale, y: callsY, anchors)
        o += row("findings", y: findingsY) + findingMarkers(r, e, scale, y: findingsY, anchors)
        o += "</g>\n" + labelLayer(r, scale, causeY: callsY - 1) + "</g>\n</svg>\n"
        return o
    }

    static func n(_ v: Double) -> String { fixed(v, 1) }

    static func label(_ title: String, y: Double) -> String {
        "<text x=\"\(n(plotX - 6))\" y=\"\(n(y + 14))\" class=\"lanelabel\">\(HTMLEscape.text(title))</text>\n"
    }

    /// Tick lines and labels at the whole trace's scale (the script redraws them for the part in view).
    static func axis(_ s: Scale, from y0: Double, to y1: Double) -> String {
        let span = Int64(s.span)
        let steps: [Int64] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000,
                              300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 43_200_000, 86_400_000]
        let step = steps.first { span / $0 <= 10 } ?? max(1, span / 10)
        var o = "<g class=\"axis\" data-y0=\"\(n(y0))\" data-y1=\"\(n(y1))\">\n"
        var t = (s.t0 / step) * step
        if t < s.t0 { t += step }
        while t <= s.t0 + span {
            let x = n(s.x(t))
            o += "<line x1=\"\(x)\" y1=\"\(n(y0))\" x2=\"\(x)\" y2=\"\(n(y1))\" class=\"tick\"/>"
            o += "<text x=\"\(x)\" y=\"\(n(y0 - 3))\" class=\"\(tickClass(s.x(t)))\">\(HTMLEscape.text(tickLabel(t, step: step)))</text>\n"
            t += step
        }
        o += "</g>\n"
        return o
    }

    /// A tick label's class: centred on its tick, or, within `edgeLabel` of the plot's edge, beside it, so
    /// that the first and last labels are not half cut by the plot's clip (the script does the same).
    static func tickClass(_ x: Double) -> String {
        if x - plotX < edgeLabel { return "ticklabel atstart" }
        if plotX + plotW - x < edgeLabel { return "ticklabel atend" }
        return "ticklabel"
    }

    /// How near the plot's edge a tick label stands beside its tick instead of centred on it.
    static let edgeLabel = 16.0

    static func tickLabel(_ t: Int64, step: Int64) -> String {
        if step < 1000 { return fixed(Double(t) / 1000, step < 10 ? 3 : step < 100 ? 2 : 1) + "s" }
        if step < 60_000 { return "\(t / 1000)s" }
        let m = t / 60_000
        return m >= 60 ? "\(m / 60)h\(m % 60 < 10 ? "0" : "")\(m % 60)m" : "\(m)m"
    }

    /// The marks a lane draws: its own, merged down to `markCap`.
    static func drawnMarks(_ lane: Lane) -> [LaneMark] { MarkBuilder.bound(lane.marks, max: markCap) }

    static func laneGroup(_ lane: Lane, y: Double, _ s: Scale, _ anchors: Anchors) -> String {
        let e = HTMLEscape.text
        var o = "<g class=\"lane\" data-lane=\"\(HTMLEscape.identifier(lane.id))\">\n"
        if lane.kind == .marks { o += "<line x1=\"\(n(plotX))\" y1=\"\(n(y + laneH / 2))\" x2=\"\(n(plotX + plotW))\" y2=\"\(n(y + laneH / 2))\" class=\"rowline\"/>\n" }
        let inset = lane.marks.isEmpty ? 3.0 : 8.0
        for seg in LaneBuilder.bound(lane.segments, max: segmentCap) {
            let x0 = s.x(seg.start), x1 = max(s.x(seg.end), x0 + 0.8)
            let w = x1 - x0
            var tip = "\(lane.title): \(seg.value) · \(formatDuration(seg.start)) – \(formatDuration(seg.end))"
            if let q = seg.seq { tip += " · seq \(q)" }
            o += "<rect x=\"\(n(x0))\" y=\"\(n(y))\" width=\"\(n(w))\" height=\"\(n(laneH))\" class=\"seg t-\(HTMLEscape.identifier(seg.tone))\">"
            o += "<title>\(e(tip))</title></rect>"
            // Every state gets its label; one that does not fit at the whole trace's scale is hidden until
            // the timeline is zoomed far enough (the script keeps it at the left edge of the view). Its room
            // (`data-x1`) ends where the state ends, not at the sliver drawn for a state of no duration.
            if !seg.quiet {
                let fits = LabelLayout.estimatedWidth(seg.value, size: 10, bold: false) + inset + 3 < w
                o += "<text x=\"\(n(x0 + inset))\" y=\"\(n(y + 14))\" class=\"seglabel\" data-x=\"\(n(x0 + inset))\" data-x0=\"\(n(x0))\" data-x1=\"\(n(s.x(seg.end)))\""
                o += (fits ? "" : " display=\"none\"") + ">\(e(seg.value))</text>"
            }
            o += "\n"
        }
        let marks = drawnMarks(lane)
        let cy = y + laneH / 2
        for (i, m) in marks.enumerated() {
            let x = s.x(m.t)
            let key = "k-\(lane.id)-\(i)"
            var head = "\(lane.title): \(m.value)"
            if m.merged == 1, let seq = m.seq { head += " · seq \(seq) \(m.what)" }
            let lines = [head + " at \(formatDuration(m.t))"]
            // A diamond; on a lane whose stretches say the state, a small one at its foot.
            let (my, h, w) = lane.kind == .marks || lane.id == "callKit" ? (cy, 6.0, 5.0) : (y + laneH - 4, 4.0, 3.5)
            let shape = "<path \(anchors.attribute(m.seq, key))d=\"M\(n(x)) \(n(my - h))L\(n(x + w)) \(n(my))L\(n(x)) \(n(my + h))L\(n(x - w)) \(n(my))Z\"/>"
            var label = ""
            // A mark's label only where no state's label can be beside it (CallKit's states say what its marks did).
            if lane.kind == .marks {
                let room = (i + 1 < marks.count ? s.x(marks[i + 1].t) : plotX + plotW) - x - 8
                let text = m.merged > 1 ? "×\(m.merged)" : m.value
                if LabelLayout.estimatedWidth(text, size: 10, bold: false) < room {
                    label = "<text x=\"\(n(x + 7))\" y=\"\(n(y + 14))\" class=\"marklabel\">\(e(text))</text>"
                }
            }
            // Marks are many: no id or item of their own, the link goes to the record's anchor.
            o += "<a href=\"#\(m.seq.map { "seq-\($0)" } ?? "timeline")\" class=\"marker mark t-\(HTMLEscape.identifier(m.tone))\""
                + (m.seq.map { " data-seq=\"\($0)\"" } ?? "") + " data-t=\"\(m.t)\" data-x=\"\(n(x))\"><title>\(e(lines.joined(separator: "\n")))</title>"
                + shape + label + "</a>\n"
        }
        o += "</g>\n"
        return o
    }

    static func row(_ id: String, y: Double) -> String {
        "<g class=\"lane markers\" data-lane=\"\(id)\">"
            + "<line x1=\"\(n(plotX))\" y1=\"\(n(y + laneH / 2))\" x2=\"\(n(plotX + plotW))\" y2=\"\(n(y + laneH / 2))\" class=\"rowline\"/></g>\n"
    }

    /// A marker: an SVG link with an id and its explanation as tooltip (which the script shows in the
    /// detail panel); `x` makes it a glyph that keeps its shape when the timeline is zoomed.
    static func marker(id: String, item: String, seq: Int?, t: String, lines: [String], shape: String, cls: String, x: Double? = nil) -> String {
        let detail = HTMLEscape.text(lines.joined(separator: "\n"))
        let glyph = x.map { " data-x=\"\(n($0))\"" } ?? ""
        return "<a href=\"#\(item)\" id=\"\(id)\" class=\"marker \(cls)\" data-item=\"\(item)\"\(seq.map { " data-seq=\"\($0)\"" } ?? "")"
            + " data-t=\"\(t)\"\(glyph) tabindex=\"0\"><title>\(detail)</title>\(shape)</a>\n"
    }

    static func divergences(_ r: ReplayResult, _ s: Scale, top: Double, rows: Int) -> String {
        guard rows > 0 else { return "" }
        var o = ""
        for (listIndex, (index, d)) in Explanation.divergenceOrder(r).enumerated().prefix(HTMLReport.markerCap) {
            let x0 = s.x(d.start), x1 = max(s.x(d.end), x0 + 2)
            let shape = "<rect x=\"\(n(x0))\" y=\"\(n(top - 3))\" width=\"\(n(x1 - x0))\" height=\"\(n(Double(rows) * laneStep + 2))\"/>"
            o += marker(id: "m-d-\(listIndex)", item: "item-d-\(listIndex)", seq: Anchors.seq(of: d), t: "\(d.start) \(d.end)",
                        lines: HTMLReport.divergenceLines(d, index: index, r), shape: shape,
                        cls: "divergence \(HTMLReport.divergenceClass(d))")
        }
        return o
    }

    /// Hatched regions where the trace has no records (the app was suspended, the recorder stopped):
    /// no lane may look solid there.
    static func gaps(_ r: ReplayResult, _ s: Scale, from y: Double, height: Double) -> String {
        guard let q = r.quality, !q.gaps.isEmpty else { return "" }
        var o = ""
        for g in q.gaps {
            let x0 = s.x(g.startT), x1 = max(s.x(g.endT), x0 + 2)
            let text = ReportPageWords.noRecordsStretch(formatDuration(g.durationMs), formatDuration(g.startT), g.startSeq, g.endSeq)
            o += "<rect class=\"nodata\" x=\"\(n(x0))\" y=\"\(n(y))\" width=\"\(n(x1 - x0))\" height=\"\(n(height))\" "
                + "fill=\"url(#nodata)\" fill-opacity=\"0.85\"><title>\(HTMLEscape.text(text))</title></rect>\n"
        }
        return o
    }

    /// The hatching of `gaps`, defined once per page.
    static let nodataPattern = "<svg width=\"0\" height=\"0\" class=\"defs\" aria-hidden=\"true\"><defs><pattern id=\"nodata\" width=\"6\" height=\"6\" "
        + "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#ffffff\"/>"
        + "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#8a94a6\" stroke-width=\"2\"/></pattern></defs></svg>\n"

    /// Dashed guides at calls that did not take effect (their labels are in `labelLayer`).
    static func guides(_ r: ReplayResult, _ s: Scale, bottom: Double) -> String {
        var o = "<g class=\"guides\">\n"
        for v in guidedVerdicts(r) {
            let x = s.x(v.t)
            o += "<line x1=\"\(n(x))\" y1=\"\(n(TimelineSVG.top - 14))\" x2=\"\(n(x))\" y2=\"\(n(bottom))\" class=\"guide\"/>\n"
        }
        o += "</g>\n"
        return o
    }

    /// The verdicts drawn: the most telling first when there are more than `markerCap`, in seq order.
    static func chosenVerdicts(_ r: ReplayResult) -> [Verdict] {
        let telling = r.verdicts.filter { $0.didNotTakeEffect || $0.verdict == .deferred }
        let rest = r.verdicts.filter { !$0.didNotTakeEffect && $0.verdict != .deferred }
        return (telling + rest).prefix(HTMLReport.markerCap).sorted { $0.seq < $1.seq }
    }

    /// The findings drawn (index in `ReplayResult.findings`, finding): the most severe first when there
    /// are more than `markerCap`, in the order raised.
    static func chosenFindings(_ r: ReplayResult) -> [(offset: Int, element: Finding)] {
        let indexed = Array(r.findings.enumerated().prefix(HTMLReport.listCap))
        return indexed.sorted { ($0.element.severity, -$0.offset) > ($1.element.severity, -$1.offset) }
            .prefix(HTMLReport.markerCap).sorted { $0.offset < $1.offset }
    }

    static func verdictMarkers(_ r: ReplayResult, _ s: Scale, y: Double, _ anchors: Anchors) -> String {
        let cy = y + laneH / 2
        let chosen = chosenVerdicts(r)
        var o = ""
        for v in chosen where v.causeSeq != nil && v.didNotTakeEffect {
            guard let cs = v.causeSeq, let rec = r.recordIndex[cs] else { continue }
            let cx = s.x(rec.t), x = s.x(v.t)
            o += "<g class=\"cause\"><title>\(HTMLEscape.text("cause of seq \(v.seq): " + Wording.record(cs, in: r)))</title>"
            o += "<line x1=\"\(n(cx))\" y1=\"\(n(cy))\" x2=\"\(n(x))\" y2=\"\(n(cy))\" class=\"causeline\"/>"
            o += "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"4\" class=\"causedot\" data-x=\"\(n(cx))\"/></g>\n"
        }
        // A deferred call is joined to where its outcome was decided (V2): where it took effect late,
        // or what superseded or dropped it.
        for v in chosen where v.verdict == .deferred {
            guard let outcome = v.outcome, outcome.kind != .pending else { continue }
            let x0 = s.x(v.t), x1 = s.x(outcome.t)
            let what = outcome.kind == .applied ? ReportPageWords.tookEffectLater(formatDuration(outcome.t - v.t)) : outcome.kind.rawValue
            let by = outcome.seq.map { " (" + Wording.record($0, in: r) + ")" } ?? ""
            o += "<g class=\"outcome o-\(outcome.kind.rawValue)\"><title>\(HTMLEscape.text("seq \(v.seq): \(what)\(by) [V2]"))</title>"
            o += "<line x1=\"\(n(x0))\" y1=\"\(n(cy))\" x2=\"\(n(x1))\" y2=\"\(n(cy))\" class=\"outcomeline\"/>"
            o += "<rect x=\"\(n(x1 - 4))\" y=\"\(n(cy - 4))\" width=\"8\" height=\"8\" class=\"outcomedot\" data-x=\"\(n(x1))\"/></g>\n"
        }
        for v in chosen {
            let key = "m-v-\(v.seq)", x = s.x(v.t)
            let shape = "<circle \(anchors.attribute(v.seq, key))cx=\"\(n(x))\" cy=\"\(n(cy))\" r=\"6\"/>"
            let listed = v.didNotTakeEffect || v.verdict == .deferred
            // The times a view of the call should hold: the call, its cause record, where its outcome was decided.
            var times = [v.t]
            if v.didNotTakeEffect, let cs = v.causeSeq, let rec = r.recordIndex[cs] { times.append(rec.t) }
            if v.verdict == .deferred, let outcome = v.outcome, outcome.kind != .pending { times.append(outcome.t) }
            o += marker(id: key, item: listed ? "item-v-\(v.seq)" : key, seq: v.seq, t: times.map(String.init).joined(separator: " "),
                        lines: HTMLReport.verdictLines(v, r),
                        shape: shape, cls: "verdict v-\(v.verdict.rawValue)", x: x)
        }
        return o
    }

    static func findingMarkers(_ r: ReplayResult, _ e: Explanation, _ s: Scale, y: Double, _ anchors: Anchors) -> String {
        var o = ""
        let advice = Explanation.FindingAdvice(r)
        for (i, f) in chosenFindings(r) {
            let key = "m-f-\(i)"
            let x = s.x(f.t), y0 = y + 3, y1 = y + laneH - 3
            let shape = "<path \(anchors.attribute(f.seqs.first, key))d=\"M\(n(x)) \(n(y0)) L\(n(x + 6)) \(n(y1)) L\(n(x - 6)) \(n(y1)) Z\"/>"
            let item = f.code == .routeIneffective ? "item-v-\(f.seqs.first ?? 0)"
                : f.code == .routeDivergence ? "divergences" : "item-f-\(e.groupIndex(ofFinding: i, r) ?? i)"
            o += marker(id: key, item: item, seq: f.seqs.first, t: "\(f.t)", lines: HTMLReport.findingLines(i, r, advice), shape: shape,
                        cls: "finding s-\(f.severity.rawValue)", x: x)
        }
        return o
    }
}
