import SystemLayer
import TraceModel
#if canImport(Synchronization)
import Synchronization
#endif

/// A record waiting for the writer: the clock reading when it was made, the order taken at the call
/// (for records of one clock reading), and its content.
struct PendingRecord {
    var nanos: UInt64
    /// The recorder's call sequence, taken at the call (or the producer's number and its own count).
    var order: UInt64
    var payload: TraceRecorder.Event.Payload

    /// Whether `a` goes before `b`: by the time of the call, then by the order taken at it.
    @inline(__always)
    static func precedes(_ a: PendingRecord, _ b: PendingRecord) -> Bool {
        a.nanos != b.nanos ? a.nanos < b.nanos : a.order < b.order
    }
}

/// What callers' records became, counted where they were offered (the recorder's statistics sum them).
struct CallerCounts: Equatable {
    var accepted = 0
    var dropped = 0
    var droppedBusy = 0
    var clipped = 0
    var filtered = 0
    var ignored = 0
    var paused = 0

    static func + (a: CallerCounts, b: CallerCounts) -> CallerCounts {
        CallerCounts(accepted: a.accepted + b.accepted, dropped: a.dropped + b.dropped, droppedBusy: a.droppedBusy + b.droppedBusy,
                     clipped: a.clipped + b.clipped, filtered: a.filtered + b.filtered, ignored: a.ignored + b.ignored,
                     paused: a.paused + b.paused)
    }
}

/// Whether records offered are kept: queued, left out while recording is paused, or ignored for good.
enum AcceptState: Equatable {
    case accepting
    case paused
    case stopped
}

/// What one slot holds and counts; mutated in one access at a time (a class's stored properties are
/// each checked for exclusive access at run time, which the caller's path pays for every field).
struct SlotState {
    var items: [PendingRecord] = []
    var bytes = 0
    var drops: DropEpisode?
    var counts = CallerCounts()
    var accept: AcceptState
    /// The count of records at which a record wakes the writer: 1 while the writer sleeps with nothing
    /// unwritten (`armWake`), and a new slot's first record always wakes it (the writer may have gone to
    /// sleep before the slot existed); otherwise half the slot's records (`half`). One compare on the
    /// caller's path, with `wakeBytesAt`, stands for every wake rule but the app call's.
    var wakeAt = 1
    /// The bytes at which a record wakes the writer: a quarter of the byte cap, once per take (then the
    /// largest value, never reached).
    var wakeBytesAt: Int
    /// An app call waits here to be written through.
    var appCall = false
    /// This slot's caps.
    var recordCap: Int
    var byteCap: Int
    /// The thread that owned it has exited (its records are still taken).
    var retired = false
    /// A real-time producer's slot: its storage never grows, a record at its capacity drops.
    let realtime: Bool

    init(accept: AcceptState, recordCap: Int, byteCap: Int, realtime: Bool) {
        self.accept = accept
        self.recordCap = recordCap
        self.byteCap = byteCap
        self.realtime = realtime
        wakeBytesAt = byteCap / 4
    }

    /// Half the records the slot may hold (its storage's capacity, for a real-time producer's, which
    /// never grows), at least 1: a burst the writer's own polling should have taken before.
    func half() -> Int {
        max(1, (realtime ? min(recordCap, items.capacity) : recordCap) / 2)
    }

    /// The writer sleeps with nothing unwritten: the next record must wake it (the writer, holding the
    /// slot's lock, only when the slot is empty).
    mutating func armWake() { wakeAt = 1 }

    /// The writer took what waited: the wake-ups start again (the writer, holding the slot's lock).
    mutating func rearm() {
        wakeAt = half()
        wakeBytesAt = byteCap / 4
        appCall = false
    }

    /// Counts `n` dropped records made between `first` and `last`.
    mutating func drop(_ n: Int, first: UInt64, last: UInt64) {
        if drops == nil { drops = .empty }
        drops!.add(n, first: first, last: last)
        counts.dropped += n
    }

    /// Queues a record, or counts it (left out while paused, ignored once stopped, dropped when full or,
    /// for a real-time producer, at its storage's capacity). Whether it was queued, and whether the
    /// writer must be woken: it sleeps with nothing unwritten, an app call is to be written through, or
    /// the slot is half full (in records) or a quarter full (in bytes), which the writer's own polling
    /// should have prevented (a burst).
    @inline(__always)
    mutating func append(_ offer: Offer, _ order: UInt64, _ payload: consuming TraceRecorder.Event.Payload) -> (queued: Bool, wake: Bool) {
        switch accept {
        case .accepting: break
        case .paused:
            counts.paused += 1
            return (false, false)
        case .stopped:
            counts.ignored += 1
            return (false, false)
        }
        if items.count >= recordCap || bytes + offer.size > byteCap || realtime && items.count == items.capacity {
            drop(1, first: offer.nanos, last: offer.nanos)
            return (false, false)
        }
        items.append(PendingRecord(nanos: offer.nanos, order: order, payload: consume payload))
        bytes &+= offer.size
        counts.accepted &+= 1
        if offer.clipped { counts.clipped &+= 1 }
        // One compare each for the wake rules (the count that is due, the bytes), and the app call.
        guard items.count == wakeAt || bytes >= wakeBytesAt || offer.appCall else { return (true, false) }
        return (true, wokeWriter(appCall: offer.appCall))
    }

