/// The files of one trace: a single file, or the parts of one recorded session in part order. Every
/// replay starts from one (`Replay.run`), whoever named the files: a command's TRACE arguments, a fleet's
/// grouping (`TraceSession.group`), each side of a diff, a what-if, a recorder's bundle.
package struct TraceSession: Sendable, Equatable {
    /// The files, in replay order (the first one names the trace).
    package var paths: [String]
    /// The session id the headers carry, when they do.
    package var id: String?
    /// Bytes on disk over all files (0 when nobody measured them).
    package var size: Int
    /// Each file's part number (its header's `session.part`), beside `paths`; empty when not a session.
    package var partNumbers: [Int]

    /// A trace of these files.
    package init(paths: [String], id: String? = nil, size: Int = 0, partNumbers: [Int] = []) {
        self.paths = paths
        self.id = id
        self.size = size
        self.partNumbers = partNumbers
    }

    /// A trace of one file.
    package init(path: String, size: Int = 0) {
        self.init(paths: [path], size: size)
    }

    /// The file that names the trace (its first part).
    package var first: String { paths.first ?? "" }

    /// The part numbers missing between the first and the last part given (a session's parts 1 and 3
    /// miss part 2); empty when the files carry no part numbers.
    package var missingParts: [Int] {
        guard partNumbers.count == paths.count else { return [] }
        var missing: [Int] = []
        for (a, b) in zip(partNumbers, partNumbers.dropFirst()) where b > a + 1 { missing += Array((a + 1)..<b) }
        return missing
    }
}
