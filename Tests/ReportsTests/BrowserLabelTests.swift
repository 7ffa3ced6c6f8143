import Foundation
import Replay
import Reports
import XCTest

/// The timeline's labels in headless Chromium: on the report of every golden trace and of a dense
/// trace (hundreds of calls that did not take effect, 15 within each millisecond), at the whole
/// trace, zoomed in step by step where the calls are, panned, and with scripts off, no two labels
/// the browser draws intersect, each is whole inside the lanes' plot, and every call that did not take
/// effect in view is labelled or counted in a label ("+N").
final class BrowserLabelTests: XCTestCase {
    /// The boxes of every label drawn on the timeline, as the browser lays them out: pairs that
    /// intersect, labels not whole inside the plot, and the calls in view against those labelled or counted.
    static let check = """
    (function () {
      var svg = document.getElementById('timeline-svg'), sr = svg.getBoundingClientRect(), u = sr.width / svg.viewBox.baseVal.width;
      var plot = svg.getAttribute('data-plot').split(' ').map(Number), L = sr.left + plot[0] * u, R = sr.left + (plot[0] + plot[1]) * u;
      function drawn(el) {
        for (var p = el; p && p !== svg; p = p.parentNode) { if (getComputedStyle(p).display === 'none') { return false; } }
        return el.getClientRects().length > 0;
      }
      var boxes = [];
      Array.prototype.forEach.call(svg.querySelectorAll('text'), function (t) {
        if (!t.textContent || !drawn(t)) { return; }
        var r = t.getBoundingClientRect(), lane = t.classList.contains('lanelabel');
        if (r.width === 0 || (!lane && (r.right <= L || r.left >= R))) { return; }
        boxes.push({ what: t.getAttribute('class') + ' "' + t.textContent + '"', l: r.left, r: r.right, t: r.top, b: r.bottom, lane: lane });
      });
      var over = [], out = [];
      boxes.forEach(function (a, i) {
        if (!a.lane && (a.l < L - 0.5 || a.r > R + 0.5)) { out.push(a.what); }
        boxes.slice(i + 1).forEach(function (b) {
          if (a.l < b.r - 0.01 && b.l < a.r - 0.01 && a.t < b.b - 0.01 && b.t < a.b - 0.01) { over.push(a.what + ' over ' + b.what); }
        });
      });
      var view = (document.documentElement.getAttribute('data-view') || '').split(' ').map(Number);
      var t0 = +svg.getAttribute('data-t0'), span = +svg.getAttribute('data-span');
      if (view.length < 2 || isNaN(view[0])) { view = [t0, t0 + span]; }
      var inView = 0, labelled = 0;
      Array.prototype.forEach.call(svg.querySelectorAll('.label-layer g[data-gx]'), function (g) {
        var text = g.querySelector('text');
        if (!text.classList.contains('callout')) { return; }
        var t = t0 + (+g.getAttribute('data-gx') - plot[0]) / plot[1] * span, x = plot[0] + (t - view[0]) / (view[1] - view[0]) * plot[1];
        if (x < plot[0] - 0.01 || x > plot[0] + plot[1] + 0.01) { return; }
        inView += 1;
        if (!drawn(text)) { return; }
        var more = text.querySelector('tspan');
        labelled += 1 + (more && more.textContent ? +more.textContent.replace(/[^0-9]/g, '') : 0);
      });
      return { labels: boxes.length, over: over, out: out, callsInView: inView, callsLabelled: labelled,
               zoom: +(document.documentElement.getAttribute('data-zoom') || 1), errors: document.documentElement.getAttribute('data-report-errors') };
    })()
    """

    /// Where to zoom: the first call's guide (else the middle of the plot), in the viewport's pixels.
    static let zoomPoint = """
    (function () { var svg = document.getElementById('timeline-svg'), g = svg.querySelector('.guide'), r = svg.getBoundingClientRect();
      if (g) { var b = g.getBoundingClientRect(); return [b.left + b.width / 2, r.top + 80]; }
      return [r.left + r.width * 0.6, r.top + 80]; })()
    """

