import Contract

/// What triage says about its rows, its thresholds and its what-if: the rows file's errors, a row's
/// signature, why a trace could not be explained.
enum TriageRowWords {
    // MARK: A row read back from its JSON

    /// A line that is not a JSON object.
    static let notAnObject = "not a JSON object"
    /// A key that holds neither a string nor null.
    static let expectedStringOrNull = "expected a string or null"
    /// A key that holds no count.
    static let expectedNonNegativeCount = "expected a count (an integer ≥ 0)"
    /// A key that holds no array of strings.
    static let expectedStrings = "expected an array of strings"
    /// A line whose schema is not triage's.
    static let notATriageRow = "not a triage row (schema rtctrace.triage/N)"
    /// A layer name triage does not know.
    static func notALayer(_ name: String) -> String { "'\(name)' is not a layer (srtc, smeeting)" }
    /// A key that holds neither a boolean nor null.
    static let expectedBooleanOrNull = "expected a boolean or null"
    /// A per-kind or per-code figure that is not a count.
    static let expectedCount = "expected a count"
    /// A finding code this build does not know.
    static func unknownFindingCode(_ code: String) -> String { "unknown finding code '\(code)' (rows of a newer rtctrace?)" }
    /// A tag this build does not know.
    static func unknownTag(_ tag: String) -> String { "unknown tag '\(tag)' (rows of a newer rtctrace?)" }

    // MARK: Rows files

    /// A trace that two rows describe.
    static func rowAlreadyRead(file: String, line: Int, path: String) -> String {
        "\(file): line \(line): the trace \(path) has a row already (a rows file given twice, "
            + "or the rows of two runs over the same traces?)"
    }
    /// A line of a rows file that is not a row.
    static func lineIsNoRow(file: String, line: Int, error: any Error) -> String {
        "\(file): line \(line): not a triage row: \(error)"
    }
    /// A rows file that could not be read to its end.
    static func rowsFileUnreadable(_ reason: String) -> String { "\(reason) (a rows file must be read whole)" }

    // MARK: A row

    /// Why a trace none of whose parts opened could not be explained, when no reading error says it.
    static let couldNotBeOpened = "it could not be opened"
    /// What a signature adds for a damaged or partial trace.
    static let compromisedSuffix = " (damaged or partial)"
    /// A what-if whose advice has no place in the trace.
    static let adviceCannotBePlaced = "the advice cannot be placed in this trace"

    // MARK: Thresholds

    /// An expression without `>`.
    static func notAThreshold(_ expression: String) -> String {
        "'\(expression)' is not a threshold: write TAG>N or TAG>P% (e.g. unexplained-divergence>0 or interruption-not-recovered>2%)"
    }
    /// A threshold on a tag that does not exist.
    static func unknownThresholdTag(_ expression: String, tag: String) -> String {
        "'\(expression)': unknown tag '\(tag)'; the tags are: " + TriageTag.allCases.map(\.rawValue).joined(separator: ", ")
    }
    /// A share outside 0–100 %.
    static func notAPercentage(_ expression: String, value: String) -> String {
        "'\(expression)': '\(value)%' is not a percentage from 0 to 100"
    }
    /// A limit that is no count of traces.
    static func notATraceCount(_ expression: String, value: String) -> String {
        "'\(expression)': '\(value)' is not a count of traces (an integer ≥ 0; add % for a share)"
    }
}
