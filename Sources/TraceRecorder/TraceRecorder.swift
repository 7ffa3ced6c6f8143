import SystemLayer
import TraceModel

/// Records a trace on the device: the SDK calls `record(_:)` from any thread; one background thread
/// encodes, compresses and writes, so a caller never waits for the disk.
///
/// ```swift
/// let recorder = TraceRecorder(RecorderConfiguration(directory: tracesFolder, layer: .smeeting, sdk: "SMeeting 3.2.1"))
/// recorder.record(.setRoute(target: .speaker, api: "setSpeakerOutputEnabled(true)"))
/// ```
///
/// Records wait in per-thread buffers bounded in records and bytes; when one is full they are dropped
/// and counted, and one `trace.dropped` says so once the writer catches up. `seq` is assigned when a
/// record is written, `t` when it is made (a record made before the latest `t` written is marked late).
/// No caller waits for a lock another thread holds. A real-time thread records through a
/// `RealtimeProducer`, which never allocates. A locked volume, a full disk or low free space pause the
/// recording (`trace.paused`) until a write succeeds again; other errors go to the configuration's log
/// and stop it; nothing is thrown at the caller. See docs/recorder.md.
public final class TraceRecorder: @unchecked Sendable {
    let core: RecorderCore
    private let clock: any RecorderClock
    let writer: RecorderWriter?
    private let filter: (@Sendable (Event) -> Event?)?
    private let maxString: Int
    /// The configuration it was created with.
    public let configuration: RecorderConfiguration

