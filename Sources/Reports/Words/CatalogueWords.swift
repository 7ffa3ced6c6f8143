// The words of `rtctrace rules`: the catalogue's headings and the proofs of its advice. Each sentence once.

enum CatalogueWords {
    static let findingCodesSeeRtctraceRulesCode = "\nFINDING CODES (see 'rtctrace rules CODE')\n\n"
    static let verifiableByReplayExplainVerifyAdvice = "\nVerifiable by replay (explain --verify-advice):\n"
    static func addTheOptionToEverySession(_ a: String) -> String { "add the option \(a) to every session activation" }
    static func setTheModeOnEverySession(_ a: String) -> String { "set the mode \(a) on every session activation" }
    static func moveTheRecordAfterTheNext(_ a: String) -> String { "move the record after the next \(a)" }
    static func insertJustBeforeTheRecord(_ a: String) -> String { "insert \(a) just before the record" }
    static func insertJustBeforeTheNext(_ a: String, _ b: String) -> String { "insert \(a) just before the next \(b)" }
    static func insertJustAfterTheNext(_ a: String, _ b: String) -> String { "insert \(a) just after the next \(b)" }
    static func replaceTheRecordWith(_ a: String) -> String { "replace the record with \(a)" }
    static func reactivateTheSessionTheLastSuccessful(_ a: String) -> String { "reactivate the session (the last successful activation again) just after the next \(a)" }
    static let rulesSeeRtctraceRulesId = "RULES (see 'rtctrace rules ID')\n"
    static func seeAlsoRtctraceRules(_ a: String) -> String { "\nSee also 'rtctrace rules \(a)'.\n" }
}
