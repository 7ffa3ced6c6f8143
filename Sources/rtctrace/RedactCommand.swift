import Analysis
import CommandLineKit
import TraceModel

/// `rtctrace redact`: replace personal data with stable keyed tokens, keeping what the replay concludes.
enum RedactCommand {
    static let output = Option.output("-o", "path", .trace, "The redacted trace to create (written atomically).")
        .required("-o OUT.trace.zst")
    static let salt = Option.string("--salt", "s", nonEmpty: true,
                                    "The HMAC key of the tokens (default: a fixed public salt; a per-case salt is better).")

    static let spec = CommandSpec(
        name: "redact", usage: "redact TRACE -o OUT.trace.zst [--salt S] [--force]",
        summary: "Replace personal data (names, ids, uids, track ids, rooms, log text) with stable tokens.",
        options: [output, salt, CommonOptions.force],
        details: "Device names and ids, uids, track ids, channel and room names, the bundle id and sdk.log messages\nbecome tokens like dev-3fa2b1c9; seq, t and structure are kept. The redacted trace is replayed and\nmust give the same verdicts, divergences and findings. See docs/report.md.",
        exits: ExitCodes(failure: "the redacted trace would replay differently (different verdicts, divergences or findings)", readsTraces: false))

    static let command = Command(spec: spec) { args in
        guard args.positionals.count == 1 else { throw UsageError(message: "expected one TRACE") }
        let input = args.positionals[0]
        let target = try args.output(output, inputs: [("the input TRACE", input)])
        let out = target.path
        if !args[CommonOptions.force] && target.exists { throw UsageError(message: "\(out): already exists (use --force to overwrite)") }
        let key = args[salt]
        let report: RedactionReport
        do { report = try target.replaceTrace { try Redaction.run(input: input, output: $0, salt: key, onProblem: warn) } } catch {
            throw commandError(error)
        }
        let err = Output.stderr
        if report.usedDefaultSalt {
            err.line("warning: using the default public salt: anyone can recompute the token of a guessed value; pass --salt with a per-case secret")
        }
        let before = try ReplayFlags.replay(input, args)
        let after = try ReplayFlags.replay(out, args)
        let diffs = Redaction.differences(before, after)
        let o = Output.stdout
        o.line("wrote \(terminalSafe(out)): \(report.records) records")
        if report.changed.isEmpty { o.line("no personal fields found") }
        for c in report.changed { o.line("  \(c.kind): \(c.count) field\(c.count == 1 ? "" : "s") replaced") }
        guard diffs.isEmpty else {
            throw CommandFailure(message: "the redacted trace replays differently: " + diffs.joined(separator: "; "))
        }
        o.line("replay unchanged: \(after.verdicts.count) verdicts, \(after.divergenceCount) divergences, \(after.findings.count) findings")
        return .success
    }
}
