import Analysis
import Replay

/// A report format: one value in, the bytes of the report out. Every format (text, JSON, HTML, JUnit,
/// Chrome, the timeline, triage, the catalogue) is one type behind this protocol, answering to one
/// `ReportFormat`; none reads another's output. Commands get theirs from `Renderers` by format.
package protocol Renderer<Input> {
    /// What the format renders (the format's `ReportInput`): a replay, check outcomes, a diff, …
    associatedtype Input
    /// The format it renders.
    var format: ReportFormat { get }
    /// What observes the replay as it runs, nil for a renderer that needs only its input (as SwiftLint's
    /// reporters say `isRealtime`): the replay calls it with every step, so the renderer draws lanes from
    /// the steps as they happen, or writes each step out as it comes (the timeline, a live follow).
    var replayObserver: ((ReplayStep) -> Void)? { get }
    /// The report, complete (deterministic: the same input gives the same bytes).
    func render(_ input: Input) -> String
    /// Hands the report to `sink` in chunks (a format that streams never holds it whole) and says what
    /// was written.
    func write(_ input: Input, to sink: (UnsafeRawBufferPointer) throws -> Void) throws -> RenderedReport
}

extension Renderer {
    /// Whether it observes the replay as it runs.
    package var observesReplay: Bool { replayObserver != nil }
    /// None: it renders from its input alone.
    package var replayObserver: ((ReplayStep) -> Void)? { nil }

    /// The rendered report in one chunk.
    package func write(_ input: Input, to sink: (UnsafeRawBufferPointer) throws -> Void) throws -> RenderedReport {
        var text = render(input)
        let bytes = text.utf8.count
        try text.withUTF8 { try sink(UnsafeRawBufferPointer($0)) }
        return RenderedReport(bytes: bytes)
    }
}

/// A renderer of a list whose report is written an item at a time, as each item is known, then closed (as
/// SwiftLint's reporters write each violation as it is found): `check`'s PASS and FAIL lines, `verify`'s
/// verdict per trace, `info`'s summary per part. Its report whole is the items' parts and the closing part.
package protocol ItemRenderer<Item>: Renderer where Input == [Item] {
    /// What the list holds.
    associatedtype Item
    /// The report's part for the item at `index` of the list, written as soon as the item is known.
    func item(_ item: Item, at index: Int) -> String
    /// What follows the items (a count), "" for none.
    func closing(_ items: [Item]) -> String
}

extension ItemRenderer {
    /// The items' parts in order, then the closing part.
    package func render(_ items: [Item]) -> String {
        items.enumerated().map { item($0.element, at: $0.offset) }.joined() + closing(items)
    }

    /// Nothing follows the items.
    package func closing(_ items: [Item]) -> String { "" }
}

/// What writing a report did: its size, and what the reader should be told about it (what a budget or
/// a cap left out), one line each.
package struct RenderedReport: Sendable {
    /// Bytes written.
    package var bytes: Int
    /// Notes for standard error.
    package var notes: [String] = []
}

/// What the renderers of a replay take: its result and, when asked (`--verify-advice`), each item's
/// advice checked by replay.
package struct ReplayReport {
    /// The replay's result.
    package var result: ReplayResult
    /// The advice checked, nil when not asked.
    package var checks: [AdviceCheck]?
    /// The report of `result`, with `checks` when given.
    package init(_ result: ReplayResult, checks: [AdviceCheck]? = nil) {
        self.result = result
        self.checks = checks
    }
}

/// What the triage summary's renderers take: the summary, the thresholds it is held to, what changed since
/// a baseline, the rows file written, and whether to list everything.
package struct TriageReport {
    /// The fleet's summary.
    package var summary: TriageSummary
    /// The `--fail-on` thresholds.
    package var thresholds: [TriageThreshold]
    /// What is new and what is gone since the baseline, nil without one.
    package var changes: TriageChanges?
    /// The rows file written (the JSON says where), nil when the rows went to standard output.
    package var written: TriageSummaryReport.Written?
    /// Everything in the text, not a screenful of each list.
    package var all: Bool
    /// The report of `summary`.
    package init(_ summary: TriageSummary, thresholds: [TriageThreshold] = [], changes: TriageChanges? = nil,
                 written: TriageSummaryReport.Written? = nil, all: Bool = false) {
        self.summary = summary
        self.thresholds = thresholds
        self.changes = changes
        self.written = written
        self.all = all
    }
}
