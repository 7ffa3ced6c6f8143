/// The report formats, one case each, named by the identifier the command line and the registry
/// (`Renderers`) know it by; `info` is the one table of what each format is.
package enum ReportFormat: String, CaseIterable, Sendable {
    case explainText = "explain-text"
    case explainJSON = "explain-json"
    case html
    case chrome
    case timelineText = "timeline-text"
    case timelineJSON = "timeline-json"
    case checkText = "check-text"
    case junit
    case checkJSON = "check-json"
    case diffText = "diff-text"
    case diffJSON = "diff-json"
    case whatifText = "whatif-text"
    case whatifJSON = "whatif-json"
    case triageText = "triage-text"
    case triageJSON = "triage-json"
    case triageRows = "triage-rows"
    case triageTags = "triage-tags"
    case rulesText = "rules-text"
    case rulesJSON = "rules-json"
    case infoText = "info-text"
    case infoJSON = "info-json"
    case verifyText = "verify-text"
    case verifyJSON = "verify-json"
    case importLogText = "import-log-text"
    case redactText = "redact-text"
    case reduceText = "reduce-text"

    /// What a format is: one row of the table.
    package struct Info: Sendable {
        /// The media type of the output.
        package let mediaType: String
        /// The file name ending a file of this format is given.
        package let fileExtension: String
        /// What it renders (the renderer's input).
        package let input: ReportInput
        /// The command that writes it.
        package let command: String
        /// The option of that command that picks this format, nil for the command's default output.
        package let option: String?
    }

    /// The format's row.
    package var info: Info {
        switch self {
        case .explainText: Info(mediaType: Self.text, fileExtension: "txt", input: .replay, command: "explain", option: nil)
        case .explainJSON: Info(mediaType: Self.json, fileExtension: "json", input: .replay, command: "explain", option: "--json")
        case .html: Info(mediaType: "text/html; charset=utf-8", fileExtension: "html", input: .replay, command: "report", option: nil)
        case .chrome: Info(mediaType: Self.json, fileExtension: "json", input: .replay, command: "export", option: "--format")
        case .timelineText: Info(mediaType: Self.text, fileExtension: "txt", input: .replay, command: "replay", option: nil)
        case .timelineJSON: Info(mediaType: Self.jsonLines, fileExtension: "jsonl", input: .replay, command: "replay", option: "--json")
        case .checkText: Info(mediaType: Self.text, fileExtension: "txt", input: .checkOutcomes, command: "check", option: nil)
        case .junit: Info(mediaType: "application/xml", fileExtension: "xml", input: .checkOutcomes, command: "check", option: "--junit")
        case .checkJSON: Info(mediaType: Self.json, fileExtension: "json", input: .checkOutcomes, command: "check", option: "--json")
        case .diffText: Info(mediaType: Self.text, fileExtension: "txt", input: .diff, command: "diff", option: nil)
        case .diffJSON: Info(mediaType: Self.json, fileExtension: "json", input: .diff, command: "diff", option: "--json")
        case .whatifText: Info(mediaType: Self.text, fileExtension: "txt", input: .whatif, command: "whatif", option: nil)
        case .whatifJSON: Info(mediaType: Self.json, fileExtension: "json", input: .whatif, command: "whatif", option: "--json")
        case .triageText: Info(mediaType: Self.text, fileExtension: "txt", input: .triageSummary, command: "triage", option: "--summary")
        case .triageJSON: Info(mediaType: Self.json, fileExtension: "json", input: .triageSummary, command: "triage", option: "--json")
        case .triageRows: Info(mediaType: Self.jsonLines, fileExtension: "jsonl", input: .triageRow, command: "triage", option: nil)
        case .triageTags: Info(mediaType: Self.text, fileExtension: "txt", input: .triageTags, command: "triage", option: "--list-tags")
        case .rulesText: Info(mediaType: Self.text, fileExtension: "txt", input: .catalogue, command: "rules", option: nil)
        case .rulesJSON: Info(mediaType: Self.json, fileExtension: "json", input: .catalogue, command: "rules", option: "--json")
        case .infoText: Info(mediaType: Self.text, fileExtension: "txt", input: .traceSummary, command: "info", option: nil)
        case .infoJSON: Info(mediaType: Self.jsonLines, fileExtension: "jsonl", input: .traceSummary, command: "info", option: "--json")
        case .verifyText: Info(mediaType: Self.text, fileExtension: "txt", input: .verification, command: "verify", option: nil)
        case .verifyJSON: Info(mediaType: Self.jsonLines, fileExtension: "jsonl", input: .verification, command: "verify", option: "--json")
        case .importLogText: Info(mediaType: Self.text, fileExtension: "txt", input: .importLog, command: "import-log", option: nil)
        case .redactText: Info(mediaType: Self.text, fileExtension: "txt", input: .redaction, command: "redact", option: nil)
        case .reduceText: Info(mediaType: Self.text, fileExtension: "txt", input: .reduction, command: "reduce", option: nil)
        }
    }

    /// The media type of the output.
    package var mediaType: String { info.mediaType }
    /// The file name ending a file of this format is given.
    package var fileExtension: String { info.fileExtension }

    private static let text = "text/plain; charset=utf-8", json = "application/json", jsonLines = "application/jsonl"

    /// The formats a command writes, in the table's order.
    package static func written(by command: String) -> [ReportFormat] { allCases.filter { $0.info.command == command } }
}

/// What a format renders: one kind of input each, with its own lookup in `Renderers`.
package enum ReportInput: Sendable {
    /// A replay's result (and the advice checked by replay when asked): `ReplayReport`.
    case replay
    /// The outcomes of the golden check: `[CheckOutcome]`.
    case checkOutcomes
    /// The difference of two traces: `TraceDiff`.
    case diff
    /// A replay with edits against the original: `WhatIfResult`.
    case whatif
    /// A fleet's summary with its thresholds and changes: `TriageReport`.
    case triageSummary
    /// One trace's triage row: `TriageRow`.
    case triageRow
    /// The triage tags with what each means (no input).
    case triageTags
    /// The contract's catalogue, or one entry of it: `RulesReport.Entry?`.
    case catalogue
    /// Traces read whole without a replay (`info`, a part at a time): `[TraceSummary]`.
    case traceSummary
    /// What `verify` found of each trace, bundle and session it checked: `[Verification]`.
    case verification
    /// What `import-log` read and made of a device's log: `ImportLogReport`.
    case importLog
    /// What `redact` wrote and replaced: `RedactReport`.
    case redaction
    /// What `reduce` kept: `ReduceReport`.
    case reduction
}
