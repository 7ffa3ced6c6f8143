import Analysis
import Foundation
import Replay
import Reports
import TestSupport
import TraceCodec
import TraceModel
import XCTest

/// The report in headless Chromium (`make test-deps` installs it; without it these tests fail and
/// say so): it loads without script errors and draws every lane; the 10-minute field meeting zooms
/// in on its divergence with the wheel and the keys and follows `#seq-N` anchors; the graphs' points
/// are the trace's values; the 45-minute meeting opens and draws fast, by the page's own timing; and
/// with scripts off the page shows the whole trace. Pages and screenshots are kept in artifacts/
/// (git-ignored) for a human to look at.
final class BrowserTests: XCTestCase {
    static let tenMinutes = "smeeting-field-service-10min.jsonl.zst"
    static let fortyFiveMinutes = "smeeting-long-meeting-45min.jsonl.zst"
    static let ready = "document.documentElement.getAttribute('data-report-ready') === '1'"

    func test_browser_bluetoothReportLoadsWithoutScriptErrors_andDrawsLanes() throws {
        let browser = try HeadlessBrowser.required()
        let (path, _, _) = try page("srtc-bluetooth-blocks-speaker.jsonl", as: "report-bluetooth.html")
        let shot = Fixtures.artifacts + "/report-bluetooth.png"
        try? FileManager.default.removeItem(atPath: shot)
        let out = try browser.run([
            .open(HeadlessBrowser.url(path)), .eval(Self.state),
            .eval("Array.prototype.map.call(document.querySelectorAll('#timeline-svg .lane'), function (g) { return g.getAttribute('data-lane'); })"),
            .screenshot(path: shot),
        ])
        let s = try state(out[1])
        XCTAssertEqual(s["ready"] as? String, "1", "the inline script ran to its end")
        XCTAssertNil(s["errors"] as? String, "script errors")
        XCTAssertEqual(s["lanes"] as? Double, Double(ReportLanes.order.count + 2), "every lane is in the SVG")
        XCTAssertEqual(out[2] as? [String], ReportLanes.order + ["calls", "findings"])
        let size = (try? FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int) ?? 0
        XCTAssertGreaterThan(size, 10_000, "screenshot written to \(shot)")
    }

    /// What the reader must know first is at the top of the page, in the first screen: a lone part of a
    /// session without its checkpoint (partial), and a trace torn by a crash (damage, "at the crash").
    func test_browser_partialAndTornReportsShowTheBannerFirst() throws {
        let browser = try HeadlessBrowser.required()
        let (lone, _, _) = try page("smeeting-session-part-without-checkpoint.jsonl", as: "report-lone-part.html")
        let long = try Data(contentsOf: URL(fileURLWithPath: Fixtures.trace("srtc-long-call-20min.jsonl.zst")))
        let torn = Fixtures.artifacts + "/torn-call.jsonl.zst"
        try long.prefix(long.count - 500).write(to: URL(fileURLWithPath: torn))
        let lanes = ReportLanes()
        var r = try Replay.run(TraceSession(path: torn), observer: lanes.observe)
        r.file = "torn-call.jsonl.zst"
        let tornPage = Fixtures.artifacts + "/report-torn.html"
        try HTMLReport.render(r, lanes: lanes.lanes(for: r)).write(toFile: tornPage, atomically: true, encoding: .utf8)
        let banner = """
        (function () { var n = document.getElementById('notices'), s = document.getElementById('summary');
          if (!n) { return { present: false }; }
          var box = n.getBoundingClientRect();
          return { present: true, visible: box.height > 0 && box.top < window.innerHeight, first: !!(n.compareDocumentPosition(s) & 4),
                   text: n.textContent, status: document.querySelector('header .status').textContent }; })()
        """
        let out = try browser.run([.open(HeadlessBrowser.url(lone)), .eval(Self.state), .eval(banner),
                                   .open(HeadlessBrowser.url(tornPage)), .eval(Self.state), .eval(banner)])
        for (k, name) in [(2, "lone part"), (5, "torn trace")] {
            let b = try state(out[k])
            XCTAssertEqual(b["present"] as? Bool, true, name)
            XCTAssertEqual(b["visible"] as? Bool, true, "\(name): in the first screen")
            XCTAssertEqual(b["first"] as? Bool, true, "\(name): before the summary")
            XCTAssertNil(try state(out[k - 1])["errors"] as? String, name)
        }
        let lonely = try state(out[2]), broken = try state(out[5])
        XCTAssertTrue((lonely["text"] as? String ?? "").contains("Partial: part 2 of session d03b5f88-retro"), "\(lonely)")
        XCTAssertTrue((lonely["status"] as? String ?? "").hasPrefix("Partial"), "\(lonely)")
        XCTAssertTrue((broken["text"] as? String ?? "").contains("Damage: the trace ends torn"), "\(broken)")
        XCTAssertTrue((broken["text"] as? String ?? "").contains("holds at the crash"), "\(broken)")
    }

