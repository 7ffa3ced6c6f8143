import Dispatch
import TraceFrames
import TraceModel

/// The writer thread's side of a recorder: it takes the queue, stamps `seq` and `t`, cuts frames,
/// makes them durable, rotates files and hands closed ones on. Only the writer thread touches it.
///
/// It sleeps until the earliest of: the oldest unwritten record (queued or framed) being about to reach
/// the frame interval, the next sync, or a caller waking it. Whenever nothing is unwritten it sleeps
/// as a waiter the next record wakes, whatever the sync policy, so the frame interval bounds the age of
/// every unwritten record.
final class RecorderWriter: @unchecked Sendable {
    let config: RecorderConfiguration
    let core: RecorderCore
    let clock: any RecorderClock
    let dir: TraceDirectory
    /// Monotonic and wall-clock readings taken together when the recorder was created.
    let monoOrigin: UInt64
    let wallOrigin: Int64
    /// Whether this run's own session is sampled (a continued session was sampled by the run that began it).
    let sampled: Bool
    let frameNanos: UInt64
    let slackNanos: UInt64

    /// The session as the files and headers name it (its token when privacy is on).
    var sessionId: String
    /// When the session began (wall clock), for `startedAt` and for continuing it after a restart.
    var sessionStartWall: Int64
    /// `t` at `monoOrigin`: 0 for a new session, the time since the session began for a continued one.
    var tBase: Int64 = 0
    var part = 0
    var file: PartFile?
    var fileName: TraceFileName?
    var encoder = FrameEncoder(StoredFrameCompressor())
    var lastT: Int64 = 0
    /// The unwritten frame: the `t` of its first record and the oldest clock reading of its records.
    var frameFirstT: Int64 = 0
    var frameFirstNanos: UInt64?
    var unsynced = false
    /// When the last sync happened, on the clock and in trace time.
    var lastSyncNanos: UInt64
    var lastSyncT: Int64 = 0
    /// This session's closed parts go to `outbox/` even in the on-demand mode.
    var promoted = false
    var redactor: SourceRedactor?
    /// What this process has recorded, for the checkpoint that begins each later part.
    var state: SessionState
    var batch: [PendingRecord] = []
    /// Records taken but held back for the next round (their calls came after the round began).
    var carry: [PendingRecord] = []
    var line = JSONWriter(reserving: 1024)
    /// Records over the record cap, since the last `trace.dropped` for them.
    var oversized: DropEpisode?
    var oversizedLogged = false
    var compressionFailureLogged = false
    /// Counters published into `core.stats` whenever the writer holds the lock.
    var written = 0, frames = 0, syncs = 0, files = 0, bytes = 0, wakeups = 0, oversizedCount = 0, pauses = 0
    /// Recording is paused (switched off, the volume locked, the disk full, free space low), since when.
    var pause: PauseState?
    /// When free space was last compared with the floor (clock reading).
    var spaceCheckedNanos: UInt64?
    /// The earliest record taken but not written before a pause began (a write failed under it).
    var lostFrom: UInt64?
    /// The `t` of the open part's header: no record of the part is written before it.
    var partStartT: Int64 = 0
    /// The open part continues a session after a restart (its header says `resumed`).
    var isResumedPart = false
    /// The rates records and their bytes came at lately (per nanosecond), and the last take: when the
    /// writer takes what waits without being woken (`pollDue`).
    var recordRate = 0.0, byteRate = 0.0
    var lastTakeNanos: UInt64 = 0
    /// A part a rotation closed whose successor could not be made yet (a pause came between).
    var closedAwaiting: (name: TraceFileName, toOutbox: Bool)?
    /// The size of the open file when its bytes were last counted.
    var countedFileBytes = 0
    /// The seq the next part starts at, kept when a part is closed.
    var nextSeqAfterClose = 0
    /// The seq of the last record in a written frame.
    var framedSeq = -1

