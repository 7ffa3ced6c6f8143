// The words of `rtctrace rules`: the catalogue's headings and the proofs of its advice. Each sentence once.

enum CatalogueWords {
    static let findingCodesSeeRtctraceRulesCode = "\nFINDING CODES (see 'rtctrace rules CODE')\n\n"
    static let verifiableByReplayExplainVerifyAdvice = "\nVerifiable by replay (explain --verify-advice):\n"
    static func addOptionEdit(_ a: String) -> String { "add the option \(a) to every session activation" }
    static func setModeEdit(_ a: String) -> String { "set the mode \(a) on every session activation" }
    static func moveAfterEdit(_ a: String) -> String { "move the record after the next \(a)" }
    static func insertBeforeRecordEdit(_ a: String) -> String { "insert \(a) just before the record" }
    static func insertBeforeNextEdit(_ a: String, _ b: String) -> String { "insert \(a) just before the next \(b)" }
    static func insertAfterNextEdit(_ a: String, _ b: String) -> String { "insert \(a) just after the next \(b)" }
    static func replaceEdit(_ a: String) -> String { "replace the record with \(a)" }
    static func reactivateEdit(_ a: String) -> String { "reactivate the session (the last successful activation again) just after the next \(a)" }
    static let rulesSeeRtctraceRulesId = "RULES (see 'rtctrace rules ID')\n"
    static func seeAlso(_ a: String) -> String { "\nSee also 'rtctrace rules \(a)'.\n" }
}
