/// The report's inline script: markers that show their explanation, zoom and pan on the timeline
/// and the graphs (keyboard and mouse), the read-out under the pointer, and `#seq-N` anchors that
/// scroll to an item, highlight its markers, zoom to them and show the explanation (the graphs' part is
/// `graphsScript`).
///
/// It contains no trace text: it reads explanations from the markers' escaped `<title>`s and writes
/// only with `textContent`. It records what it did on the root element (`data-report-ready`,
/// `data-view`, `data-zoom`, `data-report-anchor`, `data-report-setup-ms`, `data-report-drawn-ms`,
/// `data-report-errors`) for
/// the browser tests.
extension HTMLReport {
    static let script = """
    (function () {
      "use strict";
      var started = performance.now();
      var root = document.documentElement;
      var errors = [];
      window.addEventListener("error", function (e) {
        errors.push(String(e.message));
        root.setAttribute("data-report-errors", errors.join(" | "));
      });
      function all(sel, from) { return Array.prototype.slice.call((from || document).querySelectorAll(sel)); }
      var panel = document.getElementById("detail");
      var main = document.getElementById("timeline-svg");
      var svgs = all("svg.zoomable");
      var t0 = +main.getAttribute("data-t0"), span = Math.max(1, +main.getAttribute("data-span"));
      var plot = main.getAttribute("data-plot").split(" "), px = +plot[0], pw = +plot[1];
      var EDGE = \(Int(TimelineSVG.edgeLabel));
      var minSpan = Math.min(span, Math.max(200, span / 10000));
      var view = { a: t0, b: t0 + span }, fitted = false;
      var layers = all(".zoom-layer");
      var glyphs = all(".zoom-layer [data-x]:not(.seglabel)").map(function (el) { return [el, +el.getAttribute("data-x")]; });
      // Label widths as the browser draws them (a canvas measures without laying out the page).
      var measure = document.createElement("canvas").getContext("2d"), fonts = {};
      function width(el) {
        var cls = el.getAttribute("class");
        if (!fonts[cls]) { var cs = getComputedStyle(el); fonts[cls] = cs.fontWeight + " " + cs.fontSize + " " + cs.fontFamily; }
        measure.font = fonts[cls];
        return measure.measureText(el.textContent).width;
      }
      var tick = document.querySelector(".axis .ticklabel"), tickFont = "10px sans-serif";
      if (tick) { var tcs = getComputedStyle(tick); tickFont = tcs.fontWeight + " " + tcs.fontSize + " " + tcs.fontFamily; }
      var labels = all(".zoom-layer .seglabel").map(function (el) {
        var x = +el.getAttribute("data-x");
        return [el, x, +el.getAttribute("data-x1"), width(el), x - el.getAttribute("data-x0")];
      });
      var markLabels = all(".zoom-layer .marklabel").map(function (el) {
        return [el, +el.parentNode.getAttribute("data-x"), +el.getAttribute("x") - el.parentNode.getAttribute("data-x"), width(el)];
      });
      var axes = all("svg.zoomable .axis");
      var rangeText = document.getElementById("view-range");
      var NS = main.namespaceURI;
    \(LabelLayout.script)

      function pad(n, w) { var s = String(n); while (s.length < w) { s = "0" + s; } return s; }
      function fmt(ms) {
        ms = Math.max(0, Math.round(ms));
        var h = Math.floor(ms / 3600000), m = Math.floor(ms / 60000) % 60, s = Math.floor(ms / 1000) % 60, f = ms % 1000;
        var sec = pad(s, h || m ? 2 : 1) + "." + pad(f, 3) + "s";
        return h ? h + "h " + pad(m, 2) + "m " + sec : m ? m + "m " + sec : sec;
      }
      function tickLabel(t, step) {
        var m = Math.floor(t / 60000), s = (t % 60000) / 1000;
        if (step >= 60000) { return m >= 60 ? Math.floor(m / 60) + "h" + pad(m % 60, 2) + "m" : m + "m"; }
        var sec = step < 1000 ? s.toFixed(step < 10 ? 3 : step < 100 ? 2 : 1) : String(Math.floor(s));
        return m > 0 ? m + "m" + (s < 10 ? "0" : "") + sec + "s" : sec + "s";
      }
      var steps = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 15000, 30000, 60000, 120000, 300000,
                   600000, 900000, 1800000, 3600000, 7200000, 14400000, 43200000, 86400000];
      function drawAxis(g) {
        var y0 = +g.getAttribute("data-y0"), y1 = +g.getAttribute("data-y1"), w = view.b - view.a;
        var step = steps.filter(function (s) { return w / s <= 10; })[0] || w / 10;
        while (g.firstChild) { g.removeChild(g.firstChild); }
        for (var t = Math.ceil(view.a / step) * step; t <= view.b; t += step) {
          var x = (px + (t - view.a) / w * pw).toFixed(1);
          var line = document.createElementNS(NS, "line");
          line.setAttribute("x1", x); line.setAttribute("x2", x); line.setAttribute("y1", y0); line.setAttribute("y2", y1);
          line.setAttribute("class", "tick");
          var text = document.createElementNS(NS, "text");
          text.setAttribute("x", x); text.setAttribute("y", y0 - 3);
          text.textContent = tickLabel(t, step);
          // Beside its tick near the plot's edge, so that it is never cut there.
          measure.font = tickFont;
          var half = Math.max(EDGE, measure.measureText(text.textContent).width / 2 + 1);
          text.setAttribute("class", x - px < half ? "ticklabel atstart" : px + pw - x < half ? "ticklabel atend" : "ticklabel");
          g.appendChild(line); g.appendChild(text);
        }
      }
      function apply() {
        var k = span / (view.b - view.a);
        var e = px - k * (px + (view.a - t0) / span * pw);
        var m = "matrix(" + k + ",0,0,1," + e + ",0)";
        layers.forEach(function (l) { if (k === 1) { l.removeAttribute("transform"); } else { l.setAttribute("transform", m); } });
        glyphs.forEach(function (g) {
          if (k === 1) { g[0].removeAttribute("transform"); } else { g[0].setAttribute("transform", "matrix(" + (1 / k) + ",0,0,1," + (g[1] - g[1] / k) + ",0)"); }
        });
        // A state's label stays at the left edge of the view while its stretch is in it, and shows once it fits.
        // It is drawn only whole, inside its stretch and the view.
        labels.forEach(function (l) {
          var left = k * (l[1] - l[4]) + e + l[4], right = Math.min(k * l[2] + e, px + pw), at = Math.max(left, px + 3);
          if (right - at < l[3] + 3) { l[0].style.display = "none"; return; }
          l[0].style.display = "inline";
          l[0].setAttribute("transform", "matrix(" + (1 / k) + ",0,0,1," + ((at - e - l[1]) / k) + ",0)");
        });
        // A moment's label (drawn where it had room before the next moment) shows while it is whole in the view.
        markLabels.forEach(function (l) {
          var at = k * l[1] + e + l[2];
          l[0].style.display = at >= px && at + l[3] <= px + pw ? "" : "none";
        });
        // The labels of calls, causes and reports: placed again for the view, none over another.
        layoutLabels(k, e);
        axes.forEach(drawAxis);
        if (k > 1 || fitted) { fitGraphs(); fitted = k > 1; }
        root.setAttribute("data-view", Math.round(view.a) + " " + Math.round(view.b));
        root.setAttribute("data-zoom", k.toFixed(3));
        if (rangeText) { rangeText.textContent = "showing " + fmt(view.a) + " – " + fmt(view.b) + (k > 1 ? " (×" + k.toFixed(k < 10 ? 1 : 0) + ")" : " (whole trace)"); }
      }
      function setView(a, b) {
        var w = Math.max(minSpan, Math.min(span, b - a));
        a = Math.max(t0, Math.min(a, t0 + span - w));
        view = { a: a, b: a + w };
        apply();
      }
      function zoomAt(t, factor) {
        var w = (view.b - view.a) * factor, f = (t - view.a) / (view.b - view.a);
        setView(t - f * w, t - f * w + w);
      }
      function pan(frac) { var w = view.b - view.a; setView(view.a + frac * w, view.b + frac * w); }
      function unitsPerPixel(svg) { return svg.viewBox.baseVal.width / svg.getBoundingClientRect().width; }
      function timeAt(svg, clientX) {
        var sx = (clientX - svg.getBoundingClientRect().left) * unitsPerPixel(svg);
        return view.a + (sx - px) / pw * (view.b - view.a);
      }

      // Selection: a marker's explanation in the panel, its item highlighted.
      function clearSelection() { all(".selected").forEach(function (el) { el.classList.remove("selected"); }); }
      function detailOf(m) { var t = m.querySelector("title"); return t ? t.textContent : ""; }
      function show(marker, scroll) {
        if (!marker) { return; }
        clearSelection();
        marker.classList.add("selected");
        if (panel) { panel.textContent = detailOf(marker); panel.classList.add("active"); }
        var item = document.getElementById(marker.getAttribute("data-item") || (marker.getAttribute("href") || "").slice(1));
        if (item && item !== marker && !marker.contains(item)) {
          item.classList.add("selected");
          if (scroll) { item.scrollIntoView({ block: "nearest" }); }
        }
      }
      function timesOf(markers) {
        var a = Infinity, b = -Infinity;
        markers.forEach(function (m) {
          (m.getAttribute("data-t") || "").split(" ").forEach(function (s) { if (s !== "") { a = Math.min(a, +s); b = Math.max(b, +s); } });
        });
        return a <= b ? [a, b] : null;
      }
      function focusOn(markers) {
        var ab = timesOf(markers);
        if (!ab) { return; }
        var w = Math.max((ab[1] - ab[0]) * 1.5, 20000, minSpan), c = (ab[0] + ab[1]) / 2;
        setView(c - w / 2, c + w / 2);
      }
      function markersFor(seq) { return all(".marker[data-seq=\\"" + seq + "\\"]"); }
      function openAround(el) { for (var p = el; p; p = p.parentElement) { if (p.tagName === "DETAILS") { p.open = true; } } }
      function follow(hash) {
        var m = /^#seq-([0-9]+)$/.exec(hash || "");
        if (!m) { return false; }
        var target = document.getElementById("seq-" + m[1]);
        var markers = markersFor(m[1]);
        clearSelection();
        if (markers.length) {
          focusOn(markers);
          var own = markers.filter(function (x) { return x.contains(target); })[0] || markers[0];
          show(own, false);
          markers.forEach(function (x) { x.classList.add("selected"); });
          if (panel) { panel.textContent = markers.map(detailOf).join("\\n\\n"); }
        }
        all("[data-seq=\\"" + m[1] + "\\"]:not(.marker)").forEach(function (x) { x.classList.add("selected"); });
        if (target) {
          openAround(target);
          var card = target.closest ? target.closest(".card") : null;
          (card || target).scrollIntoView({ block: "center" });
        }
        root.setAttribute("data-report-anchor", m[1]);
        return true;
      }

      all(".marker").forEach(function (m) {
        m.addEventListener("mouseenter", function () { show(m, false); });
        m.addEventListener("focus", function () { show(m, false); });
        m.addEventListener("click", function (ev) {
          ev.preventDefault();
          show(m, true);
          var seq = m.getAttribute("data-seq");
          if (seq && document.getElementById("seq-" + seq) && history.replaceState) { history.replaceState(null, "", "#seq-" + seq); }
        });
      });
      all("a[data-marker]").forEach(function (a) {
        a.addEventListener("click", function () {
          var m = document.getElementById(a.getAttribute("data-marker"));
          show(m, false);
          if (m) { focusOn([m]); }
        });
      });
      all("a[href^=\\"#seq-\\"]:not(.marker)").forEach(function (a) {
        a.addEventListener("click", function () { if (location.hash === a.getAttribute("href")) { follow(location.hash); } });
      });
      window.addEventListener("hashchange", function () { follow(location.hash); });

      // Zoom and pan: Ctrl/⌘ + wheel zooms at the pointer, a sideways or Shift + wheel pans, dragging pans,
      // a double-click zooms in (Shift: out); keys + − W S zoom, ← → A D pan, 0 shows the whole trace.
      var hover = null, drag = null, dragged = false;
      svgs.forEach(function (svg) {
        svg.addEventListener("wheel", function (ev) {
          if (ev.ctrlKey || ev.metaKey) {
            ev.preventDefault();
            zoomAt(timeAt(svg, ev.clientX), Math.pow(1.0015, Math.max(-600, Math.min(600, ev.deltaY))));
          } else if (ev.shiftKey || Math.abs(ev.deltaX) > Math.abs(ev.deltaY)) {
            ev.preventDefault();
            pan((ev.deltaX || ev.deltaY) / 1000);
          }
        }, { passive: false });
        svg.addEventListener("mousedown", function (ev) {
          if (ev.button !== 0) { return; }
          drag = { svg: svg, x: ev.clientX, a: view.a, b: view.b };
          dragged = false;
        });
        svg.addEventListener("dblclick", function (ev) { ev.preventDefault(); zoomAt(timeAt(svg, ev.clientX), ev.shiftKey ? 2 : 0.5); });
        svg.addEventListener("mousemove", function (ev) { hover = { svg: svg, x: ev.clientX }; readout(timeAt(svg, ev.clientX), ev.clientX); });
        svg.addEventListener("mouseleave", function () { hover = null; readout(null); });
      });
      window.addEventListener("mousemove", function (ev) {
        if (!drag) { return; }
        var dx = ev.clientX - drag.x;
        if (Math.abs(dx) > 3) { dragged = true; }
        if (dragged) {
          var dt = dx * unitsPerPixel(drag.svg) / pw * (drag.b - drag.a);
          setView(drag.a - dt, drag.b - dt);
        }
      });
      window.addEventListener("mouseup", function () { drag = null; });
      document.addEventListener("click", function (ev) {
        if (dragged) { dragged = false; ev.preventDefault(); ev.stopPropagation(); }
      }, true);
      function pointerTime() { return hover ? timeAt(hover.svg, hover.x) : (view.a + view.b) / 2; }
      var box = document.getElementById("timeline-box");
      document.addEventListener("keydown", function (ev) {
        var tag = (ev.target && ev.target.tagName) || "";
        if (ev.altKey || ev.ctrlKey || ev.metaKey || tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") { return; }
        var near = hover || (box && box.contains(document.activeElement));
        var k = ev.key;
        if (k === "+" || k === "=" || k === "w" || k === "W") { zoomAt(pointerTime(), 0.5); }
        else if (k === "-" || k === "_" || k === "s" || k === "S") { zoomAt(pointerTime(), 2); }
        else if (k === "a" || k === "A" || (k === "ArrowLeft" && near)) { pan(-0.25); }
        else if (k === "d" || k === "D" || (k === "ArrowRight" && near)) { pan(0.25); }
        else if (k === "0") { setView(t0, t0 + span); }
        else { return; }
        ev.preventDefault();
      });
      var toolbar = document.getElementById("toolbar");
      if (toolbar) {
        toolbar.hidden = false;
        all("button[data-zoom]", toolbar).forEach(function (b) {
          b.addEventListener("click", function () {
            var what = b.getAttribute("data-zoom"), c = (view.a + view.b) / 2;
            if (what === "in") { zoomAt(c, 0.5); } else if (what === "out") { zoomAt(c, 2); }
            else if (what === "left") { pan(-0.25); } else if (what === "right") { pan(0.25); } else { setView(t0, t0 + span); }
          });
        });
      }

    \(graphsScript)
      apply();
      if (location.hash) { follow(location.hash); }
      root.setAttribute("data-report-lanes", String(all("#timeline-svg .lane").length));
      root.setAttribute("data-report-markers", String(all(".marker").length));
      root.setAttribute("data-report-setup-ms", (performance.now() - started).toFixed(1));
      root.setAttribute("data-report-ready", "1");
      // When the whole page has been drawn: the frame after the one that follows the set-up.
      requestAnimationFrame(function () {
        requestAnimationFrame(function () { root.setAttribute("data-report-drawn-ms", performance.now().toFixed(1)); });
      });
    })();

    """
}
