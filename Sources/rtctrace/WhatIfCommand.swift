import Analysis
import CommandLineKit
import Replay
import Reports
import SystemLayer
import TraceCodec
import Workflows

/// `rtctrace whatif`: what the contract predicts would change if the records were otherwise.
enum WhatIfCommand {
    static let json = Option.flag("--json", "Print the what-if as JSON (schema rtctrace.whatif/1, see docs/json.md).")
    static let editsFile = Option.string("--edits", "FILE.json", nonEmpty: true,
                                         "Edits from a file: a JSON array of edits (docs/whatif.md), applied before those on the line (repeatable).")
        .repeatable()

    /// The edit options; each is read in the order given, with the qualifiers after it.
    static let editOptions: [any DeclaredOption] = [
        Option.string("--set-option", "OPTION", nonEmpty: true, "Add a category option to every obs.sessionActivated (from --from MS on)."),
        Option.string("--remove-option", "OPTION", nonEmpty: true, "Remove a category option from every obs.sessionActivated (from --from MS on)."),
        Option.string("--category", "CATEGORY", nonEmpty: true, "Set the category of every obs.sessionActivated (from --from MS on)."),
        Option.string("--mode", "MODE", nonEmpty: true, "Set the mode of every obs.sessionActivated (from --from MS on)."),
        Option.string("--move", "SEQ", nonEmpty: true, "Move the record SEQ to just after the record named by --after SEQ."),
        Option.string("--delay", "SEQ", nonEmpty: true, "Delay the record SEQ by the ms given next (--delay SEQ MS)."),
        Option.string("--drop", "SEQ", nonEmpty: true, "Remove the record SEQ."),
        Option.string("--drop-type", "TYPE", nonEmpty: true, "Remove every record of TYPE (from --from MS on)."),
        Option.string("--insert", "JSON", nonEmpty: true, "Insert a record (JSON without seq and t) --at MS or --after SEQ."),
        Option.string("--after", "SEQ", nonEmpty: true, "For --move and --insert: just after this record, at its time."),
        Option.string("--at", "MS", nonEmpty: true, "For --insert: at this time."),
        Option.string("--from", "MS", nonEmpty: true, "For the session edits and --drop-type: only records at or after this time."),
    ]

    static let spec = CommandSpec(
        name: "whatif", usage: "whatif TRACE|PARTS... EDITS... [--edits FILE.json] [--json] [options]",
        summary: "Replay a trace with edits (a proposed fix) and say what the contract predicts would change.",
        options: ReplayOptions.commandLine + editOptions + [editsFile, json],
        details: """
        Records are named by their seq in the trace; the edited trace is replayed numbered afresh and is
        compared with the original in diff's order and words. From the first edited record on, the device's
        route readings and the SDK's callbacks are history, so divergences and the findings they raise are
        left out on both sides. The trace is never written. See docs/whatif.md.
        """,
        exits: ExitCodes(failure: "no call that did not take effect and no finding above info of the original is gone, or one is added",
                         readsTraces: true))

    static let command = Command(spec: spec) { args, context in
        let (lineEdits, traces) = try readEdits(args)
        guard !traces.isEmpty else { throw UsageError(message: "expected one TRACE (or the parts of one session)") }
        var edits: [WhatIfEdit] = []
        for path in args[editsFile] { edits += try fileEdits(path) }
        edits += lineEdits
        let base = WhatIfBase.read(try TraceInput.resolve(traces, in: context), options: ReplayOptions(args), onProblem: context.warn)
        try TraceInput.requireExplainable(base.side.result)
        let result: WhatIfResult
        do { result = try WhatIf.run(base, edits: edits, source: source(files: args[editsFile], lineEdits: lineEdits.count)) } catch {
            throw UsageError(message: "\(error)")
        }
        context.out.write(Renderers.whatif(args[json] ? .whatifJSON : .whatifText)!.render(result))
        return result.improves ? .success : .failure
    }

    /// How an edit's position is named in an error: within the line, the one file, or all edits in order.
    static func source(files: [String], lineEdits: Int) -> String {
        if files.isEmpty { return "the command line" }
        if files.count == 1 && lineEdits == 0 { return files[0] }
        return "the edits (files first, then the command line)"
    }

    /// `explain --verify-advice`.
    static let verifyAdvice = Option.flag("--verify-advice", "Replay each item's advice as edits (docs/whatif.md) and say whether it changes the outcome.")

    /// The replay of the trace and its advice checked, for `explain --verify-advice`.
    static func checkAdvice(_ args: Arguments, in context: CommandContext) throws -> (ReplayResult, [AdviceCheck]) {
        let base = WhatIfBase.read(try TraceInput.resolve(args.positionals, in: context), options: ReplayOptions(args), onProblem: context.warn)
        if args[CommonOptions.strict], let p = base.side.result.problems.first(where: \.isDamage) {
            throw CommandFailure(message: p.description + " (--strict)")
        }
        try TraceInput.requireExplainable(base.side.result)
        return (base.side.result, AdviceChecks.run(base))
    }

    static func readEdits(_ args: Arguments) throws -> ([WhatIfEdit], [String]) {
        do { return try WhatIfEdit.parse(arguments: args.sequence) } catch { throw UsageError(message: "\(error)") }
    }

    /// The edits of one file, every one checked before any is applied.
    static func fileEdits(_ path: String) throws -> [WhatIfEdit] {
        let bytes: [UInt8]
        do {
            let f = try OpenFile(path, .readOnly)
            bytes = try f.readAll(limit: 16 << 20)
        } catch { throw DataError(message: "\(path): \(error)") }
        do { return try WhatIfEdit.parse(file: String(decoding: bytes, as: UTF8.self), path: path) } catch {
            throw DataError(message: "\(error)")
        }
    }
}
