import CommandLineKit
import Replay
import Reports
import SystemLayer
import TraceModel
import Workflows

/// `rtctrace export`: the replay as a Chrome Trace Event file for Perfetto or chrome://tracing.
enum ExportCommand {
    /// The formats `--format` names.
    enum Format: String, CaseIterable, Sendable {
        /// Chrome Trace Event Format (Perfetto UI, chrome://tracing).
        case chrome
    }

    static let format = Option.choice("--format", "format", Format.self, "The export format; only 'chrome' (Perfetto UI, chrome://tracing).")
    static let output = Option.output("-o", "file", .document, "The JSON file to write (atomically; overwritten if it exists).")
        .required("-o TRACE.json")

    static let spec = CommandSpec(
        name: "export", usage: "export TRACE|PARTS... --format chrome -o TRACE.json [options]",
        summary: "Export the replay's lanes, records, verdicts and findings (Chrome Trace Event Format).",
        options: [format, output] + ReplayOptions.commandLine + [CommonOptions.strict],
        details: "Open the file at https://ui.perfetto.dev or chrome://tracing. Timestamps are microseconds since\nthe trace started. See docs/report.md for the mapping.",
        exits: ExitCodes(failure: nil, readsTraces: true))

    static let command = Command(spec: spec) { args in
        guard !args.positionals.isEmpty else { throw UsageError(message: "expected one TRACE (or the parts of one session)") }
        let target = try args.output(output, role: "the input TRACE")
        let recorder = ChromeTraceRecorder()
        let result = try TraceInput.replay(args.positionals, args, observer: recorder.observe)
        try TraceInput.requireExplainable(result)
        let written: ChromeTrace.Written
        switch args[format] ?? .chrome {
        case .chrome:
            // Streamed as it is made, within a budget proportional to the input (docs/report.md).
            written = try target.write { sink in try ChromeTrace.write(result, recorder: recorder, budget: ChromeTrace.budget(for: result), to: sink) }
        }
        Output.stderr.line("wrote \(terminalSafe(target.displayName)) (\(written.bytes) bytes)")
        if written.eventsNotExported > 0 {
            Output.stderr.line("note: \(written.eventsNotExported) events are not exported: the file reached its budget of "
                + "\(ChromeTrace.budgetPerInputByte) × the input's \(result.inputBytes) bytes + \(ChromeTrace.budgetBase >> 20) MiB "
                + "(otherData.eventsNotExported says how many)")
        }
        if recorder.droppedInstants > 0 {
            Output.stderr.line("note: \(recorder.droppedInstants) records beyond the first \(recorder.instantCount) are not exported as instants "
                + "(at most \(recorder.maxInstants) records, \(recorder.maxInstantBytes >> 20) MiB of their JSON)")
        }
        return .success
    }
}
