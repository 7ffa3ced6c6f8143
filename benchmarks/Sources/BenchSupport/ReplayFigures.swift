import Replay
import TraceModel

/// The replay's counted figures that the ratchet of `make test` gates (benchmarks/ratchet.sh,
/// benchmarks/budget.json), read here and nowhere else: when the replay changes how it keeps time or
/// what record its engines read, this file follows, and the budget records the new figure.
public enum ReplayFigures {
    /// How many timers the replay fires on the trace at `path`, and its records: the steps an observer
    /// is shown that a timer made (each fired timer makes one). A window closed as a deadline rather than
    /// fired from the timer queue should not count here once the replay has them: count what the queue
    /// fires.
    public static func timersFired(path: String) throws -> (records: Int, timers: Int) {
        var timers = 0
        let result = try ReplayEntry.run(path: path) { step in
            if step.timer != nil { timers += 1 }
        }
        return (result.records, timers)
    }

    /// The stride in bytes of the record the replay's engines read (`MemoryLayout.stride`): today the
    /// decoder's `Record`.
    public static var recordStride: Int { MemoryLayout<Record>.stride }
}
