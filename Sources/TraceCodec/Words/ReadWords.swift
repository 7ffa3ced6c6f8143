// What the reader says of a trace it cannot read whole: each problem's message, phrased once.
enum ReadWords {
    // The records in order (TraceReader).
    static let headerNotFirst = "trace.header must be the first record, with seq 0"
    static func firstRecordNotHeader(_ type: String) -> String { "the first record is \(type), not trace.header; layer and device are unknown" }
    static func seqJump(from last: Int, to seq: Int) -> String {
        "seq jumps from \(last) to \(seq): \(seq - last - 1) record\(seq - last - 1 == 1 ? "" : "s") missing"
    }
    static func seqNotFollowing(_ seq: Int, _ last: Int) -> String { "seq \(seq) does not follow \(last) (seq must increase by 1)" }
    static func timeBackwards(from t: some BinaryInteger, to next: some BinaryInteger) -> String { "t goes backwards from \(t) ms to \(next) ms" }
    static let empty = "the trace holds no records"
    static let notClosed = "the trace does not end with rtctrace's end mark: its writer did not close it (crash or cut)"
    static func endMarkDisagrees(marked: Int, last: Int?) -> String {
        "the end mark records last seq \(marked), but the last record read is \(last.map(String.init) ?? "none")"
    }
    static func recordsAfterMayBeLost(_ seq: Int) -> String { "; records after seq \(seq) may be lost" }
    /// The key that counts the records of unknown types beyond those counted by name.
    static let otherUnknownTypes = "(other unknown types)"

    // The parts of one session (TraceSessions).
    static func notTheSameRecording(_ file: String, part: Int, session: String, as first: String, part firstPart: Int,
                                    differences: [(field: String, ours: String, theirs: String)]) -> String {
        "\(file) (part \(part) of session \(session)) is not part of the same recording as \(first) (part \(firstPart)): its header says "
            + differences.map { "\($0.field) \($0.theirs), not \($0.ours)" }.joined(separator: ", ")
            + "; they are read as separate traces"
    }

    // The container and its frames (LineSource).
    static func notATrace(_ name: String, unpack: String) -> String { "this is \(name), not a trace: \(unpack)" }
    static let byteOrderMark = "a UTF-8 byte-order mark (EF BB BF) before the first line; skipped"
    static let skippableFrameCut = "skippable frame cut short"
    static func endsInFrameHeader(stray: some BinaryInteger) -> String { "trace ends inside a frame header (\(stray) stray bytes)" }
    static let endsInSkippableFrameHeader = "trace ends inside a skippable frame header"
    static func skippableFramePastEnd(size: some BinaryInteger, resumedAt: some BinaryInteger) -> String {
        "skippable frame declares \(size) bytes, past the end of the file; resumed at byte \(resumedAt)"
    }
    static func neitherFramesNorLines(skipped: some BinaryInteger) -> String {
        "neither zstd frames nor JSON Lines (\(skipped) bytes with no frame and no JSON object)"
    }
    static func trailingBytes(_ skipped: some BinaryInteger) -> String { "\(skipped) trailing bytes are not a frame; skipped" }
    static func noFrameHere(skipped: some BinaryInteger) -> String { "no frame starts here; skipped \(skipped) bytes to the next frame" }
    static func frameNotDecoded(_ error: String) -> String { "frame could not be decoded: \(error)" }
    static func windowOverLimit(declared: (some BinaryInteger)?, maxWindowLog: Int) -> String {
        "frame declares a window of \(declared.map { "\($0) bytes" } ?? "unknown size"), over the window limit of \(1 << maxWindowLog) bytes (2^\(maxWindowLog)); frame skipped"
    }
    static let badChecksum = "frame failed its content checksum (the data is corrupt)"
    static func resumedAt(_ offset: some BinaryInteger) -> String { "; resumed at byte \(offset)" }
    static func finalFrameCut(bytes: some BinaryInteger, kept: Int, held: some BinaryInteger) -> String {
        "final frame is cut short (\(bytes) bytes, a crash mid-write?); kept \(kept) complete line\(kept == 1 ? "" : "s") of \(held) decoded bytes"
    }

    // Lines (LineSource).
    static func lineOverLimit(limit: some BinaryInteger, skipped: some BinaryInteger) -> String {
        "line longer than the line-length limit of \(limit) bytes (skipped \(skipped)+ bytes)"
    }
    static func lineTooLong(_ count: some BinaryInteger, limit: some BinaryInteger) -> String { "line of \(count) bytes is longer than the line-length limit of \(limit) bytes; skipped" }
}
