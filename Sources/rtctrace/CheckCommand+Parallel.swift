import Dispatch
import Replay
import Reports
import SystemLayer

extension CheckCommand {
    /// Checks traces on `jobs` threads; results keep the input order.
    static func runParallel(_ traces: [String], refusals: [String?], jobs: Int, options: ReplayOptions) -> [CheckOutcome] {
        let box = OutcomeBox(count: traces.count)
        let progress = Output.stderr.isTerminal
        // Largest files first, so that the longest replays do not end up alone at the tail.
        let sizes = traces.map { (try? FileSystem.status($0))?.size ?? 0 }
        let order = traces.indices.sorted { (sizes[$0], $1) > (sizes[$1], $0) }
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(traces.count, 1))) { worker in
            while let k = box.claim() {
                let i = order[k]
                let o = GoldenCheck.check(traces[i], options: options, snapshotRefusal: refusals[i])
                let done = box.store(o, at: i)
                if progress { box.progress(done, total: traces.count) }
            }
            _ = worker
        }
        if progress { box.progress(-1, total: traces.count) }
        return box.outcomes.map { $0! }
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
