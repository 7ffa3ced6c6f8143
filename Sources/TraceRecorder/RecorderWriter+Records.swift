import TraceModel

extension RecorderWriter {
    /// Appends one event with the next seq, cutting a frame first when this record would make the
    /// waiting one too old or too long. `t` never goes backwards. The event becomes its record here:
    /// privacy applied, a log template rendered, a custom event encoded; a record over the record cap
    /// is counted as dropped instead. An app call is written through when the policy says so.
    func append(_ payload: TraceRecorder.Event.Payload, nanos: UInt64) throws {
        guard let waiting = file else { return }
        let t = max(t(nanos), lastT)
        if frameFirstNanos != nil, t >= frameFirstT + config.frame.milliseconds || waiting.bufferedRecords >= config.frame.records {
            try writeFrame()
        }
        // Writing the frame may have rotated to the next part.
        guard let file else { return }
        line.reset()
        var observed: RecordBody?
        switch payload {
        case .record(let body):
            Record(seq: file.nextSeq, t: t, redactor == nil ? body : redactor!.redact(body)).encode(into: &line)
            observed = body
        case .log(let level, let message):
            let limit = config.records.maxStringBytes
            var text: String
            var lvl = level
            if redactor != nil {
                text = message.rendered { self.redactor!.logValue($0) }
                lvl = redactor!.level(level)
            } else {
                text = message.text
            }
            if let cut = RecordClipping.clip(text, limit) { text = cut }
            Record(seq: file.nextSeq, t: t, .sdkLog(level: lvl, message: text)).encode(into: &line)
        case .custom(let c):
            if redactor != nil {
                c.encode(seq: file.nextSeq, t: t, token: { self.redactor!.customValue($0) }, into: &line)
            } else {
                c.encode(seq: file.nextSeq, t: t, token: nil, into: &line)
            }
        }
        guard line.bytes.count <= config.records.maxRecordBytes else {
            recordOversized(payload, bytes: line.bytes.count, nanos: nanos)
            return
        }
        file.append(line.bytes, t: t)
        if let observed { state.observe(observed) }
        lastT = t
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

    /// A frame holds at most about this many bytes of lines (a few long records).
    static let frameBytes = 256 << 10

    /// Counts a record over the record cap as dropped; the log says so the first time.
    private func recordOversized(_ payload: TraceRecorder.Event.Payload, bytes: Int, nanos: UInt64) {
        oversizedCount += 1
        if oversized == nil { oversized = DropEpisode(count: 0, firstNanos: nanos, lastNanos: nanos) }
        oversized!.add(1, first: nanos, last: nanos)
        core.lock.withLock { core.stats.dropped += 1 }
        guard !oversizedLogged else { return }
        oversizedLogged = true
        let type = TraceRecorder.Event(payload: payload).type
        log(.warning, "a \(type) record of \(bytes) bytes is over the record cap of \(config.records.maxRecordBytes) bytes: it is not written, and counted in trace.dropped (later ones are counted without a message)")
    }
}
