/// The writer takes what waits at the rate records come, rather than being woken for them: a caller's
/// wake-up is a system call on the caller's path, and the woken writer may take the caller's processor
/// in the middle of its call (what made the recorder's slowest calls milliseconds long). Callers wake it
/// only for what cannot wait for its clock: the first record after it went to sleep with nothing
/// unwritten, an app call to write through, and a burst that fills half of a thread's buffer.
extension RecorderWriter {
    /// Notes a take of `count` records and `bytes` bytes now: the rates blend the last one with the
    /// ones before (a clock that has not moved, the manual one in tests, changes nothing).
    func noteTake(count: Int, bytes: Int) {
        let now = clock.monotonicNanoseconds()
        guard now > lastTakeNanos else { return }
        let span = Double(now - lastTakeNanos)
        recordRate = (recordRate + Double(count) / span) / 2
        byteRate = (byteRate + Double(bytes) / span) / 2
        lastTakeNanos = now
    }

    /// When to take again: before a frame's worth of records, or a quarter of the byte cap, is expected
    /// at the recent rates (at least 1 ms apart); nil when that is further than a frame interval away
    /// (the frame's own deadline is sooner).
    func pollDue() -> UInt64? {
        var wait = Double.infinity
        if recordRate > 0 { wait = Double(core.frameRecords) / recordRate }
        if byteRate > 0 { wait = min(wait, Double(core.wakeBytes) / byteRate) }
        guard wait < Double(frameNanos) else { return nil }
        return lastTakeNanos + UInt64(max(1_000_000, wait))
    }
}
