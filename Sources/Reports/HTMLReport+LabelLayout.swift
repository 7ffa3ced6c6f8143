import Analysis
import Contract
import Replay
import TraceModel

/// Where the timeline's labels of calls, causes and problem reports go, so that no two overlap at any
/// zoom: each kind has its rows; labels are taken in time order and each goes into the first row where
/// it starts after the last label there ends; a label with no room is not drawn, and the nearest label
/// drawn before it says how many it stands for ("+3") and names them in its tooltip, so every label
/// stays reachable (zooming in gives it room; its marker and card are always there).
///
/// The page is drawn with this layout at the whole trace's scale from estimated widths (wider than any
/// font draws them), and the page's script runs the same layout (`script`, below) with the widths the
/// browser measured each time the view changes. Labels live outside the zoomed group, in the
/// coordinates of the view.
enum LabelLayout {
    /// A label to place: the x it belongs to (a call's guide, a cause's dot, a report's line) and its width.
    struct Item: Equatable {
        var x: Double
        var width: Double
    }

    /// Where a drawn label goes: its row and the x of its anchor (`end`: the text ends there).
    struct Spot: Equatable {
        var row: Int
        var x: Double
        var end: Bool
        /// The labels with no room that it stands for (their indices in the items).
        var more: [Int] = []
    }

    /// How a kind of label reads beside its x.
    enum Side {
        /// After the x (before it near the right edge of the plot, as the whole trace is drawn).
        case beside
        /// Centred on the x.
        case centred
    }

    /// How many of the labels a count stands for its tooltip names.
    static let named = 10

    /// Space kept between two labels of a row.
    static let gap = 4.0

    /// Places `items` (in order of x) in `rows` rows between `lo` and `hi`; `reserve` is the width a
    /// count ("+12") may add to a label. Returns a spot per item, nil for one with no room.
    static func place(_ items: [Item], rows: Int, from lo: Double, to hi: Double, side: Side, reserve: Double) -> [Spot?] {
        var right = Array(repeating: -Double.infinity, count: max(0, rows))
        var spots: [Spot?] = Array(repeating: nil, count: items.count)
        var last: Int? = nil
        var waiting: [Int] = []
        for (i, item) in items.enumerated() {
            guard let (left, w, end) = box(item, side: side, from: lo, to: hi, reserve: reserve),
                  let row = right.firstIndex(where: { left >= $0 + gap }) else {
                if let last { spots[last]?.more.append(i) } else { waiting.append(i) }
                continue
            }
            right[row] = left + w
            spots[i] = Spot(row: row, x: end ? left + w : left, end: end, more: waiting)
            waiting = []
            last = i
        }
        return spots
    }

    /// The label's box (left edge, width) and whether it ends at its anchor; nil when it cannot fit the plot.
    static func box(_ item: Item, side: Side, from lo: Double, to hi: Double, reserve: Double) -> (Double, Double, Bool)? {
        let w = item.width + reserve
        guard w <= hi - lo else { return nil }
        switch side {
        case .centred:
            return (min(max(item.x - w / 2, lo), hi - w), w, false)
        case .beside:
            let after = item.x + 3, before = item.x - 3 - w
            if (item.x > lo + (hi - lo) * 0.75 || after + w > hi) && before >= lo { return (before, w, true) }
            return (min(max(after, lo), hi - w), w, false)
        }
    }

    /// A label's width as drawn at `size` (font size in the timeline's units): more than the widest
    /// common sans-serif face draws these characters (digits, letters, brackets, arrows).
    static func estimatedWidth(_ text: String, size: Double, bold: Bool) -> Double {
        Double(text.count) * size * (bold ? 0.7 : 0.64)
    }

    /// The width a count adds: " +" and as many digits as the number of labels.
    static func reserve(count: Int, size: Double, bold: Bool) -> Double {
        estimatedWidth(" +\(max(1, count))", size: size, bold: bold)
    }

