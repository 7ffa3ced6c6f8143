import Analysis
import Replay
import TestSupport
import Reports
import TraceCodec
import XCTest

/// Every report format has exactly one renderer behind the `Renderer` protocol, and each renderer
/// answers to its own format.
final class RendererTests: XCTestCase {
    /// The renderer each kind of input's lookup gives for `format`, nil when it gives none.
    private func lookups(_ f: ReportFormat) -> [ReportInput: ReportFormat] {
        var found: [ReportInput: ReportFormat] = [:]
        found[.replay] = Renderers.replay(f)?.format
        found[.checkOutcomes] = Renderers.checkOutcomes(f)?.format
        found[.diff] = Renderers.diff(f)?.format
        found[.whatif] = Renderers.whatif(f)?.format
        found[.triageSummary] = Renderers.triageSummary(f)?.format
        found[.triageRow] = Renderers.triageRow(f)?.format
        found[.triageTags] = Renderers.triageTags(f)?.format
        found[.catalogue] = Renderers.catalogue(f)?.format
        return found
    }

    /// The registry holds one renderer per identifier, and every format resolves, by its identifier, to
    /// its renderer in the lookup of its kind of input and in no other.
    func test_registryHasOneRendererPerIdentifier() {
        let formats = Renderers.all.map { $0.format }
        XCTAssertEqual(formats.count, Set(formats).count, "two renderers answer to one format: \(formats)")
        XCTAssertEqual(Set(formats), Set(ReportFormat.allCases), "a format without a renderer, or a renderer without a format")
        XCTAssertEqual(Set(ReportFormat.allCases.map(\.rawValue)).count, ReportFormat.allCases.count, "identifiers are distinct")
        for f in ReportFormat.allCases {
            XCTAssertEqual(Renderers.format(f.rawValue), f)
            XCTAssertEqual(lookups(f), [f.info.input: f], "\(f.rawValue) resolves to its renderer, in the lookup of \(f.info.input) only")
        }
        XCTAssertNil(Renderers.format("chrome-trace"), "one name per format")
        XCTAssertEqual(ReportFormat.html.fileExtension, "html")
        XCTAssertEqual(ReportFormat.chrome.mediaType, "application/json")
        XCTAssertEqual(ReportFormat.written(by: "export"), [.chrome])
    }

    /// The renderers that draw from the replay's steps say so; the others render from their input alone.
    func test_observersOfTheReplayDeclareIt() {
        let observing = ReportFormat.allCases.filter { Renderers.replay($0)?.observesReplay == true }
        XCTAssertEqual(observing, [.html, .chrome, .timelineText, .timelineJSON])
    }

    /// The Chrome export receives the replay's steps as they happen, through the renderer the registry
    /// gives, and writes what an observer fed beside the replay collects; so does the timeline.
    func test_chromeExportAndTimelineObserveTheReplayAsItRuns() throws {
        let path = Fixtures.trace("srtc-bluetooth-blocks-speaker.jsonl")
        let chrome = try XCTUnwrap(Renderers.replay(.chrome))
        var lines: [String] = []
        let timeline = try XCTUnwrap(Renderers.replay(.timelineText, .init(emit: { lines.append($0) })))
        let separate = ChromeTraceObserver()
        var steps = 0
        let r = try Replay.run(TraceSession(path: path)) { step in
            steps += 1
            chrome.replayObserver?(step)
            timeline.replayObserver?(step)
            separate.observe(step)
        }
        XCTAssertGreaterThan(steps, 0)
        XCTAssertEqual(lines.count, steps, "one line per step, written as it happened")
        XCTAssertEqual(chrome.render(ReplayReport(r)), ChromeTrace.render(r, observer: separate))
        XCTAssertTrue(chrome.render(ReplayReport(r)).contains("\"cat\":\"record\""), "record instants came from the steps")
        var streamed: [UInt8] = []
        let written = try chrome.write(ReplayReport(r)) { streamed.append(contentsOf: $0) }
        XCTAssertEqual(written.bytes, streamed.count)
        XCTAssertEqual(String(decoding: streamed, as: UTF8.self), chrome.render(ReplayReport(r)), "within its budget, streamed is whole")
    }

    /// A golden session is one JUnit case, named once: by the folder of its parts when no other case is in
    /// it, else by its session id; never "part-1".
    func test_junitNamesASessionCaseOnce_byItsFolderOrItsSessionId() {
        var weekly = CheckOutcome(TraceSession(paths: (1...3).map { "traces/weekly/part-\($0).jsonl" }))
        weekly.session = "6c1f0d3a-weekly-sync"
        var loose = CheckOutcome(TraceSession(paths: ["traces/part-1.jsonl", "traces/part-2.jsonl"]))
        loose.session = "b81f33e0"
        let single = CheckOutcome(file: "traces/srtc-speaker.jsonl")
        let xml = JUnitXML.render([weekly, loose, single])
        XCTAssertTrue(xml.contains("name=\"weekly\" file=\"traces/weekly/part-1.jsonl\""), xml)
        XCTAssertTrue(xml.contains("name=\"session b81f33e0\" file=\"traces/part-1.jsonl\""), "traces/ holds another case: \(xml)")
        XCTAssertTrue(xml.contains("name=\"srtc-speaker\""), xml)
        XCTAssertFalse(xml.contains("name=\"part-1\""), xml)
    }
}
