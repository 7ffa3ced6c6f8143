import TraceCodec
import TraceModel

/// Prints a trace problem as a warning on stderr.
public func warn(_ p: TraceProblem) {
    Warnings.shared.add(p)
}

/// The warnings a command prints: the first `limit`, then only a count (printed at exit), so that a
/// trace of one bad record repeated a million times does not write a million lines.
public final class Warnings: @unchecked Sendable {
    public static let shared = Warnings()
    public static let limit = 100
    private(set) var count = 0

    public func add(_ p: TraceProblem) {
        count += 1
        if count <= Self.limit { Output.stderr.line("warning: " + terminalSafe(p.description)) }
    }

    /// The line that says how many were not printed, if any.
    public func finish() {
        guard count > Self.limit else { return }
        Output.stderr.line("warning: … \(count - Self.limit) more problems not shown (\(count) in all; 'rtctrace verify' lists each)")
    }
}

/// Reads every record of a trace, warning on stderr about each problem (or failing on the first with `--strict`).
public func readRecords(_ path: String, strict: Bool, limits: ReaderLimits = .standard,
                 _ body: (Record, TraceReader) throws -> Void) throws -> TraceReader {
    let reader: TraceReader
    do { reader = try TraceReader(path: path, limits: limits) } catch { throw commandError(error) }
    while let event = reader.next() {
        // Output that cannot be written any more ends the command now, not after the whole trace.
        try Output.stdout.throwIfFailed()
        switch event {
        case .record(let r): try body(r, reader)
        case .problem(let p):
            if strict && p.isDamage { throw CommandFailure(message: p.description + " (--strict)") }
            warn(p)
        }
    }
    return reader
}