    /// The same layout in the page's script (`labels` holds, per kind, its rows' baselines, its side
    /// and its labels: the `g` elements with `data-gx`, the x at the whole trace's scale).
    static let script = """
      function placeLabels(items, rows, lo, hi, centred, reserve) {
        var right = [], spots = [], last = -1, waiting = [], GAP = \(Int(gap));
        for (var r = 0; r < rows; r++) { right.push(-Infinity); }
        items.forEach(function (it, i) {
          var w = it.w + reserve, left = null, end = false;
          if (w <= hi - lo) {
            if (centred) { left = Math.min(Math.max(it.x - w / 2, lo), hi - w); }
            else {
              var after = it.x + 3, before = it.x - 3 - w;
              if ((it.x > lo + (hi - lo) * 0.75 || after + w > hi) && before >= lo) { left = before; end = true; }
              else { left = Math.min(Math.max(after, lo), hi - w); }
            }
          }
          var row = -1;
          if (left !== null) { for (var r = 0; r < rows; r++) { if (left >= right[r] + GAP) { row = r; break; } } }
          if (row < 0) { if (last >= 0) { spots[last].more.push(i); } else { waiting.push(i); } spots.push(null); return; }
          right[row] = left + w;
          spots.push({ row: row, x: end ? left + w : left, end: end, more: waiting });
          waiting = [];
          last = i;
        });
        return spots;
      }
      var labelKinds = all("#timeline-svg .label-layer [data-rows]").map(function (g) {
        var kind = { rows: g.getAttribute("data-rows").split(" ").map(Number), centred: g.getAttribute("data-side") === "centred",
                     what: g.getAttribute("data-what") || "", items: [], reserve: 0 };
        all("g[data-gx]", g).forEach(function (lg) {
          var text = lg.querySelector("text"), more = text.querySelector("tspan"), title = lg.querySelector("title");
          if (!more) { more = document.createElementNS(NS, "tspan"); more.setAttribute("class", "more"); text.appendChild(more); }
          if (!title) { title = document.createElementNS(NS, "title"); lg.insertBefore(title, text); }
          var own = text.firstChild ? text.firstChild.nodeValue : "";
          more.textContent = "";
          lg.removeAttribute("display");
          kind.items.push({ g: lg, text: text, more: more, title: title, gx: +lg.getAttribute("data-gx"), own: own,
                            tip: title.textContent.split("\\n")[0] || own });
        });
        return kind;
      });
      // Measured once, after every change above (one layout of the page, not one per label).
      labelKinds.forEach(function (kind) {
        kind.items.forEach(function (it) { it.w = it.text.getComputedTextLength(); });
        if (kind.items.length && !kind.centred) {
          var probe = kind.items[0];
          probe.more.textContent = " +" + kind.items.length;
          kind.reserve = probe.text.getComputedTextLength() - probe.w;
          probe.more.textContent = "";
        }
      });
      function layoutLabels(k, e) {
        labelKinds.forEach(function (kind) {
          var shown = kind.items.filter(function (it) { it.x = k * it.gx + e; return it.x >= px && it.x <= px + pw; });
          var spots = placeLabels(shown, kind.rows.length, px, px + pw, kind.centred, 0);
          if (kind.reserve && spots.some(function (s) { return !s; })) { spots = placeLabels(shown, kind.rows.length, px, px + pw, kind.centred, kind.reserve); }
          kind.items.forEach(function (it) { it.g.style.display = "none"; });
          shown.forEach(function (it, i) {
            var s = spots[i];
            if (!s) { return; }
            var others = s.more.map(function (j) { return shown[j].own; });
            it.g.style.display = "inline";
            it.text.setAttribute("x", s.x.toFixed(1));
            it.text.setAttribute("y", String(kind.rows[s.row]));
            it.text.setAttribute("text-anchor", kind.centred ? "middle" : s.end ? "end" : "start");
            if (kind.centred) { it.text.setAttribute("x", (s.x + it.w / 2).toFixed(1)); }
            it.more.textContent = others.length && kind.reserve ? " +" + others.length : "";
            it.title.textContent = it.tip + (others.length ? "\\n" + others.length + " more " + kind.what + " here, each with its marker and card: "
              + others.slice(0, \(LabelLayout.named)).join("; ") + (others.length > \(LabelLayout.named) ? "; …" : "") : "");
          });
        });
      }
    """
}

extension TimelineSVG {
    /// One kind of label for `labelLayer`: its class, font, rows and what its count stands for.
    struct LabelKind {
        var cls: String
        var size: Double
        var bold: Bool
        var rows: [Double]
        var side: LabelLayout.Side
        /// What a count says ("calls that did not take effect"); nil when this kind shows no count.
        var what: String?
    }

    /// A label: where it belongs, its text and its tooltip (nil: the text itself).
    struct LabelItem {
        var x: Double
        var text: String
        var tip: String?
    }

    /// The rows of the labels of the calls that did not take effect: two when there are two calls or more.
    static func calloutRows(_ r: ReplayResult) -> [Double] {
        guidedVerdicts(r).count > 1 ? [51, 38] : [38]
    }

    /// The first lane's top: under the rows of the calls' labels.
    static func lanesTop(_ r: ReplayResult) -> Double {
        top + 13 * Double(calloutRows(r).count - 1)
    }

