import Contract
import TraceModel

// The route.* findings: a call that did not take effect (V1) and a temporary route iOS flushed (R15), in the
// layer's words.
extension RouteEngine {
    /// The finding for a call whose verdict is `deferred` (info) or `ineffective` (warning).
    func ineffectiveFinding(_ verdict: Verdict, change: RouteChange) -> Finding {
        let cause = verdict.cause ?? .notEngaged
        let call = change.spelling(api: verdict.api)
        var (why, advice) = explain(cause, causeSeq: verdict.causeSeq)
        if cause == .notEngaged, change.isDefault {
            // Setting the default before joining is the documented way to choose the first route.
            let words = LayerWords(state.layer)
            advice = "Nothing is lost: the persistent default is meant to be set before the app \(words.join)s the "
                + "\(words.session), and it is applied when the call audio path is set up."
        }
        return Finding(
            code: .routeIneffective,
            severity: verdict.verdict == .deferred ? .info : .warning,
            rule: .V1,
            seqs: [verdict.seq] + (verdict.causeSeq.map { [$0] } ?? []),
            t: verdict.t,
            message: "\(call) (seq \(verdict.seq)) was \(verdict.verdict.rawValue) (cause: \(cause.rawValue)): \(why).",
            advice: advice, call: verdict.seq)
    }

    /// Why the cause keeps the call from taking effect (its one phrasing, with the record behind it), and
    /// what the app should do.
    private func explain(_ cause: VerdictCause, causeSeq: Int?) -> (String, String) {
        let words = LayerWords(state.layer)
        var record = causeSeq.map { "seq \($0)" }
        var why = cause.reason(words)
        if cause == .externalRouteActive, let device = state.activeDevice {
            // Device words (v4): the device by its kind and name.
            why = cause.reason(words, device: device.kind, name: device.name)
            record = "seq \(device.seq)"
        }
        return (why + (record.map { " (\($0))" } ?? ""), cause.advice(words))
    }

    /// R15: iOS flushed the temporary setting.
    func overrideFlushedFinding(_ window: FlushWindow, reading: RouteReading, target: RouteTarget, callSeq: Int?, t: Int64) -> Finding {
        let call = callSeq.map { " set by seq \($0)" } ?? ""
        return Finding(code: .routeOverrideFlushed, severity: .info, rule: .R15,
                       seqs: [reading.seq, window.openedBy] + (callSeq.map { [$0] } ?? []), t: t,
                       message: "iOS flushed the temporary route (\(target.rawValue)\(call)) at the change that seq \(window.openedBy) "
                           + "started: the device settled on \(reading.route.rawValue) (seq \(reading.seq)), the route without the "
                           + "override. The documents say temporary settings are overridden by system behaviour by design; "
                           + "the prediction follows the persistent default from here.",
                       advice: "This is by design: set defaultAudioRoute for a lasting choice, and re-apply the temporary route "
                           + "after a device change or an interruption if the \(words.participant) should keep it.")
    }
}
