import Analysis
import Replay
import TraceModel

/// What `redact`'s report takes: the files written, the session they are parts of, what was replaced, and
/// the redacted trace's replay when it concludes what the original did.
package struct RedactReport {
    /// The redacted files, one per part unless merged.
    package var written: [String]
    /// The session the parts are of (named when there are several files).
    package var session: String?
    /// What the redaction replaced.
    package var redaction: RedactionReport
    /// The redacted trace's replay, nil when it replays differently (the command then fails saying how).
    package var unchanged: ReplayResult?
    /// The report of one redaction.
    package init(written: [String], session: String?, redaction: RedactionReport, unchanged: ReplayResult?) {
        self.written = written
        self.session = session
        self.redaction = redaction
        self.unchanged = unchanged
    }
}

/// `redact`'s report as text: the files written, the records and the fields replaced by kind, and that the
/// replay concludes the same.
package enum RedactText {
    /// The report's lines.
    package static func render(_ r: RedactReport) -> String {
        var o = r.written.map { "wrote \(terminalSafe($0))\n" }.joined()
        o += "\(r.redaction.records) records" + (r.written.count > 1 ? RedactWords.filePerPart(ofSession: terminalSafe(r.session ?? "?")) : "") + "\n"
        if r.redaction.changed.isEmpty { o += RedactWords.noPersonalFields + "\n" }
        for c in r.redaction.changed { o += "  \(c.kind): \(c.count) field\(c.count == 1 ? "" : "s") replaced\n" }
        if let after = r.unchanged {
            o += RedactWords.replayUnchanged(verdicts: after.verdicts.count, divergences: after.divergenceCount, findings: after.findings.count) + "\n"
        }
        return o
    }
}
