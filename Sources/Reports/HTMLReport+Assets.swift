/// The report's inline style sheet and script. Neither contains trace text: the script reads
/// explanations from escaped attributes and writes them with `textContent`.
extension HTMLReport {
    static let style = """
    :root { --fg: #1d2330; --muted: #5b6473; --line: #d8dce3; --bg: #ffffff; --card: #f6f7f9; }
    * { box-sizing: border-box; }
    body { margin: 0 auto; padding: 16px 24px; max-width: 1400px; color: var(--fg); background: var(--bg);
      font: 14px/1.45 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
      -webkit-print-color-adjust: exact; print-color-adjust: exact; }
    h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 18px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 3px; }
    .meta { color: var(--muted); margin: 0; } .file { font-family: ui-monospace, Menlo, Consolas, monospace; }
    .status { display: inline-block; margin: 8px 0 0; padding: 2px 10px; border-radius: 10px; font-weight: 600; }
    .status.attention { background: #fde2e1; color: #9b1c1c; } .status.ok { background: #def7e5; color: #17623a; }
    ul.summary { margin: 0; padding-left: 20px; } ul.summary li.sub { margin-left: 22px; list-style: circle; }
    .hint { color: var(--muted); margin: 0 0 6px; }
    .timeline-row { display: flex; gap: 16px; align-items: flex-start; }
    .timeline-box { flex: 1 1 auto; min-width: 0; }
    aside.calls { flex: 0 0 330px; max-height: 640px; overflow: auto; }
    aside.calls h2 { margin-top: 0; }
    .card { background: var(--card); border: 1px solid var(--line); border-left: 4px solid #8a94a6; border-radius: 4px;
      padding: 6px 10px; margin: 0 0 8px; break-inside: avoid; }
    .card p { margin: 2px 0; overflow-wrap: anywhere; } .card p.head { font-weight: 600; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12.5px; }
    .card p.advice { color: #17456b; } .card p.links { font-size: 12px; }
    .v-ineffective, .v-rejected { border-left-color: #c62828 !important; } .v-deferred { border-left-color: #d98e04 !important; }
    .s-error { border-left-color: #c62828; } .s-warning { border-left-color: #d98e04; } .s-info { border-left-color: #3b7dd8; }
    .divergence.unexplained { border-left-color: #c62828; } .divergence.explained { border-left-color: #d98e04; }
    .card.selected { outline: 2px solid #3b7dd8; }
    ol.findings { padding-left: 0; list-style: none; }
    .detail { white-space: pre-wrap; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12.5px; background: var(--card);
      border: 1px solid var(--line); border-radius: 4px; padding: 6px 10px; margin: 6px 0; min-height: 3em; color: var(--muted); }
    .detail.active { color: var(--fg); border-color: #3b7dd8; }
    svg { display: block; font-family: -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
    .tick { stroke: #eceef2; stroke-width: 1; } .ticklabel { font-size: 10px; fill: var(--muted); text-anchor: middle; }
    .lanelabel { font-size: 11px; fill: var(--fg); text-anchor: end; } .seglabel { font-size: 10px; fill: #10131a; pointer-events: none; }
    .rowline { stroke: var(--line); stroke-width: 1; }
    .seg { stroke: #ffffff; stroke-width: 0.5; }
    .t-speaker { fill: #7fb3f0; } .t-receiver { fill: #86d19a; } .t-bluetooth { fill: #b79cf0; } .t-headset { fill: #6fd0c9; }
    .t-unknown { fill: #c9ced6; } .t-quiet { fill: #f0f2f5; } .t-merged { fill: #c0c6cf; } .t-on { fill: #9ccbf0; }
    .t-alert { fill: #f4a86a; } .t-off { fill: #d9dde3; }
    .t-q-excellent { fill: #6cc788; } .t-q-good { fill: #b3e0a0; } .t-q-poor { fill: #f4b860; } .t-q-lost { fill: #e0605a; } .t-q-unknown { fill: #c9ced6; }
    .marker { cursor: pointer; } .marker:focus { outline: none; }
    .swatch.nodata { background: repeating-linear-gradient(45deg, #ffffff 0 3px, #8a94a6 3px 5px); }
    .outcomeline { stroke: #2e9e5b; stroke-width: 2; stroke-dasharray: 3 2; } .outcomedot { fill: #2e9e5b; }
    .outcome.o-superseded .outcomeline, .outcome.o-dropped .outcomeline, .outcome.o-ineffective .outcomeline { stroke: #c62828; }
    .outcome.o-superseded .outcomedot, .outcome.o-dropped .outcomedot, .outcome.o-ineffective .outcomedot { fill: #c62828; }
    .marker.divergence rect { fill: rgba(220, 38, 38, 0.16); stroke: #c62828; stroke-width: 1.2; }
    .marker.divergence.explained rect { fill: rgba(217, 142, 4, 0.14); stroke: #d98e04; stroke-dasharray: 4 2; }
    .verdict circle { stroke: #ffffff; stroke-width: 1.5; }
    .verdict.v-applied circle { fill: #2e9e5b; } .verdict.v-noop circle { fill: #8a94a6; } .verdict.v-deferred circle { fill: #d98e04; }
    .verdict.v-ineffective circle { fill: #c62828; } .verdict.v-rejected circle { fill: #7f1010; }
    .finding.s-error path { fill: #c62828; } .finding.s-warning path { fill: #d98e04; } .finding.s-info path { fill: #3b7dd8; }
    .marker.selected circle, .marker.selected path, .marker.selected rect { stroke: #10131a; stroke-width: 2.5; }
    .guide { stroke: #c62828; stroke-width: 1; stroke-dasharray: 3 3; } .callout { font-size: 10.5px; font-weight: 600; fill: #9b1c1c; }
    .causeline { stroke: #9b1c1c; stroke-width: 1.2; stroke-dasharray: 1 2; } .causedot { fill: #ffffff; stroke: #9b1c1c; stroke-width: 1.5; }
    .causelabel { font-size: 9.5px; fill: #9b1c1c; text-anchor: middle; }
    ul.legend { list-style: none; padding: 0; margin: 4px 0; display: flex; flex-wrap: wrap; gap: 4px 14px; font-size: 12px; color: var(--muted); }
    .swatch { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: -2px; border: 1px solid #c0c6cf; }
    .swatch.t-speaker { background: #7fb3f0; } .swatch.t-receiver { background: #86d19a; } .swatch.t-bluetooth { background: #b79cf0; }
    .swatch.t-headset { background: #6fd0c9; } .swatch.t-unknown { background: #c9ced6; } .swatch.t-quiet { background: #f0f2f5; }
    .swatch.t-alert { background: #f4a86a; } .swatch.t-merged { background: #c0c6cf; } .swatch.t-q-excellent { background: #6cc788; }
    .swatch.t-q-good { background: #b3e0a0; } .swatch.t-q-poor { background: #f4b860; } .swatch.t-q-lost { background: #e0605a; }
    .swatch.divergence { background: rgba(220, 38, 38, 0.16); border-color: #c62828; }
    pre { background: var(--card); border: 1px solid var(--line); padding: 8px; overflow: auto; font-size: 12px; white-space: pre-wrap; }
    .none, .more { color: var(--muted); } footer { color: var(--muted); font-size: 12px; margin: 24px 0 8px; }
    @media (max-width: 1000px) { .timeline-row { display: block; } aside.calls { max-height: none; } }
    @media print {
      body { max-width: none; padding: 0; font-size: 11px; }
      .timeline-row { display: block; } aside.calls { max-height: none; overflow: visible; }
      .detail, .hint { display: none; } a { color: inherit; text-decoration: none; }
      section, article, .card, svg { break-inside: avoid; } h2 { break-after: avoid; }
      details > pre { display: none; }
    }

    """