    /// Which wake rule a record met, moved on so that each wakes the writer once (the owning thread,
    /// holding the slot's lock): the first record after the writer slept, then half the slot; a quarter
    /// of the byte cap; an app call, each time.
    @inline(never)
    mutating func wokeWriter(appCall isAppCall: Bool) -> Bool {
        if isAppCall { appCall = true }
        if items.count == wakeAt {
            let half = half()
            // After the first record's wake-up, the next is due at half the slot (unless that was it).
            wakeAt = wakeAt < half ? half : -1
        }
        if bytes >= wakeBytesAt { wakeBytesAt = .max }
        return true
    }
}

/// What one caller's record needs besides its payload, decided before any lock is tried.
struct Offer {
    var nanos: UInt64
    var size: Int
    var clipped: Bool
    var appCall: Bool
}

/// One recording thread's buffer (or a real-time producer's): two slots. An ordinary thread's, where the
/// platform has atomics, are handed between the thread and the writer without a lock (`SlotHandoff`):
/// the thread appends to the slot the writer left it, and the writer takes the other. Otherwise each
/// slot has its own lock: the thread appends to whichever slot it can lock at once, and the writer
/// holds at most one of them at a time, for a swap (a real-time producer's are locked so, where a second
/// thread that used it against its rules finds both taken and drops). Either way the thread never waits
/// for another thread. Records are ordered later by the time of the call and the order taken at it. The
/// slots are stored inline (no object of their own), so that a call costs no reference counting.
final class ProducerBuffer: @unchecked Sendable {
    /// The slots' locks; with a handoff, the first only, taken by the writer's side for every slot.
    private let lock0 = TryLock(), lock1 = TryLock()
    /// The `SlotHandoff` (retained by this object) of an ordinary thread's buffer where the platform has
    /// atomics; nil for a real-time producer's and where there are none (the slots' locks instead).
    private let handoff: UnsafeMutableRawPointer?
    /// Slot 0 and slot 1, each guarded by its lock or handed (`SlotHandoff`); the owning thread's own counters. Kept in storage of
    /// their own rather than in stored properties: a class's stored property is checked for exclusive
    /// access on every use at run time, which a record would pay for several times.
    private let s0: UnsafeMutablePointer<SlotState>, s1: UnsafeMutablePointer<SlotState>
    let own: UnsafeMutablePointer<OwnerCounts>
    /// The writer's side of each slot's swap: touched by the writer thread only.
    private var spare0: [PendingRecord] = [], spare1: [PendingRecord] = []
    /// The producer's number, the high bits of every order it takes without atomics.
    let number: UInt64
    /// A real-time producer's storage never grows: a slot at its capacity drops.
    let realtime: Bool
    /// The order every call takes, shared by all producers of the recorder (where the platform has atomics).
    let sequence: CallOrder

    /// What only the owning thread touches: its count of calls, the calls that found both slots taken
    /// (handed on with the next record that gets through), and what it learnt of the record kinds.
    struct OwnerCounts {
        var calls: UInt64 = 0
        var kinds = KnownKinds()
        var missed = 0
        var missedFirst: UInt64 = 0
        var missedLast: UInt64 = 0
    }

    init(number: UInt64, realtime: Bool, state: AcceptState, share: (records: Int, bytes: Int), reserve: Int, sequence: CallOrder) {
        self.number = number
        handoff = realtime ? nil : Self.makeHandoff()
        self.sequence = sequence
        self.realtime = realtime
        var slot = SlotState(accept: state, recordCap: share.records, byteCap: share.bytes, realtime: realtime)
        slot.items.reserveCapacity(reserve)
        s0 = .allocate(capacity: 1)
        s0.initialize(to: slot)
        slot.items = []
        slot.items.reserveCapacity(reserve)
        s1 = .allocate(capacity: 1)
        s1.initialize(to: slot)
        own = .allocate(capacity: 1)
        own.initialize(to: OwnerCounts())
        spare0.reserveCapacity(reserve)
        spare1.reserveCapacity(reserve)
    }

    deinit {
        s0.deinitialize(count: 1)
        s0.deallocate()
        s1.deinitialize(count: 1)
        s1.deallocate()
        own.deinitialize(count: 1)
        own.deallocate()
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let handoff {
            Unmanaged<SlotHandoff>.fromOpaque(handoff).release()
        }
        #endif
    }

