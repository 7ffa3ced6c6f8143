@_spi(Tools) import Replay
import TraceModel

/// The replay's counted figures that the ratchet of `make test` gates (benchmarks/ratchet.sh,
/// benchmarks/budget.json), read here and nowhere else: when the replay changes how it keeps time or
/// what record its engines read, this file follows, and the budget records the new figure.
public enum ReplayFigures {
    /// How many timers the replay's timer queue fires on the trace at `path`, and its records: the steps an
    /// observer is shown that a route engine timer made (each fired timer makes one). The quality engine's
    /// windows of fixed length are deadlines it closes in order, not timers of the queue: their steps are
    /// not counted.
    public static func timersFired(path: String) throws -> (records: Int, timers: Int) {
        var timers = 0
        let result = try ReplayEntry.run(path: path) { step in
            if step.isRouteTimer { timers += 1 }
        }
        return (result.records, timers)
    }

    /// The stride in bytes of the record the replay's engines read (`MemoryLayout.stride`): the compact
    /// `ReplayRecord`.
    public static var recordStride: Int { MemoryLayout<ReplayRecord>.stride }
}
