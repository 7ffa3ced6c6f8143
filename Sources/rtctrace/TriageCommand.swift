import Analysis
import CommandLineKit
import Replay
import Reports
import SystemLayer
import TraceCodec
import TraceModel
import Workflows

/// `rtctrace triage`: every trace of a fleet replayed, one JSON row each, a summary, CI thresholds.
enum TriageCommand {
    static let jobs = Option.integer("--jobs", "n", 1...4096, HelpWords.tracesReplayedInParallelDefaultThe)
    static let shard = Option<TriageShard>.parsed("--shard", "i/n",
                                                  HelpWords.onlyShardIOfIBy) { s throws(UsageError) in
        guard let parsed = TriageShard(parsing: s) else { throw UsageError(message: "'--shard' expects I/N with 0 ≤ I < N, e.g. 0/4; got '\(s)'") }
        return parsed
    }
    static let output = Option.output("-o", "file", .document,
                                      HelpWords.writeTheRowsHereZstdFrames)
    static let salt = TokenKey.salt(HelpWords.rowsSaltHelp(TokenKey.environmentVariable))
    static let failOn = Option<TriageThreshold>.parsed("--fail-on", "expr",
                                                       HelpWords.exitWhenTagTracesOrTag) { e throws(UsageError) in
        do { return try TriageThreshold(parsing: e) } catch { throw UsageError(message: "--fail-on \(error)") }
    }
    .repeatable()
    static let summaryFlag = Option.flag("--summary", HelpWords.printTheSummaryOnStandardError)
    static let json = Option.flag("--json", HelpWords.printTheSummaryAsOneJson)
    static let listTags = Option.flag("--list-tags", HelpWords.listTheTagsWithWhatEach)
    static let fromRows = Option.flag("--from-rows",
                                      HelpWords.pathAreRowsFilesOfRuns)
    static let baseline = Option.string("--baseline", "rows", nonEmpty: true,
                                        HelpWords.rowsOfAnEarlierPeriodA)
        .repeatable()
    static let whatif = Option.string("--whatif", "EDITS", nonEmpty: true,
                                      HelpWords.alsoReplayEveryTraceWithEdits)
    static let all = Option.flag("--all", HelpWords.listEverythingInTheTextSummary)

    static let spec = CommandSpec(
        name: "triage", usage: "triage PATH... [--jobs N] [--shard I/N] [-o ROWS.jsonl[.zst]] [--fail-on EXPR]... [--baseline ROWS]... [--summary] [--json] [--all] [options]\n       rtctrace triage --from-rows ROWS... [--baseline ROWS]... [--fail-on EXPR]... [--json] [--all]",
        summary: HelpWords.triageManyTracesOneJsonRow,
        options: [jobs, shard, output, failOn, salt, TokenKey.saltFile, baseline, fromRows] + ReplayOptions.commandLine + [summaryFlag, json, all, listTags, whatif],
        details: HelpWords.pathIsATraceAFolder,
        exits: ExitCodes(failure: HelpWords.aFailOnThresholdWasCrossed, readsTraces: true))

