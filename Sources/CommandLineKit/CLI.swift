import TraceCodec
import TraceModel

/// rtctrace's version, printed by `rtctrace --version` and `rtctrace version` (one constant, in the
/// record model, so that the recorder's bundles name the same version).
public let rtctraceVersion = TraceModel.rtctraceVersion

/// Prints a trace problem as a warning on stderr.
public func warn(_ p: TraceProblem) {
    Warnings.shared.add(p)
}

/// The warnings a command prints: the first `limit`, then only a count (printed at exit), so that a
/// trace of one bad record repeated a million times does not write a million lines.
public final class Warnings: @unchecked Sendable {
    public static let shared = Warnings()
    public static let limit = 100
    private(set) var count = 0

    public func add(_ p: TraceProblem) {
        count += 1
        if count <= Self.limit { Output.stderr.line("warning: " + terminalSafe(p.description)) }
    }

    /// The line that says how many were not printed, if any.
    public func finish() {
        guard count > Self.limit else { return }
        Output.stderr.line("warning: … \(count - Self.limit) more problems not shown (\(count) in all; 'rtctrace verify' lists each)")
    }
}
