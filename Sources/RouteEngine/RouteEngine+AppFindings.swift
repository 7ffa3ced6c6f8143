import Contract
import TraceModel

// The app.* findings: what the app's Info.plist lacks for a call (R6, the audio background mode), in the
// layer's words.
extension RouteEngine {
    /// R6: engagement requests microphone permission, which crashes without NSMicrophoneUsageDescription.
    func missingMicUsageFinding(_ record: Record) -> Finding {
        Finding(code: .appMissingMicUsageDescription, severity: .error, rule: .R6, seqs: [record.seq], t: record.t,
                message: "The app \(words.joined) the \(words.session) (seq \(record.seq)) but its Info.plist lacks "
                    + "NSMicrophoneUsageDescription; \(words.joining) requests microphone permission, so the app crashes.",
                advice: "Add NSMicrophoneUsageDescription to Info.plist: \(words.joining) the \(words.session) always sets "
                    + "up the call audio path and requests microphone permission, even for a \(words.participant) who only listens.")
    }

    /// Backgrounded while engaged without the `audio` background mode.
    func missingBackgroundAudioFinding(_ record: Record) -> Finding {
        Finding(code: .appMissingBackgroundAudio, severity: .warning, rule: nil,
                seqs: seqs(record.seq, state.engagedSeq), t: record.t,
                message: "The app went to the background (seq \(record.seq)) while in the \(words.session), and "
                    + "UIBackgroundModes lacks audio; the system suspends call audio.",
                advice: "Add audio to UIBackgroundModes in Info.plist so call audio keeps running in the background.")
    }
}
