import Analysis
import Replay

// The renderers of everything but a replay and the lists written an item at a time: check outcomes as a
// whole, and the documents laid out whole by one function (a diff, a what-if, triage, the catalogue, the
// reports of import-log, redact and reduce).

/// `check --junit`: one testcase per trace (`JUnitXML`), written whole once every outcome is known.
package struct JUnitRenderer: ItemRenderer {
    /// The format it renders.
    package var format: ReportFormat { .junit }
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
    package var format: ReportFormat { .checkJSON }
    /// Creates the renderer.
    package init() {}
    /// Nothing until every outcome is known (the counts come first).
    package func item(_ o: CheckOutcome, at index: Int) -> String { "" }
    /// The object.
    package func closing(_ outcomes: [CheckOutcome]) -> String { CheckJSON.render(outcomes) + "\n" }
}

/// A format whose document one function lays out whole from its input (`TraceDiffText`, `WhatIfJSON`,
/// `TriageSummaryReport`, `RulesReport`, …): the registry pairs each such format with its layout, so a
/// format of this kind needs no type of its own.
package struct DocumentRenderer<Input>: Renderer, Sendable {
    /// The format it renders.
    package let format: ReportFormat
    /// The document for an input.
    private let layout: @Sendable (Input) -> String
    /// The renderer of `format`, whose document is `layout`'s.
    package init(_ format: ReportFormat, _ layout: @escaping @Sendable (Input) -> String) {
        self.format = format
        self.layout = layout
    }
    /// Lays out the document.
    package func render(_ input: Input) -> String { layout(input) }
}
