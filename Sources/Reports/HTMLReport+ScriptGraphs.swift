/// The part of the report's script that reads the graphs: each graph stretched to the values in view
/// when zoomed, and the read-out under the pointer (a cursor across the timeline and the graphs, and
/// every series' value there). It runs inside `script`, whose view and helpers it uses.
extension HTMLReport {
    static let graphsScript = """
      // The read-out: a cursor across the timeline and the graphs, and each series' value at the point nearest to it.
      var series = null;
      function loadSeries() {
        series = all("#graphs-svg .graph").map(function (g) {
          var lines = {};
          all("[data-series]", g).forEach(function (el) {
            var name = el.getAttribute("data-series"), side = name.slice(name.lastIndexOf("-") + 1);
            var values = el.getAttribute("data-values").split(" ").map(Number);
            var xs = el.tagName === "circle" ? [+el.getAttribute("cx")] : Array.prototype.map.call(el.points, function (p) { return p.x; });
            var list = lines[side] || (lines[side] = []);
            for (var i = 0; i < values.length; i++) { list.push([t0 + (xs[i] - px) / pw * span, values[i], i === values.length - 1]); }
          });
          Object.keys(lines).forEach(function (s) { lines[s].sort(function (p, q) { return p[0] - q[0]; }); });
          return { title: g.getAttribute("data-title"), loss: g.getAttribute("data-graph") === "loss", lines: lines };
        });
      }
      // Each graph's rows stretch to the highest value in view (never below the metric's base range), and
      // its top label says so; MOS keeps its documented range.
      function roundUp(v) {
        if (!(v > 0) || !isFinite(v)) { return 1; }
        var p = 1;
        while (p * 10 <= v) { p *= 10; }
        while (p > v) { p /= 10; }
        var ms = [1, 2, 2.5, 5, 10];
        for (var i = 0; i < ms.length; i++) { if (ms[i] * p >= v) { return ms[i] * p; } }
        return 10 * p;
      }
      function fitGraphs() {
        var graphs = all("#graphs-svg .graph");
        if (!graphs.length) { return; }
        if (!series) { loadSeries(); }
        graphs.forEach(function (g, i) {
          if (g.getAttribute("data-fixed")) { return; }
          var lo = +g.getAttribute("data-min"), hi = +g.getAttribute("data-max"), top = +g.getAttribute("data-top"), bottom = +g.getAttribute("data-bottom");
          var seen = +g.getAttribute("data-base"), lines = series[i].lines;
          Object.keys(lines).forEach(function (side) {
            lines[side].forEach(function (p) { if (p[0] >= view.a && p[0] <= view.b && p[1] > seen) { seen = p[1]; } });
          });
          var fit = Math.min(hi, roundUp(seen)), sy = fit > lo ? (hi - lo) / (fit - lo) : 1;
          var inner = g.querySelector(".lines");
          if (sy <= 1.0001) { inner.removeAttribute("transform"); fit = hi; } else { inner.setAttribute("transform", "matrix(1,0,0," + sy + ",0," + (bottom * (1 - sy)) + ")"); }
          var label = document.querySelector("[data-top-of=\\"" + g.getAttribute("data-graph") + "\\"]");
          if (label) {
            var shown = series[i].loss ? fit * 100 : fit, unit = g.getAttribute("data-unit");
            label.textContent = (shown === Math.round(shown) ? String(shown) : shown.toFixed(Math.abs(shown) < 1 ? 2 : 1)) + (unit ? " " + unit : "");
          }
        });
      }
      // The report in force at t: the last point at or before it (a line's last point only just after it),
      // or a point just ahead of it.
      function valueAt(list, t, near) {
        var lo = 0, hi = list.length;
        while (lo < hi) { var mid = (lo + hi) >> 1; if (list[mid][0] <= t) { lo = mid + 1; } else { hi = mid; } }
        var before = lo > 0 ? list[lo - 1] : null, after = lo < list.length ? list[lo] : null;
        if (before && (!before[2] || t - before[0] <= near)) { return before; }
        return after && after[0] - t <= near ? after : null;
      }
      var cursors = svgs.map(function (svg) {
        var line = document.createElementNS(NS, "line");
        line.setAttribute("class", "cursor"); line.setAttribute("y1", 0); line.setAttribute("y2", svg.viewBox.baseVal.height);
        line.style.display = "none";
        svg.appendChild(line);
        return [svg, line];
      });
      var out = document.getElementById("readout");
      function readout(t, clientX) {
        cursors.forEach(function (c) {
          if (t === null) { c[1].style.display = "none"; return; }
          var x = ((clientX - c[0].getBoundingClientRect().left) * unitsPerPixel(c[0])).toFixed(1);
          c[1].setAttribute("x1", x); c[1].setAttribute("x2", x); c[1].style.display = x < px || x > px + pw ? "none" : "";
        });
        if (!out) { return; }
        if (t === null) { out.textContent = ""; return; }
        if (!series) { loadSeries(); }
        var near = (view.b - view.a) / pw * 12;
        var parts = series.map(function (g) {
          var vals = ["pub", "sub"].map(function (side) {
            var p = g.lines[side] && valueAt(g.lines[side], t, near);
            return side + " " + (p ? (g.loss ? (p[1] * 100).toPrecision(3) + "%" : String(p[1])) : "–");
          });
          return g.title + ": " + vals.join(", ");
        });
        out.textContent = "at " + fmt(t) + " · " + parts.join(" · ");
      }

    """
}
