/// A JSON Lines file that is not a trace (triage's rows), plain or as zstd frames, concatenated or
/// not: every line whole, or an error naming the file and where. Nothing is skipped in silence, since a
/// summary built from the lines that could be read would count less than the file holds.
package enum JSONLinesFile {
    /// Why a file's lines could not all be read.
    package struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The problem, with the file and its offset or line.
        package var problem: TraceProblem
        /// Whether the file could not be opened or read at all (rather than holding damaged bytes).
        package var isIO: Bool { problem.kind == .io }
        /// `FILE: line N: …` or `FILE: byte N: …`.
        package var description: String { problem.description }
    }

    /// Calls `body` with each line's bytes (valid during the call) and its number (1-based), in order;
    /// blank lines are passed over. Throws `FileError` when the file cannot be opened, `ReadError` at the
    /// first damaged frame, cut-off end or over-long line, and whatever `body` throws. With `text`, lines
    /// that are not JSON (a device log's text export, plain or in zstd frames) are read alike.
    package static func forEachLine(_ path: String, limits: ReaderLimits = .standard, text: Bool = false,
                                   _ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws {
        let source = try LineSource(path: path, limits: limits)
        source.acceptsText = text
        while let event = source.next() {
            switch event {
            case .line(let r):
                let bytes = source.bytes(r)
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                try body(bytes, source.lineNumber)
            case .problem(let p):
                // A byte-order mark is a warning about the text, not lost lines.
                if p.kind == .byteOrderMark { continue }
                throw ReadError(problem: p)
            }
        }
    }
}
