import Analysis
@_spi(Tools) import Replay

// The Tools SPI of Reports (docs/architecture.md, "The Tools SPI"): every output as fuzz/ renders it and
// benchmarks/ times it, for packages of their own that cannot see this package's `package` declarations.
// Nothing else uses it. Each call is the renderer a command calls.

/// The reports of a replay for a tool.
@_spi(Tools) public enum ToolsReports {
    /// A step as a line of the `replay` timeline (`TimelineText.line`).
    @_spi(Tools) public static func timelineLine(_ s: ToolsReplayStep) -> String { TimelineText.line(s.step) }

    /// A step as a line of `replay --json` (`TimelineText.json`).
    @_spi(Tools) public static func timelineJSON(_ s: ToolsReplayStep) -> String { TimelineText.json(s.step) }

    /// The divergences block of the `replay` timeline (`TimelineText.divergences`).
    @_spi(Tools) public static func divergences(_ r: ToolsReplayResult) -> String { TimelineText.divergences(r.result) }

    /// `explain` as text (`ExplainTextRenderer`).
    @_spi(Tools) public static func explainText(_ r: ToolsReplayResult, colour: Bool = false) -> String {
        ExplainTextRenderer(colour: colour).render(r.result)
    }

    /// `explain --json` (`ExplainJSONRenderer`); `golden` is the snapshot form.
    @_spi(Tools) public static func explainJSON(_ r: ToolsReplayResult, golden: Bool = false, pretty: Bool = false) -> String {
        ExplainJSONRenderer(golden: golden, pretty: pretty).render(r.result)
    }

    /// The quality summary in one line and as a block (`QualityText`); nil when the replay has none.
    @_spi(Tools) public static func qualityText(_ r: ToolsReplayResult) -> (line: String, block: String)? {
        r.result.quality.map { (QualityText.oneLine($0), QualityText.block($0, findings: r.result.findingCounts)) }
    }
}

/// What the HTML report and the Chrome export collect while they observe a replay, for a tool: a
/// `ReportLanes` and a `ChromeTraceObserver`, each step given to both.
@_spi(Tools) public final class ToolsReportObserver {
    let lanes = ReportLanes()
    let recorder = ChromeTraceObserver()

    /// Nothing observed yet.
    @_spi(Tools) public init() {}

    /// Takes one step of the replay.
    @_spi(Tools) public func observe(_ s: ToolsReplayStep) {
        lanes.observe(s.step)
        recorder.observe(s.step)
    }

    /// The HTML report of the observed replay (`HTMLReport.render`).
    @_spi(Tools) public func html(_ r: ToolsReplayResult) -> String { HTMLReport.render(r.result, lanes: lanes.lanes(for: r.result)) }

    /// The Chrome trace export of the observed replay (`ChromeTrace.render`).
    @_spi(Tools) public func chromeTrace(_ r: ToolsReplayResult) -> String { ChromeTrace.render(r.result, observer: recorder) }
}
