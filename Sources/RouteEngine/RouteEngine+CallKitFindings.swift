import Contract
import TraceModel

// The callkit.* findings: the app's own calls through CallKit (I7, I11, I13), phrased in
// `FindingWords+CallKit.swift`.
extension RouteEngine {
    /// I7, first half: the SDK activated the session inside a CallKit window.
    func activatedBeforeDidActivateFinding(_ record: Record, window: CallKitWindow) -> Finding {
        Finding(code: .callkitActivatedBeforeDidActivate, severity: .warning, rule: .I7, seqs: [record.seq, window.actionSeq],
                t: record.t, FindingWords.activatedBeforeDidActivate(seq: record.seq, actionSeq: window.actionSeq, words))
    }

    /// I7, second half: no `didActivate` within the recovery window after an answer or start.
    func noDidActivateFinding(_ window: CallKitWindow, t: Int64) -> Finding {
        Finding(code: .callkitNoDidActivate, severity: .error, rule: .I7, seqs: [window.actionSeq], t: t,
                FindingWords.noDidActivate(actionSeq: window.actionSeq, window: options.recoveryWindowMs, words))
    }

    /// I11: a held CallKit call that CallKit did not reactivate after the user resumed it.
    func noReactivationFinding(holdSeq: Int, unholdSeq: Int, t: Int64) -> Finding {
        Finding(code: .callkitNoReactivation, severity: .error, rule: .I11, seqs: [unholdSeq, holdSeq], t: t,
                FindingWords.noReactivation(holdSeq: holdSeq, unholdSeq: unholdSeq, window: options.recoveryWindowMs, words))
    }

    /// I13: CallKit put an answered call on the built-in route.
    func builtInRouteChosenFinding(reading: RouteReading, device: ConnectedDevice, t: Int64) -> Finding {
        Finding(code: .callkitBuiltInRouteChosen, severity: .info, rule: .I13, seqs: [reading.seq, device.seq], t: t,
                FindingWords.builtInRouteChosen(route: reading.route, seq: reading.seq, deviceSeq: device.seq, words))
    }
}