    /// A trace where the calls are dense: after a headset takes the route, 120 route calls within 8 ms,
    /// four problem reports within 3 ms, a second headset, 60 calls 30 ms apart and 40 calls 2 ms apart;
    /// every call is ineffective (each asks for the other route than the one before).
    static func denseTrace() throws -> String {
        let base = try String(contentsOfFile: Fixtures.trace("srtc-bluetooth-blocks-speaker.jsonl"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.contains("\"type\":\"expect.") }.prefix(17)
        var lines: [String] = []
        func add(_ t: Int, _ body: String) { lines.append("{\"seq\":\(lines.count),\"t\":\(t),\(body)}") }
        for line in base {
            let rest = line.drop { $0 != "," }.dropFirst().drop { $0 != "," }.dropFirst()  // after "seq" and "t"
            let t = line.split(separator: ",")[1].split(separator: ":")[1]
            add(Int(t)!, String(rest.dropLast()))
        }
        func call(_ i: Int) -> String {
            i % 2 == 0 ? "\"type\":\"api.setRoute\",\"target\":\"speaker\",\"api\":\"setSpeakerOutputPreferred(true)\""
                : "\"type\":\"api.setRoute\",\"target\":\"earpiece\",\"api\":\"setSpeakerOutputPreferred(false)\""
        }
        for i in 0..<120 { add(9000 + i / 15, call(i)) }
        for i in 0..<4 { add(9010 + i, "\"type\":\"trace.report\",\"id\":\"R-\(i)\",\"note\":\"no sound\"") }
        add(9500, "\"type\":\"os.deviceConnected\",\"id\":\"bt-2\",\"kind\":\"bluetooth\",\"name\":\"Car\",\"port\":\"BluetoothHFP\"")
        add(9560, "\"type\":\"obs.routeChanged\",\"route\":\"bluetooth\",\"previousRoute\":\"bluetooth\",\"reason\":\"newDeviceAvailable\"")
        for i in 0..<60 { add(9700 + 30 * i, call(i)) }
        for i in 0..<40 { add(13000 + 2 * i, call(i)) }
        add(20000, "\"type\":\"os.deviceDisconnected\",\"id\":\"bt-2\"")
        add(25000, "\"type\":\"conn.state\",\"state\":\"disconnected\"")
        let path = Fixtures.artifacts + "/dense-calls.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Writes the report of a trace to artifacts/labels/ and returns the page's path and how many calls did not take effect.
    func page(_ path: String, as name: String) throws -> (String, Int) {
        var (r, lanes) = try Fixtures.replayWithLanes(path)
        r.file = name
        let dir = Fixtures.artifacts + "/labels"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let out = dir + "/" + name.replacingOccurrences(of: "/", with: "--") + ".html"
        try HTMLReport.render(r, lanes: lanes).write(toFile: out, atomically: true, encoding: .utf8)
        return (out, r.verdicts.filter(\.didNotTakeEffect).count)
    }

    /// Asserts one page's check: no intersection, every label whole in the plot, every call in view labelled or counted.
    func verify(_ any: Any, _ where_: String) throws {
        let c = try XCTUnwrap(any as? [String: Any], where_)
        XCTAssertNil(c["errors"] as? String, "\(where_): script errors")
        let over = c["over"] as? [String] ?? ["no answer"], out = c["out"] as? [String] ?? ["no answer"]
        XCTAssertEqual(over, [], "\(where_): labels intersect (\(over.count)): \(over.prefix(5))")
        XCTAssertEqual(out, [], "\(where_): labels not whole inside the lanes (\(out.count)): \(out.prefix(5))")
        XCTAssertEqual(c["callsLabelled"] as? Double, c["callsInView"] as? Double, "\(where_): calls in view against calls labelled or counted")
    }

    /// The pages of every golden trace and of the dense trace (last), written once for both tests.
    nonisolated(unsafe) static var written: [(path: String, name: String)]? = nil
    func pages() throws -> [(path: String, name: String)] {
        if let written = Self.written { return written }
        var pages: [(path: String, name: String)] = []
        for name in Fixtures.goldenTraceNames() { pages.append((try page(Fixtures.trace(name), as: name).0, name)) }
        let (dense, calls) = try page(try Self.denseTrace(), as: "dense-calls.jsonl")
        XCTAssertEqual(calls, 220, "every call of the dense trace did not take effect")
        pages.append((dense, "dense-calls.jsonl"))
        XCTAssertGreaterThan(pages.count, 150)
        Self.written = pages
        return pages
    }

    /// Each golden trace's page zoomed in four times at its first call (about ×37) and panned; the dense
    /// trace's as far as the page zooms (200 ms in view), panned both ways.
    func test_browser_noTwoTimelineLabelsIntersect_onEveryGoldenTraceAndADenseOne_atEveryZoom() throws {
        let browser = try HeadlessBrowser.required()
        let pages = try pages()
        var checked = 0, denseZoom = 0.0, denseLabels = 0.0
        // In runs of 40 pages, so that one browser's time limit is never near.
        for start in stride(from: 0, to: pages.count, by: 40) {
            let run = Array(pages[start..<min(pages.count, start + 40)])
            var steps: [HeadlessBrowser.Step] = []
            var at: [(step: Int, name: String, when: String)] = []
            func check(_ name: String, _ when: String) {
                at.append((steps.count, name, when))
                steps.append(.eval(Self.check))
            }
            for (path, name) in run {
                let dense = name == "dense-calls.jsonl"
                steps.append(.open(HeadlessBrowser.url(path)))
                check(name, "the whole trace")
                for z in 1...(dense ? 7 : 4) {
                    steps.append(.wheel(at: Self.zoomPoint, dy: -600, ctrl: true))
                    check(name, "zoom step \(z)")
                }
                steps.append(.key("d"))
                check(name, "panned right")
                if dense {
                    steps += [.key("a"), .key("a")]
                    check(name, "panned left")
                }
            }
            let out = try browser.run(steps)
            for (step, name, when) in at {
                try verify(out[step], "\(name), \(when)")
                checked += 1
                if name == "dense-calls.jsonl", when == "zoom step 7", let c = out[step] as? [String: Any] {
                    denseZoom = c["zoom"] as? Double ?? 0
                    denseLabels = c["labels"] as? Double ?? 0
                }
            }
        }
        XCTAssertEqual(checked, (pages.count - 1) * 6 + 10)
        XCTAssertGreaterThan(denseZoom, 100, "the dense trace was zoomed as far as the page goes")
        XCTAssertGreaterThan(denseLabels, 10, "labels were drawn on the dense trace")
    }

    /// Without the script the page is drawn as laid out for the whole trace, from estimated widths:
    /// no label intersects another there either.
    func test_browser_scriptsOff_noTwoTimelineLabelsIntersect() throws {
        let browser = try HeadlessBrowser.required()
        let pages = try pages()
        let out = try browser.run([.scriptsOff] + pages.flatMap { [.open(HeadlessBrowser.url($0.path), until: "true"), .eval(Self.check)] })
        for (i, (_, name)) in pages.enumerated() { try verify(out[2 + 2 * i], "\(name), scripts off") }
    }
}
