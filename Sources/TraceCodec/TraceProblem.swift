/// Something wrong with a trace that a reader recovered from (or, in strict mode, stops at).
import TraceModel
package struct TraceProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The class of problem.
    package enum Kind: String, Sendable, Codable {
        /// A line that is not a valid record (bad JSON, missing or mistyped field, unknown enum value).
        case badRecord
        /// A zstd frame that failed its checksum or could not be decoded.
        case badFrame
        /// The final frame was cut short (a crash mid-write).
        case tornFrame
        /// Bytes that are not a frame were skipped while resynchronising.
        case garbage
        /// A line longer than the line-length limit was skipped.
        case lineTooLong
        /// A frame declared a window larger than the window limit.
        case windowTooLarge
        /// `seq` jumped: records are missing.
        case seqGap
        /// `t` went backwards.
        case timeBackwards
        /// A `trace.header` that is not the first record with seq 0 (or, in a continuation part, its first).
        case header
        /// The first record is not a `trace.header`: layer and device are unknown.
        case headerMissing
        /// A trace rtctrace created does not end with its end mark (it was not closed).
        case notClosed
        /// The input holds no records at all.
        case empty
        /// The input is not a trace: an archive, or neither zstd frames nor JSON Lines.
        case notATrace
        /// An I/O error.
        case io
        /// A UTF-8 byte-order mark before the first line of JSON Lines, skipped (a warning: every
        /// record is still read).
        case byteOrderMark
        /// A bundle's part whose bytes are not what the bundle's manifest says (its size or SHA-256):
        /// it is read, but it is not the part the recorder wrote.
        case bundleMismatch
    }

    /// The class of problem.
    package var kind: Kind

    /// Whether the problem is damage (what `verify` and `--strict` fail on), or a warning only: a
    /// byte-order mark is skipped and every record still read.
    package var isDamage: Bool {
        switch kind {
        case .badRecord, .badFrame, .tornFrame, .garbage, .lineTooLong, .windowTooLarge, .seqGap, .timeBackwards,
             .header, .headerMissing, .notClosed, .empty, .notATrace, .io, .bundleMismatch: true
        case .byteOrderMark: false
        }
    }
    /// The file it was found in.
    package var file: String
    /// Byte offset in the file, for container problems.
    package var offset: Int?
    /// The record's seq, for record problems.
    package var seq: Int?
    /// 1-based line number in the decompressed trace, for record problems.
    package var line: Int?
    /// The offending field, for record problems.
    package var field: String?
    /// The seqs known to be lost, when they can be told.
    package var lost: ClosedRange<Int>?
    /// What happened, in words.
    package var message: String

    /// Creates a problem.
    package init(_ kind: Kind, file: String, offset: Int? = nil, seq: Int? = nil, line: Int? = nil,
                field: String? = nil, lost: ClosedRange<Int>? = nil, message: String) {
        self.kind = kind
        self.file = file
        self.offset = offset
        self.seq = seq
        self.line = line
        self.field = field.map { TextCap.clip($0, 100) }
        self.lost = lost
        self.message = TextCap.clip(message, 500)
    }

    /// `FILE: [byte N | seq N (line L) | line L]: [field 'F': ]message[; lost seq A–B]`.
    package var description: String {
        var s = file + ": "
        if let seq { s += "seq \(seq)" + (line.map { " (line \($0))" } ?? "") + ": " } else if let line { s += "line \(line): " }
        if let offset { s += "byte \(offset): " }
        if let field { s += "field '\(field)': " }
        s += message
        if let lost { s += lost.lowerBound == lost.upperBound ? "; lost seq \(lost.lowerBound)" : "; lost seq \(lost.lowerBound)–\(lost.upperBound)" }
        return s
    }
}
