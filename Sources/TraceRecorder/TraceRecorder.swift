import TraceModel

/// Records a trace on the device: the SDK calls `record(_:)` from any thread; one background thread
/// encodes, compresses and writes, so a caller never waits for the disk.
///
/// ```swift
/// let recorder = TraceRecorder(RecorderConfiguration(directory: tracesFolder, layer: .smeeting, sdk: "SMeeting 3.2.1"))
/// recorder.record(.setRoute(target: .speaker, api: "setSpeakerOutputEnabled(true)"))
/// ```
///
/// Records wait in a queue bounded in records and bytes; when it is full they are dropped and
/// counted, and one `trace.dropped` says so once the writer catches up. `seq` is assigned when a
/// record is written, `t` when it is made (never going backwards in the file). Errors go to the
/// configuration's log and stop the recording; nothing is thrown at the caller. See docs/recorder.md.
public final class TraceRecorder: @unchecked Sendable {
    let core: RecorderCore
    private let clock: any RecorderClock
    private let writer: RecorderWriter?
    /// The configuration it was created with.
    public let configuration: RecorderConfiguration

    /// Starts a recorder: a session that is sampled gets a writer thread and a trace file (made on that
    /// thread); one that is not records nothing.
    public init(_ configuration: RecorderConfiguration) {
        self.configuration = configuration
        clock = configuration.clock
        core = RecorderCore(limits: configuration.queue, frameRecords: configuration.frame.records)
        let origin = (nanos: clock.monotonicNanoseconds(), wallMs: clock.wallMilliseconds())
        let id = configuration.sessionId.map(Self.sanitize) ?? Self.newSessionId()
        core.sessionId = id
        let sampled = Self.isSampled(sessionId: id, rate: configuration.sampleRate)
        let mayResume = configuration.resume != .never
        guard sampled || mayResume else {
            core.accepting = false
            core.finished = true
            writer = nil
            return
        }
        let w = RecorderWriter(configuration: configuration, core: core, sessionId: id, sampled: sampled,
                               monoOrigin: origin.nanos, wallOrigin: origin.wallMs)
        writer = w
        startRecorderThread(name: "rtctrace.recorder") { w.run() }
    }

    deinit {
        // Dropped without close(): the writer still writes what was recorded and closes the file.
        requestStop()
    }

    /// Records one event, stamped with the time of this call. Never blocks on I/O; never throws.
    @inline(__always)
    public func record(_ event: Event) {
        core.enqueue(clock.monotonicNanoseconds(), event.body)
    }

    /// Asks the writer to write what is waiting as a frame now and, unless the sync policy is
    /// `never`, to make it durable (call it when the app goes to the background). Returns at once.
    public func flush() {
        core.condition.lock()
        core.flushRequested += 1
        wakeWriter()
        core.condition.unlock()
    }

    /// `flush()`, then waits up to `seconds` for it; false when it did not finish in time (or recording stopped).
    @discardableResult
    public func flush(timeout seconds: Double) -> Bool {
        core.condition.lock()
        core.flushRequested += 1
        let generation = core.flushRequested
        wakeWriter()
        let done = core.condition.wait(until: { [core] in core.flushDone >= generation || core.finished }, seconds: seconds)
        let ok = done && core.flushDone >= generation
        core.condition.unlock()
        return ok
    }

    /// Stops recording: what was recorded before is written, the file is closed and handed on to
    /// `outbox/` (or `local/`). Returns at once; later records are ignored.
    public func close() {
        requestStop()
    }

    /// `close()`, then waits up to `seconds` for the writer to finish; false when it did not in time.
    @discardableResult
    public func close(timeout seconds: Double) -> Bool {
        requestStop()
        core.condition.lock()
        defer { core.condition.unlock() }
        return core.condition.wait(until: { [core] in core.finished }, seconds: seconds)
    }

    /// In the on-demand upload mode, moves the kept traces (and every later part of this session, as it
    /// closes) into `outbox/`. Done by the writer thread; returns at once.
    public func promoteKeptTraces() {
        core.condition.lock()
        core.promoteRequested = true
        wakeWriter()
        core.condition.unlock()
    }

    /// Whether records are being accepted (false once closed or failed, or for a session not sampled).
    public var isRecording: Bool {
        core.condition.lock()
        defer { core.condition.unlock() }
        return core.accepting
    }

    /// What the recorder has done so far.
    public var statistics: RecorderStatistics {
        core.condition.lock()
        defer { core.condition.unlock() }
        return core.stats
    }

    /// The session being recorded (a recorder that continues a crashed session takes its id once the
    /// writer has found it).
    public var sessionId: String {
        core.condition.lock()
        defer { core.condition.unlock() }
        return core.sessionId
    }

    private func requestStop() {
        core.condition.lock()
        core.stopRequested = true
        core.accepting = false
        wakeWriter()
        core.condition.unlock()
    }

    /// Wakes the writer (and anyone waiting for a flush); call holding the lock.
    private func wakeWriter() {
        core.writerIdle = false
        core.condition.broadcast()
    }

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
        core.condition.lock()
        core.suspended = true
        core.condition.unlock()
    }

    /// Lets the writer go on.
    func resumeWriter() {
        core.condition.lock()
        core.suspended = false
        wakeWriter()
        core.condition.unlock()
    }
}
