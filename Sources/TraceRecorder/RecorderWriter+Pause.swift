import SystemLayer
import TraceModel

/// A pause of the recording: why, since when, and when the writer tries again.
struct PauseState {
    var reason: PauseReason
    /// The earliest record not written (or the moment it began), a clock reading.
    var fromNanos: UInt64
    /// When the writer next tries to write (not for `disabled`, which the SDK ends).
    var retryAt: UInt64
    /// Tries so far: the wait between them doubles, from 1 s to 30 s.
    var attempts = 0
    /// What the log was told last, so that a long pause does not repeat it.
    var logged: String

    /// The wait before try `n + 1`.
    static func backoff(_ n: Int) -> UInt64 { UInt64(min(30, 1 << min(n, 5))) * 1_000_000_000 }
}

/// The SDK switching recording off or on, as the writer takes it from the shared state.
enum EnabledChange {
    case disabled(at: UInt64)
    case enabled(at: UInt64)
    /// Off and on again before the writer saw either: one stretch with nothing recorded.
    case both(from: UInt64, to: UInt64)
}

extension RecorderWriter {
    /// Whether the SDK switched recording off or on since the writer last looked; call holding the lock.
    func pauseChangeDue() -> Bool {
        (core.disabledAt != nil && pause == nil) || (core.enabledAt != nil && (pause?.reason == .disabled || core.disabledAt != nil))
    }

    /// Takes the SDK's switch of recording off or on from the shared state; call holding the lock.
    func takePauseChange() -> EnabledChange? {
        guard pauseChangeDue() else { return nil }
        defer {
            core.disabledAt = nil
            core.enabledAt = nil
        }
        if let off = core.disabledAt, let on = core.enabledAt, pause == nil { return .both(from: off, to: on) }
        if let on = core.enabledAt { return .enabled(at: on) }
        return core.disabledAt.map { .disabled(at: $0) }
    }

    /// Recording pauses for `reason` from `nanos` (or the first record it could not write, if earlier):
    /// callers' records are left out (counted) until the writer resumes.
    func beginPause(_ reason: PauseReason, at nanos: UInt64, failure: RecorderFailure? = nil) {
        let now = clock.monotonicNanoseconds()
        if var p = pause {
            // Already paused (a retry failed, or the SDK switched recording off meanwhile): the first reason stands.
            p.fromNanos = min(p.fromNanos, nanos)
            p.attempts += 1
            p.retryAt = now + PauseState.backoff(p.attempts)
            pause = p
            return
        }
        pauses += 1
        let from = min(nanos, lostFrom ?? nanos)
        lostFrom = nil
        let words = failure.map { "\($0)" } ?? reason.words
        pause = PauseState(reason: reason, fromNanos: from, retryAt: now + PauseState.backoff(0), logged: words)
        var waiting: [PendingRecord] = []
        core.lock.withLock {
            if reason != .disabled {
                core.writerPaused = true
                core.settleStateLocked()
                // What waits was made before the pause but could only be written after it: lost with it.
                _ = core.takeLocked(into: &waiting)
            }
            publishStats()
        }
        notePausedLoss(waiting)
        if reason != .disabled {
            log(.warning, RecorderWords.paused(atMs: t(from), why: words, reason: reason))
        }
    }

    /// Notes records taken but not written (a write failed under them, or recording paused meanwhile).
    func notePausedLoss<C: Collection>(_ lost: C) where C.Element == PendingRecord {
        guard let first = lost.map(\.nanos).min() else { return }
        if pause != nil { pause!.fromNanos = min(pause!.fromNanos, first) } else { lostFrom = min(lostFrom ?? first, first) }
        core.lock.withLock { core.stats.paused += lost.count }
    }

    /// Acts on the SDK's switch before the round's records are written: switched on, the pause ends.
    func applyBeforeWriting(_ change: EnabledChange) throws {
        switch change {
        case .enabled(let at): if pause?.reason == .disabled { try resume(at: at) }
        case .both(let from, let to):
            guard pause == nil else { return }
            pause = PauseState(reason: .disabled, fromNanos: from, retryAt: .max, logged: PauseReason.disabled.words)
            pauses += 1
            try resume(at: to)
        case .disabled: break
        }
    }

