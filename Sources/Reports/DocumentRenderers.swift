import Analysis
import Replay

// The renderers of everything but a replay: check outcomes, a diff, a what-if, triage, the catalogue, the
// reports of import-log, redact and reduce.
// Each wraps the type that lays out its format.

/// `check --junit`: one testcase per trace (`JUnitXML`), written whole once every outcome is known.
package struct JUnitRenderer: ItemRenderer {
    /// The format it renders.
    package static var format: ReportFormat { .junit }
    /// The suite name.
    package var suite: String
    /// Creates the renderer.
    package init(suite: String = "rtctrace check") { self.suite = suite }
    /// Nothing until every outcome is known (the suite's counts come first).
    package func item(_ o: CheckOutcome, at index: Int) -> String { "" }
    /// The document.
    package func closing(_ outcomes: [CheckOutcome]) -> String { JUnitXML.render(outcomes, suite: suite) }
}

/// `check --json` (`CheckJSON`), one line, written once every outcome is known.
package struct CheckJSONRenderer: ItemRenderer {
    /// The format it renders.
    package static var format: ReportFormat { .checkJSON }
    /// Creates the renderer.
    package init() {}
    /// Nothing until every outcome is known (the counts come first).
    package func item(_ o: CheckOutcome, at index: Int) -> String { "" }
    /// The object.
    package func closing(_ outcomes: [CheckOutcome]) -> String { CheckJSON.render(outcomes) + "\n" }
}

/// `diff` as text (`TraceDiffText`).
package struct DiffTextRenderer: Renderer {
    /// The format it renders.
    package static var format: ReportFormat { .diffText }
    /// Creates the renderer.
    package init() {}
    /// Renders the difference.
    package func render(_ d: TraceDiff) -> String { TraceDiffText.render(d) }
}

/// `diff --json` (schema `rtctrace.diff/1`, `TraceDiffJSON`), one line.
package struct DiffJSONRenderer: Renderer {
    /// The format it renders.
    package static var format: ReportFormat { .diffJSON }
    /// Creates the renderer.
    package init() {}
    /// Renders the difference.
    package func render(_ d: TraceDiff) -> String { TraceDiffJSON.render(d) + "\n" }
}

/// `whatif` as text (`WhatIfText`).
package struct WhatIfTextRenderer: Renderer {
    /// The format it renders.
    package static var format: ReportFormat { .whatifText }
    /// Creates the renderer.
    package init() {}
    /// Renders the what-if.
    package func render(_ w: WhatIfResult) -> String { WhatIfText.render(w) }
}

/// `whatif --json` (schema `rtctrace.whatif/1`, `WhatIfJSON`), one line.
package struct WhatIfJSONRenderer: Renderer {
    /// The format it renders.
    package static var format: ReportFormat { .whatifJSON }
    /// Creates the renderer.
    package init() {}
    /// Renders the what-if.
    package func render(_ w: WhatIfResult) -> String { WhatIfJSON.render(w) + "\n" }
}

/// `triage`'s summary as text (`TriageSummaryReport.render`).
package struct TriageTextRenderer: Renderer {
    /// The format it renders.
    package static var format: ReportFormat { .triageText }
    /// Creates the renderer.
    package init() {}
    /// Renders the summary.
    package func render(_ t: TriageReport) -> String {
        TriageSummaryReport.render(t.summary, thresholds: t.thresholds, changes: t.changes, all: t.all)
    }
}

/// `triage --json`'s summary (schema `rtctrace.triage-summary/2`, `TriageSummaryReport.json`), one line.
package struct TriageJSONRenderer: Renderer {
    /// The format it renders.
    package static var format: ReportFormat { .triageJSON }
    /// Creates the renderer.
    package init() {}
    /// Renders the summary.
    package func render(_ t: TriageReport) -> String {
        TriageSummaryReport.json(t.summary, thresholds: t.thresholds, written: t.written, changes: t.changes) + "\n"
    }
}

/// `triage`'s rows: one JSON object per trace (`TriageRowJSON`), without its line's end.
package struct TriageRowRenderer: Renderer, Sendable {
    /// The format it renders.
    package static var format: ReportFormat { .triageRows }
    /// Creates the renderer.
    package init() {}
    /// Renders the row.
    package func render(_ row: TriageRow) -> String { TriageRowJSON.render(row) }
}

/// `triage --list-tags`: every tag with what it means (`TriageSummaryReport.tagList`).
package struct TriageTagsRenderer: Renderer {
    /// The format it renders.
    package static var format: ReportFormat { .triageTags }
    /// Creates the renderer.
    package init() {}
    /// Renders the list.
    package func render(_: Void) -> String { TriageSummaryReport.tagList() }
}

/// `rules` as text: the catalogue (`RulesReport.list`), or one entry in full (`RulesReport.explain`).
package struct RulesTextRenderer: Renderer {
    /// The format it renders.
    package static var format: ReportFormat { .rulesText }
    /// Creates the renderer.
    package init() {}
    /// Renders the catalogue or the entry.
    package func render(_ entry: RulesReport.Entry?) -> String { entry.map(RulesReport.explain) ?? RulesReport.list() }
}

/// `rules --json`: the catalogue or one entry (`RulesReport.json`).
package struct RulesJSONRenderer: Renderer {
    /// The format it renders.
    package static var format: ReportFormat { .rulesJSON }
    /// Creates the renderer.
    package init() {}
    /// Renders the catalogue or the entry.
    package func render(_ entry: RulesReport.Entry?) -> String { RulesReport.json(entry) }
}

/// `import-log`'s report as text (`ImportLogText`).
package struct ImportLogTextRenderer: Renderer {
    /// The format it renders.
    package static var format: ReportFormat { .importLogText }
    /// Creates the renderer.
    package init() {}
    /// Renders the report.
    package func render(_ r: ImportLogReport) -> String { ImportLogText.render(r) }
}

/// `redact`'s report as text (`RedactText`).
package struct RedactTextRenderer: Renderer {
    /// The format it renders.
    package static var format: ReportFormat { .redactText }
    /// Creates the renderer.
    package init() {}
    /// Renders the report.
    package func render(_ r: RedactReport) -> String { RedactText.render(r) }
}

/// `reduce`'s report as text (`ReduceText`).
package struct ReduceTextRenderer: Renderer {
    /// The format it renders.
    package static var format: ReportFormat { .reduceText }
    /// Creates the renderer.
    package init() {}
    /// Renders the report.
    package func render(_ r: ReduceReport) -> String { ReduceText.render(r) }
}