    static let script = """
    (function () {
      "use strict";
      var root = document.documentElement;
      var errors = [];
      window.addEventListener("error", function (e) {
        errors.push(String(e.message));
        root.setAttribute("data-report-errors", errors.join(" | "));
      });
      var panel = document.getElementById("detail");
      function clearSelection() {
        var old = document.querySelectorAll(".selected");
        for (var i = 0; i < old.length; i++) { old[i].classList.remove("selected"); }
      }
      function show(marker, scroll) {
        if (!marker) { return; }
        clearSelection();
        marker.classList.add("selected");
        if (panel) { panel.textContent = marker.getAttribute("data-detail") || ""; panel.classList.add("active"); }
        var item = document.getElementById(marker.getAttribute("data-item") || "");
        if (item && item !== marker) {
          item.classList.add("selected");
          if (scroll) { item.scrollIntoView({ block: "nearest" }); }
        }
      }
      var markers = document.querySelectorAll(".marker");
      for (var i = 0; i < markers.length; i++) {
        (function (m) {
          m.addEventListener("mouseenter", function () { show(m, false); });
          m.addEventListener("focus", function () { show(m, false); });
          m.addEventListener("click", function (ev) { ev.preventDefault(); show(m, true); });
        })(markers[i]);
      }
      var links = document.querySelectorAll("a[data-marker]");
      for (var j = 0; j < links.length; j++) {
        (function (a) {
          a.addEventListener("click", function () { show(document.getElementById(a.getAttribute("data-marker")), false); });
        })(links[j]);
      }
      root.setAttribute("data-report-lanes", String(document.querySelectorAll("svg .lane").length));
      root.setAttribute("data-report-markers", String(markers.length));
      root.setAttribute("data-report-ready", "1");
    })();

    """
}
