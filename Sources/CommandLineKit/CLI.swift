import TraceCodec
import TraceModel

/// rtctrace's version, printed by `rtctrace --version` and `rtctrace version` (one constant, in the
/// record model, so that the recorder's bundles name the same version).
public let rtctraceVersion = TraceModel.rtctraceVersion

/// The warnings a command prints on its standard error: the first `limit`, then only a count (printed at
/// the end), so that a trace of one bad record repeated a million times does not write a million lines.
public final class Warnings: @unchecked Sendable {
    public static let limit = 100
    private let err: Output
    private(set) var count = 0

    /// Warnings printed on `err`.
    init(_ err: Output) { self.err = err }

    public func add(_ p: TraceProblem) {
        count += 1
        if count <= Self.limit { err.line("warning: " + terminalSafe(p.description)) }
    }

    /// The line that says how many were not printed, if any.
    public func finish() {
        guard count > Self.limit else { return }
        err.line("warning: … \(count - Self.limit) more problems not shown (\(count) in all; 'rtctrace verify' lists each)")
    }
}
