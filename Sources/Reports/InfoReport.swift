import Analysis
import LogImport
import TraceCodec
import TraceModel

/// `info`: a trace's summary as text, a block of aligned lines per part (header, duration, counts by
/// type, frames and sizes, stretches without records, what the recorder lost, seq gaps, problems).
package enum InfoText {
    /// The summary's lines.
    package static func render(_ s: TraceSummary) -> String {
        var o = "trace     \(terminalSafe(s.file))\n"
        if let h = s.header {
            o += InfoWords.layer(h.layer)
            o += "sdk       \(terminalSafe(h.sdk ?? "?"))\n"
            o += "device    \(terminalSafe(h.device.model ?? "?")), \(terminalSafe(h.device.os ?? "?"))\(h.device.simulator ? ", simulator" : "")\n"
            if let b = h.app.bundleId { o += "app       \(terminalSafe(b))\n" }
            if let at = h.startedAt { o += "started   \(terminalSafe(at))\n" }
            if let session = h.session { o += "session   \(terminalSafe(session.id)), part \(session.part)\n" }
            if let by = h.redacted { o += "redacted  \(by.rawValue == "source" ? "on the device (source)" : "by rtctrace redact")\n" }
        } else {
            o += "header    missing\n"
        }
        o += "duration  \(formatDuration(s.durationMs))\n"
        for m in s.reports {
            o += InfoWords.reportMark(id: terminalSafe(m.id), at: formatDuration(m.t), seq: m.seq) + (m.note.map { ": " + terminalSafe($0) } ?? "") + "\n"
        }
        o += "records   \(s.records)\n"
        for (type, n) in s.byType.sorted(by: { $0.key < $1.key }) {
            o += "  " + terminalSafe(type) + String(repeating: " ", count: max(1, 28 - type.count)) + "\(n)\n"
        }
        if s.stats.compressed {
            o += InfoWords.frames(s.stats.frames, skippable: s.stats.skippableFrames)
            o += InfoWords.size(compressed: s.stats.compressedBytes, raw: s.stats.rawBytes, ratio: ratio(s))
            if s.stats.storedFrames > 0 {
                o += "stored    " + (s.stats.storedFrames == s.stats.frames
                    ? InfoWords.allFramesStored(s.stats.frames)
                    : InfoWords.someFramesStored(s.stats.storedFrames, of: s.stats.frames))
            }
            if s.records > 0 { o += InfoWords.bytesPerRecord(fixed(Double(s.stats.compressedBytes) / Double(s.records), 1)) }
            let closed = s.stats.hasStartMark ? (s.stats.endsWithEndMark ? InfoWords.closedWithEndMark : InfoWords.notClosed) : InfoWords.notWrittenByRtctrace
            o += "closed    " + closed + "\n"
        } else {
            o += InfoWords.plainJSONLines(bytes: s.stats.rawBytes)
        }
        if s.otherTypes > 0 { o += "  (records of \(TraceSummary.typeCap)+ further types)  \(s.otherTypes)\n" }
        let silent = s.gaps.gaps
        o += "no data   " + (silent.isEmpty ? InfoWords.noLongStretch(formatDuration(s.gaps.thresholdMs))
            : silent.prefix(10).map { g in "\(formatDuration(g.durationMs)) from \(formatDuration(g.startT)) (seq \(g.startSeq)–\(g.endSeq))"
                // A stretch around lost seqs says what lost them, not a guess (X5).
                + (s.problems.first { p in p.lost.map { $0.lowerBound > g.startSeq && $0.upperBound < g.endSeq } ?? false }
                    .map { " [lost seq \($0.lost!.lowerBound)–\($0.lost!.upperBound): \(gapCause($0))]" } ?? "") }
                .joined(separator: ", ") + (silent.count > 10 ? ", … \(silent.count - 10) more" : "")
                + InfoWords.longStretches(formatDuration(s.gaps.thresholdMs))) + "\n"
        if s.systemLog.records > 0 { o += "syslog    " + systemLog(s.systemLog) + "\n" }
        if !s.unknownTypes.isEmpty {
            o += "unknown   " + s.unknownTypes.sorted { $0.key < $1.key }.map { "\(terminalSafe($0.key)) ×\($0.value)" }.joined(separator: ", ") + "\n"
        }
        // What the recorder itself lost: it counted the records (or paused), so seq has no gap there.
        if !s.lost.isEmpty { o += "lost      " + terminalSafe(lostText(s.lost)) + InfoWords.recorderOwnAccount }
        // Lost seqs are seq gaps whatever lost them (a seq jump, an unreadable frame): each says its cause (X5).
        let gaps = s.problems.filter { $0.kind == .seqGap || $0.lost != nil }
        o += "seq gaps  \(gaps.isEmpty ? "none" : gaps.map { p in (p.lost.map { "\($0.lowerBound)–\($0.upperBound)" } ?? "seq \(p.seq ?? -1)") + " (\(gapCause(p)))" }.joined(separator: ", "))\n"
        let recovery = s.problems.filter { $0.kind != .seqGap }
        o += "problems  \(s.problemCount == 0 ? "none" : "\(s.problemCount)")\n"
        for p in recovery.prefix(20) { o += "  " + terminalSafe(p.description) + "\n" }
        if recovery.count > 20 { o += "  … \(recovery.count - 20) more\n" }
        return o
    }

    /// `12 records about 4 processes (3 the app's); anchored on an activation both hold, ±3 ms`.
    static func systemLog(_ log: SystemLogSummary) -> String {
        let placed = SystemLogTimeSource.allCases.compactMap { source -> String? in
            guard let n = log.bySource[source] else { return nil }
            let how = source == .anchored ? InfoWords.anchoredOnActivation : InfoWords.placedByWallClock
            return "\(n) \(how)" + (log.uncertaintyMs[source].map { ", ±\($0) ms" } ?? "")
        }
        return InfoWords.systemLogRecords(log.records, processes: log.processes.count, own: log.own) + placed.joined(separator: "; ")
    }

    /// The `lost` line's stretches, in words (the first ten).
    static func lostText(_ lost: [TraceSummary.Lost]) -> String {
        lost.prefix(10).map { l in
            let what = l.pause.map(InfoWords.nothingRecorded) ?? "\(l.dropped ?? 0) records dropped"
            return "\(what) \(formatDuration(l.fromT))–\(formatDuration(l.toT)) (seq \(l.seq) \(l.pause == nil ? "trace.dropped" : "trace.paused"))"
        }.joined(separator: ", ") + (lost.count > 10 ? ", … \(lost.count - 10) more" : "")
    }

    /// What lost the seqs of a gap, as the reader knows it.
    static func gapCause(_ p: TraceProblem) -> String {
        switch p.kind {
        case .seqGap: InfoWords.seqJumped
        case .badFrame, .garbage, .windowTooLarge: InfoWords.frameUnreadable
        case .tornFrame, .notClosed: InfoWords.lastFrameTorn
        case .badRecord, .lineTooLong: InfoWords.recordUndecodable
        case .timeBackwards, .header, .headerMissing, .empty, .notATrace, .io, .byteOrderMark, .bundleMismatch: InfoWords.readingProblem
        }
    }

    /// Raw bytes per compressed byte, "-" when nothing was compressed.
    static func ratio(_ s: TraceSummary) -> String {
        s.stats.compressedBytes == 0 ? "-" : fixed(Double(s.stats.rawBytes) / Double(s.stats.compressedBytes), 2)
    }
}

