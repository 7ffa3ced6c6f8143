import Reports
import TraceFormat

/// Reads every record of a trace, warning on stderr about each problem (or failing on the first with `--strict`).
func readRecords(_ path: String, strict: Bool, limits: ReaderLimits = .standard,
                 _ body: (Record, TraceReader) throws -> Void) throws -> TraceReader {
    let reader: TraceReader
    do { reader = try TraceReader(path: path, limits: limits) } catch { throw CommandFailure(message: "\(error)") }
    while let event = reader.next() {
        switch event {
        case .record(let r): try body(r, reader)
        case .problem(let p):
            if strict { throw CommandFailure(message: p.description + " (--strict)") }
            warn(p)
        }
    }
    return reader
}

let strictFlag = ("--strict", "Fail (exit 1) on the first damaged frame or invalid record instead of recovering.")
