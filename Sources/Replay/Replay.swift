import TraceCodec
import TraceModel

/// Replays trace files.
public enum Replay {
    /// Reads the trace at `path` and replays it; reader problems are recorded in the result
    /// (and passed to `onProblem`), never fatal unless `strict`.
    public static func run(path: String, options: ReplayOptions = ReplayOptions(), limits: ReaderLimits = .standard,
                           strict: Bool = false, observer: ((ReplayStep) -> Void)? = nil,
                           onProblem: (TraceProblem) -> Void = { _ in }) throws -> ReplayResult {
        let reader = try TraceReader(path: path, limits: limits)
        let replayer = Replayer(file: path, options: options)
        replayer.observer = observer
        var problems: [TraceProblem] = []
        var count = 0
        try reader.forEach(record: replayer.feed, problem: { p in
            if strict { throw p }
            count += 1
            if problems.count < 1000 { problems.append(p) }
            onProblem(p)
        })
        var result = replayer.finish()
        result.problems = problems
        result.problemCount = count
        result.unknownTypes = reader.unknownTypes
        return result
    }

    /// Replays records already in memory (tests, reduction).
    public static func run(records: [Record], file: String = "<memory>", options: ReplayOptions = ReplayOptions(),
                           observer: ((ReplayStep) -> Void)? = nil) -> ReplayResult {
        let replayer = Replayer(file: file, options: options)
        replayer.observer = observer
        for r in records { replayer.feed(r) }
        return replayer.finish()
    }
}