    init(configuration: RecorderConfiguration, core: RecorderCore, sessionId: String, sampled: Bool,
         monoOrigin: UInt64, wallOrigin: Int64) {
        config = configuration
        self.core = core
        clock = configuration.clock
        dir = TraceDirectory(root: configuration.directory)
        self.sessionId = Self.onDisk(sessionId: sessionId, privacy: configuration.privacy)
        self.sampled = sampled
        self.monoOrigin = monoOrigin
        self.wallOrigin = wallOrigin
        sessionStartWall = wallOrigin
        lastSyncNanos = monoOrigin
        lastTakeNanos = monoOrigin
        frameNanos = UInt64(configuration.frame.milliseconds) * 1_000_000
        slackNanos = configuration.frame.slackNanos
        state = SessionState(initialDefaultRoute: configuration.initialDefaultRoute)
        if case .hashed(let salt) = configuration.privacy { redactor = SourceRedactor(salt: salt) }
        batch.reserveCapacity(min(configuration.queue.records, 1024))
    }

    /// The session id as files and headers carry it: with privacy on, its token (`sess-…`, as `redact` makes it).
    static func onDisk(sessionId: String, privacy: RecorderConfiguration.Privacy) -> String {
        guard case .hashed(let salt) = privacy else { return sessionId }
        return PersonalValue.token(key: salt, kind: .sessionId, value: sessionId)
    }

    /// The writer thread's body: start the session, then write until closed or failed.
    func run() {
        ThreadProducers.current.writerOf.insert(core.id)
        do {
            guard try startSession() else {
                stop(failed: false)
                return
            }
        } catch let failure as RecorderFailure where failure.pause != nil && sampled {
            // The folder cannot be written now (a locked volume, a full disk): the first part waits.
            beginPause(failure.pause!, at: clock.monotonicNanoseconds(), failure: failure)
        } catch {
            fail("recording did not start: \(error)")
            return
        }
        var probing = false
        while true {
            core.lock.lock()
            publishStats()
            while true {
                if core.stopRequested || core.crashRequested { break }
                if core.suspended {
                    sleepLocked(until: nil)
                    continue
                }
                if core.flushRequested > core.flushDone || core.promoteRequested || !core.rotations.isEmpty { break }
                if core.idleProbe > core.idleProbeDone {
                    if probing { core.idleProbeDone = core.idleProbe } else { break }
                }
                if pauseChangeDue() { break }
                let due: UInt64?
                if let pause {
                    // Paused: nothing is taken; the writer wakes to try again (or for a request).
                    due = pause.reason == .disabled ? nil : pause.retryAt
                } else {
                    let q = core.scanLocked()
                    if q.count >= core.frameRecords || q.appCall || q.bytes >= core.wakeBytes { break }
                    let oldest = [q.oldest, carry.first?.nanos].compactMap { $0 }.min()
                    due = [nextDeadline(queued: oldest), pollDue()].compactMap { $0 }.min()
                    // Nothing unwritten: the next record wakes the writer, whatever deadline it sleeps to.
                    if q.count == 0 && carry.isEmpty && frameFirstNanos == nil && !core.armWakeLocked() { continue }
                }
                if let due, clock.monotonicNanoseconds() >= due { break }
                sleepLocked(until: due)
            }
            if core.crashRequested {
                core.lock.unlock()
                file?.abandon()
                file = nil
                stop(failed: true)
                return
            }
            // Every request pending now is served by this round, whichever woke the writer.
            probing = core.idleProbe > core.idleProbeDone
            let stopping = core.stopRequested
            let flushTo = core.flushRequested > core.flushDone ? core.flushRequested : 0
            let promote = core.promoteRequested
            var rotations = core.rotations
            core.promoteRequested = false
            core.rotations = []
            let change = takePauseChange()
            var resuming = false
            if case .enabled? = change { resuming = true }
            if case .both? = change { resuming = true }
            // Calls that took their order after this point wait for the next round: one of their
            // thread's slots may already have been passed, and an earlier call's record not.
            let cutoff = stopping ? nil : core.sequence.current()
            let taken = pause == nil || resuming || stopping ? core.takeLocked(into: &batch) : nil
            let drops = taken?.drops
            core.lock.unlock()
            if let taken { noteTake(count: taken.count, bytes: taken.bytes) }
            holdBack(after: cutoff)
            do {
                if case .both(let from, _)? = change {
                    // Switched off and on within one round: what was made before the switch comes first.
                    batch.sort(by: PendingRecord.precedes)
                    let before = batch.prefix { $0.nanos < from }
                    try write(Array(before), drops: nil, force: false)
                    batch.removeFirst(before.count)
                }
                if let change { try applyBeforeWriting(change) }
                if stopping { try finishPaused() }
                if pause == nil {
                    batch.sort(by: PendingRecord.precedes)
                    try write(batch, drops: drops, force: stopping || flushTo > 0 || !rotations.isEmpty)
                } else if !batch.isEmpty {
                    // Taken as the pause went on: lost with it.
                    notePausedLoss(batch)
                }
                batch.removeAll(keepingCapacity: true)
                if let change { try applyAfterWriting(change) }
                if pause != nil && !stopping { try retryIfDue() }
                if promote { try promoteKept() }
                if !rotations.isEmpty && !stopping {
                    let needed = rotations.contains { !$0.onlyIfRecords } || (file.map { $0.recordsAppended > 0 } ?? false)
                    let path = pause == nil && needed ? try rotate(toOutbox: true) : nil
                    for r in rotations { r.done?(path) }
                    rotations = []
                }
                if stopping {
                    let path = try closeFile()
                    for r in rotations { r.done?(path) }
                    enforceCaps()
                    stop(failed: false)
                    return
                }
            } catch let failure as RecorderFailure where !stopping && failure.pause != nil {
                batch.removeAll(keepingCapacity: true)
                beginPause(failure.pause!, at: clock.monotonicNanoseconds(), failure: failure)
                for r in rotations { r.done?(nil) }
            } catch {
                batch.removeAll(keepingCapacity: true)
                for r in rotations { r.done?(nil) }
                if stopping && pause != nil {
                    abandonWhilePaused(error)
                } else {
                    fail("recording stopped: \(error)")
                }
                return
            }
            if flushTo > 0 {
                core.lock.lock()
                publishStats()
                core.flushDone = max(core.flushDone, flushTo)
                core.lock.broadcast(1)
                core.lock.unlock()
            }
        }
    }