    /// Acts on the SDK's switch after the round's records are written: switched off, the pause begins
    /// (what was recorded before is written and made durable first).
    func applyAfterWriting(_ change: EnabledChange) throws {
        guard case .disabled(let at) = change else { return }
        try writeFrame()
        if unsynced && config.sync != .never { try sync() }
        beginPause(.disabled, at: at)
    }

    /// Tries to resume when the time for it has come: free space back over the floor first, for `lowSpace`.
    func retryIfDue() throws {
        guard let p = pause, p.reason != .disabled else { return }
        let now = clock.monotonicNanoseconds()
        guard now >= p.retryAt else { return }
        if p.reason == .lowSpace, let free = freeSpaceBelowFloor() {
            pause!.attempts += 1
            pause!.retryAt = now + PauseState.backoff(pause!.attempts)
            _ = free
            return
        }
        try resume(at: now)
    }

    /// Ends the pause at `toNanos`: writes `trace.paused` and the provider's checkpoint (a new part first
    /// when the pause took the open one), in one frame with what was buffered before the pause. When a
    /// write fails again they are taken back and the pause goes on (the failure is thrown).
    func resume(at toNanos: UInt64) throws {
        guard let p = pause else { return }
        if file == nil {
            try checkSpace(force: true)
            try openPart(part + 1, resumed: false, headerT: lastT, firstSeq: nextSeqAfterClose)
            _ = handOnClosed()
        }
        guard let file else { return }
        let mark = file.mark()
        let before = (written: written, lastT: lastT, state: state)
        do {
            if p.reason != .disabled { try checkSpace(force: true) }
            try append(.record(.paused(fromT: t(p.fromNanos), toT: max(t(p.fromNanos), t(toNanos)), reason: p.reason)), nanos: toNanos, own: true)
            try appendProviderCheckpoint()
            try frameWaitingRecords(of: file)
        } catch {
            file.rollback(to: mark)
            (written, lastT, state) = before
            throw error
        }
        countBytes()
        pause = nil
        core.lock.withLock {
            core.writerPaused = false
            core.settleStateLocked()
            publishStats()
        }
        if p.reason != .disabled {
            log(.info, RecorderWords.resumed(atMs: t(toNanos), fromMs: t(p.fromNanos), reason: p.reason))
        }
        if file.size >= config.files.maxFileBytes { _ = try rotate(toOutbox: false) }
    }

    /// Closing while paused: `trace.paused` up to now, if it can still be written, then the close; when
    /// it cannot, the part is left as a crash leaves it (the next recorder repairs and hands it on).
    func finishPaused() throws {
        guard pause != nil else { return }
        try resume(at: clock.monotonicNanoseconds())
    }

    /// Gives up on the open part at the close of a paused recorder.
    func abandonWhilePaused(_ error: Error) {
        let name = fileName.map { dir.openPath($0) } ?? dir.root
        file?.abandon()
        file = nil
        log(.warning, RecorderWords.closedWhilePaused(reason: pause?.reason, error, openPart: name))
        stop(failed: true)
    }

    /// Throws `lowSpace` when free space is under the floor; looked at once a second at most (`force`: now).
    func checkSpace(force: Bool = false) throws {
        let now = clock.monotonicNanoseconds()
        guard config.files.minimumFreeBytes > 0 else { return }
        if !force, let last = spaceCheckedNanos, now < last + 1_000_000_000 { return }
        spaceCheckedNanos = now
        if let free = freeSpaceBelowFloor() {
            throw RecorderFailure(RecorderWords.underFreeSpaceFloor(freeKiB: free / 1024, root: dir.root, floorKiB: config.files.minimumFreeBytes / 1024),
                                  pause: .lowSpace)
        }
    }

    /// The free space when it is under the floor, else nil (also when it cannot be read).
    func freeSpaceBelowFloor() -> Int64? {
        guard let free = try? FileSystem.availableBytes(dir.root) else { return nil }
        return free < Int64(config.files.minimumFreeBytes) ? free : nil
    }
}
