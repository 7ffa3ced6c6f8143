import SystemLayer
import TraceModel

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

/// One half of a recording thread's buffer, with its own lock: only that thread and the writer take it.
final class Slot: @unchecked Sendable {
    let lock = Lock()
    // Guarded by `lock`.
    var items: [PendingRecord] = []
    var bytes = 0
    var drops: DropEpisode?
    var counts = CallerCounts()
    var state: AcceptState
    /// The writer sleeps with nothing unwritten: the next record must wake it. A new slot's first record
    /// always does (the writer may have gone to sleep before the slot existed).
    var wakeNeeded = true
    /// The writer was woken for the bytes waiting here (once per take).
    var wokenForBytes = false
    /// An app call waits here to be written through.
    var appCall = false
    /// This slot's share of the queue's caps.
    var recordCap: Int
    var byteCap: Int
    /// The thread that owned it has exited (its records are still taken).
    var retired = false
    /// The writer's side of the swap: touched by the writer thread only.
    var spare: [PendingRecord] = []

    init(state: AcceptState, recordCap: Int, byteCap: Int, reserve: Int) {
        self.state = state
        self.recordCap = recordCap
        self.byteCap = byteCap
        items.reserveCapacity(reserve)
        spare.reserveCapacity(reserve)
    }

    /// Counts `n` dropped records made between `first` and `last`; call holding the lock.
    func drop(_ n: Int, first: UInt64, last: UInt64) {
        if drops == nil { drops = DropEpisode(count: 0, firstNanos: first, lastNanos: last) }
        drops!.add(n, first: first, last: last)
        counts.dropped += n
    }
}

/// What one caller's record needs besides its payload, decided before any lock is tried.
struct Offer {
    var nanos: UInt64
    var size: Int
    var clipped: Bool
    var appCall: Bool
}

/// One recording thread's buffer (or a real-time producer's): two slots, each with its own lock. The
/// thread appends to whichever slot it can lock at once; the writer holds at most one of them at a
/// time, for a swap, so the thread never waits for a lock another thread holds. Records are ordered
/// later by the time of the call and the order taken at it.
final class ProducerBuffer: @unchecked Sendable {
    let slots: (Slot, Slot)
    /// The producer's number, the high bits of every order it takes.
    let number: UInt64
    /// A real-time producer's storage never grows: a slot at its capacity drops.
    let realtime: Bool
    let frameRecords: Int
    /// The order every call takes, shared by all producers of the recorder (where the platform has atomics).
    let sequence: CallSequence
    /// The owning thread's count of calls (only that thread touches it).
    private var calls: UInt64 = 0
    /// Calls that found both slots taken (only the owning thread touches these), handed on with the
    /// next record that gets through.
    private var missed = 0
    private var missedFirst: UInt64 = 0
    private var missedLast: UInt64 = 0

    init(number: UInt64, realtime: Bool, state: AcceptState, share: (records: Int, bytes: Int), frameRecords: Int, reserve: Int,
         sequence: CallSequence) {
        self.number = number
        self.sequence = sequence
        self.realtime = realtime
        self.frameRecords = frameRecords
        slots = (Slot(state: state, recordCap: share.records, byteCap: share.bytes, reserve: reserve),
                 Slot(state: state, recordCap: share.records, byteCap: share.bytes, reserve: reserve))
    }

    /// The next order a call takes (the owning thread only): the recorder's sequence, one atomic add;
    /// where the platform has no atomics (iOS before 18), the producer's number and its own count, so
    /// that calls of one thread keep their order and ties between threads are broken alike every time.
    @inline(__always)
    func nextOrder() -> UInt64 {
        if let n = sequence.next() { return n }
        calls &+= 1
        return number << 40 | (calls & 0xFF_FFFF_FFFF)
    }

    /// Locks a slot without waiting: the first free one. The writer holds at most one slot at a time, but
    /// it moves from one to the other: a try that finds both taken one after the other tries again, a
    /// few times (never waiting). Nil when both stay taken: only when two threads share a producer,
    /// which its rules forbid.
    @inline(__always)
    private func lockSlot() -> Slot? {
        for _ in 0..<4 {
            if slots.0.lock.tryLock() { return slots.0 }
            if slots.1.lock.tryLock() { return slots.1 }
        }
        return nil
    }

    /// Queues a record, or counts it (dropped, left out while paused, ignored after the recording
    /// stopped). Returns whether it was queued and whether the writer must be woken.
    @inline(__always)
    func append(_ offer: Offer, _ payload: TraceRecorder.Event.Payload) -> (queued: Bool, wake: Bool) {
        let order = nextOrder()
        guard let slot = lockSlot() else {
            if missed == 0 { missedFirst = offer.nanos }
            missed += 1
            missedLast = offer.nanos
            return (false, false)
        }
        if missed > 0 { handOnMissed(slot) }
        let result = appendLocked(slot, offer, order, payload)
        slot.lock.unlock()
        return result
    }

    /// Counts one record on a slot, holding its lock (filtered, or dropped before it was queued),
    /// without waiting (the owning thread only).
    func count(_ update: (Slot) -> Void) {
        guard let slot = lockSlot() else { return }
        if missed > 0 { handOnMissed(slot) }
        update(slot)
        slot.lock.unlock()
    }

    private func handOnMissed(_ slot: Slot) {
        if slot.state == .accepting { slot.drop(missed, first: missedFirst, last: missedLast) } else { slot.counts.ignored += missed }
        slot.counts.droppedBusy += missed
        missed = 0
    }

    @inline(__always)
    private func appendLocked(_ slot: Slot, _ offer: Offer, _ order: UInt64, _ payload: TraceRecorder.Event.Payload) -> (queued: Bool, wake: Bool) {
        switch slot.state {
        case .accepting: break
        case .paused:
            slot.counts.paused += 1
            return (false, false)
        case .stopped:
            slot.counts.ignored += 1
            return (false, false)
        }
        if slot.items.count >= slot.recordCap || slot.bytes + offer.size > slot.byteCap
            || realtime && slot.items.count == slot.items.capacity {
            slot.drop(1, first: offer.nanos, last: offer.nanos)
            return (false, false)
        }
        slot.items.append(PendingRecord(nanos: offer.nanos, order: order, payload: payload))
        slot.bytes += offer.size
        slot.counts.accepted += 1
        if offer.clipped { slot.counts.clipped += 1 }
        var wake = false
        if offer.appCall {
            slot.appCall = true
            wake = true
        }
        if slot.wakeNeeded {
            slot.wakeNeeded = false
            wake = true
        }
        // A quarter of its share of the byte cap waits: drained before it fills (large records).
        if !slot.wokenForBytes && slot.bytes >= slot.byteCap / 4 {
            slot.wokenForBytes = true
            wake = true
        }
        if slot.items.count == min(frameRecords, max(1, slot.recordCap / 4)) { wake = true }
        return (true, wake)
    }

    /// Marks the buffer's thread gone: once its slots are empty the writer forgets it.
    func retire() {
        for slot in [slots.0, slots.1] { slot.lock.withLock { slot.retired = true } }
    }

    /// Whether its recorder has stopped for good (the thread may forget it).
    var isStopped: Bool { slots.0.lock.withLock { slots.0.state == .stopped } }

    /// Hands what this (real-time) producer counted on its own to a slot, waiting for the lock (an
    /// ordinary thread, when the producer is released).
    func settle() {
        guard missed > 0 else { return }
        slots.0.lock.withLock { handOnMissed(slots.0) }
    }
}