    /// Sleeps (called holding the lock, which it releases meanwhile) until `due` on the recorder's
    /// clock, or until woken: a manual clock rings an alarm when its time reaches `due`; the system
    /// clock is waited on for the span. Callers wake it through the semaphore, holding no lock.
    private func sleepLocked(until due: UInt64?) {
        core.writerIdle = true
        core.lock.broadcast(1)
        core.lock.unlock()
        if let alarms = clock as? AlarmClock {
            let core = core
            let passed = alarms.setAlarm(owner: ObjectIdentifier(self), due: due) { core.wakeWriter() }
            if !passed { core.wake.wait() }
        } else if let due {
            let now = clock.monotonicNanoseconds()
            if due > now { _ = core.wake.wait(timeout: .now() + .nanoseconds(Int(min(due - now, UInt64(Int.max))))) }
        } else {
            core.wake.wait()
        }
        // Wake-ups given while it slept are all answered by the round that follows.
        while core.wake.wait(timeout: .now()) == .success {}
        core.lock.lock()
        core.writerIdle = false
        wakeups += 1
        core.stats.wakeups = wakeups
    }

    /// Puts last round's held-back records with this round's, and holds back those whose calls took
    /// their order after `cutoff` (nil: none), so that a round writes calls in the order they were made.
    private func holdBack(after cutoff: UInt64?) {
        if !carry.isEmpty {
            batch.append(contentsOf: carry)
            carry.removeAll(keepingCapacity: true)
        }
        guard let cutoff, batch.contains(where: { $0.order > cutoff }) else { return }
        carry = batch.filter { $0.order > cutoff }
        batch.removeAll { $0.order > cutoff }
    }

    /// When the writer must act without being woken: the oldest unwritten record (framed or queued)
    /// about to reach the frame interval, or the next sync.
    private func nextDeadline(queued: UInt64?) -> UInt64? {
        var due: UInt64?
        let wait = frameNanos - slackNanos
        if let f = frameFirstNanos { due = f + wait }
        if let q = queued { due = min(due ?? .max, q + wait) }
        if unsynced, case .interval = config.sync {
            let d = lastSyncNanos + syncNanos
            due = min(due ?? d, d)
        }
        return due
    }

