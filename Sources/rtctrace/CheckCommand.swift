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
    static let jobs = Option.integer("--jobs", "n", 1...4096, "Traces checked in parallel (default: the number of cores).")
    static let junit = Option.output("--junit", "file", .document, "Also write JUnit XML (one testcase per trace).")
    static let unreferenced = Option.choice("--unreferenced", "mode", Unreferenced.self,
                                            "Snapshot files with no trace: warn (default), fail or delete.")
    static let json = Option.flag("--json", "Print one JSON object with every trace's outcome.")
    static let update = Option.flag("--update", "Write NAME.golden.json.new for changed or missing snapshots (never under CI).")
    static let quiet = Option.flag("--quiet", "Only print failures and the closing count.")
    static let isolatedWorker = Option.flag("--isolated-worker", "Internal: check each TRACE in turn and print its outcome for the parent check.")
    static let snapshotRefusal = Option.string("--snapshot-refusal", "why", "Internal: with --isolated-worker, why the snapshot is not read.")
    static let caseSizes = Option.string("--case-sizes", "n,n,…", "Internal: with --isolated-worker, how many of the TRACE arguments each case takes (a golden session's parts).")

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
        summary: "Check golden traces: every expect.* record and NAME.golden.json snapshot; exit 1 on any failure.",
        options: [jobs, junit, unreferenced] + ReplayOptions.commandLine + [json, update, quiet, isolatedWorker, snapshotRefusal, caseSizes],
        details: "PATH may be a trace, a folder (searched recursively for *.trace.zst, *.jsonl, *.jsonl.zst) or @LIST. The parts of one recorded\nsession (the same session.id) are one case, checked as one trace against the snapshot named after its first part.\nReview new snapshots with 'rtctrace accept' or 'rtctrace reject'.",
        exits: ExitCodes(failure: "an expectation or a snapshot failed, or a trace could not be checked", readsTraces: true))

    static let command = Command(spec: spec) { args, context in
        guard !args.positionals.isEmpty else { throw UsageError(message: "expected at least one PATH") }
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
        let quietly = args[quiet] || asJSON
        for o in outcomes {
            let more = o.parts.count > 1 ? " (+\(o.parts.count - 1) part\(o.parts.count == 2 ? "" : "s") of its session)" : ""
            if o.passed {
                if !quietly { out.line("PASS \(terminalSafe(o.file))\(more) (\(o.expectations) expectations\(o.snapshot == .matched ? ", snapshot" : ""))") }
            } else if !asJSON {
                out.line("FAIL \(terminalSafe(o.file))\(more)")
                for f in o.failures { out.line(terminalSafe(f)) }
            }
        }
        // Snapshots with no trace beside them.
        let stems = Set(traces.map(GoldenCheck.stem))
        var deleteFailures: [String] = []
        for (s, tree) in found.snapshots where !stems.contains(String(s.dropLast(".golden.json".count))) {
            switch mode {
            case .fail:
                failed += 1
                out.line("FAIL \(terminalSafe(s)): snapshot with no trace")
            case .delete:
                if ci {
                    context.err.line("warning: \(terminalSafe(s)): snapshot with no trace (not deleted under \(terminalSafe(ContinuousIntegration.setting(context))))")
                } else if let why = tree.refusal(s, links: false) {
                    context.err.line("warning: \(terminalSafe(s)): snapshot with no trace, not deleted: \(terminalSafe(why))")
                } else {
                    do throws(SystemError) {
                        try FileSystem.remove(s)
                        context.err.line("deleted \(terminalSafe(s)): snapshot with no trace")
                    } catch {
                        // Said as failed, never as deleted (a read-only folder printed "deleted" for files that remained).
                        deleteFailures.append("\(s): snapshot with no trace, cannot delete: \(error.reason)")
                    }
                }
            case .warn: context.err.line("warning: \(terminalSafe(s)): snapshot with no trace")
            }
        }
        if args[update] {
            if ci {
                context.err.line("\(terminalSafe(ContinuousIntegration.setting(context))): --update writes nothing under CI")
            } else {
                for o in outcomes where o.snapshot != .matched && !o.rendered.isEmpty {
                    let target = GoldenCheck.snapshotPath(for: o.file) + ".new"
                    try AtomicFile.write(o.rendered, to: target)
                    context.err.line("wrote \(terminalSafe(target)) (review with 'rtctrace accept' or 'rtctrace reject')")
                }
            }
        }
        if let junitTarget { try junitTarget.write(Renderers.checkOutcomes(.junit)!.render(outcomes), in: context) }
        if asJSON { out.line(jsonSummary(outcomes)) }
        let passed = outcomes.count - outcomes.filter { !$0.passed }.count
        if !asJSON { out.line("\(passed) passed, \(outcomes.count - passed) failed") }
        if !deleteFailures.isEmpty {
            for f in deleteFailures.dropLast() { context.err.line("Error: \(terminalSafe(f))") }
            throw IOFailure(message: deleteFailures.last! + (deleteFailures.count > 1 ? " (\(deleteFailures.count) snapshots not deleted)" : ""))
        }
        // No trace found is no evidence: never "0 passed, 0 failed" with exit 0.
        if outcomes.isEmpty {
            throw DataError(message: "no trace to check in \(args.positionals.joined(separator: " ")) (traces end in \(GoldenCheck.traceSuffixes.joined(separator: ", ")))")
        }
        return failed == 0 ? .success : .failure
    }

    /// The worker's cases: the TRACE arguments taken `sizes` at a time (one each without sizes).
    static func cases(_ paths: [String], sizes: String?) throws -> [[String]] {
        guard let sizes else { return paths.map { [$0] } }
        let counts = sizes.split(separator: ",").compactMap { Int($0) }
        guard counts.allSatisfy({ $0 > 0 }), counts.reduce(0, +) == paths.count else {
            throw UsageError(message: "\(caseSizes.name) \(sizes) does not add up to the \(paths.count) TRACE arguments")
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
            guard FileSystem.exists(p) else { throw UsageError(message: "\(p): no such file or folder") }
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

    static func jsonSummary(_ outcomes: [CheckOutcome]) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.key("passed"); w.int(outcomes.filter(\.passed).count)
        w.key("failed"); w.int(outcomes.filter { !$0.passed }.count)
        w.key("traces"); w.beginArray()
        for o in outcomes {
            w.beginObject()
            w.key("file"); w.path(o.file)
            w.key("parts"); w.beginArray(); for p in o.parts { w.path(p) }; w.endArray()
            w.key("passed"); w.bool(o.passed)
            w.key("expectations"); w.int(o.expectations)
            w.key("snapshot")
            switch o.snapshot {
            case .none: w.string("none")
            case .matched: w.string("matched")
            case .changed: w.string("changed")
            }
            w.key("failures"); w.beginArray()
            for f in o.failures { w.string(f) }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.string
    }
}
