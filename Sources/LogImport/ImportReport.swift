import TraceModel

extension LogImport {
    /// What an import did, in lines for the command's output: the files and their envelopes, the lines
    /// recognised by shape, the records made by type, what was not imported and why, the lines skipped,
    /// the app's process and the time alignment; with `verbose`, the skipped lines' shapes too.
    package static func report(_ reading: LogReading, _ result: ImportResult, verbose: Bool) -> [String] {
        var out: [String] = []
        for (path, notes) in reading.files {
            out.append("  \(path): \(notes.envelope?.rawValue ?? "read with the pattern table"), \(notes.entries) entr\(notes.entries == 1 ? "y" : "ies")"
                + (notes.unreadableLines > 0 ? ", \(notes.unreadableLines) unreadable line\(notes.unreadableLines == 1 ? "" : "s")"
                    + (notes.firstUnreadable.map { ImportWords.firstUnreadable(line: $0.line, why: $0.why) } ?? "") : ""))
        }
        let shapes = reading.recognised
        out.append("recognised \(reading.facts.count) line\(reading.facts.count == 1 ? "" : "s")" + (shapes.isEmpty ? "" : ": ")
            + shapes.map { "\($0.shape) \($0.count)" }.joined(separator: ", "))
        var byType: [String: Int] = [:]
        for r in result.added { byType[r.type, default: 0] += 1 }
        out.append("imported \(result.added.count) record\(result.added.count == 1 ? "" : "s")" + (byType.isEmpty ? "" : ": ")
            + byType.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        for n in result.notImported { out.append(ImportWords.notImported(lines: n.count, reason: n.reason)) }
        out.append(ImportWords.skippedOtherShapes(reading.skipped.lines)
            + (verbose || reading.skipped.lines == 0 ? "" : " (--verbose lists them)"))
        if verbose {
            for s in reading.skipped.top(50) { out.append("  \(s.count)× \(s.shape)") }
            if reading.skipped.byShape.count > 50 { out.append(ImportWords.moreShapes(reading.skipped.byShape.count - 50)) }
        }
        if let how = result.identity.how {
            let names = result.identity.names.sorted().joined(separator: ", "), pids = result.identity.pids.sorted().map(String.init).joined(separator: ", ")
            out.append("the app: \(names)" + (pids.isEmpty ? "" : " (pid \(pids))") + ", from \(how)")
        }
        out.append("time: " + result.alignment.description)
        return out
    }
}
