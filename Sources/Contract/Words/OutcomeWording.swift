// Each outcome of a call (V2) advised once per layer: what the app should do about what became of a
// call, where that differs from what its verdict said. Reports use these; the causes' own advice is in
// CauseWording.swift.
import TraceModel

/// What applied a deferred call (V2): the app's engagement (joining or entering) or a recovery from an
/// interruption (its end, the SDK's recovery, or the retry after the system call ended).
package enum AppliedBy: Sendable, Equatable {
    case engagement, recovery

    /// What a call deferred for `cause` waits for, when the record that applied it is not known.
    package init?(waitingFor cause: VerdictCause?) {
        switch cause {
        case .notEngaged: self = .engagement
        case .interrupted: self = .recovery
        case .audioModuleDisabled, .externalRouteActive, .overrideActive, .simulator, .micDenied, .videoChatMode,
             .targetNotInCandidates, .engineNotSupported, .transportNotReady, .webrtcError, .stateUnknown, .restarted, nil:
            return nil
        }
    }
}

extension OutcomeKind {
    /// What the app should do about a call whose outcome is this one, in the layer's words: the one
    /// phrasing of each outcome's advice. `verdictCause` is why the call waited (or failed) at first,
    /// `outcomeCause` the cause the outcome gives (for `ineffective`, why it had no effect when applied),
    /// `target` the route the call asked for, `appliedBy` what applied it (for `applied`: a default deferred
    /// by an interruption may take effect at the next join, not at the recovery; nil when not known, and
    /// then the verdict's cause says what it waited for); `end` says whether the trace ended at its last
    /// record or at a crash (a call still `pending` waited until then).
    package func advice(verdictCause: VerdictCause?, outcomeCause: VerdictCause?, target: RouteTarget? = nil,
                       appliedBy: AppliedBy? = nil, _ w: LayerWords, end: TraceEnd = .end) -> String {
        switch self {
        case .applied:
            switch appliedBy ?? AppliedBy(waitingFor: verdictCause) {
            case .engagement?:
                return "Nothing to fix: the request waited until the app \(w.joined) the \(w.session) and took effect then, as the contract "
                    + "says. Show the route from \(w.currentRouteAPI) when it changes, not from the call's return."
            case .recovery?:
                return "Nothing to fix: the request waited out the interruption and took effect once it could (the outcome says when). "
                    + "Refresh the route shown in \(w.recoveredCallback) or when the route changes, not when the call returns."
            case nil:
                return "Nothing to fix: the request took effect late, once what held it back was over. Show the route from "
                    + "\(w.currentRouteAPI) when it changes, not from the call's return."
            }
        case .noop:
            return "Nothing to fix: by the time the request could take effect, what it asked for was already in force."
        case .superseded:
            return "Nothing to fix in this call: a later call changed the same setting before this one took effect, and the later one "
                + "is what counts. If the UI showed this request as done, refresh it from \(w.currentRouteAPI) when the route changes, "
                + "not from each call's return."
        case .dropped:
            if outcomeCause == .restarted { return VerdictCause.restarted.advice(w) }
            return "The request is lost: the app \(w.left) the \(w.session) before it took effect, and a temporary route does not "
                + "outlive the call. Make the request again after the app \(w.join)s the \(w.session) the next time, or set "
                + "defaultAudioRoute, which persists."
        case .ineffective:
            return (outcomeCause ?? verdictCause)?.advice(w, target: target)
                ?? "The request had no effect when it was applied; show the route from \(w.currentRouteAPI), not the call's success."
        case .pending:
            var why = ""
            switch verdictCause {
            case .notEngaged: why = ", before the app \(w.joined) the \(w.session)"
            case .interrupted: why = ", with the interruption not over"
            case .audioModuleDisabled, .externalRouteActive, .overrideActive, .simulator, .micDenied, .videoChatMode,
                 .targetNotInCandidates, .engineNotSupported, .transportNotReady, .webrtcError, .stateUnknown, .restarted, nil: break
            }
            return "Nothing was decided: the request was still waiting \(end.whenEnded)\(why). Look at the session's next part, or "
                + "record until the app \(w.leave)s the \(w.session), to see what became of it; meanwhile show the route from "
                + "\(w.currentRouteAPI), not the call's success."
        case .rejected:
            return (outcomeCause ?? verdictCause)?.advice(w, target: target)
                ?? "The call was rejected; check the SDK's error for it and make it again once the condition is met."
        case .undetermined:
            return VerdictCause.stateUnknown.advice(w)
        }
    }
}
