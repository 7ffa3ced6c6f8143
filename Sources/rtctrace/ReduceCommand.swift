import Analysis
import CommandLineKit
import Replay
import TraceCodec
import TraceModel
import Workflows

/// `rtctrace reduce`: shrink a trace to a small golden trace that still shows the problem.
enum ReduceCommand {
    static let output = Option.output("-o", "path", .trace, "The reduced trace to create (written atomically).").required("-o MIN.trace.zst")
    static let finding = Option<FindingCode>.parsed("--finding", "code",
                                                    "Keep a finding with this code (the most severe occurrence unless --seq).") { name throws(UsageError) in
        guard let code = FindingCode(rawValue: name) else {
            throw UsageError(message: "unknown finding code '\(name)'; known codes: " + FindingCode.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return code
    }
    static let seq = Option.integer("--seq", "n", 0...(Int64(Int32.max) * 1024),
                                    "With --finding: keep the occurrence decided by the record with this seq.")
    static let salt = TokenKey.salt("The redaction key (as for 'rtctrace redact': also --salt-file, or \(TokenKey.environmentVariable)).")
    static let keepPersonalData = Option.flag("--keep-personal-data",
                                              "Do not redact the result (it is redacted by default: it is meant for a repository).")
    static let maxReplays = Option.integer("--max-replays", "n", OptionRange.count(from: 1),
                                           "Replays allowed in all (default 2000); the best trace so far is kept.")
    static let divergence = Option.flag("--divergence", "Keep the first unexplained route divergence (else the first divergence).")
    static let expectFail = Option.flag("--expect-fail", "Keep the first failing expect.* record failing.")

    static let spec = CommandSpec(
        name: "reduce", usage: "reduce TRACE... (--finding CODE | --divergence | --expect-fail) -o MIN.trace.zst [--max-replays N] [options]",
        summary: "Shrink a trace to a few records that still show a finding, divergence or failing expectation.",
        options: [output, finding, seq, salt, TokenKey.saltFile, maxReplays] + ReplayOptions.commandLine
            + [divergence, expectFail, keepPersonalData, CommonOptions.force, CommonOptions.strict],
        details: "Delta debugging (ddmin) over the records after the header, then shorter gaps between timestamps;\nseqs are renumbered and expect.* records pinning the problem are appended, ready for traces/.\nTRACE may be the parts of one recorded session (in any order, their folder, or @LIST): the reduced\ntrace is one self-contained trace. See docs/report.md.",
        exits: ExitCodes(failure: "the trace does not show the problem asked for (nothing is written)", readsTraces: false))

    static let command = Command(spec: spec) { args in
        let parts = try TraceInput.resolve(args.positionals)
        let target = try args.output(output, role: "the input TRACE")
        let out = target.path
        var goals: [ReduceGoal] = []
        if let code = args[finding] { goals.append(.finding(code)) }
        if args[divergence] { goals.append(.divergence) }
        if args[expectFail] { goals.append(.expectFail) }
        guard goals.count == 1 else { throw UsageError(message: "give exactly one of --finding CODE, --divergence, --expect-fail") }
        let replayBound = Int(args[maxReplays] ?? 2000)
        if !args[CommonOptions.force] && target.exists { throw UsageError(message: "\(out): already exists (use --force to overwrite)") }
        let occurrence = args[seq].map { Int($0) }
        if occurrence != nil, case .finding = goals[0] {} else if occurrence != nil { throw UsageError(message: "'--seq' goes with --finding CODE") }
        let options = ReduceOptions(goal: goals[0], maxReplays: replayBound, replay: ReplayOptions(args), seq: occurrence,
                                    redact: !args[keepPersonalData], salt: try TokenKey.key(args, salt: salt))
        let strict = args[CommonOptions.strict]
        var damaged: TraceProblem?
        let records = try TraceFiles.load(parts) { p in
            if strict && damaged == nil && p.isDamage { damaged = p }
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
            throw CommandFailure(message: "\(parts.paths[0]): \(e.description)")
        }
        if live { err.write("\r\u{1B}[K") }
        try target.replaceTrace { try TraceFiles.write(result.records, to: $0) }
        let o = Output.stdout
        o.line("wrote \(terminalSafe(out)): \(result.keptRecords) records plus header and \(result.records.count - result.keptRecords - 1) expect.* pins (from \(result.originalRecords))")
        o.line("keeps \(terminalSafe(result.problem)); \(result.replays) replays")
        if result.hitReplayBound { err.line("warning: stopped at --max-replays \(replayBound): the trace may not be minimal") }
        if options.redact && options.salt == nil {
            err.line("note: no key given (\(TokenKey.ways)): the reduced trace's tokens are made with a random key used once")
        }
        return .success
    }
}
