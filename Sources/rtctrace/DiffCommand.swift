import Analysis
import CommandLineKit
import Replay
import Reports
import SystemLayer
import Workflows

/// `rtctrace diff`: where two traces of the same scenario first behave differently, and every difference after.
enum DiffCommand {
    static let json = Option.flag("--json", "Print the differences as JSON (schema rtctrace.diff/1, see docs/json.md).")

    static let spec = CommandSpec(
        name: "diff", usage: "diff A B [--json] [--tolerance-ms MS] [options]",
        summary: "Compare two traces of one scenario: verdicts, routes, divergences, findings and quality, first difference first.",
        options: ReplayOptions.commandLine + [json],
        details: """
        Records are paired by type and identifying fields (target, device id, state, event, layer ids), not by
        time; states that differ for no longer than the tolerance do not count. A or B may be the parts of one
        recorded session, as their folder or @LIST: each side is replayed as one trace. One of them may be
        '-', standard input.
        """,
        exits: ExitCodes(failure: "the traces behave differently", readsTraces: true))

    static let command = Command(spec: spec) { args, context in
        guard args.positionals.count == 2 else { throw UsageError(message: "expected two traces, A and B") }
        guard args.positionals != ["-", "-"] else { throw UsageError(message: "standard input ('-') can be only one of A and B") }
        let options = ReplayOptions(args)
        var sides: [DiffSide] = []
        for path in args.positionals {
            guard path == "-" || path.hasPrefix("@") || FileSystem.exists(path) else { throw UsageError(message: "\(path): no such file") }
            let trace = try TraceInput.resolve([path], in: context)
            let side: DiffSide
            // A single file that cannot be opened cannot be compared; a session's missing part is a problem of its side.
            do { side = try DiffSide.replay(trace, options: options, unopened: trace.paths.count > 1 ? .isAProblem : .fails, onProblem: context.warn) } catch {
                throw DataError(message: "\(path): \(error)")
            }
            if let why = side.result.unexplainable { throw DataError(message: "\(side.file): cannot be compared: \(why)") }
            sides.append(side)
        }
        let diff = TraceDiff.compare(sides[0], sides[1], toleranceMs: options.toleranceMs)
        context.out.write(Renderers.diff(args[json] ? .diffJSON : .diffText)!.render(diff))
        return diff.same ? .success : .failure
    }
}
