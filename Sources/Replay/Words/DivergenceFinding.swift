import Contract
import TraceModel

/// A divergence's finding (`route.divergence`) as the tracker raises it: what it says is phrased only when
/// someone reads it (the result keeps it, or an observer is shown it), so that one the result no longer
/// keeps is counted by its code and never built.
struct DivergenceFinding: Equatable {
    /// The interval as it stands when the finding is raised.
    let divergence: Divergence
    /// The moment it counted.
    let t: Int64
    /// Whether the interval has closed: while it is open, an unexplained one says so "so far" (X3: a later
    /// finding may still explain it).
    let final: Bool
    /// The layer's words, as the trace has set them so far.
    let words: LayerWords

    /// The finding's code.
    var code: FindingCode { .routeDivergence }

    /// The finding, phrased.
    var finding: Finding {
        let d = divergence, w = words
        var message = "the contract predicts \(d.predicted.rawValue) but the device played \(d.actual.rawValue) from \(formatDuration(d.start))"
        if let p = d.predictedSeq { message += " (prediction set by seq \(p)" + (d.actualSeq.map { ", actual route reported by seq \($0))" } ?? ")") }
        if let by = d.predictedBy {
            message += "; the prediction comes from \(by.rule)" + (by.seq.map { " (seq \($0)" + (by.appliedBy.map { ", applied at seq \($0))" } ?? ")") } ?? "")
        }
        if let a = d.afterAppliedCall { message += "; it started right after the applied route call at seq \(a): the request was accepted but did not take effect" }
        let advice: String
        let severity: Severity
        if let code = d.explainedBy {
            severity = .warning
            message += "; explained by \(code)" + (d.explainedBySeq.map { " (seq \($0))" } ?? "")
            advice = "Fix the cause named by \(code); the route follows once it is fixed."
        } else if d.startStateUnknown {
            severity = .warning
            message += "; it began while the state before this part of the session was unknown (unknown start state), so it is not judged"
            advice = "Replay this part with the parts before it (give every part, or their folder) to judge it: the prediction may rest on "
                + "what was set or connected before the part."
        } else if let lost = d.evidenceLost {
            // X5: the records that would judge it are lost; never an escalation over a damaged trace.
            severity = .warning
            message += "; records were lost while it was open (\(lost.seqText), \(formatDuration(lost.fromT)) – "
                + "\(formatDuration(lost.toT)): \(lost.cause.words)), so it is uncertain (evidence lost): a device connection, "
                + "a route call or an activation may be among them"
            advice = lost.cause == .missingPart
                ? "Ask for the missing part of the session and replay every part together to judge it; do not escalate on this trace."
                : "Ask for a new trace of the same call without the loss (\(lost.cause.words)) to judge it; do not escalate on this trace."
        } else {
            severity = .error
            message += final ? "; nothing recorded explains it" : "; nothing recorded explains it so far"
            advice = "Escalate to the \(w.product) SDK team with this trace: the device did something the documented contract cannot explain. Meanwhile show \(w.currentRouteAPI) in the UI, not the call's success."
        }
        let rule: RuleID = d.explained ? .X3 : d.evidenceLost != nil && !d.startStateUnknown ? .X5 : .X2
        return Finding(code: .routeDivergence, severity: severity, rule: rule, seqs: d.seqs, t: t,
                       message: message, advice: advice)
    }
}
