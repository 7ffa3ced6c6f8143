import Analysis
import TraceModel

/// What `reduce`'s report takes: the trace written and what the reduction kept.
package struct ReduceReport {
    /// The reduced trace written.
    package var written: String
    /// What the reduction kept, and how many replays it took.
    package var result: ReduceResult
    /// The report of one reduction.
    package init(written: String, result: ReduceResult) {
        self.written = written
        self.result = result
    }
}

/// `reduce`'s report as text: the records kept of the original's, the problem they still show, the replays.
package enum ReduceText {
    /// The report's two lines.
    package static func render(_ r: ReduceReport) -> String {
        let kept = r.result.keptRecords
        return ReduceWords.wrote(terminalSafe(r.written), records: kept, pins: r.result.records.count - kept - 1, of: r.result.originalRecords) + "\n"
            + "keeps \(terminalSafe(r.result.problem)); \(r.result.replays) replays\n"
    }
}
