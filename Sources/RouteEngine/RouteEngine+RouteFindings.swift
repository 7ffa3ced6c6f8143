import Contract
import TraceModel

// The route.* findings: a call that did not take effect (V1) and a temporary route iOS flushed (R15), phrased in
// `FindingWords+Route.swift` (a cause's reason and advice in `CauseWording.swift`).
extension RouteEngine {
    /// The finding for a call whose verdict is `deferred` (info) or `ineffective` (warning).
    func ineffectiveFinding(_ verdict: Verdict, change: RouteChange) -> Finding {
        let cause = verdict.cause ?? .notEngaged
        let call = change.spelling(api: verdict.api)
        var (why, advice) = explain(cause, causeSeq: verdict.causeSeq)
        if cause == .notEngaged, change.isDefault {
            // Setting the default before joining is the documented way to choose the first route.
            advice = FindingWords.defaultBeforeEngagement(LayerWords(state.layer))
        }
        return Finding(
            code: .routeIneffective,
            severity: verdict.verdict == .deferred ? .info : .warning,
            rule: .V1,
            seqs: [verdict.seq] + (verdict.causeSeq.map { [$0] } ?? []),
            t: verdict.t,
            message: FindingWords.ineffectiveMessage(call: call, seq: verdict.seq, verdict: verdict.verdict, cause: cause, why: why),
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
        Finding(code: .routeOverrideFlushed, severity: .info, rule: .R15,
                seqs: [reading.seq, window.openedBy] + (callSeq.map { [$0] } ?? []), t: t,
                FindingWords.overrideFlushed(target: target, callSeq: callSeq, openedBy: window.openedBy, route: reading.route,
                                             seq: reading.seq, words))
    }
}
