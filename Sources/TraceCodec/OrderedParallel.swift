import Dispatch
import SystemLayer

/// Runs numbered work items on several threads and hands the results back in number order, with a
/// bounded number of items claimed but not yet handed back (the reorder window), so memory does
/// not grow with the number of items however slow the item at the head is.
package enum OrderedParallel {
    /// Runs `work` for 0..<count on `jobs` threads; calls `emit` on the calling thread for every
    /// item in order. At most `window` items are in flight or waiting to be emitted at any time.
    /// An error thrown by `emit` stops the claiming of new items and is rethrown once the threads end.
    package static func run<T: Sendable>(count: Int, jobs: Int, window: Int, work: @escaping @Sendable (Int) -> T,
                                        emit: (Int, T) throws -> Void) rethrows {
        guard count > 0 else { return }
        let queue = ReorderQueue<T>(count: count, window: max(window, 1))
        let group = DispatchGroup()
        for _ in 0..<max(1, min(jobs, count)) {
            group.enter()
            DispatchQueue.global().async {
                while let i = queue.claim() { queue.store(work(i), at: i) }
                group.leave()
            }
        }
        defer {
            queue.stop()
            group.wait()
        }
        for i in 0..<count { try emit(i, queue.take(i)) }
    }
}

/// The shared state of `OrderedParallel`: the next item to claim, the next to emit, and the results
/// that arrived out of order.
final class ReorderQueue<T: Sendable>: @unchecked Sendable {
    /// Condition 0 (`next`): the emitting thread waits for the next result; condition 1 (`space`):
    /// workers wait for a place in the window.
    private let lock = ConditionLock(conditions: 2)
    private let next = 0, space = 1
    private var waitingForSpace = 0
    private let count: Int
    private let window: Int
    private var nextClaim = 0
    private var nextEmit = 0
    private var stopped = false
    private var ready: [Int: T] = [:]

    init(count: Int, window: Int) {
        self.count = count
        self.window = window
    }

    /// The next item to work on, waiting while the window is full; nil when there are no more.
    func claim() -> Int? {
        lock.withLock {
            while !stopped && nextClaim < count && nextClaim - nextEmit >= window {
                waitingForSpace += 1
                lock.wait(space)
                waitingForSpace -= 1
            }
            guard !stopped && nextClaim < count else { return nil }
            nextClaim += 1
            return nextClaim - 1
        }
    }

    /// Files a finished item's result; wakes the emitting thread only when it is the one it waits for.
    func store(_ value: T, at i: Int) {
        lock.withLock {
            ready[i] = value
            if i == nextEmit { lock.signal(next) }
        }
    }

    /// Waits for item `i`'s result and takes it out, which frees a place in the window.
    func take(_ i: Int) -> T {
        lock.withLock {
            while ready[i] == nil { lock.wait(next) }
            nextEmit = i + 1
            if waitingForSpace > 0 { lock.signal(space) }
            return ready.removeValue(forKey: i)!
        }
    }

    /// Stops handing out items (after the last one is emitted, or on an error).
    func stop() {
        lock.withLock {
            stopped = true
            lock.broadcast(space)
        }
    }
}
