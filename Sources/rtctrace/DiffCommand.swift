import Analysis
import CommandLineKit
import Replay
import Reports
import SystemLayer
import TraceCodec
import Workflows

/// `rtctrace diff`: where two traces of the same scenario first behave differently, and every difference after.
enum DiffCommand {
    static let json = Option.flag("--json", HelpWords.printTheDifferencesAsJsonSchema)

    static let spec = CommandSpec(
        name: "diff", usage: HelpWords.diffABJsonToleranceMs,
        summary: HelpWords.compareTwoTracesOfOneScenario,
        options: ReplayOptions.commandLine + [json],
        details: HelpWords.recordsArePairedByTypeAnd,
        exits: ExitCodes(failure: HelpWords.theTracesBehaveDifferently, readsTraces: true))

    static let command = Command(spec: spec) { args, context in
        guard args.positionals.count == 2 else { throw UsageError(message: MessageWords.expectedTwoTracesAAndB) }
        guard args.positionals != ["-", "-"] else { throw UsageError(message: MessageWords.standardInputCanBeOnlyOne) }
        let options = ReplayOptions(args)
        var sides: [DiffSide] = []
        for path in args.positionals {
            guard path == "-" || path.hasPrefix("@") || FileSystem.exists(path) else { throw UsageError(message: FileWords.noSuchFile(path)) }
            let trace = try TraceInput.resolve([path], in: context)
            let side: DiffSide
            // A single file that cannot be opened cannot be compared; a session's missing part is a problem of its side.
            do { side = try DiffSide.replay(trace, options: options, unopened: trace.paths.count > 1 ? .isAProblem : .fails, onProblem: context.warn) } catch {
                throw DataError(message: "\(path): \(error)")
            }
            if let why = side.result.unexplainable { throw DataError(message: MessageWords.notComparable(side.file, why)) }
            sides.append(side)
        }
        let diff = TraceDiff.compare(sides[0], sides[1], toleranceMs: options.toleranceMs)
        context.out.write(Renderers.diff(args[json] ? .diffJSON : .diffText)!.render(diff))
        return diff.same ? .success : .failure
    }
}
