import Replay
import SystemLayer
import TraceCodec
import TraceModel

/// Triage of many traces: each replayed on its own, one row each, handed back in path order.
public enum Triage {
    /// Replays one trace (all its parts as one) and describes it as a row; never throws: a file that
    /// cannot be read or is not a trace gives a row that says so. `folders` lets the row's command name a
    /// session's folder (`command(naming:folders:)`); without it the command names every part.
    public static func row(for trace: TriageTrace, options: ReplayOptions = ReplayOptions(), keys: TriageKeys = TriageKeys(),
                           folders: TraceFolders? = nil) -> TriageRow {
        var row = uncommanded(trace, options: options, keys: keys)
        row.command = command(naming: trace.paths, folders: folders)
        return row
    }

    private static func uncommanded(_ trace: TriageTrace, options: ReplayOptions, keys: TriageKeys) -> TriageRow {
        // A pipe, a device or a kernel file (named in a list, say) is never opened: reading it could block the run.
        if let (odd, why) = trace.paths.lazy.compactMap({ p in TriageInputs.refusal(p).map { (p, $0) } }).first {
            var row = TriageRow(path: trace.paths[0])
            row.parts = trace.paths.count > 1 ? trace.paths : []
            row.session = trace.session
            row.unexplainable = "\(odd): \(why)"
            row.tags = [.unreadable]
            return row
        }
        // A folder a walk could not list, or an entry whose type could not be read, is an input that cannot
        // be read, as a file without permission is: the row says which and why.
        if let (odd, why) = trace.paths.lazy.compactMap({ p in TriageInputs.unreadable(p).map { (p, $0) } }).first {
            var row = TriageRow(path: trace.paths[0])
            row.parts = trace.paths.count > 1 ? trace.paths : []
            row.session = trace.session
            row.unexplainable = "\(odd): \(why)"
            row.problems = 1
            row.problemsByKind = [TraceProblem.Kind.io.rawValue: 1]
            row.firstProblem = row.unexplainable
            row.tags = [.unreadable]
            return row
        }
        var facts = TriageFacts()
        let replay = Replay.run(parts: trace.paths, options: options, onRecord: { facts.note($0) }, seeing: .lowRate)
        var row = TriageRow(path: trace.paths[0], parts: trace.paths, session: trace.session, size: trace.size, replay: replay,
                            facts: facts, keys: keys)
        row.contentHash = contentHash(trace.paths)
        return row
    }

    /// SHA-256 over the bytes of every file in order (hex), read in chunks; nil when one cannot be read.
    public static func contentHash(_ paths: [String]) -> String? {
        var hasher = SHA256.Hasher()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        for path in paths {
            guard let file = try? OpenFile(path, .readOnly) else { return nil }
            while true {
                let n = chunk.withUnsafeMutableBytes { p in (try? file.read(into: p)) ?? -1 }
                if n < 0 { return nil }
                if n == 0 { break }
                chunk.withUnsafeBufferPointer { hasher.update(UnsafeBufferPointer(rebasing: $0[0..<n])) }
            }
            try? file.close()
        }
        return SHA256.hex(hasher.finish())
    }

    /// Replays the plan's traces on `jobs` threads and calls `emit` on the calling thread with each
    /// row and its rendering (`render`, called on the worker thread), in the plan's order. At most
    /// `window` rows (default: four per thread) are in flight or waiting for the rows before them;
    /// nothing else is kept.
    ///
    /// A row whose content hash an earlier row of the run had is marked as its duplicate (`duplicateOf`,
    /// the tag `duplicate-upload`) and rendered again before it is emitted: the first in path order is
    /// the original. The hashes seen are kept (a few dozen bytes a trace, like the plan's paths).
    public static func run<Rendered: Sendable>(_ plan: TriagePlan, jobs: Int, window: Int? = nil, options: ReplayOptions = ReplayOptions(),
                                               keys: TriageKeys = TriageKeys(),
                                               render: @escaping @Sendable (TriageRow) -> Rendered,
                                               emit: (Int, TriageRow, Rendered) throws -> Void) rethrows {
        var seen: [String: String] = [:]
        let folders = TraceFolders()
        try OrderedParallel.run(count: plan.count, jobs: jobs, window: window ?? max(4 * jobs, 4), work: { i in
            let row = row(for: plan.trace(i), options: options, keys: keys, folders: folders)
            return (row, render(row))
        }, emit: { i, item in
            var (row, rendered) = item
            if let hash = row.contentHash, row.records > 0 || row.size > 0 {
                if let original = seen[hash] {
                    row.markDuplicate(of: original)
                    rendered = render(row)
                } else {
                    seen[hash] = row.path
                }
            }
            try emit(i, row, rendered)
        })
    }
}