    /// Starts a recorder: a session that is sampled gets a writer thread and a trace file (made on that
    /// thread); one that is not records nothing.
    public init(_ configuration: RecorderConfiguration) {
        self.configuration = configuration
        clock = configuration.clock
        filter = configuration.filter
        maxString = configuration.records.maxStringBytes
        core = RecorderCore(limits: configuration.queue, frame: configuration.frame, stamps: .of(configuration))
        let origin = (nanos: clock.monotonicNanoseconds(), wallMs: clock.wallMilliseconds())
        let id = configuration.sessionId.map(Self.sanitize) ?? Self.newSessionId()
        let sampled = Self.isSampled(sessionId: id, rate: configuration.sampleRate)
        let mayResume = configuration.resume != .never
        core.sessionId = RecorderWriter.onDisk(sessionId: id, privacy: configuration.privacy)
        guard sampled || mayResume else {
            let core = core
            core.lock.withLock {
                core.setStateLocked(.stopped, discard: true)
                core.finished = true
            }
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

    /// Records one event, stamped with the time of this call. Never waits: the record goes into a
    /// buffer of the calling thread's own that no other caller uses and the writer only swaps (see
    /// docs/recorder.md, "Which threads may call what"); a thread's first record registers that buffer.
    /// The stamp is the processor's counter where it can stand in for the system clock (one
    /// instruction), which the writer turns into the clock's time (`StampSource`).
    /// The event is taken (`consuming`): an event made at the call, as an SDK makes it, is moved into
    /// the queue, not copied.
    @inline(__always)
    public func record(_ event: consuming Event) {
        submit(event, nanos: stamp())
    }

    /// A call's stamp now, by the recorder's source.
    @inline(__always)
    func stamp() -> UInt64 {
        switch core.stamps {
        case .counter: TickCounter.now() | StampSource.counterMark
        case .monotonic: SystemLayer.Clock.monotonicNanoseconds()
        case .configured: clock.monotonicNanoseconds()
        }
    }

    /// Records an event made earlier than it is recorded: `madeAt` is the reading of the configuration's
    /// clock (`timestamp()`) when it happened. An SDK with its own audio-session observers records an
    /// interruption it decided late (`AppleAudioMapping.InterruptionResolver`'s `Decision.madeAt`) at
    /// the notification's time, before its own `sdk.interrupted`. A record made earlier than the latest
    /// `t` already written is written with its own `t` and `"late": true`, at most the match window
    /// (1 s) back; readers put it in time order.
    public func record(_ event: consuming Event, madeAt nanos: UInt64) {
        submit(event, nanos: nanos)
    }

    /// The configuration clock's reading now, in nanoseconds: what `record(_:madeAt:)` takes.
    public func timestamp() -> UInt64 { clock.monotonicNanoseconds() }

    @inline(__always)
    private func submit(_ event: consuming Event, nanos: UInt64) {
        // The thread's buffer, unretained: the thread holds it (and the recorder's list), and a call
        // costs no reference counting.
        let buffer = ThreadProducers.buffer(for: core)
        // The payload is looked into at most once, borrowed, and then moved into the slot: each use of
        // it as a whole copies it (a large enum, copied through its type's metadata), which cost as much
        // as the rest of the call. Through the producer's own counters, not a closure (which would get a
        // copy of the event).
        let look = ProducerBuffer.look(event, buffer._withUnsafeGuaranteedRef { $0.own })
        guard filter == nil && look.longest <= maxString && !look.customClipped else {
            return submitAdmitted(event, nanos: nanos, buffer: buffer)
        }
        let offer = Offer(nanos: nanos, size: look.bytes, clipped: false, appCall: core.writeThroughAppCalls && look.appCall)
        if ProducerBuffer.append(to: buffer, offer, (consume event).payload).wake { core.wakeWriter() }
    }

    /// A record that goes through the filter or has a string to clip (off the common path).
    @inline(never)
    private func submitAdmitted(_ event: Event, nanos: UInt64, buffer: Unmanaged<ProducerBuffer>) {
        buffer._withUnsafeGuaranteedRef { buffer in
            guard let a = admit(event, buffer) else { return }
            let offer = Offer(nanos: nanos, size: a.size, clipped: a.clipped, appCall: core.writeThroughAppCalls && a.payload.isAppCall)
            if buffer.append(offer, a.payload).wake { core.wakeWriter() }
        }
    }

    /// The event as it is queued: through the filter (nil: left out, counted), strings over the cap clipped.
    private func admit(_ event: Event, _ buffer: ProducerBuffer) -> (payload: Event.Payload, size: Int, clipped: Bool)? {
        var payload = event.payload
        if let filter {
            guard let kept = filter(event) else {
                buffer.count { $0.counts.filtered += 1 }
                return nil
            }
            payload = kept.payload
        }
        var size = payload.queuedSize
        var clipped = false
        if size.longest > maxString, let cut = payload.clipped(to: maxString) {
            payload = cut
            size = payload.queuedSize
            clipped = true
        }
        if payload.customClipped { clipped = true }
        return (payload, size.bytes, clipped)
    }

    /// A producer for one real-time thread, whose `record(_:)` never waits nor allocates (see `RealtimeProducer`).
    public func makeRealtimeProducer() -> RealtimeProducer {
        RealtimeProducer(core: core, configuration: configuration)
    }

    /// Asks the writer to write what is waiting as a frame now and, unless the sync policy is
    /// `never`, to make it durable (call it when the app goes to the background). Returns at once.
    public func flush() {
        core.lock.withLock { core.flushRequested += 1 }
        core.wakeWriter()
    }

    /// `flush()`, then waits up to `seconds` for it; false when it did not finish in time (or recording
    /// stopped). Called on the writer thread (from a configuration callback such as `onOutbox`), it
    /// returns false at once: the writer cannot wait for itself.
    @discardableResult
    public func flush(timeout seconds: Double) -> Bool {
        flush()
        guard !onWriterThread else { return false }
        core.lock.lock()
        defer { core.lock.unlock() }
        let generation = core.flushRequested
        let done = waitLocked(seconds) { [core] in core.flushDone >= generation || core.finished }
        return done && core.flushDone >= generation
    }

    /// Whether the calling thread is this recorder's writer (a callback of the configuration).
    var onWriterThread: Bool { ThreadProducers.local.value?.writerOf.contains(core.id) ?? false }

    /// Closes the part being recorded into `outbox/` now, whatever the upload mode (a mid-call "send
    /// diagnostics"), and goes on in the next part, which begins with a checkpoint. `completion` is
    /// told the closed file's path in `outbox/` (nil if nothing could be closed), on the writer thread.
    /// Returns at once.
    public func rotateNow(completion: (@Sendable (String?) -> Void)? = nil) {
        core.lock.lock()
        guard !core.finished && !core.stopRequested else {
            core.lock.unlock()
            completion?(nil)
            return
        }
        core.rotations.append(RotationRequest(done: completion))
        core.lock.unlock()
        core.wakeWriter()
    }

    /// Marks a user's problem report at this moment: records `trace.report` (`id` as the app shows it
    /// to the user, to paste into the ticket; `note`, free text, personal like a log message), then
    /// rotates, so that the part holding the mark is closed into `outbox/` (what `exportBundle` takes).
    /// Returns the session's id, as its files name it. Returns at once.
    @discardableResult
    public func markReport(id: String, note: String? = nil) -> String {
        record(Event(.report(id: id, note: note)))
        core.lock.withLock { if core.reportIds.count < 64 { core.reportIds.append(id) } }
        rotateNow()
        return sessionId
    }

    /// Stops recording: what was recorded before is written, the file is closed and handed on to
    /// `outbox/` (or `local/`). Returns at once; later records are ignored.
    public func close() {
        requestStop()
    }

    /// `close()`, then waits up to `seconds` for the writer to finish; false when it did not in time
    /// (at once on the writer thread, which cannot wait for itself).
    @discardableResult
    public func close(timeout seconds: Double) -> Bool {
        requestStop()
        guard !onWriterThread else { return false }
        core.lock.lock()
        defer { core.lock.unlock() }
        return waitLocked(seconds) { [core] in core.finished }
    }

    /// In the on-demand upload mode, moves the kept traces (and every later part of this session, as it
    /// closes) into `outbox/`. Done by the writer thread; returns at once.
    public func promoteKeptTraces() {
        core.lock.withLock { core.promoteRequested = true }
        core.wakeWriter()
    }

    /// Whether records are being accepted (false once closed or failed, for a session not sampled, and
    /// while recording is paused or switched off).
    public var isRecording: Bool {
        core.lock.withLock { core.state == .accepting }
    }

    /// Whether the SDK wants recording on (default true): switched off, records are left out (counted in
    /// `statistics.paused`) until it is switched on again, when a `trace.paused` (reason `disabled`) says
    /// what the trace lacks, followed by a checkpoint from the provider. The open part stays open.
    public var isEnabled: Bool {
        get { core.lock.withLock { core.enabled } }
        set {
            let now = clock.monotonicNanoseconds()
            core.lock.withLock { core.setEnabledLocked(newValue, at: now) }
            core.wakeWriter()
        }
    }

    /// What the recorder has done so far.
    public var statistics: RecorderStatistics {
        core.lock.withLock { core.statisticsLocked() }
    }

    /// The session being recorded, as its files name it (with privacy on, its token; a recorder that
    /// continues a crashed session takes that session's id once the writer has found it).
    public var sessionId: String {
        core.lock.withLock { core.sessionId }
    }

    private func requestStop() {
        core.lock.withLock {
            core.stopRequested = true
            core.setStateLocked(.stopped, discard: false)
        }
        core.wakeWriter()
    }

    /// Waits (holding the lock) on the callers' condition until `done` holds, at most `seconds` in all.
    func waitLocked(_ seconds: Double, _ done: () -> Bool) -> Bool {
        let deadline = SystemClock().monotonicNanoseconds() + UInt64(max(0, seconds) * 1e9)
        while !done() {
            let now = SystemClock().monotonicNanoseconds()
            if now >= deadline { return done() }
            core.lock.wait(1, nanoseconds: deadline - now)
        }
        return true
    }
}