    /// Writes a batch (and the drop records of its overflow episodes, each followed by the provider's
    /// checkpoint), then the frame and sync they make due.
    private func write(_ batch: [PendingRecord], drops: DropEpisode?, force: Bool) throws {
        for (i, p) in batch.enumerated() {
            do { try append(p.payload, nanos: p.nanos) } catch {
                // What was not written is lost with the pause that follows (or the failure).
                notePausedLoss(batch[i...])
                throw error
            }
        }
        if let d = drops { try writeDropped(d) }
        if let d = oversized {
            oversized = nil
            try writeDropped(d)
        }
        let now = clock.monotonicNanoseconds()
        if let first = frameFirstNanos, force || now + slackNanos >= first + frameNanos { try writeFrame() }
        guard unsynced, config.sync != .never else { return }
        // A flush or close syncs; so does the writer waking for the sync deadline with nothing to
        // write (records stopped coming). While records come, frames decide (`writeFrame`).
        if force || batch.isEmpty && drops == nil && now >= lastSyncNanos + syncNanos { try sync() }
    }

    /// The sync interval, in nanoseconds (0 unless the policy is an interval).
    var syncNanos: UInt64 {
        if case .interval(let s) = config.sync { return UInt64(max(0, s) * 1e9) }
        return 0
    }

    /// `t` for a clock reading: time since the recorder started, plus where the session stood then.
    func t(_ nanos: UInt64) -> Int64 {
        tBase + (nanos > monoOrigin ? Int64((nanos - monoOrigin) / 1_000_000) : 0)
    }

    /// Writes `file`'s waiting records as one frame and notes it (frame count, last framed seq, unsynced).
    func frameWaitingRecords(of file: PartFile) throws {
        try file.flushFrame(encoder)
        noteCompressionFailure()
        frames += 1
        framedSeq = file.nextSeq - 1
        frameFirstNanos = nil
        unsynced = true
    }

    /// Writes the waiting records as one frame (when free space is over the floor), then rotates when
    /// the file has reached its size.
    func writeFrame() throws {
        guard let file, file.bufferedRecords > 0 else { return }
        try checkSpace()
        try frameWaitingRecords(of: file)
        countBytes()
        switch config.sync {
        case .everyFrame: try sync()
        case .interval: if lastT - lastSyncT >= Int64(syncNanos / 1_000_000) { try sync() }
        case .never: break
        }
        if file.size >= config.files.maxFileBytes { _ = try rotate(toOutbox: false) }
    }

    /// Logs, once, that the compressor failed and frames are stored from then on (the encoder did it).
    func noteCompressionFailure() {
        guard !compressionFailureLogged, let failure = encoder.failure else { return }
        compressionFailureLogged = true
        log(.warning, "the compressor failed (\(failure)); frames from here on are stored uncompressed")
    }

    func countBytes() {
        guard let file else { return }
        bytes += file.size - countedFileBytes
        countedFileBytes = file.size
    }

    func sync() throws {
        guard let file else { return }
        try file.sync()
        syncs += 1
        unsynced = false
        lastSyncNanos = clock.monotonicNanoseconds()
        lastSyncT = lastT
    }

    /// Copies the writer's counters into the shared statistics; call holding the lock.
    func publishStats() {
        core.stats.written = written
        core.stats.frames = frames
        core.stats.syncs = syncs
        core.stats.files = files
        core.stats.bytes = bytes
        core.stats.wakeups = wakeups
        core.stats.oversized = oversizedCount
        core.stats.dropped = oversizedCount
        core.stats.pauses = pauses
        core.framedSeq = framedSeq
    }

    /// Stops accepting records and marks the writer finished.
    func stop(failed: Bool) {
        if let alarms = clock as? AlarmClock { _ = alarms.setAlarm(owner: ObjectIdentifier(self), due: nil) {} }
        core.lock.lock()
        publishStats()
        core.setStateLocked(.stopped, discard: true)
        core.finished = true
        // Closing wrote everything: a flush still awaited is done (after a failure it never will be).
        if !failed { core.flushDone = core.flushRequested }
        let rotations = core.rotations
        core.rotations = []
        core.lock.broadcast(1)
        core.lock.unlock()
        for r in rotations { r.done?(nil) }
    }

    /// Reports a failure to the log and stops recording; the files written before stay as they are.
    func fail(_ message: String) {
        let open = fileName.map { " The open trace \(dir.openPath($0)) keeps every frame written before the failure and is repaired and handed on by the next recorder started in this folder." } ?? ""
        file?.abandon()
        file = nil
        log(.error, message + ". Recording stopped; the trace files written before are intact." + open)
        stop(failed: true)
    }

    func log(_ level: RecorderLog.Level, _ message: String) {
        config.log?(RecorderLog(level, message))
    }
}