    /// The 10-minute field meeting's divergence (7m 00.000s – 7m 06.040s, a pixel or two wide on the
    /// whole trace) grows under Ctrl+wheel at it, and the keys and the mouse zoom and pan.
    func test_browser_tenMinuteMeeting_zoomInOnTheDivergence_withWheelKeysAndMouse() throws {
        let browser = try HeadlessBrowser.required()
        let (path, r, _) = try page(Self.tenMinutes, as: "report-10min.html")
        let d = try XCTUnwrap(r.divergences.first)
        let (t0, t1) = (Double(r.firstT ?? 0), Double(r.lastT ?? 0))
        let rect = "#m-d-0 rect", at = HeadlessBrowser.centre(rect)
        let width = "document.querySelector('#m-d-0 rect').getBoundingClientRect().width"
        // The middle of the plot, on a lane with no marker (a marker's click scrolls to its item).
        let blank = """
        (function () { var s = document.getElementById('timeline-svg').getBoundingClientRect();
          var lane = document.querySelector('#timeline-svg [data-lane="callKit"] rect').getBoundingClientRect();
          return [s.left + s.width * 0.56, lane.top + lane.height / 2]; })()
        """
        let out = try browser.run([
            .open(HeadlessBrowser.url(path)), .eval(Self.state), .eval(width),
            .wheel(at: at, dy: -600, ctrl: true), .wheel(at: at, dy: -600, ctrl: true), .wheel(at: at, dy: -600, ctrl: true),
            .eval(Self.state), .eval(width),
            .key("+", code: "Equal", vk: 187), .eval(Self.state),
            .key("ArrowLeft", code: "ArrowLeft", vk: 37), .eval(Self.state),
            .drag(at: at, by: 120), .eval(Self.state),
            .doubleClick(at: blank), .eval(Self.state),
            .key("0", code: "Digit0", vk: 48), .eval(Self.state),
        ])
        let whole = try state(out[1])
        XCTAssertNil(whole["errors"] as? String)
        XCTAssertEqual(try view(whole).0, t0)
        XCTAssertEqual(try view(whole).1, t1)
        let before = try XCTUnwrap(out[2] as? Double)

        // Ctrl+wheel at the divergence: the view narrows around it, and it is drawn as many times wider.
        let zoomed = try state(out[6])
        let (a, b) = try view(zoomed)
        let k = try XCTUnwrap(zoomed["zoom"] as? Double)
        XCTAssertGreaterThan(k, 10, "three wheel steps zoom in more than ten times")
        XCTAssertLessThanOrEqual(a, Double(d.start))
        XCTAssertGreaterThanOrEqual(b, Double(d.end), "the divergence stays in view")
        XCTAssertEqual((t1 - t0) / (b - a), k, accuracy: k * 0.01)
        let after = try XCTUnwrap(out[7] as? Double)
        XCTAssertEqual(after / before, k, accuracy: k * 0.05, "the divergence is drawn \(k) times wider (\(before) → \(after) px)")

        // + halves the view around the pointer; ← pans by a quarter of it; a drag to the right moves the view back in time.
        let plus = try view(state(out[9]))
        XCTAssertEqual(plus.1 - plus.0, (b - a) / 2, accuracy: 2)
        let left = try view(state(out[11]))
        XCTAssertEqual(left.0, plus.0 - (plus.1 - plus.0) / 4, accuracy: 2)
        XCTAssertEqual(left.1 - left.0, plus.1 - plus.0, accuracy: 1)
        let dragged = try view(state(out[13]))
        XCTAssertLessThan(dragged.0, left.0, "dragging right shows earlier time")
        XCTAssertEqual(dragged.1 - dragged.0, left.1 - left.0, accuracy: 1)
        let double = try view(state(out[15]))
        XCTAssertEqual(double.1 - double.0, (dragged.1 - dragged.0) / 2, accuracy: 2, "a double-click zooms in")
        // 0: the whole trace again.
        XCTAssertEqual(try view(state(out[17])).0, t0)
        XCTAssertEqual(try view(state(out[17])).1, t1)
    }

