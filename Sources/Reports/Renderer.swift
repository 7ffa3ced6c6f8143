import Analysis
import Replay

/// A report format: one value in, the bytes of the report out. Every format (text, JSON, HTML,
/// JUnit, Chrome) is one type behind this protocol; none reads another's output.
package protocol Renderer {
    /// What the format renders: an explanation, a replay with its lanes, a set of check outcomes.
    associatedtype Input
    /// Which format this is: its identifier and what its output is.
    var format: ReportFormat { get }
    /// The report, complete (deterministic: the same input gives the same bytes).
    func render(_ input: Input) -> String
}

/// The report formats, one case each: the identifier a renderer answers to, the one table of what each
/// format's output is (its media type, and the file name ending it is written under).
package enum ReportFormat: String, CaseIterable, Sendable {
    case explainText = "explain-text"
    case explainJSON = "explain-json"
    case html
    case chromeTrace = "chrome-trace"
    case junit
    case diffText = "diff-text"
    case diffJSON = "diff-json"
    case whatifText = "whatif-text"
    case whatifJSON = "whatif-json"

    /// The media type of the output.
    package var mediaType: String {
        switch self {
        case .explainText, .diffText, .whatifText: "text/plain; charset=utf-8"
        case .explainJSON, .chromeTrace, .diffJSON, .whatifJSON: "application/json"
        case .html: "text/html; charset=utf-8"
        case .junit: "application/xml"
        }
    }

    /// The file name ending a file of this format is given.
    package var fileExtension: String {
        switch self {
        case .explainText, .diffText, .whatifText: "txt"
        case .explainJSON, .chromeTrace, .diffJSON, .whatifJSON: "json"
        case .html: "html"
        case .junit: "xml"
        }
    }
}

// The formats behind the protocol. Each wraps the format's own rendering with the options it
// needs; commands render through these, so a new format is one more conformance here.

/// `explain` as text: see `ExplainText` (it renders an `Explanation`; this one takes a replay).
package struct ExplainTextRenderer: Renderer {
    /// The format it renders.
    package var format: ReportFormat { .explainText }
    /// Whether to use bold headings.
    package var colour: Bool
    /// Creates the renderer.
    package init(colour: Bool = false) { self.colour = colour }
    /// Renders the explanation of a replay result.
    package func render(_ r: ReplayResult) -> String { ExplainText.render(r, colour: colour) }
}

/// `explain --json` / `replay --json` (schema `rtctrace.explain/1`): see `ResultJSON`.
package struct ExplainJSONRenderer: Renderer {
    /// The format it renders.
    package var format: ReportFormat { .explainJSON }
    /// The canonical snapshot form (no file path, no reader problems).
    package var golden: Bool
    /// Indented output.
    package var pretty: Bool
    /// Creates the renderer.
    package init(golden: Bool = false, pretty: Bool = false) { self.golden = golden; self.pretty = pretty }
    /// Renders the result.
    package func render(_ r: ReplayResult) -> String { ResultJSON.render(r, golden: golden, pretty: pretty) }
}

/// `report`: the self-contained HTML page, with the lanes collected during the replay.
package struct HTMLRenderer: Renderer {
    /// The format it renders.
    package var format: ReportFormat { .html }
    /// The state lanes the timeline draws.
    package var lanes: [Lane]
    /// The advice checked by replay, drawn as a badge on each item (`report --verify-advice`).
    package var checks: [AdviceCheck]
    /// Creates the renderer.
    package init(lanes: [Lane], checks: [AdviceCheck] = []) {
        self.lanes = lanes
        self.checks = checks
    }
    /// Renders the page.
    package func render(_ r: ReplayResult) -> String { HTMLReport.render(r, lanes: lanes, checks: checks) }
}

/// `export`: the Chrome trace-event JSON, with what the observer collected during the replay.
package struct ChromeTraceRenderer: Renderer {
    /// The format it renders.
    package var format: ReportFormat { .chromeTrace }
    /// What the replay observer collected (lanes, record instants).
    package let observer: ChromeTraceObserver
    /// Creates the renderer.
    package init(observer: ChromeTraceObserver) { self.observer = observer }
    /// Renders the export.
    package func render(_ r: ReplayResult) -> String { ChromeTrace.render(r, observer: observer) }
}

/// `check --junit`: one testcase per trace.
package struct JUnitRenderer: Renderer {
    /// The format it renders.
    package var format: ReportFormat { .junit }
    /// The suite name.
    package var suite: String
    /// Creates the renderer.
    package init(suite: String = "rtctrace check") { self.suite = suite }
    /// Renders the outcomes.
    package func render(_ outcomes: [CheckOutcome]) -> String { JUnitXML.render(outcomes, suite: suite) }
}

/// `diff`, as text or JSON.
package struct TraceDiffRenderer: Renderer {
    /// The format it renders.
    package var format: ReportFormat { json ? .diffJSON : .diffText }
    /// JSON (`rtctrace.diff/1`) rather than text.
    package var json: Bool
    /// Creates the renderer.
    package init(json: Bool) { self.json = json }
    /// Renders the difference.
    package func render(_ d: TraceDiff) -> String { json ? TraceDiffJSON.render(d) + "\n" : TraceDiffText.render(d) }
}

/// `whatif` as text (`WhatIfText`) or JSON (`rtctrace.whatif/1`).
package struct WhatIfRenderer: Renderer {
    /// The format it renders.
    package var format: ReportFormat { json ? .whatifJSON : .whatifText }
    /// JSON rather than text.
    package var json: Bool
    /// Creates the renderer.
    package init(json: Bool) { self.json = json }
    /// Renders the what-if.
    package func render(_ w: WhatIfResult) -> String { json ? WhatIfJSON.render(w) + "\n" : WhatIfText.render(w) }
}
