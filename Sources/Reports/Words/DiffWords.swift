// The words of `diff`: the first difference and every one after. Each sentence once.

enum DiffWords {
    static let noteTheTracesComeFromDifferent = "note: the traces come from different layers; the words below are A's\n"
    static func pairedRecords(_ a: Int) -> String { "\(a) records paired by type and identifying fields" }
    static func changedCalls(_ n: Int) -> String { " (\(n) of them call\(n == 1 ? "" : "s") made with other arguments)" }
    static func unpairedCounts(_ a: Int, _ b: Int) -> String { "; \(a) only in A, \(b) only in B; " }
    static func toleranceNote(_ a: String) -> String { "stretches of \(a) or less do not count\n" }
    static func clockOffset(_ a: String, _ b: String, _ c: String) -> String { "B runs \(a)\(b) \(c) A (the median over the first paired records); " }
    static let timesBelowAreASB = "times below are A's, B's compared after the shift\n"
    static let theTracesBehaveTheSameEvery = "The traces behave the same: every paired call got the same verdict, and the routes, divergences, findings and quality levels agree.\n"
    static func differenceCount(_ n: Int) -> String { "The behaviour differs: \(n) difference\(n == 1 ? "" : "s").\n\n" }
    static func firstDifference(_ a: String) -> String { "First difference at \(a): " }
    static let everyDifferenceInTimeOrder = "\nEvery difference, in time order\n"
    static func callArgumentsChanged(_ a: String) -> String { "the call \(a) was made with other arguments" }
    static let oneTraceGoesOnAfterThe = "one trace goes on after the other ends"
    static func clockStep(_ a: String, _ b: String) -> String { "B's clock moves against A's: \(a) from here on (\(b) before); later times are compared after the move" }
    static func verdictOf(_ a: String) -> String { "the verdict on \(a)" }
    static func outcomeOf(_ a: String) -> String { "what became of \(a)" }
    static let thePredictedRoute = "the predicted route"
    static let theRouteTheDevicePlayed = "the route the device played"
    static let aRouteDivergence = "a route divergence"
    static let theQualityLevel = "the quality level"
    static let toTheEnd = ", to the end"
    static let noSuchCall = "no such call"
    static func unpairedHeading(_ a: String, _ b: Int) -> String { "\nRecords only in \(a) (\(b))\n" }
    static func missingStretch(_ a: String, _ b: String, _ c: String, _ d: String, _ e: String) -> String { " (\(a)'s records from \(b) to \(c) are missing, \(d): \(e))" }
}
