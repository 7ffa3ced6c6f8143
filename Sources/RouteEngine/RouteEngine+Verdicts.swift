import Contract
import TraceModel

extension RouteEngine {
    /// The state change a route call asks for (R3).
    enum RouteChange {
        case setDefault(RouteTarget)
        case setOverride(RouteTarget)
        case clearOverride
    }

    /// V1: apply the call's state change, then decide its verdict; V2: its outcome at the call (`pending`
    /// when deferred), and the pending call of the same part it supersedes. A route call closes a flush
    /// window first (R15) and ends the phase of I13 in which iOS's choice is the prediction. Verdicts are
    /// computed on the route R8 predicts without I12's CallKit window.
    mutating func routeCall(_ record: Record, _ change: RouteChange, api: String?, into out: inout RouteSink) {
        closeFlushWindow(t: record.t, into: &out)
        let before = state.predicted(override: state.override, callKitWindow: false)
        let changed = applyChange(change, seq: record.seq)
        if state.interrupted, !change.isDefault, changed { obligations.overrideChangedWhileInterrupted = true }
        if state.callKitChoice != nil { state.callKitChoice?.route = nil }
        var verdict = Verdict(seq: record.seq, t: record.t, call: record.body.kind ?? .setRoute, api: api, verdict: .noop, rule: .V1)
        if state.startStateUnknown {
            // Nothing about the state the call met is known: no verdict is derived from it.
            verdict.verdict = .undetermined
            verdict.cause = .stateUnknown
        } else if changed {
            if let (cause, causeSeq) = firstCause(isDefault: change.isDefault) {
                verdict.verdict = (cause == .notEngaged || cause == .interrupted) ? .deferred : .ineffective
                verdict.cause = cause
                verdict.causeSeq = causeSeq
            } else if state.predicted(override: state.override, callKitWindow: false) != before {
                verdict.verdict = .applied
            }
        }
        verdict.outcome = Self.outcomeAtCall(verdict)
        out.append(.verdict(verdict))
        if changed { supersede(change.isDefault, by: record, deferred: verdict.verdict == .deferred, into: &out) }
        if verdict.verdict == .deferred || verdict.verdict == .ineffective {
            out.finding(.routeIneffective, seq: verdict.seq, t: verdict.t) { ineffectiveFinding(verdict, change: change) }
        }
    }

    /// Applies the change; returns whether any state changed.
    private mutating func applyChange(_ change: RouteChange, seq: Int) -> Bool {
        switch change {
        case .setDefault(let target):
            guard state.defaultTarget != target else { return false }
            state.defaultTarget = target
            state.defaultSeq = seq
        case .setOverride(let target):
            guard state.override != target else { return false }
            state.override = target
            state.overrideSeq = seq
        case .clearOverride:
            guard state.override != nil else { return false }
            state.override = nil
            state.overrideSeq = nil
        }
        return true
    }

    /// The first cause that holds, in V1's order, with the record that created it.
    func firstCause(isDefault: Bool) -> (VerdictCause, Int?)? {
        if !state.engaged { return (.notEngaged, state.leftSeq) }
        if state.interrupted { return (.interrupted, state.interruptionSeq) }
        if !state.audioModuleEnabled { return (.audioModuleDisabled, state.audioModuleDisabledSeq) }
        if let device = state.routeDevice { return (.externalRouteActive, device.seq) }
        if isDefault, state.override != nil { return (.overrideActive, state.overrideSeq) }
        if state.effectiveTarget == .earpiece {
            if state.simulator { return (.simulator, state.headerSeq ?? 0) }
            if state.micPermission == .denied { return (.micDenied, state.micPermissionSeq) }
            if let session = state.videoChatSeq { return (.videoChatMode, session) }
        }
        return nil
    }
}

extension RouteEngine.RouteChange {
    var isDefault: Bool {
        if case .setDefault = self { return true }
        return false
    }

    /// How the app's call reads in a report.
    func spelling(api: String?) -> String {
        switch self {
        case .setDefault(let target): "defaultAudioRoute = .\(target.rawValue)"
        case .setOverride(let target): api ?? "setAudioRoute(.\(target.rawValue))"
        case .clearOverride: "clearAudioRouteOverride()"
        }
    }
}
