@_spi(Tools) import Replay

/// The one place the harness calls the replay, so that a change to the replay's entry points changes
/// this file (and the Tools SPI it calls) and nothing else in benchmarks/.
package enum ReplayEntry {
    /// Replays the trace at `path` on this thread (no reading thread), as `explain` does on one core;
    /// `observer` sees every step when given.
    package static func run(path: String, observer: ((ToolsReplayStep) -> Void)? = nil) throws -> ToolsReplayResult {
        try ToolsReplay.run(path: path, pipelined: false, observer: observer)
    }
}
