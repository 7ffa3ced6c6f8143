import TraceCodec
import TraceModel

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

/// Options several commands share, declared once.
public enum CommonOptions {
    public static let strict = Option.flag("--strict", "Fail (exit 1) on the first damaged frame or invalid record instead of recovering.")
    public static let force = Option.flag("--force", "Overwrite OUT if it exists.")
}
