import TraceCodec
import TraceModel

/// How to import: the day of times that have none, the offset of times that have none, which process
/// is the app, and the windows the contract reads.
package struct LogImportOptions: Sendable {
    /// `YYYY-MM-DD`: the day of a Console copy's times (in their own offset); nil takes the trace's `startedAt`.
    package var date: String?
    /// The UTC offset of times written without one, in minutes east of UTC, when no line of the file gives one.
    package var utcOffsetMinutes: Int?
    /// The app's process name (`--process`).
    package var process: String?
    /// The app's process id (`--pid`).
    package var pid: Int?
    /// How far apart two records of one event may be (the contract's match window): an own-process record
    /// the trace already holds this close is not added twice.
    package var matchWindowMs: Int64 = 1000
    /// How far apart an activation of the trace and one of the log may be to anchor the import on them.
    package var anchorWindowMs: Int64 = 2000

    /// Creates the defaults.
    package init() {}
}

/// What was read from the files of the device's log: the recognised lines and what was skipped.
package struct LogReading: Sendable {
    /// Each file with what reading it found.
    package var files: [(path: String, notes: LogReadNotes)] = []
    /// The recognised lines' facts, file by file in file order.
    package var facts: [LogFact] = []
    /// Lines no shape recognised, by shape.
    package var skipped = SkippedShapes()
    /// What the lines tell about processes.
    var evidence = ProcessEvidence()
    /// Each file's first written UTC offset, for its lines written without one.
    var fileOffsets: [String: Int] = [:]

    /// Recognised lines by shape, in the order of the line shapes.
    package var recognised: [(shape: String, count: Int)] {
        var counts: [String: Int] = [:]
        for f in facts { counts[f.shape, default: 0] += 1 }
        return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}

/// Why reading or importing failed, naming the file and line.
package struct LogImportError: Error, CustomStringConvertible, Sendable {
    /// What is wrong.
    package var description: String
    /// Whose it is: the command line's (a missing date or offset, a pattern table that cannot be used),
    /// the input's (a file that is no log export), the import's (a trace it cannot place the log in), or
    /// the file system's (a file that cannot be read).
    package var kind: Kind
    /// Creates an error.
    package init(_ description: String, _ kind: Kind = .input) {
        self.description = description
        self.kind = kind
    }

    /// Whose an error is.
    package enum Kind: Sendable {
        case usage, input, refusal, io
    }
}

/// The device's log as text turned into records: reading the files (`read`), then placing the
/// recognised lines in a trace's time (`build`, LogImport+Build.swift).
package enum LogImport {
    /// Reads every file: the device log's envelopes and line shapes, or with `table` the lines an SDK's
    /// own text log holds.
    package static func read(_ paths: [String], table: PatternTable? = nil) throws -> LogReading {
        var reading = LogReading()
        for path in paths {
            if let table {
                let notes = try table.read(path) { fact in reading.facts.append(fact) } unmatched: { text in reading.skipped.add(process: nil, text) }
                reading.files.append((path, notes))
                continue
            }
            var offset: Int?
            let notes: LogReadNotes
            do {
                notes = try LogFileReader.read(path) { e in
                    if offset == nil { offset = e.clock.offsetMinutes }
                    reading.evidence.observe(e.process, pid: e.pid, path: e.processPath)
                    if let facts = LineShape.facts(e) {
                        for f in facts { reading.evidence.observe(f.process, pid: f.pid, path: nil) }
                        reading.facts += facts
                    } else {
                        reading.skipped.add(process: e.process, e.message)
                    }
                }
            } catch let e as JSONLinesFile.ReadError {
                throw LogImportError(e.description, e.isIO ? .io : .input)
            }
            if let offset { reading.fileOffsets[path] = offset }
            guard notes.entries > 0 else {
                let why = notes.firstUnreadable.map { " (line \($0.line): \($0.why))" } ?? ""
                throw LogImportError(ImportWords.noDeviceLogEntry(path, firstUnreadable: why))
            }
            reading.files.append((path, notes))
        }
        return reading
    }
}

/// Lines no shape recognised, counted by shape: the process and the message with its numbers, ids and
/// quoted text replaced, so that lines of one kind count together (`--verbose` lists them).
package struct SkippedShapes: Sendable {
    /// Lines skipped in all.
    package private(set) var lines = 0
    /// Lines by shape, for at most `bound` shapes (the rest counted in `otherShapes`).
    package private(set) var byShape: [String: Int] = [:]
    /// Lines of shapes beyond the bound.
    package private(set) var otherShapes = 0
    /// Distinct shapes kept.
    static let bound = 10_000

    mutating func add(process: String?, _ message: String) {
        lines += 1
        let key = Self.shape(process: process, message)
        if byShape[key] != nil || byShape.count < Self.bound { byShape[key, default: 0] += 1 } else { otherShapes += 1 }
    }

    /// The commonest shapes first, at most `limit`.
    package func top(_ limit: Int) -> [(shape: String, count: Int)] {
        byShape.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(limit).map { ($0.key, $0.value) }
    }

    /// `process: words` with digits as `#`, hex ids as `0x#`, quoted text as `'…'`, cut at 80 characters.
    static func shape(process: String?, _ message: String) -> String {
        var out = process.map { $0 + ": " } ?? ""
        let c = Array(message.prefix(400))
        var i = 0
        while i < c.count, out.count < 80 {
            let ch = c[i]
            if ch == "'" || ch == "\"" {
                // Quoted text is anyone's: its shape is the quotes.
                let close = c[(i + 1)...].firstIndex(of: ch) ?? c.count
                out += String(ch) + "…" + (close < c.count ? String(ch) : "")
                i = close + 1
            } else if ch == "0", i + 2 < c.count, c[i + 1] == "x", c[i + 2].isHexDigit {
                out += "0x#"
                i += 2
                while i < c.count, c[i].isHexDigit { i += 1 }
            } else if ch.isNumber {
                out += "#"
                while i < c.count, c[i].isNumber || c[i] == "." && i + 1 < c.count && c[i + 1].isNumber { i += 1 }
            } else {
                out.append(ch == "\n" || ch == "\t" ? " " : ch)
                i += 1
            }
        }
        return i < c.count ? out + "…" : out
    }
}

extension LogImport {
    /// Writes an import's records as a trace at `path`, atomically (a temporary sibling, then a rename).
    package static func write(_ records: [Record], to path: String) throws {
        var options = TraceWriter.Options()
        options.firstSeq = records.first?.seq ?? 0
        try AtomicFile.replace(path) { tmp in
            let writer = try TraceWriter(path: tmp, options: options, exclusive: true)
            for r in records { try writer.append(r) }
            try writer.close()
        }
    }
}
