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
        let phrased = Self.causeWords(cause, state.layer)
        if cause == .externalRouteActive, let device = state.activeDevice {
            // Device words (v4): the device by its kind and name.
            return (cause.reason(LayerWords(state.layer), device: device.kind, name: device.name) + " (seq \(device.seq))", phrased.advice)
        }
        guard let causeSeq else { return (phrased.reason, phrased.advice) }
        return (phrased.reason + " (seq \(causeSeq))", phrased.advice)
    }

    /// A cause's reason and advice in a layer's words (`VerdictCause.reason`, `advice`), phrased once for
    /// every cause and layer: the calls of a trace that did not take effect repeat a few causes.
    private static func causeWords(_ cause: VerdictCause, _ layer: Layer) -> (reason: String, advice: String) {
        for entry in phrasedCauses where entry.cause == cause && entry.layer == layer { return (entry.reason, entry.advice) }
        return (cause.reason(LayerWords(layer)), cause.advice(LayerWords(layer)))
    }

    private static let phrasedCauses: [(layer: Layer, cause: VerdictCause, reason: String, advice: String)] =
        Layer.allCases.flatMap { layer in
            VerdictCause.allCases.map { (layer, $0, $0.reason(LayerWords(layer)), $0.advice(LayerWords(layer))) }
        }

    /// R15: iOS flushed the temporary setting.
    func overrideFlushedFinding(_ window: FlushWindow, reading: RouteReading, target: RouteTarget, callSeq: Int?, t: Int64) -> Finding {
        Finding(code: .routeOverrideFlushed, severity: .info, rule: .R15,
                seqs: [reading.seq, window.openedBy] + (callSeq.map { [$0] } ?? []), t: t,
                FindingWords.overrideFlushed(target: target, callSeq: callSeq, openedBy: window.openedBy, route: reading.route,
                                             seq: reading.seq, words))
    }
}
