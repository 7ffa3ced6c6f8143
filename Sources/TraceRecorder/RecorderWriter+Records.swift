import TraceModel

extension RecorderWriter {
    /// Appends one event with the next seq, cutting a frame first when this record would make the
    /// waiting one too old or too long. A record made before the latest `t` written keeps its own `t`
    /// and is marked late (at most the match window back, never before its part's header); the
    /// recorder's own records (`own`: drops, checkpoints) take the latest `t` instead. The event becomes
    /// its record here: privacy applied, a log template rendered, a custom event encoded; a record over
    /// the record cap is counted as dropped instead. An app call is written through when the policy says so.
    func append(_ payload: TraceRecorder.Event.Payload, nanos: UInt64, own: Bool = false) throws {
        guard let waiting = file else { return }
        var t = max(t(nanos), partStartT, own ? lastT : 0)
        var late = false
        if t < lastT {
            t = max(t, lastT - Record.lateWindow)
            late = true
        }
        if frameFirstNanos != nil, t >= frameFirstT + config.frame.milliseconds || waiting.bufferedRecords >= config.frame.records {
            try writeFrame()
        }
        // Writing the frame may have rotated to the next part.
        guard let file else { return }
        line.reset()
        var observed: RecordBody?
        switch payload {
        case .record(let body):
            Record(seq: file.nextSeq, t: t, redactor == nil ? body : redactor!.redact(body), late: late).encode(into: &line)
            observed = body
        case .log(let level, let message):
            let limit = config.records.maxStringBytes
            var text: String
            var lvl = level
            if redactor != nil {
                text = message.rendered { self.redactor!.logValue($0, $1) }
                lvl = redactor!.level(level)
            } else {
                text = message.text
            }
            if let cut = RecordClipping.clip(text, limit) { text = cut }
            Record(seq: file.nextSeq, t: t, .sdkLog(level: lvl, message: text), late: late).encode(into: &line)
        case .custom(let c):
            if redactor != nil {
                c.encode(seq: file.nextSeq, t: t, late: late, token: { self.redactor!.customValue($0, $1) }, into: &line)
            } else {
                c.encode(seq: file.nextSeq, t: t, late: late, token: nil, into: &line)
            }
        }
        guard line.bytes.count <= config.records.maxRecordBytes else {
            recordOversized(payload, bytes: line.bytes.count, nanos: nanos)
            return
        }
        file.append(line.bytes, t: t)
        if let observed { state.observe(observed) }
        lastT = max(lastT, t)
        written += 1
        if frameFirstNanos == nil {
            frameFirstT = t
            frameFirstNanos = nanos
        } else {
            // A record made before the part's header was written (it waited in the queue) makes the frame older.
            frameFirstNanos = min(frameFirstNanos!, nanos)
        }
        if config.frame.writeThroughAppCalls && payload.isAppCall || file.bufferedRecords >= config.frame.records
            || file.bufferedBytes >= Self.frameBytes {
            try writeFrame()
        }
    }

    /// Writes the `trace.dropped` of an overflow episode and, when the provider answers, the SDK's own
    /// checkpoint as the next record: the records dropped may have moved the state the recorder derives.
    func writeDropped(_ d: DropEpisode) throws {
        try append(.record(.dropped(count: d.count, fromT: t(d.firstNanos), toT: t(d.lastNanos))), nanos: d.lastNanos, own: true)
        try appendProviderCheckpoint()
    }

    /// Appends the checkpoint provider's state (`source` `sdk`), at the time it is asked, if it answers;
    /// the state the recorder derives continues from it. True when it answered.
    @discardableResult
    func appendProviderCheckpoint() throws -> Bool {
        guard var known = config.checkpoint?() else { return false }
        known.source = .sdk
        state.adopt(known)
        try append(.record(.checkpoint(known)), nanos: clock.monotonicNanoseconds(), own: true)
        return true
    }

    /// A frame holds at most about this many bytes of lines (a few long records).
    static let frameBytes = 256 << 10

    /// Counts a record over the record cap as dropped; the log says so the first time.
    private func recordOversized(_ payload: TraceRecorder.Event.Payload, bytes: Int, nanos: UInt64) {
        oversizedCount += 1
        if oversized == nil { oversized = DropEpisode(count: 0, firstNanos: nanos, lastNanos: nanos) }
        oversized!.add(1, first: nanos, last: nanos)
        core.lock.withLock {
            core.stats.oversized = oversizedCount
            core.stats.dropped = oversizedCount
        }
        guard !oversizedLogged else { return }
        oversizedLogged = true
        let type = TraceRecorder.Event(payload: payload).type
        log(.warning, RecorderWords.recordOverCap(type: type, bytes: bytes, capBytes: config.records.maxRecordBytes))
    }
}
