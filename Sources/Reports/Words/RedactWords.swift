// The words of `redact`'s report. Each sentence once.

enum RedactWords {
    static func filePerPart(ofSession session: String) -> String { ", one redacted file per part of session \(session)" }
    static let noPersonalFields = "no personal fields found"
    static func replayUnchanged(verdicts: Int, divergences: Int, findings: Int) -> String {
        "replay unchanged: \(verdicts) verdicts, \(divergences) divergences, \(findings) findings"
    }
}
