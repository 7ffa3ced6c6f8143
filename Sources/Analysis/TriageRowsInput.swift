import TraceCodec

/// Triage rows read back from files (the rows of a run, or of its shards, concatenated or not, plain or
/// zstd) into a summary: the summary an unsharded run over the same traces prints, since a summary counts
/// rows in any order (`TriageSummary`) and duplicate uploads are marked here across every file, as a run
/// marks them among its inputs: the row whose path sorts first is the original, every other row with its
/// content hash (and some bytes) a duplicate of it, whichever shard each landed in.
///
/// Two passes over the files: the first keeps each content hash's first path and the paths seen (tens of
/// bytes a trace, as a run keeps), the second counts. A line that is not a row, a damaged frame or a trace
/// in the rows twice stops the reading with an error naming the file and line: a summary of the rows that
/// could be read would count less than the files hold.
package enum TriageRowsInput {
    /// Why the rows could not be read.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// `FILE: line N: …`.
        package var description: String
        /// Whether a file could not be opened or read (rather than holding something that is not rows).
        package var isIO: Bool
    }

    /// Adds every row of `files` to `summary`, duplicates marked across all of them; returns the rows read.
    @discardableResult
    package static func summarize(_ files: [String], into summary: inout TriageSummary) throws(Failure) -> Int {
        var first: [String: String] = [:]
        var paths = Set<String>()
        try read(files) { row, file, line throws(Failure) in
            guard paths.insert(row.path).inserted else {
                throw Failure(description: TriageRowWords.rowAlreadyRead(file: file, line: line, path: row.path), isIO: false)
            }
            guard let hash = row.contentHash, Self.canRepeat(row) else { return }
            if let known = first[hash], !TriageSummary.pathPrecedes(row.path, known) { return }
            first[hash] = row.path
        }
        var rows = 0
        try read(files) { row, _, _ in
            var row = row
            row.duplicateOf = nil
            row.tags.removeAll { $0 == .duplicateUpload }
            if let hash = row.contentHash, Self.canRepeat(row), let original = first[hash], original != row.path {
                row.markDuplicate(of: original)
            }
            summary.add(row)
            rows += 1
        }
        return rows
    }

    /// Whether a row can repeat an earlier upload's bytes: as a run marks them, only rows with bytes or records.
    static func canRepeat(_ row: TriageRow) -> Bool { row.records > 0 || row.size > 0 }

    /// Calls `body` with every row of `files`, in order, with its file and line.
    static func read(_ files: [String], _ body: (TriageRow, String, Int) throws(Failure) -> Void) throws(Failure) {
        for file in files {
            do {
                try JSONLinesFile.forEachLine(file) { bytes, line in
                    let row: TriageRow
                    do {
                        row = try TriageRow(json: try JSONValue.parse(bytes))
                    } catch {
                        throw Failure(description: TriageRowWords.lineIsNoRow(file: file, line: line, error: error), isIO: false)
                    }
                    try body(row, file, line)
                }
            } catch let f as Failure {
                throw f
            } catch let e as JSONLinesFile.ReadError {
                throw Failure(description: TriageRowWords.rowsFileUnreadable(e.description), isIO: e.isIO)
            } catch {
                throw Failure(description: "\(error)", isIO: true)
            }
        }
    }
}
