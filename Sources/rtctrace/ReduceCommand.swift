import Analysis
import CommandLineKit
import Reports
import Replay
import TraceCodec
import TraceModel
import Workflows

/// `rtctrace reduce`: shrink a trace to a small golden trace that still shows the problem.
enum ReduceCommand {
    static let output = Option.output("-o", "path", .trace, HelpWords.theReducedTraceToCreateWritten).required("-o MIN.trace.zst")
    static let finding = Option<FindingCode>.parsed("--finding", "code",
                                                    HelpWords.keepAFindingWithThisCode) { name throws(UsageError) in
        guard let code = FindingCode(rawValue: name) else {
            throw UsageError(message: HelpWords.unknownFindingCode(name) + FindingCode.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return code
    }
    static let seq = Option.integer("--seq", "n", 0...(Int64(Int32.max) * 1024),
                                    HelpWords.withFindingKeepTheOccurrenceDecided)
    static let salt = TokenKey.salt(HelpWords.redactionKeyHelp(TokenKey.environmentVariable))
    static let keepPersonalData = Option.flag("--keep-personal-data",
                                              HelpWords.doNotRedactTheResultIt)
    static let maxReplays = Option.integer("--max-replays", "n", OptionRange.count(from: 1),
                                           HelpWords.replaysAllowedInAllDefaultThe)
    static let divergence = Option.flag("--divergence", HelpWords.keepTheFirstUnexplainedRouteDivergence)
    static let expectFail = Option.flag("--expect-fail", HelpWords.keepTheFirstFailingExpectRecord)

    static let spec = CommandSpec(
        name: "reduce", usage: "reduce TRACE... (--finding CODE | --divergence | --expect-fail) -o MIN.trace.zst [--max-replays N] [options]",
        summary: HelpWords.shrinkATraceToAFew,
        options: [output, finding, seq, salt, TokenKey.saltFile, maxReplays] + ReplayOptions.commandLine
            + [divergence, expectFail, keepPersonalData, CommonOptions.force, CommonOptions.strict],
        details: HelpWords.deltaDebuggingDdminOverTheRecords,
        exits: ExitCodes(failure: HelpWords.theTraceDoesNotShowThe, readsTraces: false))

    static let command = Command(spec: spec) { args, context in
        let parts = try TraceInput.resolve(args.positionals, in: context)
        let target = try args.output(output, role: MessageWords.theInputTrace)
        let out = target.path
        var goals: [ReduceGoal] = []
        if let code = args[finding] { goals.append(.finding(code)) }
        if args[divergence] { goals.append(.divergence) }
        if args[expectFail] { goals.append(.expectFail) }
        guard goals.count == 1 else { throw UsageError(message: MessageWords.giveExactlyOneOfFindingCode) }
        let replayBound = Int(args[maxReplays] ?? 2000)
        if !args[CommonOptions.force] && target.exists { throw UsageError(message: FileWords.alreadyExists(out)) }
        let occurrence = args[seq].map { Int($0) }
        if occurrence != nil, case .finding = goals[0] {} else if occurrence != nil { throw UsageError(message: "'--seq' goes with --finding CODE") }
        let options = ReduceOptions(goal: goals[0], maxReplays: replayBound, replay: ReplayOptions(args), seq: occurrence,
                                    redact: !args[keepPersonalData], salt: try TokenKey.key(args, salt: salt, in: context))
        let strict = args[CommonOptions.strict]
        var damaged: TraceProblem?
        let records = try TraceFiles.load(parts) { p in
            if strict && damaged == nil && p.isDamage { damaged = p }
            context.warn(p)
        }
        if let damaged { throw CommandFailure(message: damaged.description + " (--strict)") }
        let err = context.err
        let live = err.isTerminal
        let result: ReduceResult
        do {
            result = try TraceMinimizer(records: records, options: options) { p in
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
        context.out.write(Renderers.reduction(.reduceText)!.render(ReduceReport(written: out, result: result)))
        if result.hitReplayBound { err.line(MessageWords.replayBoundReached(replayBound)) }
        if options.redact && options.salt == nil {
            err.line(MessageWords.oneTimeKeyReduceNote(TokenKey.ways))
        }
        return .success
    }
}