    /// `report.html#seq-381` (the record that started the divergence and raised the finding that
    /// explains it) scrolls to the divergence's card, highlights both markers, zooms to them and shows
    /// their explanation; a `seq N` link in the card follows the same way.
    func test_browser_tenMinuteMeeting_followsAnAnchor() throws {
        let browser = try HeadlessBrowser.required()
        let (path, r, _) = try page(Self.tenMinutes, as: "report-10min.html")
        let d = try XCTUnwrap(r.divergences.first)
        let seq = try XCTUnwrap(d.startSeq ?? d.actualSeq)
        let e = Explanation(r)
        let headline = try XCTUnwrap(e.divergences.first?.headline)
        let call = try XCTUnwrap(d.predictedBy?.seq, "the call that set the prediction (X4)")
        let inView = "(function () { var r = document.getElementById('seq-\(seq)').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })()"
        let link = "#item-d-0 a.seqlink[href='#seq-\(call)']"
        let out = try browser.run([
            .open(HeadlessBrowser.url(path, "#seq-\(seq)")), .eval(Self.state), .eval(inView),
            .eval("document.querySelectorAll('[id=\"seq-\(seq)\"]').length"),
            .eval("(function () { var el = document.querySelector(\(HeadlessBrowser.jsString(link))); el.scrollIntoView({ block: 'center' }); return true; })()"),
            .click(at: HeadlessBrowser.centre(link)), .eval(HeadlessBrowser.settle),
            .eval("location.hash"), .eval(Self.state),
        ])
        let s = try state(out[1])
        XCTAssertNil(s["errors"] as? String)
        XCTAssertEqual(s["anchor"] as? String, "\(seq)")
        XCTAssertEqual(out[2] as? Bool, true, "the anchor is scrolled into view")
        XCTAssertEqual(out[3] as? Double, 1, "one element carries the anchor")
        let selected = try XCTUnwrap(s["selected"] as? [String])
        for id in ["m-d-0", "item-d-0"] { XCTAssertTrue(selected.contains(id), "\(id) highlighted: \(selected)") }
        let findingMarker = r.findings.firstIndex { $0.seqs.first == seq }.map { "m-f-\($0)" }
        XCTAssertNotNil(findingMarker, "the finding that explains the divergence is about the same record")
        if let findingMarker { XCTAssertTrue(selected.contains(findingMarker), "\(findingMarker) highlighted too") }
        let (a, b) = try view(s)
        XCTAssertLessThanOrEqual(a, Double(d.start))
        XCTAssertGreaterThanOrEqual(b, Double(d.end))
        XCTAssertLessThan(b - a, Double(r.durationMs) / 10, "zoomed in on it")
        XCTAssertTrue((s["detail"] as? String ?? "").hasPrefix(headline.trimmingCharacters(in: .whitespaces)), "the explanation is shown: \(s["detail"] ?? "")")
        // The card's link to the call that set the prediction.
        XCTAssertEqual(out[7] as? String, "#seq-\(call)")
        let followed = try state(out[8])
        XCTAssertEqual(followed["anchor"] as? String, "\(call)")
        XCTAssertTrue((followed["selected"] as? [String] ?? []).contains("m-v-\(call)"), "\(followed)")
    }

