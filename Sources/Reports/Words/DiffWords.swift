// The words of `diff`: the first difference and every one after. Each sentence once.

enum DiffWords {
    static let noteTheTracesComeFromDifferent = "note: the traces come from different layers; the words below are A's\n"
    static func recordsPairedByTypeAndIdentifying(_ a: Int) -> String { "\(a) records paired by type and identifying fields" }
    static func ofThemCallMadeWithOther(_ a: Int, _ b: String) -> String { " (\(a) of them call\(b) made with other arguments)" }
    static func onlyInAOnlyInB(_ a: Int, _ b: Int) -> String { "; \(a) only in A, \(b) only in B; " }
    static func stretchesOfOrLessDoNot(_ a: String) -> String { "stretches of \(a) or less do not count\n" }
    static func bRunsATheMedianOver(_ a: String, _ b: String, _ c: String) -> String { "B runs \(a)\(b) \(c) A (the median over the first paired records); " }
    static let timesBelowAreASB = "times below are A's, B's compared after the shift\n"
    static let theTracesBehaveTheSameEvery = "The traces behave the same: every paired call got the same verdict, and the routes, divergences, findings and quality levels agree.\n"
    static func theBehaviourDiffersDifference(_ a: Int, _ b: String) -> String { "The behaviour differs: \(a) difference\(b).\n\n" }
    static func firstDifferenceAt(_ a: String) -> String { "First difference at \(a): " }
    static let everyDifferenceInTimeOrder = "\nEvery difference, in time order\n"
    static func theCallWasMadeWithOther(_ a: String) -> String { "the call \(a) was made with other arguments" }
    static let oneTraceGoesOnAfterThe = "one trace goes on after the other ends"
    static func bSClockMovesAgainstA(_ a: String, _ b: String) -> String { "B's clock moves against A's: \(a) from here on (\(b) before); later times are compared after the move" }
    static func theVerdictOn(_ a: String) -> String { "the verdict on \(a)" }
    static func whatBecameOf(_ a: String) -> String { "what became of \(a)" }
    static let thePredictedRoute = "the predicted route"
    static let theRouteTheDevicePlayed = "the route the device played"
    static let aRouteDivergence = "a route divergence"
    static let theQualityLevel = "the quality level"
    static let toTheEnd = ", to the end"
    static let noSuchCall = "no such call"
    static func recordsOnlyIn(_ a: String, _ b: Int) -> String { "\nRecords only in \(a) (\(b))\n" }
    static func sRecordsFromToAreMissing(_ a: String, _ b: String, _ c: String, _ d: String, _ e: String) -> String { " (\(a)'s records from \(b) to \(c) are missing, \(d): \(e))" }
}
