import CommandLineKit
import Replay
import Reports
import Workflows

/// `rtctrace replay`: the timeline.
enum ReplayCommand {
    static let json = Option.flag("--json", "JSON Lines: one {\"kind\":\"step\"} object per record, then one {\"kind\":\"result\"}.")
    static let changesOnly = Option.flag("--changes-only", "Leave out records that changed nothing and produced nothing.")
    static let lane = Option.choice("--lane", "field", StateField.self,
                                    "Only steps that change this state field (repeatable), e.g. --lane devices --lane predictedRoute.")
    .repeatable()

    static let spec = CommandSpec(
        name: "replay", usage: "replay TRACE|PARTS... [--json] [--changes-only] [--type PREFIX] [--from MS] [--to MS] [--lane FIELD] [options]",
        summary: "Replay a trace: each record with the engine state it changed, verdicts inline, divergences.",
        options: ReplayOptions.commandLine + [json, changesOnly, CatCommand.type, CatCommand.from, CatCommand.to, lane, CommonOptions.strict],
        details: "--type, --from and --to pick steps as they pick records in 'rtctrace cat'; timers and the end of the trace\n"
            + "have no type. The replay itself always covers the whole trace.",
        exits: ExitCodes(failure: nil, readsTraces: true))

    static let command = Command(spec: spec) { args, context in
        guard !args.positionals.isEmpty else { throw UsageError(message: "expected one TRACE (or the parts of one session)") }
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
    static let needsAttention = "the summary says 'Needs attention', 'Partial' or 'Not all of it could be read': a finding of severity warning or error, "
        + "a route divergence, a call that did not take effect in the end (ineffective, superseded, dropped, still pending, rejected), "
        + "a part of a session judged without the parts before it, or input not read (\(TraceInput.unreadInput)); info findings alone and calls that took effect late are fine (0)"

    static let json = Option.flag("--json", "Print the result as JSON (schema rtctrace.explain/1, see docs/json.md).")

    static let spec = CommandSpec(
        name: "explain", usage: "explain TRACE|PARTS... [--json] [options]",
        summary: "Explain a trace: calls that did not take effect and why, divergences, findings, quality.",
        options: ReplayOptions.commandLine + [json, CommonOptions.strict, WhatIfCommand.verifyAdvice],
        details: "Headings are bold on a terminal, unless NO_COLOR is set.",
        exits: ExitCodes(failure: ExplainCommand.needsAttention, readsTraces: true))

    static let command = Command(spec: spec) { args, context in
        guard !args.positionals.isEmpty else { throw UsageError(message: "expected one TRACE (or the parts of one session)") }
        let (result, checks) = args[WhatIfCommand.verifyAdvice] ? try WhatIfCommand.checkAdvice(args, in: context) : (try TraceInput.replay(args.positionals, args, in: context), nil)
        let renderer = Renderers.replay(args[json] ? .explainJSON : .explainText, .init(colour: context.colour))!
        context.out.write(renderer.render(ReplayReport(result, checks: checks)))
        try TraceInput.requireExplainable(result)
        return result.hasIssues ? .failure : .success
    }
}
