import Contract
import TraceModel

// The app.* findings: what the app's Info.plist lacks for a call (R6, the audio background mode), phrased in
// `FindingWords+App.swift`.
extension RouteEngine {
    /// R6: engagement requests microphone permission, which crashes without NSMicrophoneUsageDescription.
    func missingMicUsageFinding(_ record: Record) -> Finding {
        Finding(code: .appMissingMicUsageDescription, severity: .error, rule: .R6, seqs: [record.seq], t: record.t,
                FindingWords.missingMicUsageDescription(seq: record.seq, words))
    }

    /// Backgrounded while engaged without the `audio` background mode.
    func missingBackgroundAudioFinding(_ record: Record) -> Finding {
        Finding(code: .appMissingBackgroundAudio, severity: .warning, rule: nil,
                seqs: seqs(record.seq, state.engagedSeq), t: record.t,
                FindingWords.missingBackgroundAudio(seq: record.seq, words))
    }
}
