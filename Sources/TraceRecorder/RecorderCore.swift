import Foundation
import CRecorderThread
import SystemLayer
import TraceModel

/// The state callers and the writer thread share.
///
/// Records go into per-thread buffers (`ProducerBuffer`), which a caller locks only with a try that
/// cannot fail in normal use: no caller ever waits for a lock another thread holds. Everything else
/// (the list of buffers, requests to flush, rotate, pause or close, the published statistics) is under
/// `lock`, which callers take only for those requests and a thread's first record. The writer sleeps on
/// a semaphore that a caller signals without any lock: when the writer went to sleep with nothing
/// unwritten (it armed every empty slot's wake first), for an app call written through, and when a
/// frame's worth of records or a quarter of a thread's share of the byte cap waits.
final class RecorderCore: @unchecked Sendable {
    /// Condition 1: callers wait for a flush, the close, or the writer to be idle (condition 0 is unused).
    let lock = ConditionLock(conditions: 2)
    /// The writer's sleep: counting, so that a wake-up given before it sleeps is not lost.
    let wake = DispatchSemaphore(value: 0)
    /// This recorder among the recorders of the process (a thread finds its buffer by it).
    let id: UInt64
    let limits: RecorderConfiguration.QueueLimits
    let frameRecords: Int
    let wakeBytes: Int
    let writeThroughAppCalls: Bool
    /// The order calls take, across threads (ties of the clock are written in it).
    let sequence = CallOrder()
    /// What a call's record is stamped with.
    let stamps: StampSource

    // Everything below is guarded by `lock`.
    /// Every producer's buffer, in the order they were made.
    var producers: [ProducerBuffer] = []
    private var nextProducer: UInt64 = 1
    /// What the producers forgotten since (their threads exited) had counted.
    private var retiredCounts = CallerCounts()
    /// Whether records are taken; every slot mirrors it.
    private(set) var state = AcceptState.accepting
    /// False once recording stopped (closed, failed, not sampled): records are ignored.
    var accepting: Bool { state != .stopped }
    /// The writer sleeps with nothing due at the clock's time (for tests on a manual clock).
    var writerIdle = false
    /// Tests ask the writer for a round (`waitUntilWriterIdle`), and it says which it has done.
    var idleProbe = 0
    var idleProbeDone = 0
    var stopRequested = false
    var flushRequested = 0
    var flushDone = 0
    var promoteRequested = false
    /// `rotateNow` requests not served yet, each with its callback.
    var rotations: [RotationRequest] = []
    /// `isEnabled` as the SDK last set it; the writer pauses and resumes after it.
    var enabled = true
    /// When the SDK last switched recording off, and on again since (clock readings), for the writer's
    /// `trace.paused`; cleared once the writer has acted on them.
    var disabledAt: UInt64?
    var enabledAt: UInt64?
    /// The writer paused recording on its own (the volume locked, the disk full, free space low).
    var writerPaused = false
    /// The writer has finished (closed or failed) and will not write again.
    var finished = false
    /// Tests hold the writer back to fill the queue.
    var suspended = false
    /// Tests make the writer die as a killed process does: no end mark, what waits is lost.
    var crashRequested = false
    /// The seq of the last record in a written frame (for tests).
    var framedSeq = -1
    /// The session being recorded, as it is named on disk.
    var sessionId = ""
    /// The ids of the reports `markReport` marked in it (for a bundle's manifest).
    var reportIds: [String] = []
    /// The writer's figures, published whenever it holds the lock (callers' counts are summed on reading).
    var stats = RecorderStatistics()
    /// Turns the counter readings records are stamped with into the clock's nanoseconds, anchored at
    /// every take and every scan that finds one (the writer's, holding the lock).
    private var ticks = TickCalibration(capacity: 64)

    private static let ids = Lock()
    nonisolated(unsafe) private static var lastId: UInt64 = 0

    init(limits: RecorderConfiguration.QueueLimits, frame: RecorderConfiguration.FramePolicy, stamps: StampSource) {
        self.limits = limits
        self.stamps = stamps
        if stamps == .counter { ticks.anchor() }
        frameRecords = frame.records
        writeThroughAppCalls = frame.writeThroughAppCalls
        wakeBytes = max(1, limits.bytes / 4)
        id = Self.ids.withLock {
            Self.lastId += 1
            return Self.lastId
        }
    }

    /// Wakes the writer; any thread, any lock held or none.
    @inline(__always)
    func wakeWriter() { wake.signal() }

    /// A thread's share of the queue's caps: all of them. Each recording thread's buffer is bounded by
    /// the caps on its own (splitting them among threads dropped a burst on one thread while the others
    /// were idle); the recorder holds at most the caps times the threads recording, and only while the
    /// writer cannot keep up.
    func share() -> (records: Int, bytes: Int) { (limits.records, limits.bytes) }

