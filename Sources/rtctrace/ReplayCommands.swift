import QualityEngine
import Replay
import Reports
import RouteEngine
import TraceFormat

let replayCommands: [Command] = [ReplayCommand.command, ExplainCommand.command, CheckCommand.command,
                                 ReviewCommand.make(accept: true), ReviewCommand.make(accept: false)]

/// The options every replaying command shares: each tunable the contract names.
enum ReplayFlags {
    static let options: [(String, String, String)] = [
        ("--tolerance-ms", "ms", "A divergence counts once it lasts longer than this (X2; default 500)."),
        ("--retry-delay-ms", "ms", "Recovery retry after the system call ends (I3, D; default 2000)."),
        ("--recovery-window-ms", "ms", "interruption.notRecovered window (default 5000)."),
        ("--match-window-ms", "ms", "quality.spuriousChange / missedChange window (default 1000)."),
        ("--flapping-changes", "n", "quality.flapping: more than N level changes… (default 4)."),
        ("--flapping-window-ms", "ms", "…within this window (default 30000)."),
        ("--layer-timeout-ms", "ms", "L3 confirmation timeout (default 3000)."),
        ("--hysteresis", "k/n/holdMs", "Also model a 'poor network' prompt raised on k of n reports, cleared after holdMs (e.g. 3/5/10000)."),
    ]

    static func parse(_ a: Arguments) throws -> ReplayOptions {
        var o = ReplayOptions()
        func ms(_ name: String, _ apply: (Int64) -> Void) throws {
            if let v = try a.int64(name) {
                guard v >= 0 else { throw UsageError(message: "'\(name)' must be ≥ 0") }
                apply(v)
            }
        }
        try ms("--tolerance-ms") { o.toleranceMs = $0 }
        try ms("--retry-delay-ms") { o.route.retryDelayMs = $0 }
        try ms("--recovery-window-ms") { o.route.recoveryWindowMs = $0 }
        try ms("--match-window-ms") { o.quality.matchWindowMs = $0 }
        try ms("--flapping-window-ms") { o.quality.flappingWindowMs = $0 }
        try ms("--layer-timeout-ms") { o.quality.layerConfirmTimeoutMs = $0 }
        if a.value("--flapping-changes") != nil { o.quality.flappingChanges = try a.int("--flapping-changes", default: 4) }
        if let h = a.value("--hysteresis") {
            let parts = h.split(separator: "/").compactMap { Int($0) }
            guard parts.count == 3, parts[0] >= 1, parts[1] >= parts[0], parts[1] <= 64, parts[2] >= 0 else {
                throw UsageError(message: "'--hysteresis' expects k/n/holdMs with 1 ≤ k ≤ n ≤ 64, e.g. 3/5/10000")
            }
            o.quality.hysteresis = Hysteresis(k: parts[0], n: parts[1], holdMs: Int64(parts[2]))
        }
        return o
    }

    /// Refuses a result with nothing to judge by (not a trace, no header, no records): exit 65.
    static func requireExplainable(_ r: ReplayResult) throws {
        guard let why = r.unexplainable else { return }
        throw DataError(message: "\(r.file): cannot be explained: \(why)")
    }

    /// Replays one trace, warning on stderr about reader problems.
    static func replay(_ path: String, _ a: Arguments, observer: ((ReplayStep) -> Void)? = nil) throws -> ReplayResult {
        let options = try parse(a)
        do {
            return try Replay.run(path: path, options: options, strict: a.has("--strict"), observer: observer, onProblem: warn)
        } catch let p as TraceProblem {
            throw CommandFailure(message: p.description + " (--strict)")
        } catch let e as CommandFailure {
            throw e
        } catch {
            throw CommandFailure(message: "\(error)")
        }
    }
}

/// `rtctrace replay`: the timeline.
enum ReplayCommand {
    static let spec = CommandSpec(
        name: "replay", usage: "replay TRACE [--json] [--changes-only] [options]",
        summary: "Replay a trace: each record with the engine state it changed, verdicts inline, divergences.",
        options: ReplayFlags.options,
        flags: [("--json", "JSON Lines: one {\"kind\":\"step\"} object per record, then one {\"kind\":\"result\"}."),
                ("--changes-only", "Leave out records that changed nothing and produced nothing."), strictFlag])

    static let command = Command(spec: spec) { args in
        guard args.positionals.count == 1 else { throw UsageError(message: "expected one TRACE") }
        let json = args.has("--json"), changesOnly = args.has("--changes-only")
        let out = Output.stdout
        let result = try ReplayFlags.replay(args.positionals[0], args) { step in
            if changesOnly && step.changes.isEmpty && step.verdicts.isEmpty && step.findings.isEmpty && step.expectation == nil { return }
            if json { out.line(TimelineText.json(step)) } else { out.write(TimelineText.line(step)) }
        }
        if json {
            out.line("{\"kind\":\"result\",\"result\":" + ResultJSON.render(result) + "}")
        } else {
            out.write("\n" + TimelineText.divergences(result))
        }
        try ReplayFlags.requireExplainable(result)
        return .success
    }
}

/// `rtctrace explain`: the support engineer's answer.
enum ExplainCommand {
    static let spec = CommandSpec(
        name: "explain", usage: "explain TRACE [--json] [options]",
        summary: "Explain a trace: calls that did not take effect and why, divergences, findings, quality.",
        options: ReplayFlags.options,
        flags: [("--json", "Print the result as JSON (schema rtctrace.explain/1, see docs/json.md)."), strictFlag],
        details: "Exit status: 0 when nothing is wrong, 1 when there are warnings or divergences, 65 when the input\nis not a trace or holds nothing to judge (no header, no records).")

    static let command = Command(spec: spec) { args in
        guard args.positionals.count == 1 else { throw UsageError(message: "expected one TRACE") }
        let result = try ReplayFlags.replay(args.positionals[0], args)
        if args.has("--json") {
            Output.stdout.line(ResultJSON.render(result))
        } else {
            Output.stdout.write(ExplainText.render(result, colour: Output.stdout.isTerminal))
        }
        try ReplayFlags.requireExplainable(result)
        return result.hasIssues ? .failure : .success
    }
}
