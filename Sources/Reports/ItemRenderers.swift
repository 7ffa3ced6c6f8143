import Analysis

// The renderers that write a list an item at a time (`ItemRenderer`): `check`'s text, `info` and `verify`.

/// `check` as text (`CheckText`): a trace's lines as its outcome is known, then the counts.
package struct CheckTextRenderer: ItemRenderer {
    /// The format it renders.
    package var format: ReportFormat { .checkText }
    /// Only failures and the counts (`--quiet`).
    package var quiet: Bool
    /// Creates the renderer.
    package init(quiet: Bool = false) { self.quiet = quiet }
    /// A trace's lines.
    package func item(_ o: CheckOutcome, at index: Int) -> String { CheckText.outcome(o, quiet: quiet) }
    /// The counts.
    package func closing(_ outcomes: [CheckOutcome]) -> String { CheckText.counts(outcomes) }
}

/// `info` as text (`InfoText`): each part's block, a blank line between parts.
package struct InfoTextRenderer: ItemRenderer {
    /// The format it renders.
    package var format: ReportFormat { .infoText }
    /// Creates the renderer.
    package init() {}
    /// A part's block.
    package func item(_ s: TraceSummary, at index: Int) -> String { (index > 0 ? "\n" : "") + InfoText.render(s) }
}

/// `info --json` (`InfoJSON`): one object per part, a line each.
package struct InfoJSONRenderer: ItemRenderer {
    /// The format it renders.
    package var format: ReportFormat { .infoJSON }
    /// Creates the renderer.
    package init() {}
    /// A part's object.
    package func item(_ s: TraceSummary, at index: Int) -> String { InfoJSON.render(s) + "\n" }
}

/// `verify` as text (`VerifyText`): each verdict's lines as it is known.
package struct VerifyTextRenderer: ItemRenderer {
    /// The format it renders.
    package var format: ReportFormat { .verifyText }
    /// Creates the renderer.
    package init() {}
    /// A verdict's lines.
    package func item(_ v: Verification, at index: Int) -> String { VerifyText.render(v) }
}

/// `verify --json` (`VerifyJSON`): one object per verdict, a line each.
package struct VerifyJSONRenderer: ItemRenderer {
    /// The format it renders.
    package var format: ReportFormat { .verifyJSON }
    /// Creates the renderer.
    package init() {}
    /// A verdict's object.
    package func item(_ v: Verification, at index: Int) -> String { VerifyJSON.render(v) + "\n" }
}
