import Dispatch
import Replay
import Reports
import SystemLayer

extension CheckCommand {
    /// Checks traces on `jobs` threads, each trace in a child process (see `isolatedCheck`); results
    /// keep the input order.
    static func runParallel(_ traces: [String], refusals: [String?], jobs: Int, options: ReplayOptions) -> [CheckOutcome] {
        let box = OutcomeBox(count: traces.count)
        let progress = Output.stderr.isTerminal
        // Largest files first, so that the longest replays do not end up alone at the tail.
        let sizes = traces.map { (try? FileSystem.status($0))?.size ?? 0 }
        let order = traces.indices.sorted { (sizes[$0], $1) > (sizes[$1], $0) }
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(traces.count, 1))) { worker in
            while let k = box.claim() {
                let i = order[k]
                let o = isolatedCheck(traces[i], refusal: refusals[i], options: options)
                let done = box.store(o, at: i)
                if progress { box.progress(done, total: traces.count) }
            }
            _ = worker
        }
        if progress { box.progress(-1, total: traces.count) }
        return box.outcomes.map { $0! }
    }
}

extension CheckCommand {
    /// Checks one trace in a child process (`rtctrace check --isolated-worker … -- TRACE`), so that a
    /// replay that traps (a bug the saturating arithmetic and the input checks missed) fails that
    /// trace alone: the other traces' results and the JUnit file are still written.
    static func isolatedCheck(_ trace: String, refusal: String?, options: ReplayOptions) -> CheckOutcome {
        var args = ["check", isolatedWorker.name] + ReplayFlags.arguments(for: options)
        if let refusal { args += [snapshotRefusal.name, refusal] }
        args += ["--", trace]
        var failed = CheckOutcome(file: trace)
        do {
            let (ending, bytes) = try ChildProcess.run(ChildProcess.currentExecutable, args)
            if ending == .exited(0), let outcome = CheckOutcome(wire: bytes, file: trace) { return outcome }
            switch ending {
            case .signalled(let signal):
                failed.failures.append("\(trace): the replay crashed (signal \(signal)); the other traces were checked. "
                    + "Run 'rtctrace explain \(trace)' to reproduce it, and report it with the trace")
            case .exited(let status):
                failed.failures.append("\(trace): the check of this trace ended with status \(status) and no result")
            }
        } catch {
            failed.failures.append("\(trace): cannot run the check: \(error)")
        }
        return failed
    }

    /// The worker side: checks the one trace and writes its outcome on standard output.
    ///
    /// `RTCTRACE_FAULT_TRAP_REPLAY=NAME` makes the worker trap on the trace whose file name is NAME: the
    /// fault hook the isolation is tested with (a real trap cannot be produced on purpose once fixed).
    static func runWorker(_ trace: String, refusal: String?, options: ReplayOptions) -> ExitCode {
        if let name = CurrentProcess.environment("RTCTRACE_FAULT_TRAP_REPLAY"), !name.isEmpty,
           trace.split(separator: "/").last.map(String.init) == name {
            fatalError("RTCTRACE_FAULT_TRAP_REPLAY: trapping on \(name) as asked")
        }
        let outcome = GoldenCheck.check(trace, options: options, snapshotRefusal: refusal)
        Output.stdout.write(bytes: outcome.wireEncoded)
        return .success
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
