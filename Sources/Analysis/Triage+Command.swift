import SystemLayer
import TraceCodec

extension Triage {
    /// The command that opens the trace read from `paths` (a session's parts in part order), as rows carry
    /// it (`command`): `rtctrace explain` and the one file; for several parts, their folder when they share
    /// one that holds no other trace file (a folder walk finds exactly these), else every part, so that the
    /// whole session is replayed, not its first part. Without `folders` no folder is looked at: every part.
    /// A name that is not UTF-8 is shown as everywhere else (`caf\xE9.jsonl`, `PathName.displayed`).
    package static func command(naming paths: [String], folders: TraceFolders? = nil) -> String {
        "rtctrace explain " + arguments(naming: paths, folders: folders).map { shellQuoted(PathName.displayed($0)) }.joined(separator: " ")
    }

    static func arguments(naming paths: [String], folders: TraceFolders?) -> [String] {
        guard paths.count > 1, let folders else { return paths }
        func folder(_ p: String) -> String? { p.lastIndex(of: "/").map { String(p[..<$0]) }.flatMap { $0.isEmpty ? nil : $0 } }
        let distinct = Set(paths.map(folder))
        guard distinct.count == 1, let only = distinct.first, let dir = only, let found = folders.traces(in: dir) else { return paths }
        return found == Set(paths) ? [dir] : paths
    }
}

/// The trace files under each folder a run asked about, each folder walked once (a day's uploads can
/// hold thousands of sessions in one folder); safe to share between the run's threads.
package final class TraceFolders: @unchecked Sendable {
    private let lock = Lock()
    private var found: [String: Set<String>?] = [:]

    /// An empty cache.
    package init() {}

    /// The trace files a folder walk finds under `dir`; nil when it cannot be listed.
    package func traces(in dir: String) -> Set<String>? {
        if let known = lock.withLock({ found[dir] }) { return known }
        let walked = (try? TriageInputs.expand([dir])).map { list in Set((0..<list.count).map { list[$0] }) }
        lock.withLock { found[dir] = .some(walked) }
        return walked
    }
}

/// A path as one shell word: unchanged when it only has safe characters, else in single quotes.
package func shellQuoted(_ s: String) -> String {
    let safe = s.utf8.allSatisfy { c in
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || "/._-+,:@%=".utf8.contains(c)
    }
    guard !safe || s.isEmpty else { return s }
    var out = "'"
    for ch in s { if ch == "'" { out += "'\\''" } else { out.append(ch) } }
    return out + "'"
}
