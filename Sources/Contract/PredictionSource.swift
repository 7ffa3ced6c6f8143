import TraceModel

/// Why the predicted route of a divergence was what it was (contract X4): the branch of R8 as a rule
/// id and the record behind it.
package struct PredictionSource: Equatable, Sendable {
    /// The branch of R8: `R4`, `R6`, `R7`, `R10`, `R11` or `R2`.
    package var rule: RuleID
    /// The record behind the branch (nil: none, e.g. R6 or the built-in default).
    package var seq: Int?
    /// The engagement or recovery record that applied a deferred call, when the call was deferred.
    package var appliedBy: Int?

    /// Creates a prediction source.
    package init(rule: RuleID, seq: Int?, appliedBy: Int? = nil) {
        self.rule = rule
        self.seq = seq
        self.appliedBy = appliedBy
    }
}
