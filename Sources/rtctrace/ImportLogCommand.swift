import Analysis
import CommandLineKit
import LogImport
import SystemLayer
import TraceCodec
import TraceModel
import Workflows

/// `rtctrace import-log`: the device's log (a text export) as records of a trace: `sys.*` records of
/// what the system saw, and the app's own `os.*` records the recorder missed.
enum ImportLogCommand {
    static let output = Option.output("-o", "path", .trace,
                                      "The trace to create (written atomically): the log's records, or with --into a copy of TRACE with them merged in by time.")
        .required("-o OUT.trace.zst")
    static let into = Option.string("--into", "trace", nonEmpty: true,
                                    "The recorded trace to merge the log into (never changed); repeat it, or give a folder or @LIST, for the parts of one session.")
        .repeatable()
    static let date = Option.shaped("--date", "YYYY-MM-DD", shape: nil,
                                    "The day of a file's first time written without one (a copy from Console; later lines roll over midnight), in the log's own offset (default: from the trace's startedAt).",
                                    invalid: "is not a date YYYY-MM-DD") { LogClock.day($0) == nil ? nil : $0 }
    static let utcOffset = Option.shaped("--utc-offset", "±HHMM", shape: nil,
                                         "The UTC offset of times written without one, when no line of the file gives one (e.g. +0800).",
                                         invalid: "is not a UTC offset ±HHMM") { text in LogClock.parse("00:00" + text)?.offsetMinutes }
    static let process = Option.string("--process", "name", nonEmpty: true,
                                       "The app's process name in the log (default: from the trace's bundle id, or the one app process the log shows).")
    static let pid = Option.integer("--pid", "n", 0...Int64(Int32.max), "The app's process id in the log.")
    static let redact = Option.flag("--redact", "Replace the output's personal values by tokens, as 'rtctrace redact' does (key: \(TokenKey.ways)).")
    static let salt = TokenKey.salt("With --redact: the HMAC key of the tokens (also --salt-file, or \(TokenKey.environmentVariable)).")
    static let format = Option.string("--format", "table.json", nonEmpty: true,
                                      "Read each LOG with this table of line shapes (an SDK's own text log) instead of as a device log export.")
    static let verbose = Option.flag("--verbose", "Also list the shapes of the lines skipped, with their counts.")

    static let spec = CommandSpec(
        name: "import-log",
        usage: "import-log LOG... [--into TRACE] -o OUT.trace.zst [--date YYYY-MM-DD] [--process NAME | --pid N] [--redact] [--format TABLE.json] [--verbose]",
        summary: "Turn a text export of the device's log into trace records (sys.*), on their own or merged into a trace.",
        options: [output, into, date, utcOffset, process, pid, redact, salt, TokenKey.saltFile, format, verbose, CommonOptions.force],
        details: "LOG is `log show` output (default or compact style, --style ndjson or json) or a copy from Console\n"
            + "(LEVEL<tab>TIME<tab>PROCESS<tab>MESSAGE, in any language), plain or zstd-compressed. The media server's\n"
            + "session lines, route change notifications, interruptions and activations become sys.* records (the app's own\n"
            + "interruption an os.interruptionBegan); every other line is counted and skipped. With --into, the times are\n"
            + "anchored on an activation both hold (within 2 s), else taken from the wall clock; an own-process record the\n"
            + "trace already holds within the match window is not added twice. sys.* records never change a verdict,\n"
            + "an outcome or a divergence: explain cites them \"from the system log\" (E1). See docs/import.md.",
        exits: ExitCodes(failure: "the --into trace is damaged or cannot be placed on the log's clock (nothing is written)", readsTraces: true))

    static let command = Command(spec: spec) { args in
        let logs = args.positionals
        guard !logs.isEmpty else { throw UsageError(message: "expected a LOG (a text export of the device's log)") }
        for log in logs where log != "-" && !FileSystem.exists(log) { throw UsageError(message: "\(log): no such file") }
        if args.isGiven(process) && args.isGiven(pid) { throw UsageError(message: "give one of --process and --pid, not both") }
        let parts = args[into].isEmpty ? nil : try TraceInput.resolve(args[into])
        let table = try args[format].map { path in try imported { try PatternTable.load(path) } }
        let reading: [(role: String, path: String)] = (parts?.paths ?? []).map { ("the --into TRACE", $0) } + (args[format].map { [("the --format table", $0)] } ?? [])
        let target = try args.output(output, role: "a LOG", reading: reading)
        if !args[CommonOptions.force] && target.exists { throw UsageError(message: "\(target.path): already exists (use --force to overwrite)") }
        if !args[redact] && (args.isGiven(salt) || args.isGiven(TokenKey.saltFile)) { throw UsageError(message: "--salt and --salt-file go with --redact") }
        let key = args[redact] ? try TokenKey.key(args, salt: salt) : nil

        let trace = try parts.map(readTrace)
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
            if key == nil { Output.stderr.line("warning: no key given (\(TokenKey.ways)): the tokens are made with a random key used once") }
        }
        try target.replaceTrace { path in try imported { try LogImport.write(records, to: path) } }
        let out = Output.stdout
        out.line("wrote \(terminalSafe(target.path)): \(records.count) records, \(result.added.count) of them from the log"
            + (parts.map { " merged into \(terminalSafe($0.paths[0]))\($0.paths.count > 1 ? " (\($0.paths.count) parts)" : "")" } ?? ""))
        for line in LogImport.report(log, result, verbose: args[verbose]) { out.line(terminalSafe(line)) }
        if !result.identity.isKnown && table == nil {
            Output.stderr.line("warning: which process is the app is unknown (give --process NAME or --pid N): every record says self false, "
                + "and no line became the app's own os.* record")
        }
        return .success
    }

    /// Every record of the trace (or the session's parts, in order) to import into; a damaged one is refused:
    /// the copy would be written whole, and its replay could not know what the original lost.
    static func readTrace(_ parts: TraceSession) throws -> [Record] {
        if let session = parts.id, let missing = parts.missingParts.first {
            throw CommandFailure(message: "part \(missing) of session \(terminalSafe(session)) is missing: the copy holds every part's records in order; give every part")
        }
        var records: [Record] = []
        for path in parts.paths {
            let reader: TraceReader
            do { reader = try TraceReader(path: path) } catch { throw commandError(error) }
            while let e = reader.next() {
                switch e {
                case .record(let r): records.append(r)
                case .problem(let p) where p.kind == .notClosed:
                    Output.stderr.line("warning: \(terminalSafe(p.description)); the copy is closed")
                case .problem(let p) where p.kind == .notATrace || p.kind == .empty || p.kind == .headerMissing:
                    throw DataError(message: p.description)
                case .problem(let p) where p.isDamage:
                    throw CommandFailure(message: "\(p.description): import-log --into writes a whole copy of the trace, whose replay could not "
                        + "know what was lost here; give a trace 'rtctrace verify' passes, or import the log alone (without --into)")
                case .problem(let p): warn(p)
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
