import Analysis
import Replay

/// The registry of renderers: the renderer of a format, picked by the format (or its identifier), one
/// lookup per kind of input. Each lookup switches over every format, so a new format is named here (and
/// in `ReportFormat.info`) before it compiles; a format of another kind of input has no renderer there.
/// Commands render only through these.
package enum Renderers {
    /// The format an identifier names (as `export --format` takes it), nil for none.
    package static func format(_ identifier: String) -> ReportFormat? { ReportFormat(rawValue: identifier) }

    /// What a replay's renderer is told beyond its input.
    package struct Options {
        /// Bold headings (a terminal without `NO_COLOR`).
        package var colour = false
        /// The golden snapshot's form of the JSON (no file path, no reader problems), indented.
        package var golden = false
        /// Where a renderer that writes steps as they come writes them.
        package var emit: (String) -> Void = { _ in }
        /// Options for a renderer of a replay.
        package init(colour: Bool = false, golden: Bool = false, emit: @escaping (String) -> Void = { _ in }) {
            self.colour = colour
            self.golden = golden
            self.emit = emit
        }
    }

    /// The renderer of a replay in `format`.
    package static func replay(_ format: ReportFormat, _ o: Options = Options()) -> (any Renderer<ReplayReport>)? {
        switch format {
        case .explainText: ExplainTextRenderer(colour: o.colour)
        case .explainJSON: ExplainJSONRenderer(golden: o.golden, pretty: o.golden)
        case .html: HTMLRenderer()
        case .chrome: ChromeTraceRenderer()
        case .timelineText: TimelineTextRenderer(emit: o.emit)
        case .timelineJSON: TimelineJSONRenderer(emit: o.emit)
        case .junit, .checkJSON, .diffText, .diffJSON, .whatifText, .whatifJSON, .triageText, .triageJSON, .triageRows, .triageTags, .rulesText, .rulesJSON,
             .checkText, .infoText, .infoJSON, .verifyText, .verifyJSON,
             .importLogText, .redactText, .reduceText: nil
        }
    }

    /// The renderer of the golden check's outcomes in `format`.
    package static func checkOutcomes(_ format: ReportFormat, quiet: Bool = false) -> (any ItemRenderer<CheckOutcome>)? {
        switch format {
        case .checkText: CheckTextRenderer(quiet: quiet)
        case .junit: JUnitRenderer()
        case .checkJSON: CheckJSONRenderer()
        case .explainText, .explainJSON, .html, .chrome, .timelineText, .timelineJSON, .diffText, .diffJSON, .whatifText, .whatifJSON,
             .triageText, .triageJSON, .triageRows, .triageTags, .rulesText, .rulesJSON,
             .infoText, .infoJSON, .verifyText, .verifyJSON,
             .importLogText, .redactText, .reduceText: nil
        }
    }

    /// The renderer of a diff in `format`.
    package static func diff(_ format: ReportFormat) -> (any Renderer<TraceDiff>)? {
        switch format {
        case .diffText: DocumentRenderer(format) { TraceDiffText.render($0) }
        case .diffJSON: DocumentRenderer(format) { TraceDiffJSON.render($0) + "\n" }
        case .explainText, .explainJSON, .html, .chrome, .timelineText, .timelineJSON, .junit, .checkJSON, .whatifText, .whatifJSON,
             .triageText, .triageJSON, .triageRows, .triageTags, .rulesText, .rulesJSON,
             .checkText, .infoText, .infoJSON, .verifyText, .verifyJSON,
             .importLogText, .redactText, .reduceText: nil
        }
    }

    /// The renderer of a what-if in `format`.
    package static func whatif(_ format: ReportFormat) -> (any Renderer<WhatIfResult>)? {
        switch format {
        case .whatifText: DocumentRenderer(format) { WhatIfText.render($0) }
        case .whatifJSON: DocumentRenderer(format) { WhatIfJSON.render($0) + "\n" }
        case .explainText, .explainJSON, .html, .chrome, .timelineText, .timelineJSON, .junit, .checkJSON, .diffText, .diffJSON,
             .triageText, .triageJSON, .triageRows, .triageTags, .rulesText, .rulesJSON,
             .checkText, .infoText, .infoJSON, .verifyText, .verifyJSON,
             .importLogText, .redactText, .reduceText: nil
        }
    }

    /// The renderer of a triage summary in `format`.
    package static func triageSummary(_ format: ReportFormat) -> (any Renderer<TriageReport>)? {
        switch format {
        case .triageText: DocumentRenderer(format) { TriageSummaryReport.render($0.summary, thresholds: $0.thresholds, changes: $0.changes, all: $0.all) }
        case .triageJSON: DocumentRenderer(format) { TriageSummaryReport.json($0.summary, thresholds: $0.thresholds, written: $0.written, changes: $0.changes) + "\n" }
        case .explainText, .explainJSON, .html, .chrome, .timelineText, .timelineJSON, .junit, .checkJSON, .diffText, .diffJSON,
             .whatifText, .whatifJSON, .triageRows, .triageTags, .rulesText, .rulesJSON,
             .checkText, .infoText, .infoJSON, .verifyText, .verifyJSON,
             .importLogText, .redactText, .reduceText: nil
        }
    }

    /// The renderer of a triage row in `format`.
    package static func triageRow(_ format: ReportFormat) -> (any Renderer<TriageRow> & Sendable)? {
        switch format {
        case .triageRows: DocumentRenderer(format) { TriageRowJSON.render($0) }
        case .explainText, .explainJSON, .html, .chrome, .timelineText, .timelineJSON, .junit, .checkJSON, .diffText, .diffJSON,
             .whatifText, .whatifJSON, .triageText, .triageJSON, .triageTags, .rulesText, .rulesJSON,
             .checkText, .infoText, .infoJSON, .verifyText, .verifyJSON,
             .importLogText, .redactText, .reduceText: nil
        }
    }

    /// The renderer of the triage tags in `format`.
    package static func triageTags(_ format: ReportFormat) -> (any Renderer<Void>)? {
        switch format {
        case .triageTags: DocumentRenderer(format) { TriageSummaryReport.tagList() }
        case .explainText, .explainJSON, .html, .chrome, .timelineText, .timelineJSON, .junit, .checkJSON, .diffText, .diffJSON,
             .whatifText, .whatifJSON, .triageText, .triageJSON, .triageRows, .rulesText, .rulesJSON,
             .checkText, .infoText, .infoJSON, .verifyText, .verifyJSON,
             .importLogText, .redactText, .reduceText: nil
        }
    }

    /// The renderer of the catalogue (or one entry) in `format`.
    package static func catalogue(_ format: ReportFormat) -> (any Renderer<RulesReport.Entry?>)? {
        switch format {
        case .rulesText: DocumentRenderer(format) { $0.map(RulesReport.explain) ?? RulesReport.list() }
        case .rulesJSON: DocumentRenderer(format) { RulesReport.json($0) }
        case .explainText, .explainJSON, .html, .chrome, .timelineText, .timelineJSON, .junit, .checkJSON, .diffText, .diffJSON,
             .whatifText, .whatifJSON, .triageText, .triageJSON, .triageRows, .triageTags,
             .checkText, .infoText, .infoJSON, .verifyText, .verifyJSON,
             .importLogText, .redactText, .reduceText: nil
        }
    }

    /// The renderer of trace summaries (`info`, a part at a time) in `format`.
    package static func traceSummary(_ format: ReportFormat) -> (any ItemRenderer<TraceSummary>)? {
        switch format {
        case .infoText: InfoTextRenderer()
        case .infoJSON: InfoJSONRenderer()
        case .explainText, .explainJSON, .html, .chrome, .timelineText, .timelineJSON, .junit, .checkJSON, .diffText, .diffJSON,
             .whatifText, .whatifJSON, .triageText, .triageJSON, .triageRows, .triageTags, .rulesText, .rulesJSON, .checkText,
             .verifyText, .verifyJSON,
             .importLogText, .redactText, .reduceText: nil
        }
    }

    /// The renderer of `verify`'s verdicts (one at a time, as each is known) in `format`.
    package static func verification(_ format: ReportFormat) -> (any ItemRenderer<Verification>)? {
        switch format {
        case .verifyText: VerifyTextRenderer()
        case .verifyJSON: VerifyJSONRenderer()
        case .explainText, .explainJSON, .html, .chrome, .timelineText, .timelineJSON, .junit, .checkJSON, .diffText, .diffJSON,
             .whatifText, .whatifJSON, .triageText, .triageJSON, .triageRows, .triageTags, .rulesText, .rulesJSON, .checkText,
             .infoText, .infoJSON,
             .importLogText, .redactText, .reduceText: nil
        }
    }

    /// The renderer of `import-log`'s report in `format`.
    package static func importLog(_ format: ReportFormat) -> (any Renderer<ImportLogReport>)? {
        switch format {
        case .importLogText: DocumentRenderer(format) { ImportLogText.render($0) }
        case .explainText, .explainJSON, .html, .chrome, .timelineText, .timelineJSON, .junit, .checkJSON, .diffText, .diffJSON,
             .whatifText, .whatifJSON, .triageText, .triageJSON, .triageRows, .triageTags, .rulesText, .rulesJSON, .checkText,
             .infoText, .infoJSON, .verifyText, .verifyJSON, .redactText, .reduceText: nil
        }
    }

    /// The renderer of `redact`'s report in `format`.
    package static func redaction(_ format: ReportFormat) -> (any Renderer<RedactReport>)? {
        switch format {
        case .redactText: DocumentRenderer(format) { RedactText.render($0) }
        case .explainText, .explainJSON, .html, .chrome, .timelineText, .timelineJSON, .junit, .checkJSON, .diffText, .diffJSON,
             .whatifText, .whatifJSON, .triageText, .triageJSON, .triageRows, .triageTags, .rulesText, .rulesJSON, .checkText,
             .infoText, .infoJSON, .verifyText, .verifyJSON, .importLogText, .reduceText: nil
        }
    }

    /// The renderer of `reduce`'s report in `format`.
    package static func reduction(_ format: ReportFormat) -> (any Renderer<ReduceReport>)? {
        switch format {
        case .reduceText: DocumentRenderer(format) { ReduceText.render($0) }
        case .explainText, .explainJSON, .html, .chrome, .timelineText, .timelineJSON, .junit, .checkJSON, .diffText, .diffJSON,
             .whatifText, .whatifJSON, .triageText, .triageJSON, .triageRows, .triageTags, .rulesText, .rulesJSON, .checkText,
             .infoText, .infoJSON, .verifyText, .verifyJSON, .importLogText, .redactText: nil
        }
    }
}
