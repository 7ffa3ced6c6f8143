import Replay
import SystemLayer
import TraceCodec

/// Triage of many traces: each replayed on its own, one row each, handed back in path order.
public enum Triage {
    /// Replays one trace (all its parts as one) and describes it as a row; never throws: a file that
    /// cannot be read or is not a trace gives a row that says so.
    public static func row(for trace: TriageTrace, options: ReplayOptions = ReplayOptions()) -> TriageRow {
        // A pipe or a device (named in a list, say) is never opened: reading it could block the run.
        if let odd = trace.paths.first(where: { FileSystem.exists($0) && !TriageInputs.isRegularFile($0) && !TriageInputs.isDirectory($0) }) {
            var row = TriageRow(path: trace.paths[0])
            row.parts = trace.paths.count > 1 ? trace.paths : []
            row.session = trace.session
            row.unexplainable = "\(odd) is not a regular file (a pipe, socket or device); it was not read"
            row.tags = [.unreadable]
            return row
        }
        let replay = Replay.run(parts: trace.paths, options: options)
        return TriageRow(path: trace.paths[0], parts: trace.paths, session: trace.session, size: trace.size, replay: replay)
    }

    /// Replays the plan's traces on `jobs` threads and calls `emit` on the calling thread with each
    /// row and its rendering (`render`, called on the worker thread), in the plan's order. At most
    /// `window` rows (default: four per thread) are in flight or waiting for the rows before them;
    /// nothing else is kept.
    public static func run<Rendered: Sendable>(_ plan: TriagePlan, jobs: Int, window: Int? = nil, options: ReplayOptions = ReplayOptions(),
                                               render: @escaping @Sendable (TriageRow) -> Rendered,
                                               emit: (Int, TriageRow, Rendered) throws -> Void) rethrows {
        try OrderedParallel.run(count: plan.count, jobs: jobs, window: window ?? max(4 * jobs, 4), work: { i in
            let row = row(for: plan.trace(i), options: options)
            return (row, render(row))
        }, emit: { i, item in try emit(i, item.0, item.1) })
    }
}
