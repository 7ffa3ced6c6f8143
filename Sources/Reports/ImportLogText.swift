import LogImport
import TraceModel

/// What `import-log`'s report takes: the trace written, what was read of the log and what the import made
/// of it, the trace merged into, and whether to list the skipped lines' shapes.
package struct ImportLogReport {
    /// The trace written.
    package var written: String
    /// Its records (the trace's merged into, and the log's).
    package var records: Int
    /// The parts of the trace merged into, nil for a log imported alone.
    package var into: [String]?
    /// What was read of the log.
    package var reading: LogReading
    /// What the import made of it.
    package var result: ImportResult
    /// The skipped lines' shapes listed too (`--verbose`).
    package var verbose: Bool
    /// The report of one import.
    package init(written: String, records: Int, into: [String]?, reading: LogReading, result: ImportResult, verbose: Bool) {
        self.written = written
        self.records = records
        self.into = into
        self.reading = reading
        self.result = result
        self.verbose = verbose
    }
}

/// `import-log`'s report as text: what was written, the files and their envelopes, the lines recognised by
/// shape, the records made by type, what was not imported and why, the lines skipped, the app's process
/// and the time alignment; with `verbose`, the skipped lines' shapes too.
package enum ImportLogText {
    /// The report's lines.
    package static func render(_ r: ImportLogReport) -> String {
        let first = ImportLogWords.wrote(terminalSafe(r.written), records: r.records, fromLog: r.result.added.count)
            + (r.into.map { " merged into \(terminalSafe($0[0]))\($0.count > 1 ? " (\($0.count) parts)" : "")" } ?? "")
        return ([first] + lines(r.reading, r.result, verbose: r.verbose).map(terminalSafe)).map { $0 + "\n" }.joined()
    }

    /// The lines after the first.
    static func lines(_ reading: LogReading, _ result: ImportResult, verbose: Bool) -> [String] {
        var out: [String] = []
        for (path, notes) in reading.files {
            out.append("  \(path): \(notes.envelope?.rawValue ?? "read with the pattern table"), \(notes.entries) entr\(notes.entries == 1 ? "y" : "ies")"
                + (notes.unreadableLines > 0 ? ", \(notes.unreadableLines) unreadable line\(notes.unreadableLines == 1 ? "" : "s")"
                    + (notes.firstUnreadable.map { ImportLogWords.firstUnreadable(line: $0.line, why: $0.why) } ?? "") : ""))
        }
        let shapes = reading.recognised
        out.append("recognised \(reading.facts.count) line\(reading.facts.count == 1 ? "" : "s")" + (shapes.isEmpty ? "" : ": ")
            + shapes.map { "\($0.shape) \($0.count)" }.joined(separator: ", "))
        var byType: [String: Int] = [:]
        for r in result.added { byType[r.type, default: 0] += 1 }
        out.append("imported \(result.added.count) record\(result.added.count == 1 ? "" : "s")" + (byType.isEmpty ? "" : ": ")
            + byType.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        for n in result.notImported { out.append(ImportLogWords.notImported(lines: n.count, reason: n.reason)) }
        out.append(ImportLogWords.skippedOtherShapes(reading.skipped.lines)
            + (verbose || reading.skipped.lines == 0 ? "" : " (--verbose lists them)"))
        if verbose {
            for s in reading.skipped.top(50) { out.append("  \(s.count)× \(s.shape)") }
            if reading.skipped.byShape.count > 50 { out.append(ImportLogWords.moreShapes(reading.skipped.byShape.count - 50)) }
        }
        if let how = result.identity.how {
            let names = result.identity.names.sorted().joined(separator: ", "), pids = result.identity.pids.sorted().map(String.init).joined(separator: ", ")
            out.append("the app: \(names)" + (pids.isEmpty ? "" : " (pid \(pids))") + ", from \(how)")
        }
        out.append("time: " + result.alignment.description)
        return out
    }
}