    /// The calls that get a guide and a label: every drawn call that did not take effect.
    static func guidedVerdicts(_ r: ReplayResult) -> [Verdict] {
        chosenVerdicts(r).filter(\.didNotTakeEffect)
    }

    /// The labels of calls, causes and problem reports, outside the zoomed group: placed by
    /// `LabelLayout` at the whole trace's scale; the script places them again for every view.
    static func labelLayer(_ r: ReplayResult, _ s: Scale, causeY: Double) -> String {
        let calls = guidedVerdicts(r).map { v in
            LabelItem(x: s.x(v.t), text: "seq \(v.seq) \(v.verdict.rawValue)" + (v.cause.map { " (\($0.rawValue))" } ?? ""), tip: nil)
        }
        let reports = r.reports.map { m in
            LabelItem(x: s.x(m.t), text: "report \(m.id)",
                      tip: ReportPageWords.reportMark(m.id, formatDuration(m.t), m.seq) + (m.note.map { ": \($0)" } ?? ""))
        }
        var calledBy: [Int: [Int]] = [:]
        for v in chosenVerdicts(r) where v.didNotTakeEffect {
            if let cs = v.causeSeq, r.recordIndex[cs] != nil { calledBy[cs, default: []].append(v.seq) }
        }
        // One label per cause record, however many calls it blocked.
        var causes = calledBy.compactMap { cs, seqs in
            r.recordIndex[cs].map { rec in
                LabelItem(x: s.x(rec.t), text: "cause: seq \(cs)",
                          tip: "cause of " + seqs.map { "seq \($0)" }.joined(separator: ", ") + ": " + Wording.record(cs, in: r))
            }
        }
        causes.sort { ($0.x, $0.text) < ($1.x, $1.text) }
        var o = "<g class=\"label-layer\">\n"
        o += labels(LabelKind(cls: "reportlabel", size: 10.5, bold: true, rows: [23], side: .beside, what: "problem reports"), reports)
        o += labels(LabelKind(cls: "callout", size: 10.5, bold: true, rows: calloutRows(r), side: .beside, what: ReportPageWords.ineffectiveCallsLabel), calls)
        o += labels(LabelKind(cls: "causelabel", size: 9.5, bold: false, rows: [causeY], side: .centred, what: nil), causes)
        return o + "</g>\n"
    }

    static func labels(_ kind: LabelKind, _ items: [LabelItem]) -> String {
        guard !items.isEmpty else { return "" }
        let e = HTMLEscape.text
        let placed = items.map { LabelLayout.Item(x: $0.x, width: LabelLayout.estimatedWidth($0.text, size: kind.size, bold: kind.bold)) }
        let (lo, hi) = (plotX, plotX + plotW)
        var spots = LabelLayout.place(placed, rows: kind.rows.count, from: lo, to: hi, side: kind.side, reserve: 0)
        if kind.what != nil, spots.contains(where: { $0 == nil }) {
            let reserve = LabelLayout.reserve(count: items.count, size: kind.size, bold: kind.bold)
            spots = LabelLayout.place(placed, rows: kind.rows.count, from: lo, to: hi, side: kind.side, reserve: reserve)
        }
        let side = kind.side == .centred ? "centred" : "beside"
        var o = "<g data-rows=\"\(kind.rows.map(n).joined(separator: " "))\" data-side=\"\(side)\""
            + (kind.what.map { " data-what=\"\(e($0))\"" } ?? "") + ">\n"
        for (i, item) in items.enumerated() {
            let spot = spots[i]
            let more = spot?.more.map { items[$0].text } ?? []
            var tip = item.tip ?? ""
            if let what = kind.what, !more.isEmpty {
                tip = (item.tip ?? item.text) + ReportPageWords.moreMarked(more.count, what)
                    + more.prefix(LabelLayout.named).joined(separator: "; ") + (more.count > LabelLayout.named ? "; …" : "")
            }
            let x = spot.map { kind.side == .centred ? $0.x + placed[i].width / 2 : $0.x } ?? item.x
            let anchor = kind.side == .centred ? "middle" : spot?.end == true ? "end" : "start"
            o += "<g data-gx=\"\(n(item.x))\"" + (spot == nil ? " display=\"none\"" : "") + ">"
                + (tip.isEmpty ? "" : "<title>\(e(tip))</title>")
                + "<text x=\"\(n(x))\" y=\"\(n(kind.rows[spot?.row ?? 0]))\" class=\"\(kind.cls)\" text-anchor=\"\(anchor)\">\(e(item.text))"
                + (kind.what != nil && !more.isEmpty ? "<tspan class=\"more\"> +\(more.count)</tspan>" : "") + "</text></g>\n"
        }
        return o + "</g>\n"
    }
}