    /// A new producer's buffer, registered; call holding the lock. A real-time one reserves its storage now.
    func registerLocked(realtime: Bool) -> ProducerBuffer {
        let buffer = ProducerBuffer(number: nextProducer, realtime: realtime, state: state, share: share(),
                                    reserve: realtime ? min(limits.records, 1024) : 16, sequence: sequence)
        nextProducer += 1
        producers.append(buffer)
        return buffer
    }

    /// Runs `body` on every slot (and the writer's spare beside it), holding that slot's lock; call
    /// holding `lock`.
    func eachSlot(_ body: (inout SlotState, inout [PendingRecord]) -> Void) {
        for p in producers {
            for i in 0...1 { p.withSlot(i, body) }
        }
    }

    /// Sets whether records are taken, in every slot; call holding the lock. `discard` (the writer's,
    /// once it has finished) also empties them and frees their storage.
    func setStateLocked(_ new: AcceptState, discard: Bool) {
        guard state != .stopped || discard else { return }
        state = state == .stopped ? .stopped : new
        let s = state
        eachSlot { slot, spare in
            slot.accept = s
            if discard {
                slot.items = []
                spare = []
                slot.bytes = 0
            }
        }
    }

    /// What records are taken when neither the SDK nor the writer holds recording back.
    func settleStateLocked() {
        setStateLocked(enabled && !writerPaused ? .accepting : .paused, discard: false)
    }

    /// The SDK switches recording on or off at `now`; call holding the lock.
    func setEnabledLocked(_ on: Bool, at now: UInt64) {
        guard on != enabled else { return }
        enabled = on
        if on {
            enabledAt = now
        } else {
            if disabledAt == nil { disabledAt = now }
            enabledAt = nil
        }
        settleStateLocked()
    }

    /// What waits in the slots, without taking it; call holding the lock.
    func scanLocked() -> (count: Int, bytes: Int, oldest: UInt64?, appCall: Bool) {
        var count = 0, bytes = 0, oldest: UInt64?, appCall = false
        var stamps: [UInt64] = []
        eachSlot { slot, _ in
            count += slot.items.count
            bytes += slot.bytes
            if let first = slot.items.first?.nanos { stamps.append(first) }
            if slot.appCall { appCall = true }
        }
        // Anchored after the scan: the counter readings found are placed between two pairs, not
        // extended from the last one (before a recorder's first take there is no rate to extend by).
        if stamps.contains(where: { $0 & StampSource.counterMark != 0 }) { ticks.anchor() }
        for s in stamps { oldest = min(oldest ?? .max, nanosLocked(s)) }
        return (count, bytes, oldest, appCall)
    }

    /// Before the writer sleeps with nothing unwritten: asks every slot to wake it with its next record.
    /// False when a record arrived meanwhile (then it must not sleep). Call holding the lock.
    func armWakeLocked() -> Bool {
        var empty = true
        eachSlot { slot, _ in
            if slot.items.isEmpty { slot.armWake() } else { empty = false }
        }
        return empty
    }

    /// Takes every slot's records into `batch` (unordered) and their drops, as one overflow episode, with
    /// how many records and bytes it took; forgets the buffers of threads that exited once they are
    /// empty. Call holding the lock.
    @discardableResult
    func takeLocked(into batch: inout [PendingRecord]) -> (drops: DropEpisode?, count: Int, bytes: Int) {
        var episode: DropEpisode?
        var count = 0, bytes = 0
        var forget = false
        let start = batch.count
        eachSlot { slot, spare in
            count += slot.items.count
            bytes += slot.bytes
            swap(&slot.items, &spare)
            slot.bytes = 0
            slot.rearm()
            if let d = slot.drops {
                if episode == nil { episode = d } else { episode!.merge(d) }
                slot.drops = nil
            }
            if slot.retired { forget = true }
        }
        stats.peakQueuedRecords = max(stats.peakQueuedRecords, count)
        stats.peakQueuedBytes = max(stats.peakQueuedBytes, bytes)
        // The spares hold what was taken; only the writer touches them.
        for p in producers { p.drainSpares(into: &batch) }
        if stamps == .counter {
            // Anchored after the swap: every counter reading taken is before the anchor, on a segment
            // that later anchors do not change.
            ticks.anchor()
            for i in start..<batch.count { batch[i].nanos = nanosLocked(batch[i].nanos) }
            episode = episode.map { $0.resolved(nanosLocked) }
        }
        if forget { forgetRetiredLocked() }
        return (episode, count, bytes)
    }

    /// The clock's nanoseconds of a stamp: a counter reading (marked by `StampSource.counterMark`)
    /// turned into the clock's nanoseconds, a clock reading as it is. Call holding the lock.
    @inline(__always)
    func nanosLocked(_ stamp: UInt64) -> UInt64 {
        stamp & StampSource.counterMark == 0 ? stamp : ticks.nanoseconds(stamp & ~StampSource.counterMark)
    }

