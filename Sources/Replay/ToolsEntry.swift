@_spi(Tools) import TraceCodec

// The Tools SPI of Replay (docs/architecture.md, "The Tools SPI"): the replay as fuzz/ and benchmarks/ run
// it, for packages of their own that cannot see this package's `package` declarations. Nothing else uses
// it. The result and the steps travel as opaque values the Reports and Analysis entries take back.

/// A replay's result for a tool: a `ReplayResult`, opaque but for what the tools count.
@_spi(Tools) public struct ToolsReplayResult {
    /// The result, for the other modules' entries.
    package let result: ReplayResult

    /// Records replayed.
    @_spi(Tools) public var records: Int { result.records }
}

/// One step of a replay as its observer sees it, for a tool: a `ReplayStep`, opaque but for its timer.
@_spi(Tools) public struct ToolsReplayStep {
    /// The step, for the other modules' entries.
    package let step: ReplayStep

    /// Whether a timer of the route engine's timer queue made the step (each fired timer makes one).
    @_spi(Tools) public var isRouteTimer: Bool {
        if case .route? = step.timer { return true }
        return false
    }
}

/// The replay for a tool.
@_spi(Tools) public enum ToolsReplay {
    /// Replays the trace at `path` (`Replay.run` of its `TraceSession`: on this thread unless `pipelined`);
    /// `observer` sees every step when given.
    @_spi(Tools) public static func run(path: String, limits: ToolsReaderLimits = .standard, pipelined: Bool = false,
                                        observer: ((ToolsReplayStep) -> Void)? = nil) throws -> ToolsReplayResult {
        let seen = observer.map { o in { (step: ReplayStep) in o(ToolsReplayStep(step: step)) } }
        return ToolsReplayResult(result: try Replay.run(TraceSession(path: path), limits: limits.limits, pipelined: pipelined, observer: seen))
    }
}
