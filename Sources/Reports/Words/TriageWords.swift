// The words of triage's summary: counts, breakdowns, regressions, the tags. Each sentence once.

enum TriageWords {
    static let regressionsWithinEachProductAVersion = "\nRegressions within each product (a version against the previous one, the oldest against the later ones, "
    static func deviceModelTestMethod(_ a: String) -> String { "a device model against the rest of its product; two-proportion test, Bonferroni over \(a): " }
    static func significanceAndOrder(_ a: String) -> String { "p < \(a); regressions first, then old versions, then device models, most traces added first; " }
    static func queryNote(_ a: String) -> String { "each with the DuckDB query that counts it in \(a))\n" }
    static let noneNoShareDiffersByMore = "  none: no share differs by more than chance\n"
    static func clusterDrives(_ a: String, _ b: Int, _ c: Int) -> String { "one content cluster drives \(a): \(b) of the \(c) traces with " }
    static func oldestIOSVersion(_ a: String, _ b: String) -> String { "\(a), the oldest iOS version with \(b)" }
    static func laterVersions(_ count: Int) -> String { "the later version\(count == 1 ? "" : "s") (" }
    static func restOf(_ a: String) -> String { "the rest of \(a)" }
    static func fisherP(_ a: String) -> String { "Fisher's exact test, p = \(a)" }
    static func baselineHeading(_ a: String, _ b: Int) -> String { "\nSince the baseline (\(a), \(b) readable; the same test within each product, " }
    static let nothingNewNothingGoneNoShare = "  nothing new, nothing gone: no share differs by more than chance, the same finding codes, no new escalations\n"
    static func onlyNow(_ a: String) -> String { "\(a), none in the baseline\n" }
    static func onlyInBaseline(_ a: String) -> String { "none, \(a) in the baseline\n" }
    static let newEscalationsBySdkVersionTraces = "  New escalations by SDK version (traces with an unexplained divergence beyond the baseline's share)\n"
    static let theSameVersion = "the same version"
    static func productNewSinceBaseline(_ a: String) -> String { "\(a) (new since the baseline)" }
    static func unreadableCounts(_ a: Int, _ b: Int) -> String { ", \(a) not a trace, \(b) unreadable" }
    static func skippedHeading(_ a: String) -> String { "Skipped \(a) in the folders given (no row): " }
    static let noTagsNothingIsWrongIn = "\nNo tags: nothing is wrong in any trace.\n"
    static let topTagsTracesShareOfThe = "\nTop tags (traces, share of the readable traces; of all inputs for "
    static let bySdkVersion = "By SDK version"
    static let byIosVersion = "By iOS version"
    static let byDeviceModel = "By device model"
    static let openFirstOneTracePerDistinct = "\nOpen first (one trace per distinct problem: unexplained divergences, then errors; most traces first; damaged and partial traces last)\n"
    static let damagedOrPartial = " (damaged or partial)"
    static func firstOfSession(_ a: Int) -> String { " (first of \(a) parts of a session; the command replays them all)\n" }
    static func furtherSignatures(_ a: String) -> String { "\(a) of further signatures counted only" }
    static func notTraceNames(_ n: Int) -> String { "\(n) whose name\(n == 1 ? " is" : "s are") not a trace's (" }
    static func fifosNeverOpened(_ a: String) -> String { "\(a) (never opened: reading one blocks)" }
    static func untestedGrouping(_ a: String) -> String { " [reads \(a): not tested for a grouping that stands for it]" }
    static func readableHeading(_ a: String) -> String { "\n\(a) (readable traces; top tags with their share)\n" }
    static func whatIfHeading(_ a: Int, _ b: Int) -> String { "\nWith the --whatif edits (what the contract predicts; \(a) of \(b) traces improve" }
    static func editsNotPlaced(_ a: Int) -> String { ", \(a) where the edits could not be placed)\n" }
    static let noTagIsClearedFromAny = "  no tag is cleared from any trace\n"
    static let bySDKVersionLine = "  by SDK version: "
    static func oldestVersion(_ a: String, _ b: String) -> String { "\(a), the oldest \(b) version" }
    static func deviceModel(_ a: String, _ b: String) -> String { "device model \(a) with \(b)" }
}
