// The words `explain` lays out around the explanation: headings and notes. Each sentence once.

enum ExplainWords {
    static let callsThatDidNotTakeEffect = "Calls that did not take effect"
    static let callsThatTookEffectLate = "Calls that took effect late"
    static let routeDivergencesUnexplainedFirst = "Route divergences (unexplained first)"
    static func moreInSummary(_ a: Int) -> String { "  … \(a) more (counted in the summary)\n" }
    static let findingsMostSevereFirstRepeatsGrouped = "Findings (most severe first; repeats grouped)"
    static let fromTheSystemLogENamed = "From the system log (E1: named here, judged by the trace alone)"
    static let fromTheSystemLog = "\n      from the system log: "
    static func interruptionWithoutCause(_ a: String, _ b: Int) -> String { "interruption at \(a) (seq \(b)), recorded with no known cause" }
    static func tooLargeToDiff(_ a: String, _ b: String, _ c: Int, _ d: Int) -> String { "--- \(a)\n+++ \(b)\n(too large to diff: \(c) vs \(d) lines)\n" }
}
