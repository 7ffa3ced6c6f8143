// The words of triage's summary: counts, breakdowns, regressions, the tags. Each sentence once.

enum TriageWords {
    static let regressionsWithinEachProductAVersion = "\nRegressions within each product (a version against the previous one, the oldest against the later ones, "
    static func aDeviceModelAgainstTheRest(_ a: String) -> String { "a device model against the rest of its product; two-proportion test, Bonferroni over \(a): " }
    static func pRegressionsFirstThenOldVersions(_ a: String) -> String { "p < \(a); regressions first, then old versions, then device models, most traces added first; " }
    static func eachWithTheDuckdbQueryThat(_ a: String) -> String { "each with the DuckDB query that counts it in \(a))\n" }
    static let noneNoShareDiffersByMore = "  none: no share differs by more than chance\n"
    static func oneContentClusterDrivesOfThe(_ a: String, _ b: Int, _ c: Int) -> String { "one content cluster drives \(a): \(b) of the \(c) traces with " }
    static func theOldestIosVersionWith(_ a: String, _ b: String) -> String { "\(a), the oldest iOS version with \(b)" }
    static func theLaterVersion(_ a: String) -> String { "the later version\(a) (" }
    static func theRestOf(_ a: String) -> String { "the rest of \(a)" }
    static func fisherSExactTestP(_ a: String) -> String { "Fisher's exact test, p = \(a)" }
    static func sinceTheBaselineReadableTheSame(_ a: String, _ b: Int) -> String { "\nSince the baseline (\(a), \(b) readable; the same test within each product, " }
    static let nothingNewNothingGoneNoShare = "  nothing new, nothing gone: no share differs by more than chance, the same finding codes, no new escalations\n"
    static func noneInTheBaseline(_ a: String) -> String { "\(a), none in the baseline\n" }
    static func noneInTheBaseline2(_ a: String) -> String { "none, \(a) in the baseline\n" }
    static let newEscalationsBySdkVersionTraces = "  New escalations by SDK version (traces with an unexplained divergence beyond the baseline's share)\n"
    static let theSameVersion = "the same version"
    static func newSinceTheBaseline(_ a: String) -> String { "\(a) (new since the baseline)" }
    static func notATraceUnreadable(_ a: Int, _ b: Int) -> String { ", \(a) not a trace, \(b) unreadable" }
    static func skippedInTheFoldersGivenNo(_ a: String) -> String { "Skipped \(a) in the folders given (no row): " }
    static let noTagsNothingIsWrongIn = "\nNo tags: nothing is wrong in any trace.\n"
    static let topTagsTracesShareOfThe = "\nTop tags (traces, share of the readable traces; of all inputs for "
    static let bySdkVersion = "By SDK version"
    static let byIosVersion = "By iOS version"
    static let byDeviceModel = "By device model"
    static let openFirstOneTracePerDistinct = "\nOpen first (one trace per distinct problem: unexplained divergences, then errors; most traces first; damaged and partial traces last)\n"
    static let damagedOrPartial = " (damaged or partial)"
    static func firstOfPartsOfASession(_ a: Int) -> String { " (first of \(a) parts of a session; the command replays them all)\n" }
    static func ofFurtherSignaturesCountedOnly(_ a: String) -> String { "\(a) of further signatures counted only" }
    static func whoseNameNotATraceS(_ a: Int, _ b: String) -> String { "\(a) whose name\(b) not a trace's (" }
    static func neverOpenedReadingOneBlocks(_ a: String) -> String { "\(a) (never opened: reading one blocks)" }
    static func readsNotTestedForAGrouping(_ a: String) -> String { " [reads \(a): not tested for a grouping that stands for it]" }
    static func readableTracesTopTagsWithTheir(_ a: String) -> String { "\n\(a) (readable traces; top tags with their share)\n" }
    static func withTheWhatifEditsWhatThe(_ a: Int, _ b: Int) -> String { "\nWith the --whatif edits (what the contract predicts; \(a) of \(b) traces improve" }
    static func whereTheEditsCouldNotBe(_ a: Int) -> String { ", \(a) where the edits could not be placed)\n" }
    static let noTagIsClearedFromAny = "  no tag is cleared from any trace\n"
    static let bySdkVersion2 = "  by SDK version: "
    static func theOldestVersion(_ a: String, _ b: String) -> String { "\(a), the oldest \(b) version" }
    static func deviceModelWith(_ a: String, _ b: String) -> String { "device model \(a) with \(b)" }
}
