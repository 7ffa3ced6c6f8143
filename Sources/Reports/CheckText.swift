import Analysis
import TraceModel

/// `check` as text: a line per trace (`PASS FILE (N expectations, snapshot)`, or `FAIL FILE` and a line
/// per failure), then the counts.
package enum CheckText {
    /// The lines of one trace's outcome; nothing for a pass when `quiet`.
    package static func outcome(_ o: CheckOutcome, quiet: Bool) -> String {
        let more = o.parts.count > 1 ? CheckWords.otherParts(o.parts.count - 1) : ""
        if o.passed {
            return quiet ? "" : "PASS \(terminalSafe(o.file))\(more) (\(o.expectations) expectations\(o.snapshot == .matched ? ", snapshot" : ""))\n"
        }
        return "FAIL \(terminalSafe(o.file))\(more)\n" + o.failures.map { terminalSafe($0) + "\n" }.joined()
    }

    /// The closing line: traces passed and failed.
    package static func counts(_ outcomes: [CheckOutcome]) -> String {
        let passed = outcomes.filter(\.passed).count
        return "\(passed) passed, \(outcomes.count - passed) failed\n"
    }
}
