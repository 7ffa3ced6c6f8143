import SystemLayer
#if canImport(Synchronization)
import Synchronization
#endif

/// The order every call takes, shared by a recorder's producers: one atomic add, with acquire and
/// release ordering, where the platform has atomics (Linux; Apple systems from iOS 18 and macOS 15).
/// Besides ordering records of one clock reading, the add is where an ordinary thread and the writer
/// meet when the writer takes one of the thread's slots (`SlotHandoff`): the writer adds too, and of
/// any two adds, the later sees what the earlier's thread did before it. Elsewhere `next()` answers nil.
final class CallOrder: @unchecked Sendable {
    /// The counter (an `OrderCounter`, retained by this object), where there is one; a raw pointer so
    /// that taking a number costs no reference counting and the class builds for systems without it.
    let counter: UnsafeMutableRawPointer?

    /// A sequence starting at 1.
    init() {
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            counter = Unmanaged.passRetained(OrderCounter()).toOpaque()
            return
        }
        #endif
        counter = nil
    }

    deinit {
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let counter {
            Unmanaged<OrderCounter>.fromOpaque(counter).release()
        }
        #endif
    }

    /// The next number, or nil where the platform has no atomics.
    @inline(__always)
    func next() -> UInt64? {
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let counter {
            return Unmanaged<OrderCounter>.fromOpaque(counter)._withUnsafeGuaranteedRef {
                $0.value.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
            }
        }
        #endif
        return nil
    }

    /// The last number taken so far, or nil where the platform has no atomics.
    func current() -> UInt64? {
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let counter {
            return Unmanaged<OrderCounter>.fromOpaque(counter)._withUnsafeGuaranteedRef { $0.value.load(ordering: .relaxed) }
        }
        #endif
        return nil
    }
}

#if canImport(Synchronization)
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class OrderCounter {
    let value = Atomic<UInt64>(0)
    init() {}
}

/// How an ordinary thread and the writer share the thread's two slots without a lock: the thread
/// appends to the slot `active` names; the writer takes the other. Only the writer's side changes
/// `active` (holding the buffer's first lock), and only the thread changes `busy`, odd while a call is
/// in a slot, even between calls.
///
/// A call: `busy` odd (a store), its order (the shared add), `active` read, the record appended, `busy`
/// even (a store): one locked instruction, the add every call takes anyway. The writer, to take slot
/// `i` while the thread appends to it: `active` to the other slot (a store), an add on the same
/// sequence, then `busy` read. The two adds come one after the other: if the call's came first, the
/// writer's read sees the call's odd `busy` (or a later value), and the writer waits until `busy` moves
/// on from the value it saw; if the writer's came first, the call reads the new `active` and appends to
/// the other slot. A call whose odd `busy` the writer did not see took its add after the writer's. The
/// new `active` is stored with release ordering and read with acquire ordering: a call may read it before
/// its add comes after the writer's, and must then see what the writer did to that slot while it held it.
/// The thread never waits; the writer waits for at most the one call it saw begun.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class SlotHandoff {
    let busy = Atomic<UInt64>(0)
    let active = Atomic<Int>(0)
    init() {}

    /// The slot the owning thread appends to (read after its call's add).
    @inline(__always)
    func slot() -> Int { active.load(ordering: .acquiring) }

    /// The owning thread begins a call: returns the mark to end it with.
    @inline(__always)
    func begin() -> UInt64 {
        let mark = busy.load(ordering: .relaxed) &+ 1
        busy.store(mark, ordering: .releasing)
        return mark
    }

    /// The owning thread ends the call `begin` marked: what it did to the slot is the writer's to see.
    @inline(__always)
    func end(_ mark: UInt64) {
        busy.store(mark &+ 1, ordering: .releasing)
    }

    /// The writer's side (holding the buffer's first lock): makes slot `i` the one the thread does not
    /// append to, waiting for a call the thread began in it to end.
    func takeBack(_ i: Int, _ order: CallOrder) {
        guard active.load(ordering: .relaxed) == i else { return }
        // Released: a call that reads the slot named here (even one whose add came before the writer's)
        // sees what the writer did to it while it was the writer's.
        active.store(1 - i, ordering: .releasing)
        _ = order.next()
        let seen = busy.load(ordering: .acquiring)
        guard seen & 1 != 0 else { return }
        var tries = 0
        while busy.load(ordering: .acquiring) == seen {
            tries += 1
            // The thread was descheduled in the middle of its call: let it run.
            if tries > 64 { Clock.sleep(nanoseconds: 20_000) }
        }
    }
}
#endif
