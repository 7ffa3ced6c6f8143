import SystemLayer
import TraceModel

/// A record waiting for the writer: the clock reading when it was made, and its content.
struct PendingRecord {
    var nanos: UInt64
    var payload: TraceRecorder.Event.Payload
}

/// Records dropped since the writer last took the queue (the queue was full, or a real-time producer
/// found it busy): one overflow episode, written as one `trace.dropped`.
struct DropEpisode: Equatable {
    var count: Int
    var firstNanos: UInt64
    var lastNanos: UInt64

    mutating func add(_ n: Int, first: UInt64, last: UInt64) {
        count += n
        firstNanos = min(firstNanos, first)
        lastNanos = max(lastNanos, last)
    }
}

/// What a recorder has done so far.
public struct RecorderStatistics: Sendable, Equatable {
    /// Records accepted into the queue.
    public var accepted = 0
    /// Records dropped: the queue was full, a real-time producer found it busy, or the record was over
    /// the size cap (each overflow episode is one `trace.dropped`).
    public var dropped = 0
    /// Of those, records a real-time producer dropped because the queue's lock was taken.
    public var droppedBusy = 0
    /// Of those, records whose JSON line was over `RecordLimits.maxRecordBytes`.
    public var oversized = 0
    /// Records with a string (or a custom event's value list) cut to its cap.
    public var clipped = 0
    /// Records the configuration's filter left out.
    public var filtered = 0
    /// Records offered after recording stopped (closed, failed, or a session not sampled), ignored.
    public var ignored = 0
    /// Records written to files (the recorder's own headers, checkpoints and `trace.dropped` included).
    public var written = 0
    /// Frames written.
    public var frames = 0
    /// `fsync` calls.
    public var syncs = 0
    /// Trace files started (parts).
    public var files = 0
    /// Bytes written, in all files.
    public var bytes = 0
    /// Times the writer thread woke up.
    public var wakeups = 0
    /// Most records waiting at once.
    public var peakQueuedRecords = 0
    /// Most estimated bytes waiting at once.
    public var peakQueuedBytes = 0
}

/// The state callers and the writer thread share, under one lock.
///
/// A caller holds the lock only to append to an array (or count a drop); the writer holds it only to
/// swap that array for an empty one. A caller wakes the writer when it sleeps with nothing unwritten
/// (so a new record never waits for a later deadline), when a frame's worth of records or a quarter of
/// the byte cap is waiting, and for an app call written through; otherwise a record costs no system call.
final class RecorderCore: @unchecked Sendable {
    /// Condition 0: the writer waits for work. Condition 1: callers wait for a flush or the close.
    let lock = ConditionLock(conditions: 2)
    let limits: RecorderConfiguration.QueueLimits
    let frameRecords: Int
    let wakeBytes: Int
    let writeThroughAppCalls: Bool

    // Everything below is guarded by `lock`.
    var items: [PendingRecord] = []
    var bytes = 0
    var drops: DropEpisode?
    /// False once recording stopped (closed, failed, not sampled): records are ignored.
    var accepting = true
    /// The writer sleeps with nothing unwritten: the next record must wake it.
    var writerWaiting = false
    /// The writer sleeps with nothing due at the clock's time (for tests on a manual clock).
    var writerIdle = false
    /// The writer was woken for the bytes waiting (once per queue it takes).
    var wokenForBytes = false
    /// An app call is waiting to be written through.
    var appCallWaiting = false
    var stopRequested = false
    var flushRequested = 0
    var flushDone = 0
    var promoteRequested = false
    /// `rotateNow` requests not served yet, each with its callback.
    var rotations: [(@Sendable (String?) -> Void)?] = []
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
    var stats = RecorderStatistics()

    init(limits: RecorderConfiguration.QueueLimits, frame: RecorderConfiguration.FramePolicy) {
        self.limits = limits
        frameRecords = frame.records
        writeThroughAppCalls = frame.writeThroughAppCalls
        wakeBytes = max(1, limits.bytes / 4)
        items.reserveCapacity(min(limits.records, 1024))
    }

    /// Queues a record, or counts it as dropped when the queue is full.
    @inline(__always)
    func enqueue(_ nanos: UInt64, _ payload: TraceRecorder.Event.Payload, size: Int, clipped: Bool) {
        let appCall = writeThroughAppCalls && payload.isAppCall
        lock.lock()
        _ = appendLocked(nanos, payload, size: size, clipped: clipped, appCall: appCall, realtime: false)
        lock.unlock()
    }

    /// Appends holding the lock; false when the record was ignored or dropped. A real-time caller never
    /// makes the array grow (no allocation): a queue at its capacity drops. `appCall`: an app call to
    /// write through (found before taking the lock).
    @inline(__always)
    func appendLocked(_ nanos: UInt64, _ payload: TraceRecorder.Event.Payload, size: Int, clipped: Bool, appCall: Bool, realtime: Bool) -> Bool {
        guard accepting else {
            stats.ignored += 1
            return false
        }
        if items.count >= limits.records || bytes + size > limits.bytes || realtime && items.count == items.capacity {
            drop(1, first: nanos, last: nanos)
            return false
        }
        items.append(PendingRecord(nanos: nanos, payload: payload))
        bytes += size
        stats.accepted += 1
        if clipped { stats.clipped += 1 }
        if appCall { appCallWaiting = true }
        let overBytes = !wokenForBytes && bytes >= wakeBytes
        if writerWaiting || appCall || overBytes || items.count == frameRecords {
            if overBytes { wokenForBytes = true }
            wakeWriter()
        }
        return true
    }

    /// Counts `n` dropped records made between `first` and `last`; call holding the lock.
    func drop(_ n: Int, first: UInt64, last: UInt64) {
        if drops == nil { drops = DropEpisode(count: 0, firstNanos: first, lastNanos: last) }
        drops!.add(n, first: first, last: last)
        stats.dropped += n
    }

    /// Swaps the queue for `spare` (which must be empty) and takes the drop episode; call holding the lock.
    func take(into spare: inout [PendingRecord]) -> DropEpisode? {
        stats.peakQueuedRecords = max(stats.peakQueuedRecords, items.count)
        stats.peakQueuedBytes = max(stats.peakQueuedBytes, bytes)
        swap(&items, &spare)
        bytes = 0
        wokenForBytes = false
        appCallWaiting = false
        defer { drops = nil }
        return drops
    }

    /// Wakes the writer; call holding the lock.
    func wakeWriter() {
        writerWaiting = false
        writerIdle = false
        lock.signal(0)
    }
}
