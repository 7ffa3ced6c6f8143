import TraceFrames
import SystemLayer
import TraceModel

extension RecorderWriter {
    /// Prepares the folder, removes what a crash during a part's creation left, hands on parts earlier
    /// runs left open (or continues the newest, when the resume policy allows), and opens this run's
    /// first part. False when there is nothing to record (a session not sampled, with no crashed
    /// session to continue).
    func startSession() throws -> Bool {
        try dir.create(protection: config.fileProtection)
        for t in dir.removeTemporaries() { log(.info, RecorderWords.interruptedCreationRemoved(path: "\(dir.root)/\(t)")) }
        encoder = try makeEncoder()
        var leftovers = dir.leftOpen()
        var resumed = false
        if case .leftOpen(let within) = config.resume, let newest = leftovers.popLast() {
            resumed = try resume(newest, withinMs: Int64(within * 1000))
        }
        for name in leftovers { handOnLeftover(name) }
        if !resumed {
            guard sampled else { return false }
            sessionStartWall = wallOrigin
            tBase = 0
            try openPart(1, resumed: false, headerT: 0, firstSeq: 0)
        }
        enforceCaps()
        return true
    }

    /// The frame encoder the configuration asks for.
    private func makeEncoder() throws -> FrameEncoder {
        switch config.compression {
        case .automatic: return FrameEncoder(try SystemCompression.make() ?? StoredFrameCompressor())
        case .stored: return FrameEncoder(StoredFrameCompressor())
        case .custom(let make):
            do { return FrameEncoder(try make()) } catch {
                log(.warning, RecorderWords.compressorNotMade(error))
                return FrameEncoder(StoredFrameCompressor())
            }
        }
    }

    /// Continues the session of a part a process that died left open, if its last record is recent
    /// enough: the part is repaired, closed and handed on, and this run writes the next part, marked
    /// `resumed`, with `seq` continuing and `t` = the wall-clock time since the session began (never
    /// less than the last `t` written). False (after handing the part on) when it cannot or should not
    /// be continued.
    private func resume(_ name: TraceFileName, withinMs: Int64) throws -> Bool {
        let path = dir.openPath(name)
        guard let report = repairLeftover(name) else { return false }
        guard report.outcome == .repaired || report.outcome == .alreadyClosed,
              let start = report.sessionStartMs, let lastSeq = report.lastSeq, let lastT = report.lastT else {
            if report.outcome != .removed {
                log(.info, RecorderWords.leftOpenWithoutSessionState(path: path))
                handOn(name)
            }
            return false
        }
        let lastWall = start + lastT
        guard wallOrigin >= start, wallOrigin - lastWall <= withinMs else {
            handOn(name)
            return false
        }
        handOn(name)
        sessionId = name.session
        core.lock.withLock { core.sessionId = name.session }
        sessionStartWall = start
        tBase = max(lastT, wallOrigin - start)
        let next = (report.part ?? name.part) + 1
        try openPart(next, resumed: true, headerT: tBase, firstSeq: lastSeq + 1)
        log(.info, RecorderWords.continuingSession(name.session, part: next, tMs: tBase, seq: lastSeq + 1))
        return true
    }

    /// Repairs a part an earlier run left open and hands it on (or removes it when it holds no record).
    func handOnLeftover(_ name: TraceFileName) {
        guard let report = repairLeftover(name), report.outcome != .removed else { return }
        handOn(name)
    }

    /// Repairs a part left open; nil (with a warning) when it cannot be repaired now.
    private func repairLeftover(_ name: TraceFileName) -> PartRepair.Report? {
        let path = dir.openPath(name)
        do {
            let report = try PartRepair.repair(path: path)
            switch report.outcome {
            case .repaired where report.cutBytes > 0:
                log(.info, RecorderWords.unfinishedEndCut(path: path, cutBytes: report.cutBytes, lastSeq: report.lastSeq ?? -1))
            case .removed:
                log(.info, RecorderWords.emptyPartRemoved(path: path))
            case .legacy:
                log(.info, RecorderWords.earlierVersionPart(path: path))
            case .repaired, .alreadyClosed: break
            }
            return report
        } catch {
            // Another live recorder holds it, or it is no part at all: leave it for a later run to judge.
            log(.warning, RecorderWords.cannotRepairNow(path: path, error))
            return nil
        }
    }

    /// Moves a closed part out of the top folder (to `outbox/`, or `local/` in the on-demand mode unless
    /// promoted or `toOutbox`), telling `onOutbox`; the new path, nil (logged) when it could not be moved.
    @discardableResult
    func handOn(_ name: TraceFileName, toOutbox: Bool = false) -> String? {
        let outbox = toOutbox || config.upload == .automatic || promoted
        do {
            let path = try dir.hand(name, toOutbox: outbox)
            if outbox { config.onOutbox?(path) }
            return path
        } catch {
            log(.warning, "\(error)")
            return nil
        }
    }