/// `info --json`: a trace's summary as one object (docs/json.md).
package enum InfoJSON {
    /// The summary, one line without its end.
    package static func render(_ s: TraceSummary) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.key("file"); w.path(s.file)
        w.key("header")
        if let h = s.header {
            w.raw(Record(seq: 0, t: 0, .header(h)).jsonLine)
        } else { w.null() }
        w.key("records"); w.int(s.records)
        w.key("durationMs"); w.int(s.durationMs)
        w.key("byType"); w.beginObject()
        for (k, v) in s.byType.sorted(by: { $0.key < $1.key }) { w.key(k); w.int(v) }
        w.endObject()
        if s.otherTypes > 0 { w.key("recordsOfUncountedTypes"); w.int(s.otherTypes) }
        w.key("gapThresholdMs"); w.int(s.gaps.thresholdMs)
        w.key("gaps"); w.beginArray()
        for g in s.gaps.gaps.prefix(100) {
            w.beginObject()
            w.key("startT"); w.int(g.startT); w.key("endT"); w.int(g.endT)
            w.key("startSeq"); w.int(g.startSeq); w.key("endSeq"); w.int(g.endSeq)
            w.endObject()
        }
        w.endArray()
        w.key("reports"); ExplainJSON.reports(s.reports, &w)
        w.key("lost"); w.beginArray()
        for l in s.lost {
            w.beginObject()
            w.key("seq"); w.int(l.seq); w.key("fromT"); w.int(l.fromT); w.key("toT"); w.int(l.toT)
            if let n = l.dropped { w.key("dropped"); w.int(n) }
            if let p = l.pause { w.key("paused"); w.string(p.rawValue) }
            w.endObject()
        }
        w.endArray()
        if s.systemLog.records > 0 { w.key("systemLog"); systemLog(s.systemLog, &w) }
        w.key("unknownTypes"); w.beginObject()
        for (k, v) in s.unknownTypes.sorted(by: { $0.key < $1.key }) { w.key(k); w.int(v) }
        w.endObject()
        w.key("compressed"); w.bool(s.stats.compressed)
        w.key("frames"); w.int(s.stats.frames)
        w.key("storedFrames"); w.int(s.stats.storedFrames)
        w.key("skippableFrames"); w.int(s.stats.skippableFrames)
        w.key("compressedBytes"); w.int(s.stats.compressedBytes)
        w.key("rawBytes"); w.int(s.stats.rawBytes)
        w.key("closed"); if s.stats.hasStartMark { w.bool(s.stats.endsWithEndMark) } else { w.null() }
        w.key("problemCount"); w.int(s.problemCount)
        w.key("problems"); problems(s.problems, &w)
        w.endObject()
        return w.string
    }

    /// The system log's records as an object (`systemLog`).
    static func systemLog(_ log: SystemLogSummary, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("records"); w.int(log.records)
        w.key("own"); w.int(log.own)
        w.key("processes"); w.int(log.processes.count)
        for source in SystemLogTimeSource.allCases {
            guard let n = log.bySource[source] else { continue }
            w.key(source.rawValue); w.beginObject()
            w.key("records"); w.int(n)
            w.key("uncertaintyMs"); w.int(log.uncertaintyMs[source])
            w.endObject()
        }
        w.endObject()
    }

    /// The reader's problems as a JSON array (`info --json`'s and `verify --json`'s `problems`).
    static func problems(_ problems: [TraceProblem], _ w: inout JSONWriter) {
        w.beginArray()
        for p in problems {
            w.beginObject()
            w.key("kind"); w.string(p.kind.rawValue)
            if let o = p.offset { w.key("offset"); w.int(o) }
            if let s = p.seq { w.key("seq"); w.int(s) }
            if let l = p.line { w.key("line"); w.int(l) }
            if let f = p.field { w.key("field"); w.string(f) }
            if let lost = p.lost { w.key("lost"); w.beginArray(); w.int(lost.lowerBound); w.int(lost.upperBound); w.endArray() }
            w.key("message"); w.string(p.message)
            w.endObject()
        }
        w.endArray()
    }
}
