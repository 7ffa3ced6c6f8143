import Analysis
@_spi(Tools) import Replay

// The Tools SPI of Reports (docs/architecture.md, "The Tools SPI"): every output as fuzz/ renders it and
// benchmarks/ times it, for packages of their own that cannot see this package's `package` declarations.
// Nothing else uses it. Each call is the renderer a command calls.

/// The reports of a replay for a tool.
@_spi(Tools) public enum ToolsReports {
    /// A step as a line of the `replay` timeline (`TimelineReport.line`).
    @_spi(Tools) public static func timelineLine(_ s: ToolsReplayStep) -> String { TimelineReport.line(s.step) }

    /// A step as a line of `replay --json` (`TimelineReport.json`).
    @_spi(Tools) public static func timelineJSON(_ s: ToolsReplayStep) -> String { TimelineReport.json(s.step) }

    /// The divergences block of the `replay` timeline (`TimelineReport.divergences`).
    @_spi(Tools) public static func divergences(_ r: ToolsReplayResult) -> String { TimelineReport.divergences(r.result) }

    /// `explain` as text (`ExplainText`).
    @_spi(Tools) public static func explainText(_ r: ToolsReplayResult, colour: Bool = false) -> String {
        ExplainText.render(r.result, colour: colour)
    }

    /// `explain --json` without its line's end (`ExplainJSON`); `golden` is the snapshot form.
    @_spi(Tools) public static func explainJSON(_ r: ToolsReplayResult, golden: Bool = false, pretty: Bool = false) -> String {
        ExplainJSON.render(r.result, golden: golden, pretty: pretty)
    }

    /// The quality summary in one line and as a block (`QualityText`); nil when the replay has none.
    @_spi(Tools) public static func qualityText(_ r: ToolsReplayResult) -> (line: String, block: String)? {
        r.result.quality.map { (QualityText.oneLine($0), QualityText.block($0, findings: r.result.findingCounts)) }
    }
}

/// The HTML report's and the Chrome export's renderers, which observe a replay as it runs, for a tool:
/// each step given to both.
@_spi(Tools) public final class ToolsReportObserver {
    let page = HTMLRenderer()
    let export = ChromeTraceRenderer()

    /// Nothing observed yet.
    @_spi(Tools) public init() {}

    /// Takes one step of the replay.
    @_spi(Tools) public func observe(_ s: ToolsReplayStep) {
        page.lanes.observe(s.step)
        export.observer.observe(s.step)
    }

    /// The HTML report of the observed replay (`HTMLRenderer`).
    @_spi(Tools) public func html(_ r: ToolsReplayResult) -> String { page.render(ReplayReport(r.result)) }

    /// The Chrome trace export of the observed replay, whole (`ChromeTraceRenderer`).
    @_spi(Tools) public func chromeTrace(_ r: ToolsReplayResult) -> String { export.render(ReplayReport(r.result)) }
}
