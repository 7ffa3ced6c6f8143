import Analysis
import Reports
import TraceCodec
import XCTest

/// Every report format has exactly one renderer behind the `Renderer` protocol, and each renderer
/// answers to its own format.
final class RendererTests: XCTestCase {
    func test_eachFormatHasOneRenderer() {
        let formats: [ReportFormat] = [
            ExplainTextRenderer().format, ExplainJSONRenderer().format, HTMLRenderer(lanes: []).format,
            ChromeTraceRenderer(observer: ChromeTraceObserver()).format, JUnitRenderer().format,
            TraceDiffRenderer(json: false).format, TraceDiffRenderer(json: true).format,
            WhatIfRenderer(json: false).format, WhatIfRenderer(json: true).format,
        ]
        XCTAssertEqual(formats.count, Set(formats).count, "two renderers answer to one format: \(formats)")
        XCTAssertEqual(Set(formats), Set(ReportFormat.allCases), "a format without a renderer, or a renderer without a format")
        XCTAssertEqual(Set(ReportFormat.allCases.map(\.rawValue)).count, ReportFormat.allCases.count, "identifiers are distinct")
        XCTAssertEqual(ReportFormat.html.fileExtension, "html")
        XCTAssertEqual(ReportFormat.chromeTrace.mediaType, "application/json")
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