    /// Three reports of each meeting, chosen from the trace (the worst loss, the middle one, the last):
    /// every series' point at them carries the recorded value and is drawn where that value and time are.
    func test_browser_graphPointsAreTheTracesValues_atThreeRecords() throws {
        let browser = try HeadlessBrowser.required()
        for (name, file) in [(Self.tenMinutes, "report-10min.html"), (Self.fortyFiveMinutes, "report-45min.html")] {
            let (path, _, _) = try page(name, as: file)
            var reports: [(seq: Int, t: Int64, pub: QualitySample, sub: QualitySample)] = []
            for rec in try Fixtures.readAll(Fixtures.trace(name)).records {
                if case let .qualityReport(pub, sub) = rec.body { reports.append((rec.seq, rec.t, pub, sub)) }
            }
            XCTAssertGreaterThan(reports.count, 100, name)
            let worst = try XCTUnwrap(reports.max { ($0.pub.loss ?? 0) + ($0.sub.loss ?? 0) < ($1.pub.loss ?? 0) + ($1.sub.loss ?? 0) })
            let chosen = [worst, reports[reports.count / 2], reports[reports.count - 1]]
            let out = try browser.run([.open(HeadlessBrowser.url(path))] + chosen.map { .eval(Self.pointsAt($0.seq)) })
            for (i, report) in chosen.enumerated() {
                let points = try XCTUnwrap(out[i + 1] as? [String: Any])
                for metric in QualityMetric.allCases {
                    for (side, sample) in [("pub", report.pub), ("sub", report.sub)] {
                        guard let expected = metric.value(sample) else { continue }
                        let p = try XCTUnwrap(points["\(metric.rawValue)-\(side)"] as? [String: Double], "\(name) seq \(report.seq) \(metric) \(side)")
                        let where_ = "\(name) seq \(report.seq) \(metric.rawValue) \(side)"
                        XCTAssertEqual(p["recorded"], expected, where_)
                        // The drawn point, read back through the graph's axis: within the rounding of its coordinates.
                        let perPixel = try XCTUnwrap(p["perPixel"])
                        XCTAssertEqual(try XCTUnwrap(p["drawn"]), expected, accuracy: perPixel * 0.06 + 1e-9, where_)
                        XCTAssertEqual(try XCTUnwrap(p["t"]), Double(report.t), accuracy: try XCTUnwrap(p["msPerPixel"]) * 0.06 + 0.5, where_)
                    }
                }
            }
        }
    }

