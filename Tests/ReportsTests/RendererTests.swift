import Reports
import XCTest

/// Every report format has exactly one renderer behind the `Renderer` protocol, and each renderer
/// answers to its own format.
final class RendererTests: XCTestCase {
    func test_eachFormatHasOneRenderer() {
        let formats: [ReportFormat] = [
            ExplainTextRenderer().format, ExplainJSONRenderer().format, HTMLRenderer(lanes: []).format,
            ChromeTraceRenderer(recorder: ChromeTraceRecorder()).format, JUnitRenderer().format,
            TraceDiffRenderer(json: false).format, TraceDiffRenderer(json: true).format,
        ]
        XCTAssertEqual(formats.count, Set(formats).count, "two renderers answer to one format: \(formats)")
        XCTAssertEqual(Set(formats), Set(ReportFormat.allCases), "a format without a renderer, or a renderer without a format")
        XCTAssertEqual(Set(ReportFormat.allCases.map(\.rawValue)).count, ReportFormat.allCases.count, "identifiers are distinct")
        XCTAssertEqual(ReportFormat.html.fileExtension, "html")
        XCTAssertEqual(ReportFormat.chromeTrace.mediaType, "application/json")
    }
}
