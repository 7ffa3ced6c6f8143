import SystemLayer
import TraceModel

/// Sessions, sampling and salts; the hooks the recorder's tests drive the writer with.
extension TraceRecorder {
    // MARK: - Sessions, sampling, salts

    /// Whether a session is recorded at `rate` (0–1): decided from its id, so every part of a session
    /// and every process continuing it decide alike.
    public static func isSampled(sessionId: String, rate: Double) -> Bool {
        if rate >= 1 { return true }
        if rate <= 0 { return false }
        let h = SHA256.hash(Array(sessionId.utf8))
        var v: UInt64 = 0
        for b in h.prefix(8) { v = v << 8 | UInt64(b) }
        return Double(v >> 11) / Double(1 << 53) < rate
    }

    /// 32 random bytes for `Privacy.hashed(salt:)`: make them once per install and keep them (e.g. in
    /// the keychain), never with the traces.
    public static func makeSalt() -> [UInt8] {
        var g = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &g) }
    }

    /// The closed traces waiting in `directory`'s `outbox/`, oldest first. An uploader takes a file by
    /// moving it out of `outbox/` (or deletes it once uploaded): the recorder deletes files there to
    /// keep within its caps.
    public static func outbox(in directory: String) -> [String] {
        let dir = TraceDirectory(root: directory)
        return dir.closed().filter { $0.path.hasPrefix(dir.outbox + "/") }.map(\.path)
    }

    static func sanitize(_ id: String) -> String {
        let kept = id.unicodeScalars.map { s -> Character in
            s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "." || s == "_" || s == "-") ? Character(s) : "_"
        }
        let s = String(kept.prefix(64))
        return s.isEmpty ? "_" : s
    }

    static func newSessionId() -> String {
        var g = SystemRandomNumberGenerator()
        let a = UInt64.random(in: 0...UInt64.max, using: &g), b = UInt64.random(in: 0...UInt64.max, using: &g)
        func hex(_ v: UInt64) -> String {
            let s = String(v, radix: 16)
            return String(repeating: "0", count: 16 - s.count) + s
        }
        return hex(a) + hex(b)
    }

    // MARK: - Test hooks

    /// Holds the writer back (it keeps the queue) until `resumeWriter()`.
    func suspendWriter() {
        core.lock.withLock { core.suspended = true }
    }

    /// Lets the writer go on.
    func resumeWriter() {
        core.lock.withLock { core.suspended = false }
        core.wakeWriter()
    }

    /// Makes the writer stop as a killed process does: the open part keeps what its frames hold and
    /// gets no end mark; what waits is lost. Waits until it has.
    func simulateCrash() {
        core.lock.withLock {
            core.crashRequested = true
            core.setStateLocked(.stopped, discard: false)
        }
        core.wakeWriter()
        _ = close(timeout: 20)
    }

    /// The seq of the last record in a written frame.
    var framedSeq: Int { core.lock.withLock { core.framedSeq } }

    /// Waits until the writer has acted on everything the clock's time makes due and sleeps (for tests
    /// on a manual clock); false when it did not within `seconds`.
    func waitUntilWriterIdle(seconds: Double = 20) -> Bool {
        // A round of the writer after this call takes what was recorded before it (a record's wake-up
        // reaches the writer without a lock, so its being idle alone says nothing of that).
        core.lock.lock()
        core.idleProbe += 1
        let probe = core.idleProbe
        core.lock.unlock()
        core.wakeWriter()
        core.lock.lock()
        defer { core.lock.unlock() }
        return waitLocked(seconds) { [core] in core.finished || core.writerIdle && core.idleProbeDone >= probe }
    }
}
