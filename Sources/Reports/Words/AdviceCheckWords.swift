// The words of the advice checked by replay (`explain --verify-advice`, the report's badges). Each sentence once.

enum AdviceCheckWords {
    static let adviceCheckedByReplayingTheTrace = "\nAdvice, checked by replaying the trace with it (the contract's prediction; see docs/whatif.md)\n"
    static let noCallThatDidNotTake = "  no call that did not take effect and no finding above info: no advice to check\n"
    static let theCallTakesEffect = "the call takes effect"
    static func findingGone(_ a: String) -> String { "\(a) is no longer raised" }
    static func verified(_ a: String, _ b: String) -> String { "verified: following this advice, \(a) (\(b))" }
    static func alternativeWorks(_ a: String, _ b: String) -> String { "the advice given does not change the outcome here; the catalogue's alternative does: following \(a), \(b)" }
    static let thisAdviceDoesNotChangeThe = "this advice does not change the outcome here"
    static let itDoesNotApplyToThis = "; it does not apply to this trace"
    static func outcomeChangesCallStillIneffective(_ a: String) -> String { "this advice changes the outcome here, but the call still does not take effect (\(a)" }
    static func notVerifiable(_ a: String) -> String { "not verifiable by replay: \(a)" }
    static let theAdviceCannotBeExpressedAs = "the advice cannot be expressed as edits"
}