    /// Whether the slots are handed between the thread and the writer without a lock.
    var handsOff: Bool { handoff != nil }

    private static func makeHandoff() -> UnsafeMutableRawPointer? {
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return Unmanaged.passRetained(SlotHandoff()).toOpaque()
        }
        #endif
        return nil
    }

    /// Runs `body` on the slot the writer left the owning thread (the owning thread only, with a
    /// handoff): the call's order, taken inside it, and the slot.
    @inline(__always)
    private func inHandedSlot<R>(_ body: (UInt64, UnsafeMutablePointer<SlotState>) -> R) -> R? {
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let handoff {
            return Unmanaged<SlotHandoff>.fromOpaque(handoff)._withUnsafeGuaranteedRef { h in
                let mark = h.begin()
                let order = sequence.next()!
                let r = body(order, h.slot() == 0 ? s0 : s1)
                h.end(mark)
                return r
            }
        }
        #endif
        return nil
    }

    /// The next order a call takes (the owning thread only): the recorder's sequence, one atomic add;
    /// where the platform has no atomics (iOS before 18), the producer's number and its own count, so
    /// that calls of one thread keep their order and ties between threads are broken alike every time.
    @inline(__always)
    func nextOrder() -> UInt64 {
        if let n = sequence.next() { return n }
        own.pointee.calls &+= 1
        return number << 40 | (own.pointee.calls & 0xFF_FFFF_FFFF)
    }

    /// What the caller's path needs of `event` (the owning thread only): `Payload.callerLook`, with
    /// what this producer learnt of the kinds it recorded.
    @inline(__always)
    func look(_ event: borrowing TraceRecorder.Event) -> (bytes: Int, longest: Int, appCall: Bool, customClipped: Bool) {
        Self.look(event, own)
    }

    /// `look` through the producer's own counters (`own`): a record of a kind it knows holds no string
    /// field is answered from its kind alone, without reading the payload (which the compiler would
    /// copy whole to look into it); any other is looked into off the common path.
    @inline(__always)
    static func look(_ event: borrowing TraceRecorder.Event, _ own: UnsafeMutablePointer<OwnerCounts>) -> (bytes: Int, longest: Int, appCall: Bool, customClipped: Bool) {
        if let kind = event.kind {
            let bit = kind.bit, kinds = own.pointee.kinds
            if kinds.stringFree & bit != 0 { return (RecordBody.stringFreeBytes, 0, kinds.appCall & bit != 0, false) }
        }
        return lookInto(event, own)
    }

    @inline(never)
    private static func lookInto(_ event: borrowing TraceRecorder.Event, _ own: UnsafeMutablePointer<OwnerCounts>) -> (bytes: Int, longest: Int, appCall: Bool, customClipped: Bool) {
        event.payload.callerLook(kind: event.kind, &own.pointee.kinds)
    }

    /// Locks a slot without waiting: the first free one (0 or 1). The writer holds at most one slot at a
    /// time, but it moves from one to the other: a try that finds both taken one after the other tries
    /// again, a few times (never waiting). -1 when both stay taken: only when two threads share a
    /// producer, which its rules forbid.
    @inline(__always)
    private func lockSlot() -> Int {
        for _ in 0..<4 {
            if lock0.tryLock() { return 0 }
            if lock1.tryLock() { return 1 }
        }
        return -1
    }

    /// Queues a record, or counts it (dropped, left out while paused, ignored after the recording
    /// stopped). Returns whether it was queued and whether the writer must be woken.
    @inline(__always)
    func append(_ offer: Offer, _ payload: consuming TraceRecorder.Event.Payload) -> (queued: Bool, wake: Bool) {
        Self.append(to: .passUnretained(self), offer, payload)
    }

    /// `append` on a buffer the caller holds unretained (a thread's own): no reference counting, and the
    /// payload is moved into the slot, never passing through a closure (which would only borrow it, so
    /// the slot would get a copy).
    @inline(__always)
    static func append(to buffer: Unmanaged<ProducerBuffer>, _ offer: Offer,
                       _ payload: consuming TraceRecorder.Event.Payload) -> (queued: Bool, wake: Bool) {
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *),
           let handoff = buffer._withUnsafeGuaranteedRef({ $0.handoff }) {
            // The payload is moved into the slot outside any closure (one would only borrow it).
            let h = Unmanaged<SlotHandoff>.fromOpaque(handoff)
            let (mark, order, slot) = h._withUnsafeGuaranteedRef { h in
                let mark = h.begin()
                return buffer._withUnsafeGuaranteedRef { b in
                    let order = b.sequence.next()!
                    return (mark, order, h.slot() == 0 ? b.s0 : b.s1)
                }
            }
            let result = slot.pointee.append(offer, order, payload)
            h._withUnsafeGuaranteedRef { $0.end(mark) }
            return result
        }
        #endif
        let (order, slot) = buffer._withUnsafeGuaranteedRef { b in (b.nextOrder(), b.lockSlot(offer)) }
        guard let slot else { return (false, false) }
        let result = slot.pointee.append(offer, order, payload)
        buffer._withUnsafeGuaranteedRef { b in
            if slot == b.s0 { b.lock0.unlock() } else { b.lock1.unlock() }
        }
        return result
    }

    /// Locks a slot for a record without waiting, with what this producer counted on its own handed on
    /// to it; nil when both stay taken (counted here, handed on with the next record that gets through).
    @inline(__always)
    private func lockSlot(_ offer: Offer) -> UnsafeMutablePointer<SlotState>? {
        let i = lockSlot()
        if i < 0 {
            if own.pointee.missed == 0 { own.pointee.missedFirst = offer.nanos }
            own.pointee.missed += 1
            own.pointee.missedLast = offer.nanos
            return nil
        }
        if own.pointee.missed > 0 { handOnMissed(i) }
        return i == 0 ? s0 : s1
    }

    /// Counts one record on a slot, holding its lock or the one handed to the thread (filtered, or
    /// dropped before it was queued), without waiting (the owning thread only).
    func count(_ update: (inout SlotState) -> Void) {
        if inHandedSlot({ _, s in update(&s.pointee) }) != nil { return }
        let i = lockSlot()
        guard i >= 0 else { return }
        if own.pointee.missed > 0 { handOnMissed(i) }
        if i == 0 {
            update(&s0.pointee)
            lock0.unlock()
        } else {
            update(&s1.pointee)
            lock1.unlock()
        }
    }

    /// Hands what this producer counted on its own to slot `i`, held.
    private func handOnMissed(_ i: Int) {
        let o = own.pointee
        let s = i == 0 ? s0 : s1
        if s.pointee.accept == .accepting { s.pointee.drop(o.missed, first: o.missedFirst, last: o.missedLast) } else { s.pointee.counts.ignored += o.missed }
        s.pointee.counts.droppedBusy += o.missed
        own.pointee.missed = 0
    }

    /// Runs `body` on slot `i` and its spare (the writer's side), holding that slot's lock (the writer,
    /// and callers that may wait: never the owning thread's record path). With a handoff: holding the
    /// first lock, with the slot made the writer's (`SlotHandoff.takeBack`, which may wait for a call).
    func withSlot<R>(_ i: Int, _ body: (inout SlotState, inout [PendingRecord]) -> R) -> R {
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let handoff {
            lock0.lock()
            defer { lock0.unlock() }
            Unmanaged<SlotHandoff>.fromOpaque(handoff)._withUnsafeGuaranteedRef { $0.takeBack(i, sequence) }
            return i == 0 ? body(&s0.pointee, &spare0) : body(&s1.pointee, &spare1)
        }
        #endif
        if i == 0 {
            lock0.lock()
            defer { lock0.unlock() }
            return body(&s0.pointee, &spare0)
        }
        lock1.lock()
        defer { lock1.unlock() }
        return body(&s1.pointee, &spare1)
    }

    /// Moves what the last take swapped out of both slots into `batch` (the writer only, no lock: the
    /// spares are its own).
    func drainSpares(into batch: inout [PendingRecord]) {
        batch.append(contentsOf: spare0)
        batch.append(contentsOf: spare1)
        spare0.removeAll(keepingCapacity: true)
        spare1.removeAll(keepingCapacity: true)
    }

    /// Marks the buffer's thread gone (the thread, as it exits; a real-time producer's, released): once
    /// its slots are empty the writer forgets it. With a handoff, the slot the thread was left says so.
    func retire() {
        if inHandedSlot({ _, s in s.pointee.retired = true }) != nil { return }
        for i in 0...1 { withSlot(i) { s, _ in s.retired = true } }
    }

    /// Whether its recorder has stopped for good (the owning thread, which may forget it).
    var isStopped: Bool { inHandedSlot({ _, s in s.pointee.accept == .stopped }) ?? withSlot(0) { s, _ in s.accept == .stopped } }

    /// Hands what this (real-time) producer counted on its own to a slot, waiting for the lock (an
    /// ordinary thread, when the producer is released).
    func settle() {
        guard own.pointee.missed > 0 else { return }
        lock0.lock()
        handOnMissed(0)
        lock0.unlock()
    }

    /// Test hooks: hold a slot's lock as the writer does for a swap.
    func holdSlot(_ i: Int) { if i == 0 { lock0.lock() } else { lock1.lock() } }
    func releaseSlot(_ i: Int) { if i == 0 { lock0.unlock() } else { lock1.unlock() } }
}