    /// The 45-minute meeting opens and draws: the page's own timing (navigation to the load event, first
    /// contentful paint, the script's set-up) is printed beside the 10-minute meeting's for `make bench`
    /// to report; no time is asserted. Its anchors work as the short meeting's do.
    func test_browser_fortyFiveMinuteMeeting_opensAndDrawsFast_andFollowsAnAnchor() throws {
        let browser = try HeadlessBrowser.required()
        let (long, r, _) = try page(Self.fortyFiveMinutes, as: "report-45min.html")
        let (short, _, _) = try page(Self.tenMinutes, as: "report-10min.html")
        let call = try XCTUnwrap(r.notTakingEffect.first, "the meeting's ineffective call")
        let timing = """
        (function () { var n = performance.getEntriesByType('navigation')[0], p = performance.getEntriesByType('paint');
          var fcp = p.filter(function (e) { return e.name === 'first-contentful-paint'; })[0];
          return { load: n.loadEventEnd, fcp: fcp ? fcp.startTime : -1, drawn: +document.documentElement.getAttribute('data-report-drawn-ms'),
                   setup: +document.documentElement.getAttribute('data-report-setup-ms'),
                   bytes: document.documentElement.outerHTML.length }; })()
        """
        let paintDone = "new Promise(function (ok) { (function wait() { if (document.documentElement.hasAttribute('data-report-drawn-ms')) { ok(true); } else { setTimeout(wait, 10); } })(); })"
        // A first page warms the browser up (its first paint is not timed); then each meeting's page.
        let out = try browser.run([
            .open(HeadlessBrowser.url(short)), .eval(paintDone),
            .open(HeadlessBrowser.url(short)), .eval(paintDone), .eval(timing),
            .open(HeadlessBrowser.url(long)), .eval(paintDone), .eval(timing),
            .open(HeadlessBrowser.url(long, "#seq-\(call.seq)")), .eval(Self.state),
        ])
        let a = try XCTUnwrap(out[4] as? [String: Double]), b = try XCTUnwrap(out[7] as? [String: Double])
        let longBytes = (try FileManager.default.attributesOfItem(atPath: long)[.size] as? Int) ?? 0
        let shortBytes = (try FileManager.default.attributesOfItem(atPath: short)[.size] as? Int) ?? 0
        func f(_ v: Double?) -> String { fixed(v ?? -1, 1) }
        print("report timing (ms): 45-min load \(f(b["load"])), drawn \(f(b["drawn"])), first contentful paint \(f(b["fcp"])), "
              + "script \(f(b["setup"])), \(longBytes) bytes; 10-min load \(f(a["load"])), drawn \(f(a["drawn"])), "
              + "first contentful paint \(f(a["fcp"])), script \(f(a["setup"])), \(shortBytes) bytes; "
              + "drawn ratio 45/10 \(fixed(b["drawn"]! / max(1, a["drawn"]!), 2)), size ratio \(fixed(Double(longBytes) / Double(max(1, shortBytes)), 2))")
        // Timing is measured (make bench prints this line), never asserted: a loaded machine is no failure.
        XCTAssertGreaterThan(b["load"]!, 0, "the page loaded")
        XCTAssertGreaterThan(b["drawn"]!, 0, "the page was drawn")
        let s = try state(out[9])
        XCTAssertNil(s["errors"] as? String)
        XCTAssertEqual(s["anchor"] as? String, "\(call.seq)")
        let selected = try XCTUnwrap(s["selected"] as? [String])
        for id in ["m-v-\(call.seq)", "item-v-\(call.seq)"] { XCTAssertTrue(selected.contains(id), "\(id) highlighted: \(selected)") }
        let (v0, v1) = try view(s)
        let cause = try XCTUnwrap(call.causeSeq.flatMap { r.recordIndex[$0] }, "the call's cause record")
        XCTAssertTrue(Double(call.t) > v0 && Double(call.t) < v1, "the call is in view")
        XCTAssertTrue(Double(cause.t) > v0 && Double(cause.t) < v1, "and so is its cause, 2 minutes before")
        XCTAssertLessThan(v1 - v0, Double(r.durationMs) / 10, "zoomed in on them")
    }

