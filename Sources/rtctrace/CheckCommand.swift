import Analysis
import CommandLineKit
import Replay
import Reports
import SystemLayer
import TraceCodec
import TraceModel
import Workflows

/// `rtctrace check`: golden traces for CI.
enum CheckCommand {
    static let jobs = Option.integer("--jobs", "n", 1...4096, HelpWords.tracesCheckedInParallelDefaultThe)
    static let junit = Option.output("--junit", "file", .document, HelpWords.alsoWriteJunitXmlOneTestcase)
    static let unreferenced = Option.choice("--unreferenced", "mode", Unreferenced.self,
                                            HelpWords.snapshotFilesWithNoTraceWarn)
    static let json = Option.flag("--json", HelpWords.printOneJsonObjectWithEvery)
    static let update = Option.flag("--update", HelpWords.writeNameGoldenJsonNewFor)
    static let quiet = Option.flag("--quiet", HelpWords.onlyPrintFailuresAndTheClosing)
    static let isolatedWorker = Option.flag("--isolated-worker", HelpWords.internalCheckEachTraceInTurn)
    static let snapshotRefusal = Option.string("--snapshot-refusal", "why", HelpWords.internalWithIsolatedWorkerWhyThe)
    static let caseSizes = Option.string("--case-sizes", "n,n,…", HelpWords.internalWithIsolatedWorkerHowMany)

    /// What `--unreferenced` does with a snapshot file that has no trace beside it.
    enum Unreferenced: String, CaseIterable, Sendable {
        /// Say so on standard error (the default).
        case warn
        /// Count it as a failed check.
        case fail
        /// Delete it (never under CI, never through a link).
        case delete
    }

    static let spec = CommandSpec(
        name: "check", usage: "check PATH... [--jobs N] [--junit FILE] [--json] [--update] [--unreferenced warn|fail|delete] [options]",
        summary: HelpWords.checkGoldenTracesEveryExpectRecord,
        options: [jobs, junit, unreferenced] + ReplayOptions.commandLine + [json, update, quiet, isolatedWorker, snapshotRefusal, caseSizes],
        details: HelpWords.pathMayBeATraceA,
        exits: ExitCodes(failure: HelpWords.anExpectationOrASnapshotFailed, readsTraces: true))

    static let command = Command(spec: spec) { args, context in
        guard !args.positionals.isEmpty else { throw UsageError(message: MessageWords.expectedAtLeastOnePath) }
        let options = ReplayOptions(args)
        if args[isolatedWorker] {
            return try runWorker(cases(args.positionals, sizes: args[caseSizes]), refusal: args[snapshotRefusal], options: options, in: context)
        }
        let jobCount = Int(args[jobs] ?? Int64(CurrentProcess.activeProcessorCount))
        let mode = args[unreferenced] ?? .warn
        let ci = ContinuousIntegration.isOn(context)
        let found = try collect(args.positionals, in: context)
        let files = found.traces.map(\.path)
        let trees = Dictionary(found.traces.map { ($0.path, $0.tree) }, uniquingKeysWith: { a, _ in a })
        // The parts of one recorded session are one case, named (and snapshotted) after its first part.
        var list = PathList()
        for f in files { list.append(f) }
        let cases = TraceSession.group(list, jobs: jobCount).all.map(\.paths)
        let traces = cases.map { $0[0] }
        // A snapshot is read only when it is a regular file inside the tree its trace was found in.
        let refusals = traces.map { t -> String? in
            let snap = GoldenCheck.snapshotPath(for: t)
            guard (try? FileSystem.statusIfExists(snap, followLinks: false)) != nil, let tree = trees[t] else { return nil }
            return tree.refusal(snap, singleName: true).map { "not read: \($0)" }
        }
        let junitTarget = try args.output(junit, role: "the trace", reading:
            (traces.map(GoldenCheck.snapshotPath) + found.snapshots.map(\.path)).map { ("the snapshot", $0) })
        let outcomes = runParallel(cases, refusals: refusals, jobs: jobCount, options: options, in: context)

        var failed = outcomes.filter { !$0.passed }.count
        let out = context.out
        let asJSON = args[json]
        // The text (none with --json): each trace's lines, then what else failed, then the counts.
        let text = asJSON ? nil : Renderers.checkOutcomes(.checkText, quiet: args[quiet])!
        if let text { for (i, o) in outcomes.enumerated() { out.write(text.item(o, at: i)) } }
        // Snapshots with no trace beside them.
        let stems = Set(traces.map(GoldenCheck.stem))
        var deleteFailures: [String] = []
        for (s, tree) in found.snapshots where !stems.contains(String(s.dropLast(".golden.json".count))) {
            switch mode {
            case .fail:
                failed += 1
                out.line(MessageWords.orphanSnapshotFailed(terminalSafe(s)))
            case .delete:
                if ci {
                    context.err.line(MessageWords.orphanSnapshotKeptUnderCI(terminalSafe(s), terminalSafe(ContinuousIntegration.setting(context))))
                } else if let why = tree.refusal(s, links: false) {
                    context.err.line(MessageWords.orphanSnapshotKept(terminalSafe(s), terminalSafe(why)))
                } else {
                    do throws(SystemError) {
                        try FileSystem.remove(s)
                        context.err.line(MessageWords.orphanSnapshotDeleted(terminalSafe(s)))
                    } catch {
                        // Said as failed, never as deleted (a read-only folder printed "deleted" for files that remained).
                        deleteFailures.append(MessageWords.orphanSnapshotUndeletable(s, error.reason))
                    }
                }
            case .warn: context.err.line(MessageWords.orphanSnapshot(terminalSafe(s)))
            }
        }
        if args[update] {
            if ci {
                context.err.line(MessageWords.updateUnderCI(terminalSafe(ContinuousIntegration.setting(context))))
            } else {
                for o in outcomes where o.snapshot != .matched && !o.rendered.isEmpty {
                    let target = GoldenCheck.snapshotPath(for: o.file) + ".new"
                    try AtomicFile.write(o.rendered, to: target)
                    context.err.line(MessageWords.wroteForReview(terminalSafe(target)))
                }
            }
        }
        if let junitTarget { try junitTarget.write(Renderers.checkOutcomes(.junit)!.render(outcomes), in: context) }
        if asJSON { out.write(Renderers.checkOutcomes(.checkJSON)!.render(outcomes)) }
        if let text { out.write(text.closing(outcomes)) }
        if !deleteFailures.isEmpty {
            for f in deleteFailures.dropLast() { context.err.line("Error: \(terminalSafe(f))") }
            throw IOFailure(message: deleteFailures.last! + (deleteFailures.count > 1 ? MessageWords.snapshotsNotDeleted(deleteFailures.count) : ""))
        }
        // No trace found is no evidence: never "0 passed, 0 failed" with exit 0.
        if outcomes.isEmpty {
            throw DataError(message: MessageWords.noTraceToCheck(args.positionals.joined(separator: " "), GoldenCheck.traceSuffixes.joined(separator: ", ")))
        }
        return failed == 0 ? .success : .failure
    }

