import SystemLayer
import TraceModel

/// Records dropped since the writer last took the queue (a thread's share of it was full): one
/// overflow episode, written as one `trace.dropped`.
struct DropEpisode: Equatable {
    var count: Int
    var firstNanos: UInt64
    var lastNanos: UInt64
    /// The first and last counter readings among the drops' stamps (`StampSource.counterMark` set),
    /// kept apart from the clock's nanoseconds until the writer turns them into nanoseconds.
    var counterFirst: UInt64 = .max
    var counterLast: UInt64 = 0

    /// No drop yet.
    static let empty = DropEpisode(count: 0, firstNanos: .max, lastNanos: 0)

    /// Counts `n` drops stamped between `first` and `last` (both clock nanoseconds or both counter readings).
    mutating func add(_ n: Int, first: UInt64, last: UInt64) {
        count += n
        if first & StampSource.counterMark != 0 {
            counterFirst = min(counterFirst, first)
            counterLast = max(counterLast, last)
        } else {
            firstNanos = min(firstNanos, first)
            lastNanos = max(lastNanos, last)
        }
    }

    /// Adds another episode's drops.
    mutating func merge(_ other: DropEpisode) {
        add(other.count, first: other.firstNanos, last: other.lastNanos)
        if other.counterFirst <= other.counterLast { add(0, first: other.counterFirst, last: other.counterLast) }
    }

    /// The episode with its counter readings turned into nanoseconds by `nanos`.
    func resolved(_ nanos: (UInt64) -> UInt64) -> DropEpisode {
        var d = DropEpisode(count: count, firstNanos: firstNanos, lastNanos: lastNanos)
        if counterFirst <= counterLast { d.add(0, first: nanos(counterFirst), last: nanos(counterLast)) }
        return d
    }
}

/// What a recorder has done so far.
public struct RecorderStatistics: Sendable, Equatable {
    /// Records accepted into the queue.
    public var accepted = 0
    /// Records dropped: the queue was full, a producer found both of its slots taken, or the record
    /// was over the size cap (each overflow episode is one `trace.dropped`).
    public var dropped = 0
    /// Of those, records dropped because both slots of their producer were taken (only when two
    /// threads share one real-time producer, which its rules forbid).
    public var droppedBusy = 0
    /// Of those, records whose JSON line was over `RecordLimits.maxRecordBytes`.
    public var oversized = 0
    /// Records with a string (or a custom event's value list) cut to its cap.
    public var clipped = 0
    /// Records the configuration's filter left out.
    public var filtered = 0
    /// Records offered after recording stopped (closed, failed, or a session not sampled), ignored.
    public var ignored = 0
    /// Records offered while recording was paused (switched off, the volume locked, the disk full or
    /// free space low): not written; the `trace.paused` written on resuming says so.
    public var paused = 0
    /// Times recording paused (`trace.paused` records written, or a pause still going on).
    public var pauses = 0
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

