import Contract
import QualityEngine
import RouteEngine
import TraceModel

/// The outcome of one `expect.*` record.
public struct ExpectationResult: Equatable, Sendable {
    /// The expect record's seq.
    public var seq: Int
    /// Its type, e.g. `expect.route`.
    public var type: String
    /// The rule it pins.
    public var rule: RuleID?
    /// Whether it held.
    public var passed: Bool
    /// What it expected, as text.
    public var expected: String
    /// What the engines had, as text.
    public var actual: String
}
