import CommandLineKit
import Replay
import Reports
import TraceModel
import Workflows

/// `rtctrace report`: one self-contained HTML file a support engineer can open or print.
enum ReportCommand {
    static let output = Option.output("-o", "file", .document, "The HTML file to write (atomically; overwritten if it exists).")
        .required("-o REPORT.html")

    static let spec = CommandSpec(
        name: "report", usage: "report TRACE|PARTS... -o REPORT.html [options]",
        summary: "Write a self-contained HTML report: the explanation, a timeline of every lane, findings.",
        options: [output] + ReplayOptions.commandLine + [CommonOptions.strict, WhatIfCommand.verifyAdvice],
        details: "The page loads nothing from elsewhere: open it in any browser, attach it to a ticket, print it.\nSee docs/report.md.",
        exits: ExitCodes(failure: "the report is written, but not all of the input could be read (\(TraceInput.unreadInput)): "
            + "its status says so and gives no all-clear", readsTraces: true))

    static let command = Command(spec: spec) { args, context in
        guard !args.positionals.isEmpty else { throw UsageError(message: "expected one TRACE (or the parts of one session)") }
        let target = try args.output(output, role: "the input TRACE")
        let renderer = Renderers.replay(.html)!
        let result = try TraceInput.replay(args.positionals, args, in: context, observer: renderer.replayObserver)
        try TraceInput.requireExplainable(result)
        let checks = args[WhatIfCommand.verifyAdvice] ? try WhatIfCommand.checkAdvice(args, in: context).1 : nil
        let html = renderer.render(ReplayReport(result, checks: checks))
        try target.write(html, in: context)
        context.err.line("wrote \(terminalSafe(target.displayName)) (\(html.utf8.count) bytes)")
        return result.unread.isEmpty ? .success : .failure
    }
}
