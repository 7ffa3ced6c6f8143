import TraceModel

// The app.*, device.* and audioModule.* findings' sentences: what the app's Info.plist lacks for a call (R6,
// the audio background mode), a device the route contract says nothing about (R10, R16), the audio module
// left disabled (R9).
extension FindingWords {
    /// `app.missingMicUsageDescription` (R6): the engagement at `seq` without NSMicrophoneUsageDescription.
    package static func missingMicUsageDescription(seq: Int, _ words: LayerWords) -> FindingSentences {
        FindingSentences(
            message: "The app \(words.joined) the \(words.session) (seq \(seq)) but its Info.plist lacks "
                + "NSMicrophoneUsageDescription; \(words.joining) requests microphone permission, so the app crashes.",
            advice: "Add NSMicrophoneUsageDescription to Info.plist: \(words.joining) the \(words.session) always sets "
                + "up the call audio path and requests microphone permission, even for a \(words.participant) who only listens.")
    }

    /// `app.missingBackgroundAudio`: backgrounded at `seq` while engaged, without the `audio` background mode.
    package static func missingBackgroundAudio(seq: Int, _ words: LayerWords) -> FindingSentences {
        FindingSentences(
            message: "The app went to the background (seq \(seq)) while in the \(words.session), and "
                + "UIBackgroundModes lacks audio; the system suspends call audio.",
            advice: "Add audio to UIBackgroundModes in Info.plist so call audio keeps running in the background.")
    }

    /// `device.simulator` (R10).
    package static let simulator = FindingSentences(
        message: "This trace was recorded on a simulator, which has no earpiece and no bluetooth route; "
            + "earpiece requests are ineffective and routing results say nothing about a real device.",
        advice: "Audio routing must be verified on a real device.")

    /// `device.notIOS` (R16): a trace from `os`.
    package static func notIOS(os: String, _ words: LayerWords) -> FindingSentences {
        FindingSentences(
            message: "The header names \(TextCap.clip(os)): AudioRouteSession exists only on iOS, so the route contract "
                + "is not applied to this trace (no predicted route, no verdict on route calls, no route divergence).",
            advice: "On macOS the app selects the output device itself, with \(words.product == "SRTC" ? "setOutputDevice(_:)" : "setAudioOutput(deviceId:)"); "
                + "check its device list rather than route calls.")
    }

    /// `audioModule.leftDisabled` (R9): the module, disabled at `disabledSeq`, still disabled at the leave or exit
    /// at `seq`, or at the trace's `end`.
    package static func audioModuleLeftDisabled(disabledSeq: Int?, seq: Int, end: TraceEnd?, _ words: LayerWords) -> FindingSentences {
        let when = end?.phrase ?? "when the app \(words.left) the \(words.session) (seq \(seq))"
        let by = disabledSeq.map { " by setAudioModuleEnabled(false) (seq \($0))" } ?? ""
        return FindingSentences(
            message: "The audio module, disabled\(by), was still disabled \(when); no call audio was sent or "
                + "received meanwhile.",
            advice: "Call setAudioModuleEnabled(true) as soon as the local playback finishes; while it is "
                + "disabled the \(words.session) is silent, which looks exactly like nobody having a "
                + "microphone on.")
    }

    /// `audioModule.disabledWhileSpeaking` (R9): the module disabled at `period` while `speakers` (the first
    /// `who`) were speaking, seen at `seq`.
    package static func audioModuleDisabledWhileSpeaking(seq: Int, period: Int, speakers: Int, who: String,
                                                         _ w: LayerWords) -> FindingSentences {
        let count = "\(speakers) \(w.participant)\(speakers == 1 ? " was" : "s were")"
        return FindingSentences(
            message: seq == period
                ? "setAudioModuleEnabled(false) stopped call audio while \(count) speaking (\(who)): nobody is heard until it is re-enabled"
                : "while the audio module was disabled by setAudioModuleEnabled(false) (seq \(period)), \(count) speaking "
                    + "(\(who), from seq \(seq)): nobody is heard until it is re-enabled",
            advice: "Only disable the audio module when the whole \(w.session) needs no call audio (e.g. playing a recording); to mute, use the microphone switch or unsubscribe.")
    }
}
