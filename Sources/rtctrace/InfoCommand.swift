import Analysis
import CommandLineKit
import Reports
import Workflows

/// `rtctrace info`: header, duration, counts, frames, sizes, gaps, unknown types, recovery events.
enum InfoCommand {
    static let json = Option.flag("--json", HelpWords.printTheSummaryAsJson)

    static let spec = CommandSpec(
        name: "info", usage: "info TRACE|PARTS... [--json] [--strict]",
        summary: HelpWords.summariseATraceHeaderDurationRecord,
        options: [json, CommonOptions.strict],
        exits: ExitCodes(failure: nil, readsTraces: true))

    static let command = Command(spec: spec) { args, context in
        let strict = args[CommonOptions.strict]
        let renderer = Renderers.traceSummary(args[json] ? .infoJSON : .infoText)!
        // The parts of one session are summarised in part order (JSON: one object per part, a line each).
        let parts = try TraceInput.resolve(args.positionals, in: context)
        var problems = 0
        for (i, path) in parts.paths.enumerated() {
            let s: TraceSummary
            do { s = try TraceSummary.read(path) } catch { throw commandError(error) }
            // An archive or a file that is not a trace is no trace to summarise (it exited 0).
            if s.records == 0, let p = s.problems.first(where: { $0.kind == .notATrace }) { throw DataError(message: p.description) }
            problems += s.damageCount
            if !args[json] { for p in s.problems { context.warn(p) } }
            context.out.write(renderer.item(s, at: i))
        }
        return strict && problems > 0 ? .failure : .success
    }
}
