import TraceFrames
import TraceModel

/// The writer thread's side of a recorder: it takes every thread's slots, orders what it took, stamps
/// `seq` and `t`, cuts frames, makes them durable, rotates files and hands closed ones on, and pauses
/// for the device's states. Only the writer thread touches it.
///
/// It sleeps until the earliest of: the oldest unwritten record (waiting or framed) being about to
/// reach the frame interval, the next sync, the time the records' rate says a frame's worth will be
/// waiting, or a caller waking it. Whenever nothing is unwritten it sleeps as a waiter the next record
/// wakes, whatever the sync policy, so the frame interval bounds the age of every unwritten record.
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
    /// A part a rotation closed, still in the top folder: its successor could not be made yet (a pause
    /// came between), or it was closed at its cap and its successor holds no record yet.
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
        // The part holds a record now: the one its rotation closed is no longer needed to continue from.
        _ = handOnClosed()
        if file.size >= config.files.maxFileBytes { _ = try rotate(toOutbox: false) }
    }

    /// Logs, once, that the compressor failed and frames are stored from then on (the encoder did it).
    func noteCompressionFailure() {
        guard !compressionFailureLogged, let failure = encoder.failure else { return }
        compressionFailureLogged = true
        log(.warning, RecorderWords.compressorFailed(failure))
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
        let open = fileName.map { dir.openPath($0) }
        file?.abandon()
        file = nil
        log(.error, message + RecorderWords.failureConsequence(openPart: open))
        stop(failed: true)
    }

    func log(_ level: RecorderLog.Level, _ message: String) {
        config.log?(RecorderLog(level, message))
    }
}
