/// The report's inline style sheet (the colours of what the timeline draws come from `Palette`).
/// It contains no trace text.
extension HTMLReport {
    static let style = """
    :root { --fg: #1d2330; --muted: #5b6473; --line: #d8dce3; --bg: #ffffff; --card: #f6f7f9; --select: #10131a; }
    * { box-sizing: border-box; }
    body { margin: 0 auto; padding: 16px 24px; max-width: 1400px; color: var(--fg); background: var(--bg);
      font: 14px/1.45 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
      -webkit-print-color-adjust: exact; print-color-adjust: exact; }
    h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 18px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 3px; }
    h3.graphs-title { font-size: 13px; font-weight: 600; margin: 10px 0 2px; }
    .meta { color: var(--muted); margin: 0; } .file { font-family: ui-monospace, Menlo, Consolas, monospace; }
    .status { display: inline-block; margin: 8px 0 0; padding: 2px 10px; border-radius: 10px; font-weight: 600; }
    .status.attention { background: #fde2e1; color: #9b1c1c; } .status.ok { background: #def7e5; color: #17623a; }
    .notices { border: 2px solid #b45309; background: #fff7ed; border-radius: 6px; padding: 4px 14px; margin: 12px 0; }
    .notices h2 { margin: 6px 0; font-size: 1.05em; color: #92400e; } .notices ul { margin: 4px 0 8px; padding-left: 18px; }
    ul.summary { margin: 0; padding-left: 20px; } ul.summary li.sub { margin-left: 22px; list-style: circle; }
    .hint { color: var(--muted); margin: 0 0 6px; }
    .toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 6px; margin: 0 0 6px; font-size: 12px; color: var(--muted); }
    .toolbar[hidden] { display: none; }
    .toolbar button { font: inherit; color: var(--fg); background: var(--card); border: 1px solid var(--line); border-radius: 4px; padding: 1px 8px; cursor: pointer; }
    .toolbar .view { font-family: ui-monospace, Menlo, Consolas, monospace; color: var(--fg); margin: 0 8px; }
    .timeline-row { display: flex; gap: 16px; align-items: flex-start; }
    .timeline-box { flex: 1 1 auto; min-width: 0; outline: none; }
    .timeline-box:focus-visible { outline: 1px dashed var(--muted); }
    aside.calls { flex: 0 0 330px; max-height: 900px; overflow: auto; }
    aside.calls h2 { margin-top: 0; }
    .card { background: var(--card); border: 1px solid var(--line); border-left: 4px solid #8a94a6; border-radius: 4px;
      padding: 6px 10px; margin: 0 0 8px; break-inside: avoid; }
    .card p { margin: 2px 0; overflow-wrap: anywhere; } .card p.head { font-weight: 600; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12.5px; }
    .card p.advice-check { font-size: 12px; } .card p.advice-check b { border-radius: 3px; padding: 0 4px; color: #fff; background: #6b7280; }
    .card p.advice-check.verified b, .card p.advice-check.alternativeVerified b { background: #1f7a3d; }
    .card p.advice-check.doesNotApply b, .card p.advice-check.changedNotResolved b { background: #9a5b00; }
    .card p.advice { color: #17456b; } .card p.links { font-size: 12px; } .permalink { color: var(--muted); }
    .card.v-ineffective { border-left-color: var(--t-v-ineffective); } .card.v-rejected { border-left-color: var(--t-v-rejected); }
    .card.v-deferred { border-left-color: var(--t-v-deferred); }
    .card.s-error { border-left-color: var(--t-s-error); } .card.s-warning { border-left-color: var(--t-s-warning); } .card.s-info { border-left-color: var(--t-s-info); }
    .card.divergence.unexplained { border-left-color: var(--t-div-unexplained); } .card.divergence.explained { border-left-color: var(--t-div-explained); }
    .card.divergence.unknown-start { border-left-color: var(--t-div-unknown-start); }
    .card.selected, .card:target, .card:has(> .anchor:target) { outline: 2px solid var(--select); }
    ol.findings { padding-left: 0; list-style: none; }
    .detail { white-space: pre-wrap; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12.5px; background: var(--card);
      border: 1px solid var(--line); border-radius: 4px; padding: 6px 10px; margin: 6px 0; min-height: 3em; color: var(--muted); }
    .detail.active { color: var(--fg); border-color: var(--select); }
    .readout { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 11.5px; color: var(--fg); min-height: 1.5em; }
    .key { font-weight: 700; } .key.t-pub { color: var(--t-pub); } .key.t-sub { color: var(--t-sub); }
    svg { display: block; font-family: -apple-system, "Segoe UI", Roboto, Arial, sans-serif; user-select: none; }
    svg.defs { position: absolute; }
    .zoom-layer rect, .zoom-layer line, .zoom-layer path, .zoom-layer polyline, .zoom-layer circle { vector-effect: non-scaling-stroke; }
    .tick { stroke: #eceef2; stroke-width: 1; } .ticklabel { font-size: 10px; fill: var(--muted); text-anchor: middle; } .ticklabel.atstart { text-anchor: start; } .ticklabel.atend { text-anchor: end; }
    .lanelabel { font-size: 11px; fill: var(--fg); text-anchor: end; } .seglabel, .marklabel { font-size: 10px; fill: #10131a; pointer-events: none; }
    .graphlabel { font-size: 11px; fill: var(--fg); } .axislabel { font-size: 9.5px; fill: var(--muted); text-anchor: end; }
    .grid { stroke: #eceef2; stroke-width: 1; }
    .line.series { stroke-width: 1.4; stroke-linejoin: round; }
    .vline { stroke-width: 1; stroke-dasharray: 3 2; } .vline.t-reconnect { stroke-dasharray: none; stroke-width: 1.5; }
    .cursor { stroke: var(--select); stroke-width: 0.8; stroke-dasharray: 2 2; pointer-events: none; }
    .rowline { stroke: var(--line); stroke-width: 1; }
    .seg { stroke: #ffffff; stroke-width: 0.5; }
    .marker { cursor: pointer; } .marker:focus { outline: none; }
    .mark path { stroke: #ffffff; stroke-width: 1; }
    .swatch.nodata { background: repeating-linear-gradient(45deg, #ffffff 0 3px, #8a94a6 3px 5px); }
    .outcomeline { stroke: var(--t-v-applied); stroke-width: 2; stroke-dasharray: 3 2; } .outcomedot { fill: var(--t-v-applied); }
    .outcome.o-superseded .outcomeline, .outcome.o-dropped .outcomeline, .outcome.o-ineffective .outcomeline { stroke: var(--t-v-ineffective); }
    .outcome.o-superseded .outcomedot, .outcome.o-dropped .outcomedot, .outcome.o-ineffective .outcomedot { fill: var(--t-v-ineffective); }
    .marker.divergence rect { fill: rgba(165, 15, 21, 0.14); stroke: var(--t-div-unexplained); stroke-width: 1.2; }
    .marker.divergence.explained rect { fill: rgba(232, 185, 35, 0.2); stroke: var(--t-div-explained); stroke-dasharray: 4 2; }
    .marker.divergence.unknown-start rect { fill: rgba(55, 71, 79, 0.14); stroke: var(--t-div-unknown-start); stroke-dasharray: 2 2; }
    .verdict circle { stroke: #ffffff; stroke-width: 1.5; }
    .verdict.v-applied circle { fill: var(--t-v-applied); } .verdict.v-noop circle { fill: var(--t-v-noop); } .verdict.v-deferred circle { fill: var(--t-v-deferred); }
    .verdict.v-ineffective circle { fill: var(--t-v-ineffective); } .verdict.v-rejected circle { fill: var(--t-v-rejected); }
    .finding.s-error path { fill: var(--t-s-error); } .finding.s-warning path { fill: var(--t-s-warning); } .finding.s-info path { fill: var(--t-s-info); }
    .marker.selected circle, .marker.selected path, .marker.selected rect { stroke: var(--select); stroke-width: 2.5; }
    .reportline { stroke: #1c7ed6; stroke-width: 1.5; } .reportlabel { font-size: 10.5px; font-weight: 700; fill: #1c7ed6; }
    .guide { stroke: var(--t-v-ineffective); stroke-width: 1; stroke-dasharray: 3 3; } .callout { font-size: 10.5px; font-weight: 600; fill: var(--t-v-ineffective); }
    .causeline { stroke: var(--t-cause); stroke-width: 1.2; stroke-dasharray: 1 2; } .causedot { fill: #ffffff; stroke: var(--t-cause); stroke-width: 1.5; }
    .causelabel { font-size: 9.5px; fill: var(--t-cause); text-anchor: middle; }
    .label-layer text { paint-order: stroke; stroke: #ffffff; stroke-width: 3px; stroke-linejoin: round; }
    div.legend { margin: 4px 0; }
    ul.legend { list-style: none; padding: 0; margin: 2px 0; display: flex; flex-wrap: wrap; gap: 2px 14px; font-size: 12px; color: var(--muted); }
    ul.legend li.group { font-weight: 600; color: var(--fg); }
    .swatch { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: -2px; border: 1px solid #c0c6cf; }
    .swatch.line { height: 4px; vertical-align: 2px; border: none; }
    pre { background: var(--card); border: 1px solid var(--line); padding: 8px; overflow: auto; font-size: 12px; white-space: pre-wrap; }
    .none, .more { color: var(--muted); } footer { color: var(--muted); font-size: 12px; margin: 24px 0 8px; }
    @media (max-width: 1000px) { .timeline-row { display: block; } aside.calls { max-height: none; } }
    @media print {
      body { max-width: none; padding: 0; font-size: 11px; }
      .timeline-row { display: block; } aside.calls { max-height: none; overflow: visible; }
      .detail, .hint, .toolbar, .readout { display: none; } a { color: inherit; text-decoration: none; }
      section, article, .card, svg { break-inside: avoid; } h2 { break-after: avoid; }
      details > pre { display: none; }
    }

    """

}
