import Analysis
import CommandLineKit
import LogImport
import Reports
import SystemLayer
import TraceCodec
import TraceModel
import Workflows

/// `rtctrace import-log`: the device's log (a text export) as records of a trace: `sys.*` records of
/// what the system saw, and the app's own `os.*` records the recorder missed.
enum ImportLogCommand {
    static let output = Option.output("-o", "path", .trace,
                                      HelpWords.theTraceToCreateWrittenAtomically)
        .required("-o OUT.trace.zst")
    static let into = Option.string("--into", "trace", nonEmpty: true,
                                    HelpWords.theRecordedTraceToMergeThe)
        .repeatable()
    static let date = Option.shaped("--date", "YYYY-MM-DD", shape: nil,
                                    HelpWords.theDayOfAFileS,
                                    invalid: HelpWords.isNotADateYyyyMm) { LogClock.day($0) == nil ? nil : $0 }
    static let utcOffset = Option.shaped("--utc-offset", "±HHMM", shape: nil,
                                         HelpWords.theUtcOffsetOfTimesWritten,
                                         invalid: HelpWords.isNotAUtcOffsetHhmm) { text in LogClock.parse("00:00" + text)?.offsetMinutes }
    static let process = Option.string("--process", "name", nonEmpty: true,
                                       HelpWords.theAppSProcessNameIn)
    static let pid = Option.integer("--pid", "n", 0...Int64(Int32.max), HelpWords.theAppSProcessIdIn)
    static let redact = Option.flag("--redact", HelpWords.redactOutputHelp(TokenKey.ways))
    static let salt = TokenKey.salt(HelpWords.redactSaltHelp(TokenKey.environmentVariable))
    static let format = Option.string("--format", "table.json", nonEmpty: true,
                                      HelpWords.readEachLogWithThisTable)
    static let verbose = Option.flag("--verbose", HelpWords.alsoListTheShapesOfThe)

    static let spec = CommandSpec(
        name: "import-log",
        usage: "import-log LOG... [--into TRACE] -o OUT.trace.zst [--date YYYY-MM-DD] [--process NAME | --pid N] [--redact] [--format TABLE.json] [--verbose]",
        summary: HelpWords.turnATextExportOfThe,
        options: [output, into, date, utcOffset, process, pid, redact, salt, TokenKey.saltFile, format, verbose, CommonOptions.force],
        details: HelpWords.logIsLogShowOutputDefault
            + HelpWords.importLogColumns
            + HelpWords.sessionLinesRouteChangeNotificationsInterruptions
            + HelpWords.interruptionAnOsInterruptionbeganEveryOther
            + HelpWords.anchoredOnAnActivationBothHold
            + HelpWords.traceAlreadyHoldsWithinTheMatch
            + HelpWords.anOutcomeOrADivergenceExplain,
        exits: ExitCodes(failure: HelpWords.theIntoTraceIsDamagedOr, readsTraces: true))

    static let command = Command(spec: spec) { args, context in
        let logs = args.positionals
        guard !logs.isEmpty else { throw UsageError(message: MessageWords.expectedALogATextExport) }
        for log in logs where log != "-" && !FileSystem.exists(log) { throw UsageError(message: FileWords.noSuchFile(log)) }
        if args.isGiven(process) && args.isGiven(pid) { throw UsageError(message: MessageWords.giveOneOfProcessAndPid) }
        let parts = args[into].isEmpty ? nil : try TraceInput.resolve(args[into], in: context)
        let table = try args[format].map { path in try imported { try PatternTable.load(path) } }
        let reading: [(role: String, path: String)] = (parts?.paths ?? []).map { ("the --into TRACE", $0) } + (args[format].map { [("the --format table", $0)] } ?? [])
        let target = try args.output(output, role: "a LOG", reading: reading)
        if !args[CommonOptions.force] && target.exists { throw UsageError(message: FileWords.alreadyExists(target.path)) }
        if !args[redact] && (args.isGiven(salt) || args.isGiven(TokenKey.saltFile)) { throw UsageError(message: "--salt and --salt-file go with --redact") }
        let key = args[redact] ? try TokenKey.key(args, salt: salt, in: context) : nil

        let trace = try parts.map { try readTrace($0, in: context) }
        var options = LogImportOptions()
        options.date = args[date]
        options.utcOffsetMinutes = args[utcOffset]
        options.process = args[process]
        options.pid = args[pid].map { Int($0) }
        let log = try imported { try LogImport.read(logs, table: table) }
        let result = try imported { try LogImport.build(log, into: trace, options: options, utcOffset: table?.utcOffsetMinutes, layer: table?.layer ?? .srtc) }
        var records = result.records
        if args[redact] {
            let redactor = Redactor(salt: key ?? Redactor.oneTimeKey())
            for r in records { redactor.learn(r) }
            redactor.finishLearning()
            records = records.map(redactor.redact)
            if key == nil { context.err.line(HelpWords.oneTimeKeyWarning(TokenKey.ways)) }
        }
        try target.replaceTrace { path in try imported { try LogImport.write(records, to: path) } }
        let report = ImportLogReport(written: target.path, records: records.count, into: parts?.paths, reading: log, result: result, verbose: args[verbose])
        context.out.write(Renderers.importLog(.importLogText)!.render(report))
        if !result.identity.isKnown && table == nil {
            context.err.line(HelpWords.warningWhichProcessIsTheApp
                + HelpWords.andNoLineBecameTheApp)
        }
        return .success
    }

    /// Every record of the trace (or the session's parts, in order) to import into; a damaged one is refused:
    /// the copy would be written whole, and its replay could not know what the original lost.
    static func readTrace(_ parts: TraceSession, in context: CommandContext) throws -> [Record] {
        if let session = parts.id, let missing = parts.missingParts.first {
            throw CommandFailure(message: MessageWords.missingPartForCopy(missing, terminalSafe(session)))
        }
        var records: [Record] = []
        for path in parts.paths {
            let reader: TraceReader
            do { reader = try TraceReader(path: path) } catch { throw commandError(error) }
            while let e = reader.next() {
                switch e {
                case .record(let r): records.append(r)
                case .problem(let p) where p.kind == .notClosed:
                    context.err.line(MessageWords.copyClosedWarning(terminalSafe(p.description)))
                case .problem(let p) where p.kind == .notATrace || p.kind == .empty || p.kind == .headerMissing:
                    throw DataError(message: p.description)
                case .problem(let p) where p.isDamage:
                    throw CommandFailure(message: MessageWords.damagedIntoTrace(p.description)
                        + MessageWords.knowWhatWasLostHereGive)
                case .problem(let p): context.warn(p)
                }
            }
        }
        return records
    }

    /// Runs an import step, giving its errors their exit codes.
    static func imported<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as LogImportError {
            switch e.kind {
            case .usage: throw UsageError(message: e.description)
            case .input: throw DataError(message: e.description)
            case .refusal: throw CommandFailure(message: e.description)
            case .io: throw IOFailure(message: e.description)
            }
        }
    }
}
