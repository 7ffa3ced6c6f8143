import Contract
import TraceModel

// The words `info` lays out around a trace's summary, and `verify` around its verdicts. Each sentence once.

enum InfoWords {
    /// The layer line: the product and the words its output speaks in.
    static func layer(_ layer: Layer) -> String {
        let w = LayerWords(layer)
        return "layer     \(layer.rawValue) (\(w.product): \(w.session)s that \(w.participant)s \(w.join) and \(w.leave))\n"
    }
    static func reportMark(id: String, at time: String, seq: Int) -> String { "report    \(id) at \(time) (seq \(seq))" }
    static func frames(_ frames: Int, skippable: Int) -> String { "frames    \(frames) zstd frames, \(skippable) skippable\n" }
    static func size(compressed: Int, raw: Int, ratio: String) -> String { "size      \(compressed) bytes compressed, \(raw) raw, ratio \(ratio)\n" }
    static func allFramesStored(_ frames: Int) -> String { "uncompressed: all \(frames) zstd frames hold stored blocks (written without a zstd library)\n" }
    static func someFramesStored(_ stored: Int, of frames: Int) -> String { "\(stored) of \(frames) zstd frames hold stored blocks (not compressed)\n" }
    static func bytesPerRecord(_ bytes: String) -> String { "per rec   \(bytes) bytes compressed\n" }
    static let closedWithEndMark = "yes (end mark present)"
    static let notClosed = "no (no end mark: crash or cut)"
    static let notWrittenByRtctrace = "n/a (not written by rtctrace)"
    static func plainJSONLines(bytes: Int) -> String { "format    plain JSON Lines, \(bytes) bytes\n" }
    static func noLongStretch(_ threshold: String) -> String { "no stretch without records longer than \(threshold)" }
    static func longStretches(_ threshold: String) -> String { " (stretches without records longer than \(threshold), three report periods)" }
    static let recorderOwnAccount = " (the recorder's own account: what happened there is not in the trace)\n"
    static func nothingRecorded(_ reason: PauseReason) -> String { "nothing recorded (\(reason.words))" }
    static let seqJumped = "seq jumps: the records never reached the file"
    static let frameUnreadable = "a frame could not be read"
    static let lastFrameTorn = "the last frame is torn"
    static let recordUndecodable = "a record could not be decoded"
    static let readingProblem = "a problem while reading"

    // The system log's records in a trace (SystemLogSummary).
    static let anchoredOnActivation = "anchored on an activation the trace also holds"
    static let placedByWallClock = "placed by the wall clock against startedAt"
    static func systemLogRecords(_ records: Int, processes: Int, own: Int) -> String {
        "\(records) record\(records == 1 ? "" : "s") imported about \(processes) process\(processes == 1 ? "" : "es") (\(own) the app's); "
    }

    static let notATrace = "NOT A TRACE"
    static func bundleOK(_ path: String, session: String) -> String { "\(path): OK (bundle of session \(session), " }
    static func bundleParts(_ parts: Int) -> String { "\(parts) part\(parts == 1 ? "" : "s") as its manifest lists them)" }
}
