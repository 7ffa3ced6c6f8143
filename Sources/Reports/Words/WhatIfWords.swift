// The words of `whatif`: what the contract predicts the edits change. Each sentence once.

enum WhatIfWords {
    static let changesNoRecord = "  (changes no record)"
    static let theEditsChangeNoRecordThe = "The edits change no record: the contract predicts exactly what the original replay says.\n\n"
    static func historyEnds(_ a: String) -> String { "From \(a) on, what the device and the SDK recorded is what happened without the change, so divergences " }
    static let andFindingsRaisedByRouteReadings = "and findings raised by route readings and SDK callbacks are left out on both sides.\n\n"
    static let theContractPredictsThatWithThis = "The contract predicts that, with this change, no call that did not take effect takes effect, and no finding above info goes or comes.\n"
    static let predictionLead = "The contract predicts that, with this change, "
    static let theChangeHelpsAProblemIs = "The change helps: a problem is gone and none is added.\n"
    static let theChangeDoesNotHelpNo = "The change does not help: no problem of the original is gone.\n"
    static func addedProblems(_ n: Int) -> String { "The change adds \(n) problem\(n == 1 ? "" : "s").\n" }
    static func findingGone(_ a: String, _ b: String, _ c: String) -> String { "finding \(a) (\(b), \(c)) is no longer raised." }
    static func callStillIneffective(_ a: String, _ b: String, _ c: String, _ d: String) -> String { "the call \(a) (\(b)) does not take effect: \(c) → \(d)." }
    static let noSuchCall = "no such call"
}
