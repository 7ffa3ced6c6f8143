// Each verdict cause phrased once per layer: the engines' findings and every report use these.
import TraceModel

extension LayerWords {
    /// The SDK's recovered callback: `audioRouteSessionDidRecoverFromInterruption` (SRTC) or
    /// `meetingAudioRouteDidRecoverFromInterruption` (SMeeting).
    package var recoveredCallback: String {
        product == "SRTC" ? "audioRouteSessionDidRecoverFromInterruption" : "meetingAudioRouteDidRecoverFromInterruption"
    }

    /// The query that says an external device has the route.
    package var externalRouteQuery: String {
        product == "SRTC" ? "currentRoute.isExternal is true" : "isExternalAudioRouteActive is true"
    }
}

extension VerdictCause {
    /// Why a call with this cause did not take effect, in the layer's words: the one phrasing of the
    /// cause (a finding adds the record behind it).
    package func reason(_ w: LayerWords) -> String {
        switch self {
        case .notEngaged: "the app had not \(w.joined) the \(w.session) yet: the call audio path was not set up, so the request was only recorded"
        case .interrupted: "the audio session was interrupted, so the request waited for the recovery"
        case .audioModuleDisabled: "the audio module was disabled by setAudioModuleEnabled(false), so no call audio played"
        case .externalRouteActive: "an external device had the route, and iOS does not let an app take the output back from it"
        case .overrideActive: "a temporary override (setAudioRoute) shadowed the new default"
        case .simulator: "the trace comes from a simulator, which has no earpiece"
        case .micDenied: "the microphone permission was denied, so the SDK ran in playback-only mode, which has no earpiece"
        case .videoChatMode: "the call session was in videoChat mode, which implies defaultToSpeaker and has no way to the receiver"
        case .targetNotInCandidates: "the target layer is not among the candidates declared at subscribe"
        case .engineNotSupported: "the CDN engine does not support layer switching"
        case .transportNotReady: "the signalling transport was not connected yet"
        case .webrtcError: "sending the request on the signalling connection failed (webrtcError), so it never reached the server"
        case .stateUnknown: "the state before this part of the session is unknown (it was replayed without the parts before it, and it has no checkpoint), so what the call did cannot be decided"
        case .restarted: "the app's process ended (a crash or a kill) while the request was still waiting, and the request died with it: the restarted SDK starts with no override"
        }
    }

    /// Whether the cause's advice names the route the call asked for (`advice(_:target:)`): an external
    /// device blocks the speaker and the earpiece alike (R4), and the button to grey out is the one asked.
    package var adviceNamesTarget: Bool {
        switch self {
        case .externalRouteActive: true
        case .notEngaged, .interrupted, .audioModuleDisabled, .overrideActive, .simulator, .micDenied, .videoChatMode,
             .targetNotInCandidates, .engineNotSupported, .transportNotReady, .webrtcError, .stateUnknown, .restarted:
            false
        }
    }

    /// What the app should do about the cause, in the layer's words: the one phrasing of the advice.
    /// `target` is the route the call asked for, where the advice names it (`adviceNamesTarget`); without
    /// it the advice covers both.
    package func advice(_ w: LayerWords, target: RouteTarget? = nil) -> String {
        switch self {
        case .notEngaged:
            "Nothing is lost: the request is recorded and applied when the app \(w.join)s the \(w.session). To choose the route "
                + "before \(w.joining), set defaultAudioRoute instead; it is the persistent default."
        case .interrupted:
            "The request is applied when the interruption recovers; refresh the UI in \(w.recoveredCallback) rather than retrying the call."
        case .audioModuleDisabled:
            "Call setAudioModuleEnabled(true) first (as soon as the local playback ends); the route then follows the request."
        case .externalRouteActive:
            "Grey out the \(target.map { "\($0.rawValue) button" } ?? "speaker and earpiece buttons") while \(w.externalRouteQuery), "
                + "and use \(w.currentRouteAPI) to show the real route, not the call's success. Let the \(w.participant) pick external "
                + "devices with AVRoutePickerView."
        case .overrideActive:
            "The temporary override shadows the default; call clearAudioRouteOverride() if the default should apply now."
        case .simulator:
            "Verify audio routing on a real device; the simulator has no earpiece and no bluetooth route."
        case .micDenied:
            "The earpiece is unavailable in playback-only mode. iOS will not ask for the microphone again: send the "
                + "\(w.participant) to Settings (UIApplication.openSettingsURLString) to allow it, then offer the earpiece."
        case .videoChatMode:
            "Use mode .voiceChat when the earpiece should be reachable; in .videoChat iOS keeps the output on the speaker."
        case .targetNotInCandidates:
            "Pass one of the layers declared at subscribe as targetTrackId; check getSubscribeHit to see what is served."
        case .engineNotSupported:
            (w.product == "SRTC" ? "Check Channel.streamVendor" : "Check the meeting's stream vendor")
                + " before offering layer switches; CDN sessions have no simulcast control."
        case .transportNotReady:
            "Switch layers only after the transport is connected (not right after you \(w.join) the \(w.session), nor while reconnecting)."
        case .webrtcError:
            "Handle SRTCError.webrtcError from switchLayer: retry the switch when the signalling connection is back."
        case .restarted:
            "Find why the app's process ended (its crash log, or a kill by iOS, e.g. for memory in the background); after a restart, "
                + "make the request again once the app \(w.join)s the \(w.session) again, or set defaultAudioRoute, which the app can "
                + "restore at launch."
        case .stateUnknown:
            "Replay the whole session (every part, in any order, or their folder), or a part that begins with a checkpoint "
                + "(trace.checkpoint, written by recorders since version 3 of the format)."
        }
    }
}
