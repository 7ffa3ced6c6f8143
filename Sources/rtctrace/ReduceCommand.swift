import Replay
import Reports
import TraceFormat
import TraceTools

/// `rtctrace reduce`: shrink a trace to a small golden trace that still shows the problem.
enum ReduceCommand {
    static let output = Option.output("-o", "path", .trace, "The reduced trace to create (written atomically).")
    static let finding = Option.string("--finding", "code", "Keep a finding with this code (same deciding record as the first).")
    static let maxReplays = Option.integer("--max-replays", "n", OptionRange.count(from: 1),
                                           "Replays allowed in all (default 2000); the best trace so far is kept.")
    static let divergence = Option.flag("--divergence", "Keep the first unexplained route divergence (else the first divergence).")
    static let expectFail = Option.flag("--expect-fail", "Keep the first failing expect.* record failing.")

    static let spec = CommandSpec(
        name: "reduce", usage: "reduce TRACE (--finding CODE | --divergence | --expect-fail) -o MIN.trace.zst [--max-replays N] [options]",
        summary: "Shrink a trace to a few records that still show a finding, divergence or failing expectation.",
        options: [output, finding, maxReplays] + ReplayFlags.options + [divergence, expectFail, CommonOptions.force, CommonOptions.strict],
        details: "Delta debugging (ddmin) over the records after the header, then shorter gaps between timestamps;\nseqs are renumbered and expect.* records pinning the problem are appended, ready for traces/.\nSee docs/report.md. Exit: 0 when written, 1 when the trace does not show the problem.")

    static let command = Command(spec: spec) { args in
        guard args.positionals.count == 1 else { throw UsageError(message: "expected one TRACE") }
        guard let target = try args.output(output, inputs: [("the input TRACE", args.positionals[0])]) else {
            throw UsageError(message: "missing '-o MIN.trace.zst'")
        }
        let out = target.path
        var goals: [ReduceGoal] = []
        if let code = args.string(finding) { goals.append(.finding(code)) }
        if args.flag(divergence) { goals.append(.divergence) }
        if args.flag(expectFail) { goals.append(.expectFail) }
        guard goals.count == 1 else { throw UsageError(message: "give exactly one of --finding CODE, --divergence, --expect-fail") }
        let replayBound = Int(args.integer(maxReplays, default: 2000))
        if !args.flag(CommonOptions.force) && target.exists { throw CommandFailure(message: "\(out): already exists (use --force to overwrite)") }
        let options = ReduceOptions(goal: goals[0], maxReplays: replayBound, replay: ReplayFlags.parse(args))
        let strict = args.flag(CommonOptions.strict)
        var damaged: TraceProblem?
        let records = try TraceFiles.load(args.positionals[0]) { p in
            if strict && damaged == nil { damaged = p }
            warn(p)
        }
        if let damaged { throw CommandFailure(message: damaged.description + " (--strict)") }
        let err = Output.stderr
        let live = err.isTerminal
        let result: ReduceResult
        do {
            result = try Reducer(records: records, options: options) { p in
                guard live else { return }
                err.write("\r\u{1B}[Kreduce: \(p.phase), \(p.replays) replays, \(p.records) records")
                err.flush()
            }.run()
        } catch let e as ReduceError {
            if live { err.write("\r\u{1B}[K") }
            throw CommandFailure(message: "\(args.positionals[0]): \(e.description)")
        }
        if live { err.write("\r\u{1B}[K") }
        try target.replaceTrace { try TraceFiles.write(result.records, to: $0) }
        let o = Output.stdout
        o.line("wrote \(terminalSafe(out)): \(result.keptRecords) records plus header and \(result.records.count - result.keptRecords - 1) expect.* pins (from \(result.originalRecords))")
        o.line("keeps \(terminalSafe(result.problem)); \(result.replays) replays")
        if result.hitReplayBound { err.line("warning: stopped at --max-replays \(replayBound): the trace may not be minimal") }
        return .success
    }
}
