#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex with condition variables that threads wait on while holding it (producer and consumer
/// queues). Pthread-based everywhere, like `Lock`, and never moved in memory.
public final class ConditionLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let conditions: UnsafeMutablePointer<pthread_cond_t>
    private let count: Int

    /// Creates the lock with `conditions` conditions, numbered from 0.
    public init(conditions: Int = 1) {
        count = max(1, conditions)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.conditions = .allocate(capacity: count)
        for i in 0..<count {
            (self.conditions + i).initialize(to: pthread_cond_t())
            pthread_cond_init(self.conditions + i, nil)
        }
    }

    deinit {
        for i in 0..<count { pthread_cond_destroy(conditions + i) }
        conditions.deinitialize(count: count)
        conditions.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` holding the mutex.
    @inline(__always)
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits on condition `c`; call holding the mutex (inside `withLock`), and re-check what you wait for.
    public func wait(_ c: Int = 0) { pthread_cond_wait(conditions + c, mutex) }

    /// Wakes one thread waiting on condition `c`.
    public func signal(_ c: Int = 0) { pthread_cond_signal(conditions + c) }

    /// Wakes every thread waiting on condition `c`.
    public func broadcast(_ c: Int = 0) { pthread_cond_broadcast(conditions + c) }
}
