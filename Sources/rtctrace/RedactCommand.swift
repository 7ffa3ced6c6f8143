import Analysis
import CommandLineKit
import SystemLayer
import TraceCodec
import TraceModel
import Workflows

/// `rtctrace redact`: replace personal data with stable keyed tokens, keeping what the replay concludes.
enum RedactCommand {
    static let output = Option.output("-o", "path", .trace, "The redacted trace to create (written atomically), or the folder for a session's parts.")
        .required("-o OUT")
    static let salt = TokenKey.salt("The HMAC key of the tokens (also --salt-file, or \(TokenKey.environmentVariable); without a key, a random one used once).")

    static let merge = Option.flag("--merge", "With the parts of a session: write one trace holding every part (default: one redacted file per part).")

    static let spec = CommandSpec(
        name: "redact", usage: "redact TRACE... -o OUT [--merge] [--salt S | --salt-file PATH] [--force]",
        summary: "Replace personal data (names, ids, uids, track ids, rooms, log text) with stable tokens.",
        options: [output, merge, salt, TokenKey.saltFile, CommonOptions.force],
        details: "Device names and ids, uids, track ids, channel and room names, the bundle id, sdk.log messages and\nany value of an open field the format does not list become tokens like dev-3fa2b1c9, keyed by --salt,\n--salt-file or RTCTRACE_SALT (without one, a random key used once); seq, t and structure are kept. The redacted trace is replayed and\nmust give the same verdicts, divergences and findings (exit 1 otherwise). See docs/report.md.\nTRACE may be the parts of one recorded session (in any order, their folder, or @LIST): one token set\nfor all of them, and by default OUT is a folder that gets one redacted file per part (part-N.trace.zst, N the part\nnumber its header gives), still one session; each part keeps its header and checkpoint, so a part can still be replayed alone.\nWith --merge OUT is one trace holding every part in order.",
        exits: ExitCodes(failure: "the redacted trace would replay differently (different verdicts, divergences or findings)", readsTraces: false))

    static let command = Command(spec: spec) { args in
        // The input is read three times (the order of uids, the redaction, the replay that compares): one
        // that can be read only once (standard input, a pipe) is copied first.
        for p in args.positionals where !p.hasPrefix("@") {
            do { try InputSpool.spoolIfReadOnce(p) } catch { throw commandError(error) }
        }
        let parts = try TraceInput.resolve(args.positionals)
        let key = try TokenKey.key(args, salt: salt)
        if args[merge], let missing = RecordCommand.missingParts(parts) { throw CommandFailure(message: missing) }
        let targets = try args.sessionOutputs(output, parts: parts, perPart: !args[merge], role: "an input TRACE", unit: "file",
                                              force: args[CommonOptions.force])
        let report: RedactionReport
        do {
            report = try Redaction.run(parts, outputs: targets.map(\.path), salt: key, onProblem: warn)
        } catch {
            throw commandError(error)
        }
        for t in targets { t.release() }
        let err = Output.stderr
        if report.usedOneTimeKey {
            err.line("warning: no key given (\(TokenKey.ways)): the tokens are made with a random key used once, so they match within "
                + "this output but not with another run's or with triage rows; give a key kept with the case (or the fleet's) to join them")
        }
        let before = try TraceInput.replay(parts.paths, args)
        let after = try TraceInput.replay(targets.map(\.path), args)
        let diffs = Redaction.differences(before, after)
        let o = Output.stdout
        for t in targets { o.line("wrote \(terminalSafe(t.path))") }
        o.line("\(report.records) records" + (targets.count > 1 ? ", one redacted file per part of session \(terminalSafe(parts.id ?? "?"))" : ""))
        if report.changed.isEmpty { o.line("no personal fields found") }
        for c in report.changed { o.line("  \(c.kind): \(c.count) field\(c.count == 1 ? "" : "s") replaced") }
        guard diffs.isEmpty else {
            throw CommandFailure(message: "the redacted trace replays differently: " + diffs.joined(separator: "; "))
        }
        o.line("replay unchanged: \(after.verdicts.count) verdicts, \(after.divergenceCount) divergences, \(after.findings.count) findings")
        return .success
    }
}
