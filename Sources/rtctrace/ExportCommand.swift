import CommandLineKit
import Replay
import Reports
import SystemLayer
import TraceModel
import Workflows

/// `rtctrace export`: the replay as a Chrome Trace Event file for Perfetto or chrome://tracing.
enum ExportCommand {
    static let format = Option.choice("--format", "format", among: ReportFormat.written(by: "export").filter { $0.info.option == "--format" },
                                      HelpWords.theExportFormatOnlyChromePerfetto)
    static let output = Option.output("-o", "file", .document, HelpWords.theJsonFileToWriteAtomically)
        .required("-o TRACE.json")

    static let spec = CommandSpec(
        name: "export", usage: "export TRACE|PARTS... --format chrome -o TRACE.json [options]",
        summary: HelpWords.exportTheReplaySLanesRecords,
        options: [format, output] + ReplayOptions.commandLine + [CommonOptions.strict],
        details: HelpWords.openTheFileAtHttpsUi,
        exits: ExitCodes(failure: nil, readsTraces: true))

    static let command = Command(spec: spec) { args, context in
        guard !args.positionals.isEmpty else { throw UsageError(message: MessageWords.expectedOneTraceOrTheParts) }
        let target = try args.output(output, role: MessageWords.theInputTrace)
        let renderer = Renderers.replay(args[format] ?? .chrome)!
        let result = try TraceInput.replay(args.positionals, args, in: context, observer: renderer.replayObserver)
        try TraceInput.requireExplainable(result)
        // Streamed as it is made (the Chrome export within a budget proportional to the input, docs/report.md).
        let written = try target.write(in: context) { sink in try renderer.write(ReplayReport(result), to: sink) }
        context.err.line("wrote \(terminalSafe(target.displayName)) (\(written.bytes) bytes)")
        for note in written.notes { context.err.line(note) }
        return .success
    }
}
