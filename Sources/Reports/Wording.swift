import Replay
import TraceFormat

/// Phrases for verdicts and causes in the trace layer's own words.
public enum Wording {
    /// A short phrase for why a call did not take effect.
    public static func cause(_ c: VerdictCause, _ w: LayerWords) -> String {
        switch c {
        case .notEngaged: "the app had not \(w.joined) the \(w.session) yet (the call audio path was not set up)"
        case .interrupted: "the audio session was interrupted (it applies when the interruption recovers)"
        case .audioModuleDisabled: "the audio module was disabled (setAudioModuleEnabled(false))"
        case .externalRouteActive: "an external device (bluetooth or wired headset) had the route"
        case .overrideActive: "a temporary override (setAudioRoute) shadowed the new default"
        case .simulator: "the trace comes from a simulator, which has no earpiece"
        case .micDenied: "the microphone permission was denied (playback-only mode has no earpiece)"
        case .videoChatMode: "the call session was in videoChat mode, which keeps the output off the receiver"
        case .targetNotInCandidates: "the target layer is not among the candidates declared at subscribe"
        case .engineNotSupported: "the CDN engine does not support layer switching"
        case .transportNotReady: "the signalling transport was not connected yet"
        }
    }

    /// What the app should do about a cause, when no finding carries advice.
    public static func advice(_ c: VerdictCause, _ w: LayerWords) -> String {
        switch c {
        case .engineNotSupported: "Check Channel.streamVendor before offering layer switches; CDN sessions have no simulcast control."
        case .transportNotReady: "Switch layers only after the transport is connected (not right after you \(w.join) the \(w.session), nor while reconnecting)."
        case .targetNotInCandidates: "Pass one of the layers declared at subscribe as targetTrackId; check getSubscribeHit to see what is served."
        default: "Use \(w.currentRouteAPI), not the call's success, to show the real route."
        }
    }

    /// A short phrase for an outcome that carries no cause (V2).
    public static func outcome(_ kind: OutcomeKind, _ w: LayerWords) -> String {
        switch kind {
        case .superseded: "a later call changed the same setting before it took effect"
        case .dropped: "the app \(w.left) the \(w.session) before it took effect (the override is dropped)"
        case .pending: "still waiting when the trace ended"
        default: kind.rawValue
        }
    }

    /// What became of a call whose outcome differs from its verdict (V2), naming the deciding record.
    public static func outcomeLine(_ v: Verdict, in r: ReplayResult) -> String? {
        guard let o = v.outcome, o.kind.rawValue != v.verdict.rawValue || o.seq != v.seq else { return nil }
        let by = o.seq.map { record($0, in: r) } ?? "a timer (the retry after the system call ended)"
        switch o.kind {
        case .pending: return "still pending when the trace ended"
        case .superseded: return "superseded by " + by
        case .dropped: return "dropped by " + by
        case .ineffective: return "ineffective (\(o.cause?.rawValue ?? "?")) when applied by " + by
        case .applied: return "applied \(formatDuration(o.t - v.t)) later by " + by
        case .noop, .rejected: return nil
        }
    }

    /// X4: the branch of R8 behind a prediction and its records.
    public static func predictionSource(_ p: PredictionSource, in r: ReplayResult) -> String {
        var s = "\(p.rule) (\(p.rule.title.lowercased()))"
        if let seq = p.seq { s += ": " + record(seq, in: r) } else { s += ": no record" }
        if let a = p.appliedBy { s += ", applied by " + record(a, in: r) }
        return s
    }

    /// The layer's name for the API family, for headings.
    public static func title(_ r: ReplayResult) -> String {
        let w = r.words
        return "\(w.product) trace"
    }

    /// "seq 12 api.setRoute at 3.200s (setAudioRoute(.speaker))" for a seq the result indexed.
    public static func record(_ seq: Int, in r: ReplayResult) -> String {
        guard let rec = r.recordIndex[seq] else { return "seq \(seq)" }
        return "seq \(seq) \(rec.type) at \(formatDuration(rec.t))" + (rec.detail.isEmpty ? "" : " (\(terminalSafe(rec.detail)))")
    }
}
