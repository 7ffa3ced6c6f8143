// The words of `import-log`'s report. Each sentence once.

enum ImportLogWords {
    static func wrote(_ path: String, records: Int, fromLog: Int) -> String { "wrote \(path): \(records) records, \(fromLog) of them from the log" }
    static func firstUnreadable(line: Int, why: String) -> String { " (the first, line \(line): \(why))" }
    static func notImported(lines: Int, reason: String) -> String { "not imported: \(lines) line\(lines == 1 ? "" : "s"): \(reason)" }
    static func skippedOtherShapes(_ lines: Int) -> String { "skipped \(lines) line\(lines == 1 ? "" : "s") of other shapes" }
    static func moreShapes(_ count: Int) -> String { "  … and \(count) shapes more" }
}
