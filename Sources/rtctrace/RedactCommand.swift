import Analysis
import CommandLineKit
import Reports
import SystemLayer
import TraceCodec
import TraceModel
import Workflows

/// `rtctrace redact`: replace personal data with stable keyed tokens, keeping what the replay concludes.
enum RedactCommand {
    static let output = Option.output("-o", "path", .trace, HelpWords.theRedactedTraceToCreateWritten)
        .required("-o OUT")
    static let salt = TokenKey.salt(HelpWords.saltHelp(TokenKey.environmentVariable))

    static let merge = Option.flag("--merge", HelpWords.redactMergeHelp)

    static let spec = CommandSpec(
        name: "redact", usage: "redact TRACE... -o OUT [--merge] [--salt S | --salt-file PATH] [--force]",
        summary: HelpWords.replacePersonalDataNamesIdsUids,
        options: [output, merge, salt, TokenKey.saltFile, CommonOptions.force],
        details: HelpWords.deviceNamesAndIdsUidsTrack,
        exits: ExitCodes(failure: HelpWords.theRedactedTraceWouldReplayDifferently, readsTraces: false))

    static let command = Command(spec: spec) { args, context in
        // The input is read three times (the order of uids, the redaction, the replay that compares): one
        // that can be read only once (standard input, a pipe) is copied first.
        for p in args.positionals where !p.hasPrefix("@") {
            do { try InputSpool.spoolIfReadOnce(p) } catch { throw commandError(error) }
        }
        let parts = try TraceInput.resolve(args.positionals, in: context)
        let key = try TokenKey.key(args, salt: salt, in: context)
        if args[merge], let missing = RecordCommand.missingParts(parts) { throw CommandFailure(message: missing) }
        let targets = try args.sessionOutputs(output, parts: parts, perPart: !args[merge], role: MessageWords.anInputTrace, unit: "file",
                                              force: args[CommonOptions.force])
        let redaction: RedactionReport
        do {
            redaction = try Redaction.run(parts, outputs: targets.map(\.path), salt: key, onProblem: context.warn)
        } catch {
            throw commandError(error)
        }
        for t in targets { t.release() }
        let err = context.err
        if redaction.usedOneTimeKey {
            err.line(MessageWords.oneTimeKeyRedactWarning(TokenKey.ways)
                + MessageWords.thisOutputButNotWithAnother)
        }
        let before = try TraceInput.replay(parts.paths, args, in: context)
        let after = try TraceInput.replay(targets.map(\.path), args, in: context)
        let diffs = Redaction.differences(before, after)
        // The report says what was written and replaced; the replay's verdict only when it is unchanged.
        let report = RedactReport(written: targets.map(\.path), session: parts.id, redaction: redaction, unchanged: diffs.isEmpty ? after : nil)
        context.out.write(Renderers.redaction(.redactText)!.render(report))
        guard diffs.isEmpty else {
            throw CommandFailure(message: MessageWords.theRedactedTraceReplaysDifferently + diffs.joined(separator: "; "))
        }
        return .success
    }
}
