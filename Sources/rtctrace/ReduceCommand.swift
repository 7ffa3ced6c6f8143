import Replay
import Reports
import TraceFormat
import TraceTools

/// `rtctrace reduce`: shrink a trace to a small golden trace that still shows the problem.
enum ReduceCommand {
    static let spec = CommandSpec(
        name: "reduce", usage: "reduce TRACE (--finding CODE | --divergence | --expect-fail) -o MIN.trace.zst [--max-replays N] [options]",
        summary: "Shrink a trace to a few records that still show a finding, divergence or failing expectation.",
        options: [("-o", "path", "The reduced trace to create (written atomically)."),
                  ("--finding", "code", "Keep a finding with this code (the most severe occurrence unless --seq)."),
                  ("--seq", "n", "With --finding: keep the occurrence decided by the record with this seq."),
                  ("--salt", "s", "The redaction salt (as for 'rtctrace redact')."),
                  ("--max-replays", "n", "Replays allowed in all (default 2000); the best trace so far is kept.")] + ReplayFlags.options,
        flags: [("--divergence", "Keep the first unexplained route divergence (else the first divergence)."),
                ("--keep-personal-data", "Do not redact the result (it is redacted by default: it is meant for a repository)."),
                ("--expect-fail", "Keep the first failing expect.* record failing."),
                ("--force", "Overwrite OUT if it exists."), strictFlag],
        details: "Delta debugging (ddmin) over the records after the header, then shorter gaps between timestamps;\nseqs are renumbered and expect.* records pinning the problem are appended, ready for traces/.\nSee docs/report.md. Exit: 0 when written, 1 when the trace does not show the problem.")

    static let command = Command(spec: spec) { args in
        guard args.positionals.count == 1 else { throw UsageError(message: "expected one TRACE") }
        guard let out = args.value("-o") else { throw UsageError(message: "missing '-o MIN.trace.zst'") }
        var goals: [ReduceGoal] = []
        if let name = args.value("--finding") {
            guard let code = FindingCode(rawValue: name) else {
                throw UsageError(message: "unknown finding code '\(name)'; known codes: "
                    + FindingCode.allCases.map(\.rawValue).joined(separator: ", "))
            }
            goals.append(.finding(code))
        }
        if args.has("--divergence") { goals.append(.divergence) }
        if args.has("--expect-fail") { goals.append(.expectFail) }
        guard goals.count == 1 else { throw UsageError(message: "give exactly one of --finding CODE, --divergence, --expect-fail") }
        let maxReplays = try args.int("--max-replays", default: 2000)
        guard maxReplays >= 1 else { throw UsageError(message: "'--max-replays' must be ≥ 1") }
        if !args.has("--force") && fileExists(out) { throw CommandFailure(message: "\(out): already exists (use --force to overwrite)") }
        let seq = try args.int64("--seq").map { Int($0) }
        if seq != nil, case .finding = goals[0] {} else if seq != nil { throw UsageError(message: "'--seq' goes with --finding CODE") }
        if let seq, seq < 0 { throw UsageError(message: "'--seq' must be ≥ 0") }
        let options = ReduceOptions(goal: goals[0], maxReplays: maxReplays, replay: try ReplayFlags.parse(args), seq: seq,
                                    redact: !args.has("--keep-personal-data"), salt: args.value("--salt"))
        let strict = args.has("--strict")
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
        try TraceFiles.write(result.records, to: out)
        let o = Output.stdout
        o.line("wrote \(terminalSafe(out)): \(result.keptRecords) records plus header and \(result.records.count - result.keptRecords - 1) expect.* pins (from \(result.originalRecords))")
        o.line("keeps \(terminalSafe(result.problem)); \(result.replays) replays")
        if result.hitReplayBound { err.line("warning: stopped at --max-replays \(maxReplays): the trace may not be minimal") }
        return .success
    }
}
