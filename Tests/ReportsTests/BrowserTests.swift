import Foundation
import Reports
import TestSupport
import XCTest

/// Renders a real report in headless Chromium: the page loads without script errors, the timeline
/// has its lanes, and a screenshot is kept in artifacts/ (git-ignored) for a human to look at.
final class BrowserTests: XCTestCase {
    static func browser() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
            for dir in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
                return "\(dir)/\(name)"
            }
        }
        return nil
    }

    /// Runs the headless browser; returns its standard output. The time limit only guards against a
    /// browser that hangs (it is far beyond what a loaded machine needs), never measures speed.
    func run(_ exe: String, _ args: [String]) throws -> String {
        let r = runProcess(exe, ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                                 "--user-data-dir=" + Fixtures.tempDir("browser")] + args, timeout: 600)
        XCTAssertFalse(r.timedOut, "the browser hung: no answer within 10 minutes")
        return String(decoding: r.out, as: UTF8.self)
    }

    func test_browser_bluetoothReportLoadsWithoutScriptErrors_andDrawsLanes() throws {
        let (r, lanes) = try Fixtures.replayWithLanes(Fixtures.trace("srtc-bluetooth-blocks-speaker.jsonl"))
        let html = HTMLReport.render(r, lanes: lanes)
        // Every check of the HTML that needs no browser runs first.
        XCTAssertTrue(html.contains("data-report-ready"))
        let page = Fixtures.artifacts + "/report-bluetooth.html"
        try html.write(toFile: page, atomically: true, encoding: .utf8)
        guard let exe = Self.browser() else {
            throw XCTSkip("no Chromium found (make test installs it); the browser check is skipped, the HTML checks ran")
        }
        let dom = try run(exe, ["--dump-dom", "file://" + page])
        XCTAssertTrue(dom.contains("data-report-ready=\"1\""), "the inline script ran to its end")
        XCTAssertFalse(dom.contains("data-report-errors=\""), "script errors: \(dom.prefix(400))")
        XCTAssertTrue(dom.contains("data-report-lanes=\"\(ReportLanes.order.count + 2)\""), "every lane is in the SVG")
        for id in ReportLanes.order { XCTAssertTrue(dom.contains("data-lane=\"\(id)\""), id) }
        let shot = Fixtures.artifacts + "/report-bluetooth.png"
        try? FileManager.default.removeItem(atPath: shot)
        _ = try run(exe, ["--screenshot=" + shot, "--window-size=1400,1800", "--hide-scrollbars", "file://" + page])
        let size = (try? FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int) ?? 0
        XCTAssertGreaterThan(size, 10_000, "screenshot written to \(shot)")
    }
}
