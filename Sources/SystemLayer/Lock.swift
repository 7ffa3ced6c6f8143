#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock for state shared between threads.
///
/// A pthread mutex on every platform: the recorder that embeds this must run on iOS releases
/// older than the `Synchronization` module, and `os_unfair_lock` exists only on Apple systems.
/// The mutex lives in its own allocation because a pthread mutex must never move in memory.
public final class Lock: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// Creates an unlocked lock.
    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    @inline(__always)
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Takes the lock (pair it with `unlock()`; `withLock` is the safer spelling).
    @inlinable @inline(__always)
    public func lock() { pthread_mutex_lock(mutex) }

    /// Releases the lock taken by `lock()` or a successful `tryLock()`.
    @inlinable @inline(__always)
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Takes the lock if no other thread holds it; never waits. True when it was taken.
    @inlinable @inline(__always)
    public func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }
}
