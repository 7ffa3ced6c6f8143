import TraceModel

/// A record waiting for the writer: the clock reading when it was made, and its content.
struct PendingRecord {
    var nanos: UInt64
    var body: RecordBody
}

/// Records dropped because the queue was full, since the writer last took the queue: one overflow
/// episode, written as one `trace.dropped`.
struct DropEpisode: Equatable {
    var count: Int
    var firstNanos: UInt64
    var lastNanos: UInt64
}

/// What a recorder has done so far.
public struct RecorderStatistics: Sendable, Equatable {
    /// Records accepted into the queue.
    public var accepted = 0
    /// Records dropped because the queue was full (each overflow episode is one `trace.dropped`).
    public var dropped = 0
    /// Records offered after recording stopped (closed, failed, or a session not sampled), ignored.
    public var ignored = 0
    /// Records written to files (the recorder's own headers and `trace.dropped` included).
    public var written = 0
    /// Frames written.
    public var frames = 0
    /// `fsync` calls.
    public var syncs = 0
    /// Trace files started (parts).
    public var files = 0
    /// Compressed bytes written, in all files.
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
/// swap that array for an empty one. The caller wakes the writer only when it sleeps without a
/// deadline, or when a frame's worth of records is waiting, so a record normally costs no system call.
final class RecorderCore: @unchecked Sendable {
    let condition = RecorderCondition()
    let limits: RecorderConfiguration.QueueLimits
    let frameRecords: Int

    // Everything below is guarded by `condition`.
    var items: [PendingRecord] = []
    var bytes = 0
    var drops: DropEpisode?
    /// False once recording stopped (closed, failed, not sampled): records are ignored.
    var accepting = true
    /// The writer waits with no deadline: the next record must wake it.
    var writerIdle = false
    var stopRequested = false
    var flushRequested = 0
    var flushDone = 0
    var promoteRequested = false
    /// The writer has finished (closed or failed) and will not write again.
    var finished = false
    /// Tests hold the writer back to fill the queue.
    var suspended = false
    /// The session being recorded.
    var sessionId = ""
    var stats = RecorderStatistics()

    init(limits: RecorderConfiguration.QueueLimits, frameRecords: Int) {
        self.limits = limits
        self.frameRecords = frameRecords
        items.reserveCapacity(min(limits.records, 1024))
    }

    /// Queues a record, or counts it as dropped when the queue is full.
    @inline(__always)
    func enqueue(_ nanos: UInt64, _ body: RecordBody) {
        let size = body.queuedBytes
        condition.lock()
        guard accepting else {
            stats.ignored += 1
            condition.unlock()
            return
        }
        if items.count >= limits.records || bytes + size > limits.bytes {
            if drops == nil { drops = DropEpisode(count: 0, firstNanos: nanos, lastNanos: nanos) }
            drops!.count += 1
            drops!.lastNanos = max(drops!.lastNanos, nanos)
            stats.dropped += 1
            condition.unlock()
            return
        }
        items.append(PendingRecord(nanos: nanos, body: body))
        bytes += size
        stats.accepted += 1
        if writerIdle || items.count == frameRecords {
            writerIdle = false
            // Broadcast: a thread waiting in flush(timeout:) shares the condition and must not take the wake-up.
            condition.broadcast()
        }
        condition.unlock()
    }

    /// Swaps the queue for `spare` (which must be empty) and takes the drop episode; call holding the lock.
    func take(into spare: inout [PendingRecord]) -> DropEpisode? {
        stats.peakQueuedRecords = max(stats.peakQueuedRecords, items.count)
        stats.peakQueuedBytes = max(stats.peakQueuedBytes, bytes)
        swap(&items, &spare)
        bytes = 0
        defer { drops = nil }
        return drops
    }
}
