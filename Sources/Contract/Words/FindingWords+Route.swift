import TraceModel

// The route.* findings' sentences: a call that did not take effect (V1) and a temporary route iOS flushed (R15).
extension FindingWords {
    /// `route.ineffective` (V1)'s message: `call` at `seq` got `verdict` because of `cause`, `why` its reason.
    package static func ineffectiveMessage(call: String, seq: Int, verdict: VerdictKind, cause: VerdictCause, why: String) -> String {
        "\(call) (seq \(seq)) was \(verdict.rawValue) (cause: \(cause.rawValue)): \(why)."
    }

    /// `route.ineffective`'s advice for the persistent default set before the engagement, the documented way
    /// to choose the first route.
    package static func defaultBeforeEngagement(_ words: LayerWords) -> String {
        "Nothing is lost: the persistent default is meant to be set before the app \(words.join)s the "
            + "\(words.session), and it is applied when the call audio path is set up."
    }

    /// `route.overrideFlushed` (R15): iOS flushed the temporary `target` (set by `callSeq`) at the change
    /// `openedBy` started; the device settled on `route` (`seq`).
    package static func overrideFlushed(target: RouteTarget, callSeq: Int?, openedBy: Int, route: Route, seq: Int,
                                        _ words: LayerWords) -> FindingSentences {
        let call = callSeq.map { " set by seq \($0)" } ?? ""
        return FindingSentences(
            message: "iOS flushed the temporary route (\(target.rawValue)\(call)) at the change that seq \(openedBy) "
                + "started: the device settled on \(route.rawValue) (seq \(seq)), the route without the "
                + "override. The documents say temporary settings are overridden by system behaviour by design; "
                + "the prediction follows the persistent default from here.",
            advice: "This is by design: set defaultAudioRoute for a lasting choice, and re-apply the temporary route "
                + "after a device change or an interruption if the \(words.participant) should keep it.")
    }
}