    /// With scripts off the page shows the whole trace as drawn: no zoom, no controls, every lane, and
    /// an anchor still scrolls to its item, which the style sheet highlights.
    func test_browser_scriptsOff_showsTheWholeTrace_andAnchorsStillLand() throws {
        let browser = try HeadlessBrowser.required()
        let (path, r, _) = try page(Self.tenMinutes, as: "report-10min.html")
        let seq = try XCTUnwrap(r.divergences.first.flatMap { $0.startSeq ?? $0.actualSeq })
        let out = try browser.run([
            .scriptsOff, .open(HeadlessBrowser.url(path, "#seq-\(seq)"), until: "true"),
            .eval("""
            (function () { var el = document.getElementById('seq-\(seq)').getBoundingClientRect();
              return { ready: document.documentElement.getAttribute('data-report-ready'), toolbar: document.getElementById('toolbar').hidden,
                       transformed: document.querySelectorAll('.zoom-layer[transform], [data-x][transform]').length,
                       lanes: document.querySelectorAll('#timeline-svg .lane').length, scrolled: scrollY > 0,
                       inView: el.top >= 0 && el.top < innerHeight,
                       outline: getComputedStyle(document.getElementById('item-d-0')).outlineStyle,
                       polylines: document.querySelectorAll('#graphs-svg polyline').length }; })()
            """),
        ])
        let s = try XCTUnwrap(out[2] as? [String: Any])
        XCTAssertNil(s["ready"] as? String, "the script did not run")
        XCTAssertEqual(s["toolbar"] as? Bool, true, "the zoom controls stay hidden")
        XCTAssertEqual(s["transformed"] as? Double, 0, "drawn at the whole trace's scale")
        XCTAssertEqual(s["lanes"] as? Double, Double(ReportLanes.order.count + 2))
        XCTAssertGreaterThanOrEqual(s["polylines"] as? Double ?? 0, Double(2 * QualityMetric.allCases.count), "the graphs are drawn")
        XCTAssertEqual(s["scrolled"] as? Bool, true)
        XCTAssertEqual(s["inView"] as? Bool, true, "the anchor lands")
        XCTAssertEqual(s["outline"] as? String, "solid", "the target card is highlighted by the style sheet")
    }

    /// The screenshots of docs/report.md, made with the same browser:
    /// `RTCTRACE_SCREENSHOTS=docs/images swift test --skip-build --filter BrowserTests/test_screenshots` writes
    /// them there; without the variable they go to artifacts/.
    func test_screenshots_ofTheReport() throws {
        let browser = try HeadlessBrowser.required()
        let dir = ProcessInfo.processInfo.environment["RTCTRACE_SCREENSHOTS"].map { $0.hasPrefix("/") ? $0 : Fixtures.root + "/" + $0 }
            ?? Fixtures.artifacts
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let (short, r, _) = try page(Self.tenMinutes, as: "report-10min.html")
        let (long, r45, _) = try page(Self.fortyFiveMinutes, as: "report-45min.html")
        let seq = try XCTUnwrap(r.divergences.first.flatMap { $0.startSeq ?? $0.actualSeq })
        let call = try XCTUnwrap(r45.notTakingEffect.first)
        let clip = "(function () { var r = document.getElementById('timeline').getBoundingClientRect(); return [0, r.top + scrollY, 1400, r.height]; })()"
        let top = "(function () { var r = document.getElementById('timeline-box').getBoundingClientRect(); return [0, r.top + scrollY - 44, 1400, r.height + 50]; })()"
        let shots = ["report-10min.png", "report-10min-divergence.png", "report-45min-call.png"].map { dir + "/" + $0 }
        for s in shots { try? FileManager.default.removeItem(atPath: s) }
        _ = try browser.run([
            .open(HeadlessBrowser.url(short)), .screenshot(path: shots[0], clip: clip),
            .open(HeadlessBrowser.url(short, "#seq-\(seq)")), .screenshot(path: shots[1], clip: top),
            .open(HeadlessBrowser.url(long, "#seq-\(call.seq)")),
            .eval("document.getElementById('timeline-box').scrollIntoView(); true"),
            .move(at: "(function () { var r = document.querySelector('#graphs-svg').getBoundingClientRect(); return [r.left + r.width * 0.45, r.top + 60]; })()"),
            .screenshot(path: shots[2], clip: top),
        ], width: 1400, height: 1300)
        for s in shots {
            let size = (try? FileManager.default.attributesOfItem(atPath: s)[.size] as? Int) ?? 0
            XCTAssertGreaterThan(size, 20_000, "screenshot written to \(s)")
        }
    }
}
