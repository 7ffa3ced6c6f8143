// The words of `reduce`'s report. Each sentence once.

enum ReduceWords {
    static func wrote(_ path: String, records: Int, pins: Int, of original: Int) -> String {
        "wrote \(path): \(records) records plus header and \(pins) expect.* pins (from \(original))"
    }
}
