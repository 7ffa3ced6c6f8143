import TraceCodec

/// The outcome of checking one golden trace: its expectations, its snapshot and its integrity.
package struct CheckOutcome: Sendable {
    /// The trace (a session's first part).
    package var file: String
    /// Every file of the trace: the parts of a golden session in part order, or the one file.
    package var parts: [String]
    /// The recorded session the trace is (its header's `session.id`), when it is one.
    package var session: String?
    /// One line per failure: `FILE: seq N: expect.X: expected …, got …` and the like.
    package var failures: [String] = []
    /// Expectations evaluated.
    package var expectations = 0
    /// The snapshot's state.
    package var snapshot: SnapshotState = .none
    /// The canonical replay output, for `--update`.
    package var rendered: String = ""
    /// Whether everything held.
    package var passed: Bool { failures.isEmpty }

    /// An outcome of one file with nothing checked yet.
    package init(file: String) {
        self.file = file
        parts = [file]
    }

    /// An outcome of a trace (one file, or a golden session's parts) with nothing checked yet.
    package init(_ trace: TraceSession) {
        file = trace.first
        parts = trace.paths
    }
}

/// Where a trace stands against its `NAME.golden.json`.
package enum SnapshotState: Sendable, Equatable {
    /// The trace has no snapshot.
    case none
    /// It matches byte for byte.
    case matched
    /// It differs; the diff is readable text.
    case changed(diff: String)
}

/// Golden traces and their snapshots: the names `check` looks for and the outcome of checking one.
package enum GoldenCheck {
    /// Trace file suffixes `check` looks for in folders.
    package static let traceSuffixes = [".trace.zst", ".jsonl", ".jsonl.zst"]

    /// The trace's name without its trace suffix: `traces/a.trace.zst` → `traces/a`.
    package static func stem(_ path: String) -> String {
        for s in traceSuffixes.sorted(by: { $0.count > $1.count }) where path.hasSuffix(s) { return String(path.dropLast(s.count)) }
        if path.hasSuffix(".zst") { return String(path.dropLast(4)) }
        return path
    }

    /// The snapshot path beside a trace.
    package static func snapshotPath(for trace: String) -> String { stem(trace) + ".golden.json" }
}