    /// Drops the buffers of threads that exited and whose slots are empty, keeping their counts.
    private func forgetRetiredLocked() {
        producers.removeAll { p in
            // Retired: either slot says so (the one the thread was left, with a handoff; both otherwise).
            let slots = (0...1).map { i in p.withSlot(i) { s, _ in (retired: s.retired, empty: s.items.isEmpty && s.drops == nil) } }
            let gone = slots.contains { $0.retired } && slots.allSatisfy { $0.empty }
            if gone { retiredCounts = retiredCounts + p.withSlot(0) { s, _ in s.counts } + p.withSlot(1) { s, _ in s.counts } }
            return gone
        }
    }

    /// What callers' records became so far, over every producer; call holding the lock.
    func callerCountsLocked() -> CallerCounts {
        var c = retiredCounts
        eachSlot { s, _ in c = c + s.counts }
        return c
    }

    /// The statistics: the writer's figures and the callers' counts; call holding the lock.
    func statisticsLocked() -> RecorderStatistics {
        var s = stats
        let c = callerCountsLocked()
        s.accepted = c.accepted
        s.dropped += c.dropped
        s.droppedBusy = c.droppedBusy
        s.clipped = c.clipped
        s.filtered = c.filtered
        s.ignored = c.ignored
        s.paused = c.paused + stats.paused
        return s
    }
}

/// A request to close the open part and go on in the next one.
struct RotationRequest {
    /// Told the closed part's path (nil when none was closed), on the writer thread.
    var done: (@Sendable (String?) -> Void)?
    /// Only when the open part holds records after its header and checkpoint (an export's).
    var onlyIfRecords = false
}

/// The buffers the calling thread records into, one per recorder it has recorded with: found without a
/// lock (a thread-local object), released when the thread exits, which retires each buffer.
final class ThreadProducers {
    var entries: [(recorder: UInt64, buffer: ProducerBuffer)] = []
    /// The recorders this thread is the writer of (its callbacks must not wait for it).
    var writerOf: Set<UInt64> = []

    /// Runs on the exiting thread (the key's destructor releases the one reference the key holds):
    /// the thread's pointer stops naming it before it is freed, so that a record made later on this
    /// thread (by another thread-local object's destructor) registers anew instead of reading it.
    deinit {
        if rtc_recorder_thread_get() == Unmanaged.passUnretained(self).toOpaque() { rtc_recorder_thread_set(nil) }
        for e in entries { e.buffer.retire() }
        last.deinitialize(count: 1)
        last.deallocate()
    }

    /// Holds each thread's object and releases it when the thread exits (which retires its buffers).
    static let local = ThreadLocalObject<ThreadProducers>()

    /// The calling thread's object, made on its first use. The key holds it; the thread's pointer
    /// (`rtc_recorder_thread_get`, what a record reads: a load, where the key's read is a call into
    /// the system's library) names it unretained.
    static var current: ThreadProducers {
        let t: ThreadProducers
        if let held = local.value {
            t = held
        } else {
            t = ThreadProducers()
            local.value = t
        }
        rtc_recorder_thread_set(Unmanaged.passUnretained(t).toOpaque())
        return t
    }

    /// The calling thread's buffer for `core`, registered on first use (the one lock a thread's records
    /// take, once); buffers of recorders that stopped are forgotten then.
    @inline(__always)
    static func buffer(for core: RecorderCore) -> Unmanaged<ProducerBuffer> {
        if let raw = rtc_recorder_thread_get() {
            let found: Unmanaged<ProducerBuffer>? = Unmanaged<ThreadProducers>.fromOpaque(raw)._withUnsafeGuaranteedRef { t in
                if t.last.pointee.recorder == core.id, let b = t.last.pointee.buffer { return b }
                for e in t.entries where e.recorder == core.id {
                    t.last.pointee = (core.id, .passUnretained(e.buffer))
                    return .passUnretained(e.buffer)
                }
                return nil
            }
            if let found { return found }
        }
        return .passUnretained(register(core))
    }

    /// The buffer found last and its recorder (one recorder is the common case): one read, no search,
    /// and (in storage of its own) no run-time exclusivity check. Unretained: `entries` holds it.
    let last: UnsafeMutablePointer<(recorder: UInt64, buffer: Unmanaged<ProducerBuffer>?)> = {
        let p = UnsafeMutablePointer<(recorder: UInt64, buffer: Unmanaged<ProducerBuffer>?)>.allocate(capacity: 1)
        p.initialize(to: (0, nil))
        return p
    }()

    private static func register(_ core: RecorderCore) -> ProducerBuffer {
        let t = current
        t.last.pointee = (0, nil)
        t.entries.removeAll { $0.buffer.isStopped }
        let buffer = core.lock.withLock { core.registerLocked(realtime: false) }
        t.entries.append((core.id, buffer))
        t.last.pointee = (core.id, .passUnretained(buffer))
        return buffer
    }
}
