import Analysis
import CommandLineKit
import Replay
import Reports
import SystemLayer
import TraceCodec
import Workflows

/// `rtctrace whatif`: what the contract predicts would change if the records were otherwise.
enum WhatIfCommand {
    static let json = Option.flag("--json", HelpWords.printTheWhatIfAsJson)
    static let editsFile = Option.string("--edits", "FILE.json", nonEmpty: true,
                                         HelpWords.editsFromAFileAJson)
        .repeatable()

    /// The edit options; each is read in the order given, with the qualifiers after it.
    static let editOptions: [any DeclaredOption] = [
        Option.string("--set-option", "OPTION", nonEmpty: true, HelpWords.addACategoryOptionToEvery),
        Option.string("--remove-option", "OPTION", nonEmpty: true, HelpWords.removeACategoryOptionFromEvery),
        Option.string("--category", "CATEGORY", nonEmpty: true, HelpWords.setTheCategoryOfEveryObs),
        Option.string("--mode", "MODE", nonEmpty: true, HelpWords.setTheModeOfEveryObs),
        Option.string("--move", "SEQ", nonEmpty: true, HelpWords.moveTheRecordSeqToJust),
        Option.string("--delay", "SEQ", nonEmpty: true, HelpWords.delayTheRecordSeqByThe),
        Option.string("--drop", "SEQ", nonEmpty: true, HelpWords.removeTheRecordSeq),
        Option.string("--drop-type", "TYPE", nonEmpty: true, HelpWords.removeEveryRecordOfTypeFrom),
        Option.string("--insert", "JSON", nonEmpty: true, HelpWords.insertARecordJsonWithoutSeq),
        Option.string("--after", "SEQ", nonEmpty: true, HelpWords.forMoveAndInsertJustAfter),
        Option.string("--at", "MS", nonEmpty: true, HelpWords.forInsertAtThisTime),
        Option.string("--from", "MS", nonEmpty: true, HelpWords.forTheSessionEditsAndDrop),
    ]

    static let spec = CommandSpec(
        name: "whatif", usage: "whatif TRACE|PARTS... EDITS... [--edits FILE.json] [--json] [options]",
        summary: HelpWords.replayATraceWithEditsA,
        options: ReplayOptions.commandLine + editOptions + [editsFile, json],
        details: HelpWords.recordsAreNamedByTheirSeq,
        exits: ExitCodes(failure: HelpWords.noCallThatDidNotTake,
                         readsTraces: true))

    static let command = Command(spec: spec) { args, context in
        let (lineEdits, traces) = try readEdits(args)
        guard !traces.isEmpty else { throw UsageError(message: MessageWords.expectedOneTraceOrTheParts) }
        var edits: [WhatIfEdit] = []
        for path in args[editsFile] { edits += try fileEdits(path) }
        edits += lineEdits
        let session = try TraceInput.resolve(traces, in: context), options = ReplayOptions(args)
        var warned = false
        // Edits that act on each record alone are made as the trace is read (no second pass over kept
        // records); a trace whose seqs do not rise is read again, its problems reported once.
        if WhatIfStream.streams(edits), let (original, streamed) = WhatIfStream.run(session, edits: edits, options: options,
                                                                                  onProblem: context.warn) {
            try TraceInput.requireExplainable(original)
            context.out.write(Renderers.whatif(args[json] ? .whatifJSON : .whatifText)!.render(streamed))
            return streamed.improves ? .success : .failure
        } else if WhatIfStream.streams(edits) {
            warned = true
        }
        let base = WhatIfBase.read(session, options: options, onProblem: warned ? { _ in } : context.warn)
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
        if files.isEmpty { return MessageWords.theCommandLine }
        if files.count == 1 && lineEdits == 0 { return files[0] }
        return MessageWords.theEditsFilesFirstThenThe
    }

    /// `explain --verify-advice`.
    static let verifyAdvice = Option.flag("--verify-advice", HelpWords.replayEachItemSAdviceAs)

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
