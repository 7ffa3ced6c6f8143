import Dispatch
import TraceModel

/// The writer's rounds: sleep until something is due (a deadline, the records' rate, a caller's
/// wake-up, a request), take every thread's slots, order what was taken, write it, and serve the
/// requests (flush, rotation, promotion, close) and the SDK's switch of recording off and on.
extension RecorderWriter {
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
            fail(RecorderWords.didNotStart(error))
            return
        }
        var probedUpTo = 0
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
                // A test's probe is answered by a round begun after it.
                if core.idleProbeDone < probedUpTo { core.idleProbeDone = probedUpTo }
                if core.idleProbe > core.idleProbeDone { break }
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
            probedUpTo = core.idleProbe
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
                    // Not needed: a part closed at its cap that still waits is handed on all the same (an export reads it).
                    if pause == nil && !needed { _ = handOnClosed() }
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
                    fail(RecorderWords.stoppedOn(error))
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
}
