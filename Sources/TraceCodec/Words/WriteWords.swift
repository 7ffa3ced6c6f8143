// What the writer says when it cannot append to a trace, and of a record it refuses.
enum WriteWords {
    static let noSuchTrace = "no such trace"
    static let cannotOpenForWriting = "cannot open for writing"
    static let cannotReadTheSize = "cannot read the size"
    static let cannotCutTornStartMark = "cannot cut the torn start mark"
    static let cannotCutTornTail = "cannot cut the torn tail"
    static func writeFailed(after bytes: Int) -> String { "write failed after \(bytes) bytes" }
    static func noMoreBytesAccepted(after bytes: Int) -> String {
        "write failed after \(bytes) bytes: the file system accepted no more bytes"
    }
    static let partialFrameStays = "; cutting the partial frame off failed too"
    static let endsWithCompleteFrame = "; the file still ends with a complete frame"
    static let plainJSONLines = "is plain JSON Lines, not a zstd trace; convert it with 'rtctrace record'"

    static func seqDoesNotContinue(_ path: String, got: Int, expected: Int) -> String {
        "\(path): seq \(got): field 'seq': expected \(expected) (seq must continue the trace by 1; use --renumber to assign seqs)"
    }
    static func timeBeforePrevious(_ path: String, seq: Int, t: Int64, last: Int64) -> String {
        "\(path): seq \(seq): field 't': \(t) ms is before the previous record's \(last) ms"
    }
    static func writerClosed(_ path: String) -> String { "\(path): the writer is closed" }
}
