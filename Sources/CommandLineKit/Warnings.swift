import TraceCodec
import TraceModel

/// The warnings a command prints on its standard error: the first `limit`, then only a count (printed at
/// the end), so that a trace of one bad record repeated a million times does not write a million lines.
package final class Warnings: @unchecked Sendable {
    package static let limit = 100
    private let err: Output
    private(set) var count = 0

    /// Warnings printed on `err`.
    init(_ err: Output) { self.err = err }

    package func add(_ p: TraceProblem) {
        count += 1
        if count <= Self.limit { err.line("warning: " + terminalSafe(p.description)) }
    }

    /// The line that says how many were not printed, if any.
    package func finish() {
        guard count > Self.limit else { return }
        err.line(KitMessageWords.moreProblems(count - Self.limit, count))
    }
}

/// Reads every record of a trace, warning on the context's standard error about each problem (or failing
/// on the first with `--strict`).
package func readRecords(_ path: String, strict: Bool, limits: ReaderLimits = .standard, in context: CommandContext,
                 _ body: (Record, TraceReader) throws -> Void) throws -> TraceReader {
    let reader: TraceReader
    do { reader = try TraceReader(path: path, limits: limits) } catch { throw commandError(error) }
    while let event = reader.next() {
        // Output that cannot be written any more ends the command now, not after the whole trace.
        try context.out.throwIfFailed()
        switch event {
        case .record(let r): try body(r, reader)
        case .problem(let p):
            if strict && p.isDamage { throw CommandFailure(message: p.description + " (--strict)") }
            context.warn(p)
        }
    }
    return reader
}