    /// The worker's cases: the TRACE arguments taken `sizes` at a time (one each without sizes).
    static func cases(_ paths: [String], sizes: String?) throws -> [[String]] {
        guard let sizes else { return paths.map { [$0] } }
        let counts = sizes.split(separator: ",").compactMap { Int($0) }
        guard counts.allSatisfy({ $0 > 0 }), counts.reduce(0, +) == paths.count else {
            throw UsageError(message: MessageWords.caseSizesMismatch(caseSizes.name, sizes, paths.count))
        }
        var out: [[String]] = []
        var rest = paths[...]
        for n in counts {
            out.append(Array(rest.prefix(n)))
            rest = rest.dropFirst(n)
        }
        return out
    }

    /// The traces and snapshots the PATH arguments name, each with the tree it belongs to (a
    /// folder given, or a trace's own folder); each trace once, in path order.
    static func collect(_ paths: [String], in context: CommandContext) throws -> (traces: [(path: String, tree: FolderWalk)], snapshots: [(path: String, tree: FolderWalk)]) {
        var traces: [String: FolderWalk] = [:]
        var snapshots: [(path: String, tree: FolderWalk)] = []
        for p in paths {
            if p.hasPrefix("@"), p.count > 1 {
                // A list: the traces it names (and the folders it names, searched), each in its own folder's tree.
                let listed: PathList
                var skipped: [TriageInputs.Skipped] = [], unreadable: [TriageInputs.Unreadable] = []
                do { listed = try TriageInputs.expand([p], skipped: &skipped, unreadable: &unreadable) } catch { throw UsageError(message: "\(error)") }
                for e in skipped where e.reason.isRefusal { context.err.line("warning: \(terminalSafe(e.path)): skipped, \(terminalSafe(e.why))") }
                for u in unreadable { context.err.line("warning: \(terminalSafe(u.path)): skipped, \(terminalSafe(u.reason))") }
                for i in 0..<listed.count where traces[listed[i]] == nil {
                    // Listed or walked, a FIFO, a device or a kernel file is never opened.
                    if let why = TriageInputs.refusal(listed[i]) {
                        context.err.line("warning: \(terminalSafe(listed[i])): skipped, \(terminalSafe(why))")
                        continue
                    }
                    do throws(SystemError) { traces[listed[i]] = try FolderWalk.around(file: listed[i]) } catch {
                        throw CommandFailure(message: error.description)
                    }
                }
                continue
            }
            guard FileSystem.exists(p) else { throw UsageError(message: FileWords.noSuchFileOrFolder(p)) }
            do throws(SystemError) {
                if FileSystem.isDirectory(p) {
                    let tree = try FolderWalk(p)
                    let walk = tree.files(skipHidden: true)
                    for s in walk.skipped { context.err.line("warning: \(terminalSafe(s.path)): skipped, \(terminalSafe(s.reason))") }
                    for f in walk.files where GoldenCheck.traceSuffixes.contains(where: { f.hasSuffix($0) }) && traces[f] == nil { traces[f] = tree }
                    snapshots += walk.files.filter { $0.hasSuffix(".golden.json") }.map { ($0, tree) }
                } else if traces[p] == nil {
                    traces[p] = try FolderWalk.around(file: p)
                }
            } catch {
                throw IOFailure(message: error.description)
            }
        }
        return (traces.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, snapshots)
    }
}
