import Contract
import TraceModel

// The audioModule.* findings of the route engine: the module left disabled (R9), phrased in
// `FindingWords+App.swift`.
extension RouteEngine {
    /// R9: the module was still disabled when the path was torn down (`atEnd` nil) or the trace ended.
    func leftDisabledFinding(atSeq seq: Int, t: Int64, atEnd: TraceEnd?) -> Finding {
        let disabled = state.audioModuleDisabledSeq
        return Finding(code: .audioModuleLeftDisabled, severity: .warning, rule: .R9,
                       seqs: atEnd != nil ? seqs(disabled ?? seq, seq) : seqs(seq, disabled), t: t,
                       FindingWords.audioModuleLeftDisabled(disabledSeq: disabled, seq: seq, end: atEnd, words))
    }
}
