import Contract
import TraceModel

// The audioModule.* findings of the route engine: the module left disabled (R9), in the layer's words.
extension RouteEngine {
    /// R9: the module was still disabled when the path was torn down (`atEnd` nil) or the trace ended.
    func leftDisabledFinding(atSeq seq: Int, t: Int64, atEnd: TraceEnd?) -> Finding {
        let disabled = state.audioModuleDisabledSeq
        let when = atEnd?.phrase ?? "when the app \(words.left) the \(words.session) (seq \(seq))"
        let by = disabled.map { " by setAudioModuleEnabled(false) (seq \($0))" } ?? ""
        return Finding(code: .audioModuleLeftDisabled, severity: .warning, rule: .R9,
                       seqs: atEnd != nil ? seqs(disabled ?? seq, seq) : seqs(seq, disabled), t: t,
                       message: "The audio module, disabled\(by), was still disabled \(when); no call audio was sent or "
                           + "received meanwhile.",
                       advice: "Call setAudioModuleEnabled(true) as soon as the local playback finishes; while it is "
                           + "disabled the \(words.session) is silent, which looks exactly like nobody having a "
                           + "microphone on.")
    }
}