    static let command = Command(spec: spec) { args, context in
        if args[listTags] {
            context.out.write(Renderers.triageTags(.triageTags)!.render(()))
            return .success
        }
        guard !args.positionals.isEmpty else { throw UsageError(message: args[fromRows] ? MessageWords.expectedAtLeastOneRowsFile : MessageWords.expectedAtLeastOnePath) }
        if args[fromRows] { return try fromRowsCommand(args, in: context) }
        let options = ReplayOptions(args)
        let jobs = Int(args[TriageCommand.jobs] ?? Int64(CurrentProcess.activeProcessorCount))
        let shard = args[TriageCommand.shard]
        let thresholds = args[failOn]
        let key = try TokenKey.key(args, salt: salt, in: context)
        let keys = TriageKeys(salt: key)
        let edits = try args[whatif].map(triageEdits)

        var files: PathList
        var skipped: [TriageInputs.Skipped] = []
        var unreadable: [TriageInputs.Unreadable] = []
        do { files = try TriageInputs.expand(args.positionals, skipped: &skipped, unreadable: &unreadable) } catch { throw UsageError(message: "\(error)") }
        // A folder or entry the walk could not read is an input that cannot be read: its row says why.
        for u in unreadable { files.append(u.path) }
        // With --json nothing but the summary goes to standard error: what was skipped, and why, is in it.
        if !args[json] {
            for e in skipped where e.reason.isRefusal { context.err.line("warning: \(terminalSafe(e.path)): skipped, \(terminalSafe(e.why))") }
            // A bundle whose manifest does not check: its rows are still made, from the parts it holds.
            for b in TraceBundle.opened {
                for p in b.problems { context.err.line("warning: \(terminalSafe(b.path)): \(terminalSafe(p))") }
            }
        }
        // The rows never go over an input, a device or a link (the output checks every command shares,
        // which read every file a folder or @LIST stands for).
        let target = try args.output(output, reading: args[baseline].map { (role: "a --baseline rows file", path: $0) })
        if let target, case .inPlace = target.destination {
            throw UsageError(message: MessageWords.rowsTargetRefused(target.path))
        }
        let outPath = target.flatMap { $0.destination == .file ? $0.path : nil }
        try target?.createParentFolders()
        target?.release()
        // The baseline is read before any trace: rows that are not rows fail the run at once.
        let changesSince = try baselineSummary(args)

        // Rows printed to the same terminal would run into the progress line: they are the progress then.
        let progress = context.err.isTerminal && (outPath != nil || !context.out.isTerminal) ? Progress(context.err) : nil
        progress?.note("reading \(files.count) header\(files.count == 1 ? "" : "s")")
        let plan = TraceSession.group(files, jobs: jobs, shard: shard)
        let writer: LinesWriter
        do {
            let compress = outPath?.hasSuffix(".zst") ?? false
            if let outPath {
                writer = try LinesWriter(path: outPath, compress: compress)
            } else if let descriptor = context.out.descriptor {
                // Straight to the descriptor, after what is buffered.
                context.out.flush()
                writer = try LinesWriter(fd: descriptor.rawValue, compress: false)
            } else {
                let out = context.out
                writer = try LinesWriter(sink: { out.write(bytes: $0.bindMemory(to: UInt8.self)) }, compress: false)
            }
        } catch { throw commandError(error) }
        var summary = TriageSummary()
        summary.noteSkipped(skipped)
        progress?.start(total: plan.count)
        let kill = killHook(context)
        let rows = Renderers.triageRow(.triageRows)!
        do {
            try Triage.run(plan, jobs: jobs, options: options, keys: keys, whatif: edits, render: { rows.render($0) }) { i, row, json in
                if let kill, row.path.split(separator: "/").last.map(String.init) == kill {
                    try writer.flush()
                    try? Signal.kill.send(to: CurrentProcess.id)
                }
                try writer.write(line: json.utf8)
                summary.add(row)
                progress?.done(i + 1)
            }
            try writer.finish()
        } catch {
            progress?.clear()
            throw commandError(error)
        }
        progress?.clear()
        let crossed = thresholds.filter { $0.isCrossed(by: summary) }
        let changes = changesSince.map { summary.changes(since: $0) }
        let report = TriageReport(summary, thresholds: thresholds, changes: changes,
                                  written: outPath.map { .init(path: $0, rows: writer.lines) }, all: args[all])
        if args[json] {
            // One JSON document on standard error, and nothing else there: thresholds and the rows file are in it.
            context.err.write(Renderers.triageSummary(.triageJSON)!.render(report))
            return crossed.isEmpty ? .success : .failure
        }
        if context.err.isTerminal || args[summaryFlag] {
            context.err.write(Renderers.triageSummary(.triageText)!.render(report))
        }
        if let outPath { context.err.line("wrote \(terminalSafe(outPath)) (\(writer.lines) row\(writer.lines == 1 ? "" : "s"))") }
        if key == nil { context.err.line(noKeyNote) }
        for t in crossed { context.err.line("Error: --fail-on '\(t)' crossed: \(t.actual(in: summary))") }
        return crossed.isEmpty ? .success : .failure
    }
}

extension TriageCommand {
    /// `--whatif`: the catalogue's advice for a code or cause, or a file of edits.
    static func triageEdits(_ text: String) throws -> TriageEdits {
        if let advice = TriageEdits(advice: text) { return advice }
        if text.hasPrefix("advice:") { throw UsageError(message: MessageWords.unknownWhatIf(text)) }
        return .fixed(try WhatIfCommand.fileEdits(text))
    }

    /// What a run without a key says once, last on standard error (with `--json`, the summary's document
    /// is all there is there: the null columns say it).
    static let noKeyNote = MessageWords.oneTimeKeyRowsNote(TokenKey.ways)
        + MessageWords.giveTheFleetSOneKey

    /// `RTCTRACE_FAULT_KILL_TRIAGE=NAME` (debug builds only) makes the run flush the rows before the
    /// trace whose file name is NAME into its temporary output and SIGKILL itself there: the fault hook
    /// that tests what a killed run leaves (a signal sent from outside would race the run).
    static func killHook(_ context: CommandContext) -> String? {
        #if DEBUG
        return context.environment("RTCTRACE_FAULT_KILL_TRIAGE").flatMap { $0.isEmpty ? nil : $0 }
        #else
        return nil
        #endif
    }
}

/// The progress line on a terminal: traces done, rate and time left, redrawn at most ten times a second.
final class Progress {
    private var total = 0
    private var started = 0.0
    private var lastDraw = 0.0
    private let err: Output

    /// A progress line drawn on `err` (a terminal).
    init(_ err: Output) { self.err = err }

    static func now() -> Double { Clock.monotonicSeconds() }

    func note(_ s: String) { draw("triage: " + s) }

    func start(total: Int) {
        self.total = total
        started = Self.now()
        draw("triage: 0/\(total) traces")
    }

    func done(_ n: Int) {
        let t = Self.now()
        guard t - lastDraw >= 0.1 || n == total else { return }
        lastDraw = t
        let rate = Double(n) / max(t - started, 1e-6)
        let left = rate > 0 ? Int64(Double(total - n) / rate * 1000) : 0
        draw("triage: \(n)/\(total) traces, \(fixed(rate, 1)) traces/s, \(formatDuration(left).split(separator: ".").first ?? "0")s left")
    }

    /// Erases the line, so that what follows starts on a clean one.
    func clear() { draw(nil) }

    private func draw(_ s: String?) {
        let line = "\r\u{1B}[K" + (s ?? "")
        err.write(line)
        err.flush()
    }
}
