import Replay
import SystemLayer
import TraceCodec
import TraceModel

/// Triage of many traces: each replayed on its own, one row each, handed back in path order.
package enum Triage {
    /// Replays one trace (all its parts as one) and describes it as a row; never throws: a file that
    /// cannot be read or is not a trace gives a row that says so. `folders` lets the row's command name a
    /// session's folder (`command(naming:folders:)`); without it the command names every part.
    /// With `whatif`, the trace is also replayed with those edits and the row says what they changed.
    package static func row(for trace: TraceSession, options: ReplayOptions = ReplayOptions(), keys: TriageKeys = TriageKeys(),
                           folders: TraceFolders? = nil, whatif: TriageEdits? = nil) -> TriageRow {
        var row = uncommanded(trace, options: options, keys: keys, whatif: whatif)
        row.command = command(naming: trace.paths, folders: folders)
        return row
    }

    private static func uncommanded(_ trace: TraceSession, options: ReplayOptions, keys: TriageKeys, whatif: TriageEdits?) -> TriageRow {
        // A pipe, a device or a kernel file (named in a list, say) is never opened: reading it could block the run.
        if let (odd, why) = trace.paths.lazy.compactMap({ p in TriageInputs.refusal(p).map { (p, $0) } }).first {
            var row = TriageRow(path: trace.paths[0])
            row.parts = trace.paths.count > 1 ? trace.paths : []
            row.session = trace.id
            row.unexplainable = "\(odd): \(why)"
            row.tags = [.unreadable]
            return row
        }
        // A folder a walk could not list, or an entry whose type could not be read, is an input that cannot
        // be read, as a file without permission is: the row says which and why.
        if let (odd, why) = trace.paths.lazy.compactMap({ p in TriageInputs.unreadable(p).map { (p, $0) } }).first {
            var row = TriageRow(path: trace.paths[0])
            row.parts = trace.paths.count > 1 ? trace.paths : []
            row.session = trace.id
            row.unexplainable = "\(odd): \(why)"
            row.problems = 1
            row.problemsByKind = [TraceProblem.Kind.io.rawValue: 1]
            row.firstProblem = row.unexplainable
            row.tags = [.unreadable]
            return row
        }
        var facts = TriageFacts()
        // The records are kept only for a what-if, which replays them again edited: the batches as the reader
        // decoded them.
        var records = WhatIfRecords()
        // The row reads the findings' counts, not the findings (its errors are counted as the replay raises
        // them): they are built only for a what-if, which reads the kept ones.
        var replayOptions = options
        replayOptions.buildsFindings = whatif != nil
        // Not strict, and a file that cannot be opened is a problem of the row: nothing is thrown.
        let result = (try? Replay.run(trace, options: replayOptions, unopened: .isAProblem, onRecord: { facts.note($0) }, seeing: .lowRate,
                                      onBatch: whatif == nil ? nil : { records.keep($0) })) ?? ReplayResult(file: trace.first)
        var row = TriageRow(trace, result: result, facts: facts, keys: keys)
        row.contentHash = contentHash(trace.paths)
        if let whatif, row.readable {
            row.whatif = TriageWhatIf.make(whatif, kept: records, result: result, file: trace.first, options: options, row: row, facts: facts)
        }
        return row
    }

    /// SHA-256 over the bytes of every file in order (hex), read in chunks; nil when one cannot be read.
    package static func contentHash(_ paths: [String]) -> String? {
        var hasher = SHA256.Hasher()
        for path in paths {
            // Through the reader's input, so that a bundle's part (BUNDLE/NAME) hashes as its bytes.
            guard path != "-" else { return nil }
            do { try TraceBytes.forEachChunk(path) { hasher.update($0) } } catch { return nil }
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
    package static func run<Rendered: Sendable>(_ plan: TraceSessionList, jobs: Int, window: Int? = nil, options: ReplayOptions = ReplayOptions(),
                                               keys: TriageKeys = TriageKeys(), whatif: TriageEdits? = nil,
                                               render: @escaping @Sendable (TriageRow) -> Rendered,
                                               emit: (Int, TriageRow, Rendered) throws -> Void) rethrows {
        // Each trace's buffers are freed at its end and made again for the next: kept by the allocator
        // rather than handed back, their pages do not fault in again for every trace.
        Memory.keepFreedBlocks()
        var seen: [String: String] = [:]
        let folders = TraceFolders()
        try OrderedParallel.run(count: plan.count, jobs: jobs, window: window ?? max(4 * jobs, 4), work: { i in
            let row = row(for: plan[i], options: options, keys: keys, folders: folders, whatif: whatif)
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
