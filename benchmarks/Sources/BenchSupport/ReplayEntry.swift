import Replay
import TraceCodec
import TraceModel

/// The one place the harness calls the replay, so that a change to the replay's entry points changes
/// this file and nothing else in benchmarks/.
public enum ReplayEntry {
    /// Replays the trace at `path` on this thread (no reading thread), as `explain` does on one core;
    /// `observer` sees every step when given.
    public static func run(path: String, observer: ((ReplayStep) -> Void)? = nil) throws -> ReplayResult {
        try Replay.run(TraceSession(path: path), pipelined: false, observer: observer)
    }
}
