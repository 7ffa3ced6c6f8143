import CommandLineKit
import Replay
import Reports
import TraceModel
import Workflows

/// `rtctrace report`: one self-contained HTML file a support engineer can open or print.
enum ReportCommand {
    static let output = Option.output("-o", "file", .document, HelpWords.theHtmlFileToWriteAtomically)
        .required("-o REPORT.html")

    static let spec = CommandSpec(
        name: "report", usage: "report TRACE|PARTS... -o REPORT.html [options]",
        summary: HelpWords.writeASelfContainedHtmlReport,
        options: [output] + ReplayOptions.commandLine + [CommonOptions.strict, WhatIfCommand.verifyAdvice],
        details: HelpWords.thePageLoadsNothingFromElsewhere,
        exits: ExitCodes(failure: HelpWords.partlyUnreadableInput(TraceInput.unreadInput)
            + HelpWords.itsStatusSaysSoAndGives, readsTraces: true))

    static let command = Command(spec: spec) { args, context in
        guard !args.positionals.isEmpty else { throw UsageError(message: MessageWords.expectedOneTraceOrTheParts) }
        let target = try args.output(output, role: MessageWords.theInputTrace)
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
