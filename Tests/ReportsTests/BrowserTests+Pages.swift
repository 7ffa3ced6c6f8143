import Foundation
import Replay
import Reports
import TestSupport
import XCTest

/// What the browser tests share: the pages they load and the JavaScript that reads the page's state.
extension BrowserTests {
    /// Writes the report of a golden trace to artifacts/, named as the repository names it (never by
    /// this machine's path); returns the page's path, the result and the lanes.
    func page(_ name: String, as file: String) throws -> (path: String, result: ReplayResult, lanes: [Lane]) {
        var (r, lanes) = try Fixtures.replayWithLanes(Fixtures.trace(name))
        r.file = "traces/" + name
        let html = HTMLReport.render(r, lanes: lanes)
        let path = Fixtures.artifacts + "/" + file
        try html.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, r, lanes)
    }

    /// The root element's `data-…` attributes the page's script sets.
    static let state = """
    (function () { var d = document.documentElement;
      return { ready: d.getAttribute('data-report-ready'), errors: d.getAttribute('data-report-errors'),
               view: (d.getAttribute('data-view') || '').split(' ').map(Number), zoom: +d.getAttribute('data-zoom'),
               anchor: d.getAttribute('data-report-anchor'), lanes: +d.getAttribute('data-report-lanes'),
               selected: Array.prototype.map.call(document.querySelectorAll('.selected'), function (e) { return e.id || ''; }),
               detail: document.getElementById('detail').textContent }; })()
    """

    func state(_ any: Any) throws -> [String: Any] { try XCTUnwrap(any as? [String: Any], "\(any)") }
    func view(_ s: [String: Any]) throws -> (Double, Double) {
        let v = try XCTUnwrap(s["view"] as? [Double], "\(s)")
        return (v[0], v[1])
    }

    /// For every series, the point drawn for the report `seq`: its recorded value, the value and time
    /// its coordinates stand for on the graph's axes, and what one unit of the drawing is worth.
    static func pointsAt(_ seq: Int) -> String {
        """
        (function (seq) {
          var svg = document.getElementById('graphs-svg'), t0 = +svg.dataset.t0, span = +svg.dataset.span, plot = svg.dataset.plot.split(' ').map(Number);
          var out = {};
          Array.prototype.forEach.call(svg.querySelectorAll('.graph'), function (g) {
            var lo = +g.dataset.min, hi = +g.dataset.max, top = +g.dataset.top, bottom = +g.dataset.bottom;
            Array.prototype.forEach.call(g.querySelectorAll('[data-series]'), function (el) {
              var i = el.dataset.seqs.split(' ').indexOf(String(seq));
              if (i < 0) { return; }
              var x, y;
              if (el.tagName === 'circle') { x = +el.getAttribute('cx'); y = +el.getAttribute('cy'); } else { var p = el.points.getItem(i); x = p.x; y = p.y; }
              out[el.dataset.series] = { recorded: +el.dataset.values.split(' ')[i], drawn: lo + (bottom - y) / (bottom - top) * (hi - lo),
                                         perPixel: (hi - lo) / (bottom - top), t: t0 + (x - plot[0]) / plot[1] * span, msPerPixel: span / plot[1] };
            });
          });
          return out;
        })(\(seq))
        """
    }
}
