import TraceCodec
import TraceModel

extension RecorderWriter {
    /// Prepares the folder, hands on traces earlier runs left open (or continues the newest, when the
    /// resume policy allows), and opens this run's first file. False when there is nothing to record
    /// (a session not sampled, with no crashed session to continue).
    func startSession() throws -> Bool {
        try dir.create()
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
            try openPart(1, headerT: 0, firstSeq: 0)
        }
        enforceCaps()
        return true
    }

    /// Continues the session of a trace a process that died left open, if its last record is recent
    /// enough: the trace is repaired, closed and handed on, and this run writes its next part, with
    /// `seq` continuing and `t` = the wall-clock time since the session began (never less than the
    /// last `t` written). False (after handing the trace on) when it cannot or should not be continued.
    private func resume(_ name: TraceFileName, withinMs: Int64) throws -> Bool {
        let path = dir.openPath(name)
        guard let header = Self.header(of: path), let session = header.session,
              let start = header.startedAt.flatMap(WallTime.parseISO) else {
            log(.warning, "\(path): left open by an earlier run, but its header names no session start; it is handed on and a new session begins")
            handOnLeftover(name)
            return false
        }
        let old: TraceWriter
        do { old = try TraceWriter(path: path, options: writerOptions(firstSeq: 0)) } catch {
            log(.warning, "\(path): left open by an earlier run, but it cannot be reopened (\(error)); a new session begins")
            return false
        }
        let lastWall = start + old.lastT
        guard wallOrigin >= start, wallOrigin - lastWall <= withinMs else {
            try old.close()
            try dir.hand(name, toOutbox: config.upload == .automatic)
            return false
        }
        let nextSeq = old.nextSeq, lastWrittenT = old.lastT
        if old.openReport.truncatedBytes > 0 {
            log(.info, "\(path): cut \(old.openReport.truncatedBytes) torn bytes off the end, keeping \(old.openReport.rescuedLines) complete records from them")
        }
        try old.close()
        try dir.hand(name, toOutbox: config.upload == .automatic)
        sessionId = session.id
        core.condition.lock()
        core.sessionId = session.id
        core.condition.unlock()
        sessionStartWall = start
        tBase = max(lastWrittenT, wallOrigin - start)
        try openPart(session.part + 1, headerT: tBase, firstSeq: nextSeq)
        log(.info, "continuing session \(session.id) as part \(session.part + 1) after a restart, at t = \(tBase) ms, seq \(nextSeq)")
        return true
    }

    /// Repairs a trace an earlier run left open (cutting a torn tail, writing the end mark) and hands it on.
    func handOnLeftover(_ name: TraceFileName) {
        let path = dir.openPath(name)
        do {
            let w = try TraceWriter(path: path, options: writerOptions(firstSeq: 0))
            try w.close()
        } catch {
            // Another live recorder holds it, or it is no trace at all: leave it for a later run to judge.
            log(.warning, "\(path): left open by an earlier run and cannot be repaired now (\(error)); it stays where it is")
            return
        }
        do { try dir.hand(name, toOutbox: config.upload == .automatic) } catch { log(.warning, "\(error)") }
    }

    /// The header of the trace at `path`, if its first record is one.
    static func header(of path: String) -> TraceHeader? {
        guard let reader = try? TraceReader(path: path) else { return nil }
        while let e = reader.next() {
            if case .record(let r) = e {
                if case .header(let h) = r.body { return h }
                return nil
            }
        }
        return nil
    }

    func writerOptions(firstSeq: Int) -> TraceWriter.Options {
        // The recorder cuts frames itself; the writer's byte limit only guards against one huge record.
        var o = TraceWriter.Options(frameRecords: Int.max / 2, frameBytes: 256 << 10)
        o.firstSeq = firstSeq
        return o
    }

    /// Opens part `n` of the session in the top folder and writes its header.
    func openPart(_ n: Int, headerT: Int64, firstSeq: Int) throws {
        let name = TraceFileName(stamp: WallTime.stamp(clock.wallMilliseconds()), session: sessionId, part: n)
        let path = dir.openPath(name)
        let w = try TraceWriter(path: path, options: writerOptions(firstSeq: firstSeq))
        guard w.openReport.existingRecords == 0, w.nextSeq == firstSeq else {
            try? w.close()
            throw RecorderFailure("\(path) already exists")
        }
        file = w
        fileName = name
        part = n
        files += 1
        countedFileBytes = 0
        countBytes()
        var header = TraceHeader(layer: config.layer, sdk: config.sdk, device: config.device, app: config.app,
                                 startedAt: WallTime.iso(sessionStartWall), initialDefaultRoute: config.initialDefaultRoute,
                                 session: .init(id: sessionId, part: n))
        if redactor != nil { header.redacted = .source }
        // The header takes the time its part starts at (0, where the last part stopped, or where a
        // continued session stands); records made earlier and still queued follow it.
        let t = max(headerT, lastT)
        try w.append(t: t, .header(header))
        lastT = t
        written += 1
        frameFirstT = t
        frameFirstNanos = clock.monotonicNanoseconds()
    }

    /// Closes the open part and continues the session in the next one.
    func rotate() throws {
        try closeFile()
        try openPart(part + 1, headerT: lastT, firstSeq: nextSeqAfterClose)
        enforceCaps()
    }

    /// Writes what waits, makes it durable (unless the policy is never), writes the end mark and hands the file on.
    func closeFile() throws {
        guard let file, let name = fileName else { return }
        try writeFrameIfWaiting()
        if config.sync != .never { try sync() }
        nextSeqAfterClose = file.nextSeq
        try file.close()
        countBytes()
        self.file = nil
        fileName = nil
        try dir.hand(name, toOutbox: config.upload == .automatic || promoted)
    }

    private func writeFrameIfWaiting() throws {
        guard let file, file.unflushedRecords > 0 else { return }
        try file.flush()
        frames += 1
        frameFirstT = nil
        unsynced = true
        countBytes()
    }

    /// Moves the kept traces to `outbox/`; this session's later parts follow as they close.
    func promoteKept() throws {
        promoted = true
        _ = try dir.promoteAll()
    }

    /// Deletes the oldest closed files beyond the folder's caps; never the open one.
    func enforceCaps() {
        let limits = config.files
        let result = dir.enforceCaps(nowWallMs: clock.wallMilliseconds(), maxAgeMs: Int64(limits.maxAgeSeconds * 1000),
                                     maxBytes: limits.maxDirectoryBytes, openBytes: file?.fileSize ?? 0)
        for f in result.failures { log(.warning, "cannot delete \(f) to keep the folder within its caps") }
    }
}
