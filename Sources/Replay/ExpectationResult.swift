import Contract
import QualityEngine
import RouteEngine
import TraceModel

/// The outcome of one `expect.*` record.
package struct ExpectationResult: Equatable, Sendable {
    /// The expect record's seq.
    package var seq: Int
    /// Its type, e.g. `expect.route`.
    package var type: String
    /// The rule it pins.
    package var rule: RuleID?
    /// Whether it held.
    package var passed: Bool
    /// What it expected, as text.
    package var expected: String
    /// What the engines had, as text.
    package var actual: String
}
