import SystemLayer

/// The one heavy decompression of the process at a time: a reader whose frame declares a window over
/// `lightBytes`, or whose decoded bytes held for a frame grow over it, enters the gate first and leaves
/// it when the frame is done and its buffers are small again. So `triage --jobs N` holds one large zstd
/// window (up to 128 MiB) and one large hold buffer at a time, not N of each: four 6 KB window bombs at
/// `--jobs 4` reached 400 MiB; a trace of ordinary frames (a recorder's, `record`'s) never enters.
final class DecompressionGate: @unchecked Sendable {
    /// The gate of the process.
    static let shared = DecompressionGate()
    /// The window, and the bytes held for a frame, a reader may have without the gate.
    static let lightBytes = 4 << 20

    private let lock = ConditionLock()
    /// The thread holding the gate, and how many of its readers do (a thread may open a second reader
    /// while its first holds the gate: it is not made to wait for itself).
    private var owner: UInt?
    private var depth = 0

    /// Waits until no other thread holds the gate, then holds it.
    func enter() {
        let me = CurrentThread.id
        lock.lock()
        defer { lock.unlock() }
        if owner == me { depth += 1; return }
        while owner != nil { lock.wait() }
        owner = me
        depth = 1
    }

    /// Lets go of one hold.
    func leave() {
        lock.lock()
        defer { lock.unlock() }
        depth -= 1
        if depth <= 0 {
            owner = nil
            depth = 0
            lock.signal()
        }
    }
}
