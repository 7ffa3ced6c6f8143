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
