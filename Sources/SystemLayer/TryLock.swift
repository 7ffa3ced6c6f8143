#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(Synchronization)
import Synchronization
#endif

/// A lock for state one thread appends to and another empties now and then: the appending thread only
/// ever tries it (`tryLock`, never waiting); the other may wait for it (`lock`). Where the platform has
/// atomics (Linux; Apple systems from iOS 18 and macOS 15), a try is one compare-and-exchange and an
/// unlock one store, inlined into the caller: no call into the system, no second atomic operation.
/// Elsewhere it is a pthread mutex. A waiting `lock` yields the processor between tries, so it suits a
/// lock held only for a few instructions by a thread that may be descheduled meanwhile.
public final class TryLock: @unchecked Sendable {
    /// The flag (an `AtomicFlag`, retained by this object), where there are atomics; held as a raw
    /// pointer so that a try costs no reference counting and the class builds for systems without them.
    @usableFromInline let flag: UnsafeMutableRawPointer?
    /// The mutex, where there are no atomics.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>?

    /// An unlocked lock.
    public init() {
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            flag = Unmanaged.passRetained(AtomicFlag()).toOpaque()
            mutex = nil
            return
        }
        #endif
        flag = nil
        let m = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        m.initialize(to: pthread_mutex_t())
        pthread_mutex_init(m, nil)
        mutex = m
    }

    deinit {
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let flag {
            Unmanaged<AtomicFlag>.fromOpaque(flag).release()
        }
        #endif
        if let mutex {
            pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
            mutex.deallocate()
        }
    }

    /// Takes the lock if no other thread holds it; never waits. True when it was taken.
    @inlinable @inline(__always)
    public func tryLock() -> Bool {
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let flag {
            return Unmanaged<AtomicFlag>.fromOpaque(flag)._withUnsafeGuaranteedRef {
                $0.held.compareExchange(expected: false, desired: true, successOrdering: .acquiring, failureOrdering: .relaxed).exchanged
            }
        }
        #endif
        return pthread_mutex_trylock(mutex!) == 0
    }

    /// Releases the lock taken by `tryLock()` or `lock()`.
    @inlinable @inline(__always)
    public func unlock() {
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let flag {
            Unmanaged<AtomicFlag>.fromOpaque(flag)._withUnsafeGuaranteedRef { $0.held.store(false, ordering: .releasing) }
            return
        }
        #endif
        pthread_mutex_unlock(mutex!)
    }

    /// Takes the lock, waiting for the thread that holds it (yielding the processor between tries).
    public func lock() {
        if let mutex {
            pthread_mutex_lock(mutex)
            return
        }
        var tries = 0
        while !tryLock() {
            tries += 1
            // The holder was descheduled in the middle of a few instructions: let it run.
            if tries < 64 { sched_yield() } else { Clock.sleep(nanoseconds: 20_000) }
        }
    }
}

#if canImport(Synchronization)
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@usableFromInline final class AtomicFlag {
    @usableFromInline let held = Atomic<Bool>(false)
    @usableFromInline init() {}
}
#endif
