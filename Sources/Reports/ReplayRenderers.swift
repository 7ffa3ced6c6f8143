import Analysis
import Replay

// The renderers of a replay (`ReportInput.replay`). Each wraps the type that lays out its format.

/// `explain` as text (`ExplainText`), followed by the advice checked when asked (`AdviceCheckReport`).
package struct ExplainTextRenderer: Renderer {
    /// The format it renders.
    package var format: ReportFormat { .explainText }
    /// Whether to use bold headings.
    package var colour: Bool
    /// Creates the renderer.
    package init(colour: Bool = false) { self.colour = colour }
    /// Renders the explanation of a replay.
    package func render(_ r: ReplayReport) -> String {
        ExplainText.render(r.result, colour: colour) + (r.checks.map { AdviceCheckReport.render($0, r.result.words) } ?? "")
    }
}

/// `explain --json` (schema `rtctrace.explain/1`, `ExplainJSON`), with `adviceChecks` as its last member when
/// asked, and its line's end; also the golden snapshot's form.
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
    package func render(_ r: ReplayReport) -> String {
        let explain = ExplainJSON.render(r.result, golden: golden, pretty: pretty)
        guard let checks = r.checks, explain.hasSuffix("}") else { return explain + "\n" }
        return explain.dropLast() + ",\"adviceChecks\":" + AdviceCheckReport.json(checks) + "}\n"
    }

    /// The compact document goes to `sink` as the writer made its bytes (`render`'s, without a `String` of a
    /// document of megabytes made and copied on the way).
    package func write(_ r: ReplayReport, to sink: (UnsafeRawBufferPointer) throws -> Void) throws -> RenderedReport {
        guard !pretty else {
            var text = render(r)
            try text.withUTF8 { try sink(UnsafeRawBufferPointer($0)) }
            return RenderedReport(bytes: text.utf8.count)
        }
        var bytes = ExplainJSON.renderBytes(r.result, golden: golden)
        if let checks = r.checks, bytes.last == UInt8(ascii: "}") {
            bytes.removeLast()
            bytes.append(contentsOf: ",\"adviceChecks\":".utf8)
            bytes.append(contentsOf: AdviceCheckReport.json(checks).utf8)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "\n"))
        try bytes.withUnsafeBytes { try sink($0) }
        return RenderedReport(bytes: bytes.count)
    }
}

/// `report`: the self-contained HTML page, its lanes drawn from the steps as the replay runs.
package struct HTMLRenderer: Renderer {
    /// The format it renders.
    package var format: ReportFormat { .html }
    /// The state lanes the timeline draws, collected from the replay's steps.
    package let lanes: ReportLanes
    /// Creates the renderer, with lanes to collect.
    package init(lanes: ReportLanes = ReportLanes()) { self.lanes = lanes }
    /// Feeds the lanes.
    package var replayObserver: ((ReplayStep) -> Void)? { lanes.observe }
    /// Renders the page, with the advice checked drawn as a badge on each item.
    package func render(_ r: ReplayReport) -> String { HTMLReport.render(r.result, lanes: lanes.lanes(for: r.result), checks: r.checks ?? []) }
}

/// `export --format chrome`: the Chrome trace-event JSON, from what its observer collects as the replay runs.
package struct ChromeTraceRenderer: Renderer {
    /// The format it renders.
    package var format: ReportFormat { .chrome }
    /// What the replay observer collects (lanes, record instants, counters).
    package let observer: ChromeTraceObserver
    /// Creates the renderer.
    package init(observer: ChromeTraceObserver = ChromeTraceObserver()) { self.observer = observer }
    /// Feeds the observer.
    package var replayObserver: ((ReplayStep) -> Void)? { observer.observe }
    /// Renders the export, whole and without a budget.
    package func render(_ r: ReplayReport) -> String { ChromeTrace.render(r.result, observer: observer) }

    /// Streams the export as it is made, within a budget proportional to the input (docs/report.md); the
    /// notes say what the budget and the observer's caps left out.
    package func write(_ r: ReplayReport, to sink: (UnsafeRawBufferPointer) throws -> Void) throws -> RenderedReport {
        let written = try ChromeTrace.write(r.result, observer: observer, budget: ChromeTrace.budget(for: r.result), to: sink)
        var out = RenderedReport(bytes: written.bytes)
        if written.eventsNotExported > 0 {
            out.notes.append(ExportWords.eventsOverBudget(written.eventsNotExported)
                + ExportWords.budgetFormula(ChromeTrace.budgetPerInputByte, r.result.inputBytes, ChromeTrace.budgetBase >> 20)
                + ExportWords.otherdataEventsnotexportedSaysHowMany)
        }
        if observer.droppedInstants > 0 {
            out.notes.append(ExportWords.recordsBeyondInstantCap(observer.droppedInstants, observer.instantCount)
                + ExportWords.instantCap(observer.maxInstants, observer.maxInstantBytes >> 20))
        }
        return out
    }
}

/// `replay`: each step a line as the replay makes it (`TimelineReport.line`), then the divergences.
package struct TimelineTextRenderer: Renderer {
    /// The format it renders.
    package var format: ReportFormat { .timelineText }
    /// Where each step's lines go, as it happens.
    package let emit: (String) -> Void
    /// Creates the renderer.
    package init(emit: @escaping (String) -> Void) { self.emit = emit }
    /// Writes each step out.
    package var replayObserver: ((ReplayStep) -> Void)? { { [emit] step in emit(TimelineReport.line(step)) } }
    /// The end of the timeline: the divergences.
    package func render(_ r: ReplayReport) -> String { "\n" + TimelineReport.divergences(r.result) }
}

/// `replay --json`: one `{"kind":"step"}` line per step as the replay makes it (`TimelineReport.json`),
/// then one `{"kind":"result"}` line with the explanation's JSON.
package struct TimelineJSONRenderer: Renderer {
    /// The format it renders.
    package var format: ReportFormat { .timelineJSON }
    /// Where each step's line goes, as it happens.
    package let emit: (String) -> Void
    /// Creates the renderer.
    package init(emit: @escaping (String) -> Void) { self.emit = emit }
    /// Writes each step out.
    package var replayObserver: ((ReplayStep) -> Void)? { { [emit] step in emit(TimelineReport.json(step)); emit("\n") } }
    /// The last line: the result.
    package func render(_ r: ReplayReport) -> String { "{\"kind\":\"result\",\"result\":" + ExplainJSON.render(r.result) + "}\n" }
}
