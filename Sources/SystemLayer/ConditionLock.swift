#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex with condition variables that threads wait on while holding it (producer and consumer
/// queues). Pthread-based everywhere, like `Lock`, and never moved in memory. Timed waits run on the
/// monotonic clock, so a wall-clock change neither shortens nor stretches them.
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
        #if canImport(Darwin)
        for i in 0..<count {
            (self.conditions + i).initialize(to: pthread_cond_t())
            pthread_cond_init(self.conditions + i, nil)
        }
        #else
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        for i in 0..<count {
            (self.conditions + i).initialize(to: pthread_cond_t())
            pthread_cond_init(self.conditions + i, &attributes)
        }
        pthread_condattr_destroy(&attributes)
        #endif
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

    /// Takes the mutex (pair it with `unlock()`; `withLock` is the safer spelling).
    @inline(__always)
    public func lock() { pthread_mutex_lock(mutex) }

    /// Releases the mutex taken by `lock()` or a successful `tryLock()`.
    @inline(__always)
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Takes the mutex if no other thread holds it; never waits. True when it was taken.
    @inline(__always)
    public func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }

    /// Waits on condition `c`; call holding the mutex (inside `withLock`), and re-check what you wait for.
    public func wait(_ c: Int = 0) { pthread_cond_wait(conditions + c, mutex) }

    /// Waits on condition `c` for at most `nanoseconds`; call holding the mutex. False when the time ran
    /// out (a wake-up may still have raced it: re-check what you wait for either way).
    @discardableResult
    public func wait(_ c: Int = 0, nanoseconds: UInt64) -> Bool {
        let ns = min(nanoseconds, 365 * 86_400 * 1_000_000_000)
        #if canImport(Darwin)
        var relative = timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
        return pthread_cond_timedwait_relative_np(conditions + c, mutex, &relative) != ETIMEDOUT
        #else
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let total = Int(now.tv_nsec) + Int(ns % 1_000_000_000)
        var deadline = timespec(tv_sec: now.tv_sec + Int(ns / 1_000_000_000) + total / 1_000_000_000, tv_nsec: total % 1_000_000_000)
        return pthread_cond_timedwait(conditions + c, mutex, &deadline) != ETIMEDOUT
        #endif
    }

    /// Wakes one thread waiting on condition `c`.
    public func signal(_ c: Int = 0) { pthread_cond_signal(conditions + c) }

    /// Wakes every thread waiting on condition `c`.
    public func broadcast(_ c: Int = 0) { pthread_cond_broadcast(conditions + c) }
}
