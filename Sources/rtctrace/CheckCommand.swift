import Dispatch
import Replay
import Reports
import SystemLayer
import TraceFormat

/// `rtctrace check`: golden traces for CI.
enum CheckCommand {
    static let jobs = Option.integer("--jobs", "n", 1...4096, "Traces checked in parallel (default: the number of cores).")
    static let junit = Option.output("--junit", "file", "Also write JUnit XML (one testcase per trace).")
    static let unreferenced = Option.choice("--unreferenced", "mode", ["warn", "fail", "delete"],
                                            "Snapshot files with no trace: warn (default), fail or delete.")
    static let json = Option.flag("--json", "Print one JSON object with every trace's outcome.")
    static let update = Option.flag("--update", "Write NAME.golden.json.new for changed or missing snapshots (never under CI).")
    static let quiet = Option.flag("--quiet", "Only print failures and the closing count.")

    static let spec = CommandSpec(
        name: "check", usage: "check PATH... [--jobs N] [--junit FILE] [--json] [--update] [--unreferenced warn|fail|delete] [options]",
        summary: "Check golden traces: every expect.* record and NAME.golden.json snapshot; exit 1 on any failure.",
        options: [jobs, junit, unreferenced] + ReplayFlags.options + [json, update, quiet],
        details: "PATH may be a trace or a folder (searched recursively for *.trace.zst, *.jsonl, *.jsonl.zst).\nReview new snapshots with 'rtctrace accept' or 'rtctrace reject'. Exit: 0 all pass, 1 any failure, 64 usage.")

    static let command = Command(spec: spec) { args in
        guard !args.positionals.isEmpty else { throw UsageError(message: "expected at least one PATH") }
        let options = ReplayFlags.parse(args)
        let jobCount = Int(args.integer(jobs) ?? Int64(CurrentProcess.activeProcessorCount))
        let mode = args.string(unreferenced) ?? "warn"
        let ci = CurrentProcess.environment("CI") == "true"
        var traces: [String] = []
        var snapshots: [String] = []
        for p in args.positionals {
            guard fileExists(p) else { throw UsageError(message: "\(p): no such file or folder") }
            if isDirectory(p) {
                let found = walk(p)
                traces += found.traces
                snapshots += found.snapshots
            } else { traces.append(p) }
        }
        traces = Array(Set(traces)).sorted()
        let outcomes = runParallel(traces, jobs: jobCount, options: options)

        var failed = outcomes.filter { !$0.passed }.count
        let out = Output.stdout
        let asJSON = args.flag(json)
        let quietly = args.flag(quiet) || asJSON
        for o in outcomes {
            if o.passed {
                if !quietly { out.line("PASS \(terminalSafe(o.file)) (\(o.expectations) expectations\(o.snapshot == .matched ? ", snapshot" : ""))") }
            } else if !asJSON {
                out.line("FAIL \(terminalSafe(o.file))")
                for f in o.failures { out.line(terminalSafe(f)) }
            }
        }
        // Snapshots with no trace beside them.
        let stems = Set(traces.map(GoldenCheck.stem))
        for s in snapshots where !stems.contains(String(s.dropLast(".golden.json".count))) {
            switch mode {
            case "fail":
                failed += 1
                out.line("FAIL \(terminalSafe(s)): snapshot with no trace")
            case "delete":
                if ci { Output.stderr.line("warning: \(s): snapshot with no trace (not deleted under CI=true)") } else {
                    FileSystem.removeIfPresent(s)
                    Output.stderr.line("deleted \(s): snapshot with no trace")
                }
            default: Output.stderr.line("warning: \(terminalSafe(s)): snapshot with no trace")
            }
        }
        if args.flag(update) {
            if ci {
                Output.stderr.line("CI=true: --update writes nothing")
            } else {
                for o in outcomes where o.snapshot != .matched && !o.rendered.isEmpty {
                    let target = GoldenCheck.snapshotPath(for: o.file) + ".new"
                    try AtomicFile.write(o.rendered, to: target)
                    Output.stderr.line("wrote \(target) (review with 'rtctrace accept' or 'rtctrace reject')")
                }
            }
        }
        if let junitPath = args.string(junit) {
            try AtomicFile.write(JUnitXML.render(outcomes), to: junitPath)
        }
        if asJSON { out.line(jsonSummary(outcomes)) }
        let passed = outcomes.count - outcomes.filter { !$0.passed }.count
        if !asJSON { out.line("\(passed) passed, \(outcomes.count - passed) failed") }
        return failed == 0 ? .success : .failure
    }

    static func walk(_ dir: String) -> (traces: [String], snapshots: [String]) {
        let files = filesBelow(dir, skipHidden: true)
        return (files.filter { f in GoldenCheck.traceSuffixes.contains { f.hasSuffix($0) } }, files.filter { $0.hasSuffix(".golden.json") })
    }

    /// Checks traces on `jobs` threads; results keep the input order.
    static func runParallel(_ traces: [String], jobs: Int, options: ReplayOptions) -> [CheckOutcome] {
        let box = OutcomeBox(count: traces.count)
        let progress = Output.stderr.isTerminal
        // Largest files first, so that the longest replays do not end up alone at the tail.
        let sizes = traces.map(fileSize)
        let order = traces.indices.sorted { (sizes[$0], $1) > (sizes[$1], $0) }
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(traces.count, 1))) { worker in
            while let k = box.claim() {
                let i = order[k]
                let o = GoldenCheck.check(traces[i], options: options)
                let done = box.store(o, at: i)
                if progress { box.progress(done, total: traces.count) }
            }
            _ = worker
        }
        if progress { box.progress(-1, total: traces.count) }
        return box.outcomes.map { $0! }
    }

    static func jsonSummary(_ outcomes: [CheckOutcome]) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.key("passed"); w.int(outcomes.filter(\.passed).count)
        w.key("failed"); w.int(outcomes.filter { !$0.passed }.count)
        w.key("traces"); w.beginArray()
        for o in outcomes {
            w.beginObject()
            w.key("file"); w.string(o.file)
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

/// Work queue and results shared by the checking threads.
final class OutcomeBox: @unchecked Sendable {
    private let lock = Lock()
    private var next = 0
    private var done = 0
    private(set) var outcomes: [CheckOutcome?]

    init(count: Int) {
        outcomes = Array(repeating: nil, count: count)
    }

    func claim() -> Int? {
        lock.withLock {
            guard next < outcomes.count else { return nil }
            next += 1
            return next - 1
        }
    }

    func store(_ o: CheckOutcome, at i: Int) -> Int {
        lock.withLock {
            outcomes[i] = o
            done += 1
            return done
        }
    }

    func progress(_ done: Int, total: Int) {
        lock.withLock {
            // Straight to the descriptor: the buffered stderr is not shared between threads.
            let line = done < 0 ? "\r\u{1B}[K" : "\rchecking \(done)/\(total) traces"
            try? FileDescriptor.standardError.writeAll(string: line)
        }
    }
}
