import CommandLineKit
import Replay
import Reports
import Workflows

/// `rtctrace replay`: the timeline.
enum ReplayCommand {
    static let json = Option.flag("--json", HelpWords.replayJSON)
    static let changesOnly = Option.flag("--changes-only", HelpWords.leaveOutRecordsThatChangedNothing)
    static let lane = Option.choice("--lane", "field", StateField.self,
                                    HelpWords.onlyStepsThatChangeThisState)
    .repeatable()

    static let spec = CommandSpec(
        name: "replay", usage: "replay TRACE|PARTS... [--json] [--changes-only] [--type PREFIX] [--from MS] [--to MS] [--lane FIELD] [options]",
        summary: HelpWords.replayATraceEachRecordWith,
        options: ReplayOptions.commandLine + [json, changesOnly, CatCommand.type, CatCommand.from, CatCommand.to, lane, CommonOptions.strict],
        details: HelpWords.typeFromAndToPickSteps
            + HelpWords.haveNoTypeTheReplayItself,
        exits: ExitCodes(failure: nil, readsTraces: true))

    static let command = Command(spec: spec) { args, context in
        guard !args.positionals.isEmpty else { throw UsageError(message: MessageWords.expectedOneTraceOrTheParts) }
        let asJSON = args[json], onlyChanges = args[changesOnly]
        let prefixes = args[CatCommand.type], first = args[CatCommand.from], last = args[CatCommand.to]
        let lanes = Set(args[lane])
        let out = context.out
        let renderer = Renderers.replay(asJSON ? .timelineJSON : .timelineText, .init(emit: { out.write($0) }))!
        let observe = renderer.replayObserver
        let result = try TraceInput.replay(args.positionals, args, in: context) { step in
            if onlyChanges && step.changes.isEmpty && step.verdicts.isEmpty && step.findings.isEmpty && step.expectation == nil { return }
            if let first, step.t < first { return }
            if let last, step.t > last { return }
            if !prefixes.isEmpty {
                guard let type = step.record?.type, prefixes.contains(where: { type.hasPrefix($0) }) else { return }
            }
            if !lanes.isEmpty, !step.changes.contains(where: lanes.contains) { return }
            observe?(step)
        }
        out.write(renderer.render(ReplayReport(result)))
        try TraceInput.requireExplainable(result)
        return .success
    }
}

/// `rtctrace explain`: the support engineer's answer.
enum ExplainCommand {
    /// When explain answers no: what its summary's last line says, and why.
    static let needsAttention = MessageWords.theSummarySaysNeedsAttentionPartial
        + MessageWords.aRouteDivergenceACallThat
        + MessageWords.explainFailureCauses(TraceInput.unreadInput)

    static let json = Option.flag("--json", HelpWords.printTheResultAsJsonSchema)

    static let spec = CommandSpec(
        name: "explain", usage: "explain TRACE|PARTS... [--json] [options]",
        summary: HelpWords.explainATraceCallsThatDid,
        options: ReplayOptions.commandLine + [json, CommonOptions.strict, WhatIfCommand.verifyAdvice],
        details: HelpWords.headingsAreBoldOnATerminal,
        exits: ExitCodes(failure: ExplainCommand.needsAttention, readsTraces: true))

    static let command = Command(spec: spec) { args, context in
        guard !args.positionals.isEmpty else { throw UsageError(message: MessageWords.expectedOneTraceOrTheParts) }
        let (result, checks) = args[WhatIfCommand.verifyAdvice] ? try WhatIfCommand.checkAdvice(args, in: context) : (try TraceInput.replay(args.positionals, args, in: context), nil)
        let renderer = Renderers.replay(args[json] ? .explainJSON : .explainText, .init(colour: context.colour))!
        // In chunks as the renderer makes them: `--json`'s document of megabytes goes out as its bytes.
        _ = try renderer.write(ReplayReport(result, checks: checks)) { context.out.write(bytes: $0.bindMemory(to: UInt8.self)) }
        try TraceInput.requireExplainable(result)
        return result.hasIssues ? .failure : .success
    }
}
