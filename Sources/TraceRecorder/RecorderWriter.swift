import TraceCodec
import TraceModel

/// The writer thread's side of a recorder: it takes the queue, stamps `seq` and `t`, cuts frames,
/// makes them durable, rotates files and hands closed ones on. Only the writer thread touches it.
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

    var sessionId: String
    /// When the session began (wall clock), for `startedAt` and for continuing it after a restart.
    var sessionStartWall: Int64
    /// `t` at `monoOrigin`: 0 for a new session, the time since the session began for a continued one.
    var tBase: Int64 = 0
    var part = 0
    var file: TraceWriter?
    var fileName: TraceFileName?
    var lastT: Int64 = 0
    /// The unwritten frame: the `t` and clock reading of its first record.
    var frameFirstT: Int64?
    var frameFirstNanos: UInt64 = 0
    var unsynced = false
    /// When the last sync happened, on the clock and in trace time.
    var lastSyncNanos: UInt64
    var lastSyncT: Int64 = 0
    /// This session's closed parts go to `outbox/` even in the on-demand mode.
    var promoted = false
    var redactor: SourceRedactor?
    var batch: [PendingRecord] = []
    /// Counters published into `core.stats` whenever the writer holds the lock.
    var written = 0, frames = 0, syncs = 0, files = 0, bytes = 0, wakeups = 0
    /// The size of the open file when its bytes were last counted.
    var countedFileBytes = 0
    /// The seq the next part starts at, kept when a part is closed.
    var nextSeqAfterClose = 0

    init(configuration: RecorderConfiguration, core: RecorderCore, sessionId: String, sampled: Bool,
         monoOrigin: UInt64, wallOrigin: Int64) {
        config = configuration
        self.core = core
        clock = configuration.clock
        dir = TraceDirectory(root: configuration.directory)
        self.sessionId = sessionId
        self.sampled = sampled
        self.monoOrigin = monoOrigin
        self.wallOrigin = wallOrigin
        sessionStartWall = wallOrigin
        lastSyncNanos = monoOrigin
        if case .hashed(let salt) = configuration.privacy { redactor = SourceRedactor(salt: salt) }
    }

    private var frameNanos: UInt64 { UInt64(config.frame.milliseconds) * 1_000_000 }

    /// The writer thread's body: start the session, then write until closed or failed.
    func run() {
        do {
            guard try startSession() else {
                stop(failed: false)
                return
            }
        } catch {
            fail("recording did not start: \(error)")
            return
        }
        while true {
            core.condition.lock()
            publishStats()
            while true {
                if core.stopRequested { break }
                if core.suspended { core.condition.wait(seconds: nil); continue }
                if core.flushRequested > core.flushDone || core.promoteRequested { break }
                if core.items.count >= core.frameRecords { break }
                let now = clock.monotonicNanoseconds()
                guard let due = nextDeadline(queued: core.items.first?.nanos) else {
                    core.writerIdle = true
                    core.condition.wait(seconds: nil)
                    wakeups += 1
                    core.stats.wakeups = wakeups
                    continue
                }
                if now >= due { break }
                core.condition.wait(seconds: Double(due - now) / 1e9)
                wakeups += 1
                core.stats.wakeups = wakeups
            }
            // Every request pending now is served by this round, whichever woke the writer.
            let stopping = core.stopRequested
            let flushTo = core.flushRequested > core.flushDone ? core.flushRequested : 0
            let promote = core.promoteRequested
            core.promoteRequested = false
            core.writerIdle = false
            let drops = core.take(into: &batch)
            core.condition.unlock()
            do {
                try write(batch, drops: drops, force: stopping || flushTo > 0)
                batch.removeAll(keepingCapacity: true)
                if promote { try promoteKept() }
                if stopping {
                    try closeFile()
                    enforceCaps()
                    stop(failed: false)
                    return
                }
            } catch {
                fail("recording stopped: \(error)")
                return
            }
            if flushTo > 0 {
                core.condition.lock()
                publishStats()
                core.flushDone = max(core.flushDone, flushTo)
                core.condition.broadcast()
                core.condition.unlock()
            }
        }
    }

    /// When the writer must act without being woken: the waiting frame's age limit, or the next sync.
    private func nextDeadline(queued: UInt64?) -> UInt64? {
        var due: UInt64?
        if frameFirstT != nil { due = frameFirstNanos + frameNanos }
        if let q = queued { due = min(due ?? .max, q + frameNanos) }
        if unsynced, case .interval = config.sync {
            let d = lastSyncNanos + syncNanos
            due = min(due ?? d, d)
        }
        return due
    }

    /// Writes a batch (and the drop record of its overflow episode), then the frame and sync they make due.
    private func write(_ batch: [PendingRecord], drops: DropEpisode?, force: Bool) throws {
        for p in batch { try append(p.body, nanos: p.nanos) }
        if let d = drops {
            try append(.dropped(count: d.count, fromT: t(d.firstNanos), toT: t(d.lastNanos)), nanos: d.lastNanos)
        }
        let now = clock.monotonicNanoseconds()
        if frameFirstT != nil && (force || now >= frameFirstNanos + frameNanos) { try writeFrame() }
        guard unsynced, config.sync != .never else { return }
        // A flush or close syncs; so does the writer waking for the sync deadline with nothing to
        // write (records stopped coming). While records come, frames decide (`writeFrame`).
        if force || batch.isEmpty && drops == nil && now >= lastSyncNanos + syncNanos { try sync() }
    }

    /// The sync interval, in nanoseconds (0 unless the policy is an interval).
    private var syncNanos: UInt64 {
        if case .interval(let s) = config.sync { return UInt64(max(0, s) * 1e9) }
        return 0
    }

    /// `t` for a clock reading: time since the recorder started, plus where the session stood then.
    func t(_ nanos: UInt64) -> Int64 {
        tBase + (nanos > monoOrigin ? Int64((nanos - monoOrigin) / 1_000_000) : 0)
    }

    /// Appends one record with the next seq, cutting a frame first when this record would make the
    /// waiting one too old or too long. `t` never goes backwards.
    func append(_ body: RecordBody, nanos: UInt64) throws {
        guard let waiting = file else { return }
        let t = max(t(nanos), lastT)
        if let first = frameFirstT, t >= first + config.frame.milliseconds || waiting.unflushedRecords >= config.frame.records {
            try writeFrame()
        }
        // Writing the frame may have rotated to the next part.
        guard let file else { return }
        try file.append(t: t, redactor == nil ? body : redactor!.redact(body))
        lastT = t
        written += 1
        if file.unflushedRecords == 0 {
            // The writer's own byte limit cut a frame (a very long record).
            frameWritten()
        } else if frameFirstT == nil {
            frameFirstT = t
            frameFirstNanos = nanos
        } else {
            // A record made before the part's header was written (it waited in the queue) makes the frame older.
            frameFirstNanos = min(frameFirstNanos, nanos)
        }
    }

    /// Writes the waiting records as one frame, then rotates when the file has reached its size.
    func writeFrame() throws {
        guard let file, file.unflushedRecords > 0 else { return }
        try file.flush()
        frameWritten()
        switch config.sync {
        case .everyFrame: try sync()
        case .interval: if lastT - lastSyncT >= Int64(syncNanos / 1_000_000) { try sync() }
        case .never: break
        }
        if file.fileSize >= config.files.maxFileBytes { try rotate() }
    }

    private func frameWritten() {
        frames += 1
        frameFirstT = nil
        unsynced = true
        countBytes()
    }

    func countBytes() {
        guard let file else { return }
        bytes += file.fileSize - countedFileBytes
        countedFileBytes = file.fileSize
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
    private func publishStats() {
        core.stats.written = written
        core.stats.frames = frames
        core.stats.syncs = syncs
        core.stats.files = files
        core.stats.bytes = bytes
        core.stats.wakeups = wakeups
    }

    /// Stops accepting records and marks the writer finished.
    func stop(failed: Bool) {
        core.condition.lock()
        publishStats()
        core.accepting = false
        core.finished = true
        // Closing wrote everything: a flush still awaited is done (after a failure it never will be).
        if !failed { core.flushDone = core.flushRequested }
        core.items.removeAll()
        core.bytes = 0
        core.condition.broadcast()
        core.condition.unlock()
    }

    /// Reports a failure to the log and stops recording; the files written before stay as they are.
    func fail(_ message: String) {
        let open = fileName.map { " The open trace \(dir.openPath($0)) keeps every frame written before the failure and is repaired and handed on by the next recorder started in this folder." } ?? ""
        if let file { try? file.close() }
        file = nil
        log(.error, message + ". Recording stopped; the trace files written before are intact." + open)
        stop(failed: true)
    }

    func log(_ level: RecorderLog.Level, _ message: String) {
        config.log?(RecorderLog(level, message))
    }
}
