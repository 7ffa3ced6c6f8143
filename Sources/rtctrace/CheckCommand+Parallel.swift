import Analysis
import CommandLineKit
import Dispatch
import Replay
import SystemLayer
import TraceCodec
import Workflows

extension CheckCommand {
    /// Checks traces on `jobs` threads, each thread running worker processes over batches of traces
    /// (see `isolatedCheck`); results keep the input order.
    static func runParallel(_ traces: [[String]], refusals: [String?], jobs: Int, options: ReplayOptions,
                            in context: CommandContext) -> [CheckOutcome] {
        let box = OutcomeBox(count: traces.count, progressOn: context.err)
        let progress = context.err.isTerminal
        // Largest files first, so that the longest replays do not end up alone at the tail.
        let sizes = traces.map { $0.reduce(0) { $0 + ((try? FileSystem.status($1))?.size ?? 0) } }
        let order = traces.indices.sorted { (sizes[$0], $1) > (sizes[$1], $0) }
        let threads = min(jobs, max(traces.count, 1))
        // A process start costs a few milliseconds, a golden trace's replay often less: a worker takes
        // a batch, small enough that the threads still share the work (about three batches per thread).
        let batch = max(1, min(64, (traces.count + threads * 3 - 1) / (threads * 3)))
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while let ks = box.claim(upTo: batch) {
                // A trace whose snapshot is refused is checked on its own (the refusal is one option).
                let indices = ks.map { order[$0] }
                let plain = indices.filter { refusals[$0] == nil }
                for (i, o) in zip(plain, isolatedCheck(plain.map { traces[$0] }, refusal: nil, options: options, in: context)) {
                    let done = box.store(o, at: i)
                    if progress { box.progress(done, total: traces.count) }
                }
                for i in indices where refusals[i] != nil {
                    let done = box.store(isolatedCheck([traces[i]], refusal: refusals[i], options: options, in: context)[0], at: i)
                    if progress { box.progress(done, total: traces.count) }
                }
            }
        }
        if progress { box.progress(-1, total: traces.count) }
        return box.outcomes.map { $0! }
    }

    /// Checks traces in a child process (`rtctrace check --isolated-worker … -- TRACE…`: the context's
    /// executable, in its environment), so that a
    /// replay that traps (a bug the saturating arithmetic and the input checks missed) fails that
    /// trace alone: the worker's outcomes before it are kept, that trace fails, and a new worker
    /// checks the ones after it. The other traces' results and the JUnit file are still written.
    static func isolatedCheck(_ traces: [[String]], refusal: String?, options: ReplayOptions, in context: CommandContext) -> [CheckOutcome] {
        var outcomes: [CheckOutcome] = []
        var rest = traces[...]
        while let parts = rest.first {
            let trace = parts[0]
            var args = ["check", isolatedWorker.name] + options.commandLineArguments
            if let refusal { args += [snapshotRefusal.name, refusal] }
            if rest.contains(where: { $0.count > 1 }) { args += [caseSizes.name, rest.map { String($0.count) }.joined(separator: ",")] }
            args += ["--"] + rest.flatMap { $0 }
            var failed = CheckOutcome(TraceSession(paths: parts))
            do {
                let (ending, bytes) = try ChildProcess.run(context.executable, args, environment: context.environment)
                let done = CheckOutcome.decodeAll(wire: bytes, files: rest.map { $0[0] })
                outcomes += zip(done, rest).map { o, p in var o = o; o.parts = p; return o }
                rest = rest.dropFirst(done.count)
                if ending == .exited(0), rest.isEmpty { break }
                guard let stopped = rest.first?.first else { break }
                failed = CheckOutcome(TraceSession(paths: rest.first ?? [stopped]))
                switch ending {
                case .signalled(let signal):
                    failed.failures.append(MessageWords.replayCrashed(stopped, signal)
                        + MessageWords.reproduceHint(stopped))
                case .exited(let status):
                    failed.failures.append(MessageWords.checkEndedWithoutResult(stopped, status))
                }
            } catch {
                failed.failures.append(MessageWords.checkNotRun(trace, error))
            }
            outcomes.append(failed)
            rest = rest.dropFirst()
        }
        return outcomes
    }

    /// The worker side: checks each trace in turn and writes its outcome on standard output as soon
    /// as it is known.
    ///
    /// `RTCTRACE_FAULT_TRAP_REPLAY=NAME` makes the worker trap on the trace whose file name is NAME: the
    /// fault hook the isolation is tested with (a real trap cannot be produced on purpose once fixed).
    static func runWorker(_ traces: [[String]], refusal: String?, options: ReplayOptions, in context: CommandContext) -> ExitCode {
        let trap = context.environment("RTCTRACE_FAULT_TRAP_REPLAY") ?? ""
        for parts in traces {
            if !trap.isEmpty, parts[0].split(separator: "/").last.map(String.init) == trap {
                context.out.flush()
                fatalError(MessageWords.faultTrap(trap))
            }
            let outcome = GoldenCheck.check(TraceSession(paths: parts), options: options, snapshotRefusal: refusal)
            context.out.write(bytes: outcome.wireEncoded)
        }
        context.out.flush()
        return .success
    }
}

/// Work queue and results shared by the checking threads.
final class OutcomeBox: @unchecked Sendable {
    private let lock = Lock()
    private var next = 0
    private var done = 0
    private(set) var outcomes: [CheckOutcome?]

    /// Where progress lines go (standard error, a terminal).
    private let err: Output

    init(count: Int, progressOn err: Output) {
        outcomes = Array(repeating: nil, count: count)
        self.err = err
    }

    /// The next `n` positions of the work order (fewer at the end), or nil when all are taken.
    func claim(upTo n: Int) -> Range<Int>? {
        lock.withLock {
            guard next < outcomes.count else { return nil }
            let taken = next..<min(outcomes.count, next + n)
            next = taken.upperBound
            return taken
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
            // Past the buffer: the buffered stderr is not shared between threads.
            err.writeNow(done < 0 ? "\r\u{1B}[K" : "\rchecking \(done)/\(total) traces")
        }
    }
}
