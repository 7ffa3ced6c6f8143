#if canImport(Synchronization)
import Synchronization
#endif

/// Numbers taken by many threads at once, in the order they were taken, without a lock (one atomic
/// add): where the platform has atomics (Linux; Apple systems from iOS 18 and macOS 15, where the
/// `Synchronization` module runs). Elsewhere `next()` answers nil and callers order by other means.
public final class CallSequence: @unchecked Sendable {
    /// The counter (an `AtomicCounter`, retained by this object), where there is one; held as a raw
    /// pointer so that taking a number costs no reference counting and the class builds for systems
    /// without it. Inlinable (with `next()`): the recorder's caller takes a number on every record.
    @usableFromInline let counter: UnsafeMutableRawPointer?

    /// A sequence starting at 1.
    public init() {
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            counter = Unmanaged.passRetained(AtomicCounter()).toOpaque()
        } else {
            counter = nil
        }
        #else
        counter = nil
        #endif
    }

    deinit {
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let counter {
            Unmanaged<AtomicCounter>.fromOpaque(counter).release()
        }
        #endif
    }

    /// The next number, or nil where the platform has no atomics.
    @inlinable @inline(__always)
    public func next() -> UInt64? {
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let counter {
            return Unmanaged<AtomicCounter>.fromOpaque(counter)._withUnsafeGuaranteedRef {
                $0.value.wrappingAdd(1, ordering: .relaxed).newValue
            }
        }
        #endif
        return nil
    }

    /// The last number taken so far, or nil where the platform has no atomics.
    public func current() -> UInt64? {
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let counter {
            return Unmanaged<AtomicCounter>.fromOpaque(counter)._withUnsafeGuaranteedRef { $0.value.load(ordering: .relaxed) }
        }
        #endif
        return nil
    }
}

#if canImport(Synchronization)
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@usableFromInline final class AtomicCounter {
    @usableFromInline let value = Atomic<UInt64>(0)
    @usableFromInline init() {}
}
#endif