    /// Opens part `n` of the session: header (and, after the first part or a restart, a checkpoint)
    /// written, and the file in place, in one step.
    func openPart(_ n: Int, resumed: Bool, headerT: Int64, firstSeq: Int) throws {
        let name = TraceFileName(stamp: WallTime.stamp(clock.wallMilliseconds()), session: sessionId, part: n)
        var header = TraceHeader(layer: config.layer, sdk: config.sdk, device: config.device, app: config.app,
                                 startedAt: WallTime.iso(sessionStartWall), initialDefaultRoute: config.initialDefaultRoute,
                                 session: .init(id: sessionId, part: n, resumed: resumed))
        if redactor != nil {
            header.redacted = .source
            header = redactor!.redact(header: header)
        }
        // The header takes the time its part starts at (0, where the last part stopped, or where a
        // continued session stands); records made earlier and still queued follow it.
        let t = max(headerT, lastT)
        var lines: [[UInt8]] = []
        line.reset()
        Record(seq: firstSeq, t: t, .header(header)).encode(into: &line)
        lines.append(line.bytes)
        if n > 1 || resumed {
            // After a rotation, the state the records so far give; after a restart, what the SDK says it
            // knows now (or what this process has recorded: nothing yet, but the persistent default).
            var checkpoint = state.checkpoint
            if resumed, var known = config.checkpoint?() {
                known.source = .sdk
                state.adopt(known)
                checkpoint = known
            } else if resumed {
                // Without the SDK's answer the new process knows nothing of what iOS kept (devices, route,
                // the microphone permission): said so, the replay takes only what starts afresh from it.
                checkpoint.source = .recorder
            }
            let body = RecordBody.checkpoint(checkpoint)
            line.reset()
            Record(seq: firstSeq + 1, t: t, redactor == nil ? body : redactor!.redact(body)).encode(into: &line)
            lines.append(line.bytes)
        }
        try checkSpace(force: true)
        let created = try PartFile.create(directory: dir.root, fileName: name.fileName,
                                          mark: .part(sessionStartMs: sessionStartWall, part: Int32(n), resumed: resumed),
                                          firstLines: lines, firstSeq: firstSeq, t: t, encoder: encoder, sync: config.sync != .never)
        noteCompressionFailure()
        file = created
        fileName = name
        part = n
        isResumedPart = resumed
        files += 1
        if config.sync != .never { syncs += 1 }
        frames += 1
        framedSeq = firstSeq + lines.count - 1
        written += lines.count
        lastT = t
        partStartT = t
        frameFirstNanos = nil
        countedFileBytes = 0
        countBytes()
        dir.protect(created.path, config.fileProtection)
    }

    /// Closes the open part and continues the session in the next one; the closed part's new path
    /// (nil while it waits). The closed part stays in the top folder until the next one exists, so that
    /// a process killed between the two leaves a part there that the next run continues the session
    /// from. A part closed at its size cap waits longer, until the next one holds a record: the close
    /// removes a next part that holds none, and until that last step the folder must still hold a part
    /// the next run continues from. A rotation asked for hands the closed part on at once.
    func rotate(toOutbox: Bool) throws -> String? {
        let earlier = handOnClosed()
        if let closed = try closePart() { closedAwaiting = (closed, toOutbox) }
        try openPart(part + 1, resumed: false, headerT: lastT, firstSeq: nextSeqAfterClose)
        return toOutbox ? handOnClosed() : earlier
    }

    /// Hands on the part a rotation closed, once the next one exists (a pause may have come between).
    func handOnClosed() -> String? {
        guard let (name, toOutbox) = closedAwaiting else { return nil }
        closedAwaiting = nil
        let path = handOn(name, toOutbox: toOutbox)
        enforceCaps()
        return path
    }

    /// Writes what waits, makes it durable (unless the policy is never), writes the end mark and hands
    /// the file on; its new path. A later part that holds nothing but its header and checkpoint (a
    /// rotation just before the close) is removed instead: it says nothing the part before it does not.
    @discardableResult
    func closeFile(toOutbox: Bool = false) throws -> String? {
        // A part a rotation closed before a pause took the next one: handed on now.
        if file == nil { _ = handOnClosed() }
        if let file, let name = fileName, file.recordsAppended == 0, file.bufferedRecords == 0, part > 1 || name.part > 1 || isResumedPart {
            let path = dir.openPath(name)
            nextSeqAfterClose = file.nextSeq
            file.abandon()
            self.file = nil
            fileName = nil
            FileSystem.removeIfPresent(path)
            // The part before it waited in the top folder for this: handed on last.
            _ = handOnClosed()
            return nil
        }
        let path = try closePart().flatMap { handOn($0, toOutbox: toOutbox) }
        // A part closed at its cap still waiting (the records after it not framed until now).
        _ = handOnClosed()
        return path
    }

    /// Writes what waits, makes it durable (unless the policy is never) and writes the end mark; the
    /// part stays where it is. Its name, nil when no part is open.
    private func closePart() throws -> TraceFileName? {
        guard let file, let name = fileName else { return nil }
        if file.bufferedRecords > 0 { try frameWaitingRecords(of: file) }
        if config.sync != .never { try sync() }
        nextSeqAfterClose = file.nextSeq
        try file.close(encoder)
        countBytes()
        self.file = nil
        fileName = nil
        return name
    }

    /// Moves the kept traces to `outbox/`; this session's later parts follow as they close.
    func promoteKept() throws {
        promoted = true
        for path in try dir.promoteAll() { config.onOutbox?(path) }
    }

    /// Deletes the oldest closed files beyond the folder's caps; never the open one.
    func enforceCaps() {
        let limits = config.files
        let result = dir.enforceCaps(nowWallMs: clock.wallMilliseconds(), maxAgeMs: Int64(limits.maxAgeSeconds * 1000),
                                     maxBytes: limits.maxDirectoryBytes, openBytes: file?.size ?? 0)
        for f in result.failures { log(.warning, RecorderWords.cannotDeleteForCaps(f)) }
    }
}
