import CommandLineKit
import Contract
import LogImport
import QualityEngine
import Replay
import Reports
import TraceCodec
import TraceModel
import Workflows

/// What `info` and `verify` learn by reading a whole trace.
struct TraceSummary {
    var file: String
    var header: TraceHeader?
    var records = 0
    var firstT: Int64?
    var lastT: Int64?
    var byType: [String: Int] = [:]
    var unknownTypes: [String: Int] = [:]
    var problems: [TraceProblem] = []
    var problemCount = 0
    /// Problems that are damage (not warnings such as a skipped byte-order mark).
    var damageCount = 0
    var stats = ContainerStats()
    var gaps = RecordGaps()
    /// The user's problem reports marked in the trace (`trace.report`), the first 64.
    var reports: [ReportMark] = []
    /// Stretches the recorder says it lost (`trace.dropped`, `trace.paused`), the first 100.
    var lost: [(seq: Int, fromT: Int64, toT: Int64, dropped: Int?, pause: PauseReason?)] = []
    /// The records imported from the device's log, and how their times were placed.
    var systemLog = SystemLogSummary()
    /// Distinct record types counted; further types are counted together (a hostile trace can make
    /// every record a new type).
    static let typeCap = 1000
    var otherTypes = 0

    static func read(_ path: String, limits: ReaderLimits = .standard, onProblem: (TraceProblem) -> Void = { _ in }) throws -> TraceSummary {
        var s = TraceSummary(file: path)
        let reader: TraceReader
        do { reader = try TraceReader(path: path, limits: limits) } catch { throw commandError(error) }
        while let e = reader.next() {
            switch e {
            case .record(let r):
                s.records += 1
                if s.firstT == nil { s.firstT = r.t }
                s.lastT = r.t
                if s.byType[r.type] != nil || s.byType.count < typeCap { s.byType[r.type, default: 0] += 1 } else { s.otherTypes += 1 }
                s.gaps.observe(r)
                s.noteRecorderMarks(r)
                s.systemLog.observe(r)
            case .problem(let p):
                s.problemCount += 1
                if p.isDamage { s.damageCount += 1 }
                if s.problems.count < 1000 { s.problems.append(p) }
                onProblem(p)
            }
        }
        s.header = reader.header
        s.unknownTypes = reader.unknownTypes
        s.stats = reader.stats
        return s
    }

    var durationMs: Int64 { (lastT ?? 0) - (firstT ?? 0) }

    /// Keeps what the recorder says about the session: the user's reports, and what it lost.
    mutating func noteRecorderMarks(_ r: Record) {
        if case let .report(id, note) = r.body, reports.count < 64 {
            reports.append(ReportMark(id: TextCap.clip(id), note: note.map { TextCap.clip($0) }, t: r.t, seq: r.seq))
        } else if case let .dropped(count, fromT, toT) = r.body, lost.count < 100 {
            lost.append((r.seq, fromT, toT, count, nil))
        } else if case let .paused(fromT, toT, reason) = r.body, lost.count < 100 {
            lost.append((r.seq, fromT, toT, nil, reason))
        }
    }

    /// The `lost` line's stretches, in words.
    var lostText: String {
        lost.prefix(10).map { l in
            let what = l.pause.map { "nothing recorded (\($0.words))" } ?? "\(l.dropped ?? 0) records dropped"
            return "\(what) \(formatDuration(l.fromT))–\(formatDuration(l.toT)) (seq \(l.seq) \(l.pause == nil ? "trace.dropped" : "trace.paused"))"
        }.joined(separator: ", ") + (lost.count > 10 ? ", … \(lost.count - 10) more" : "")
    }
}

/// `rtctrace info`: header, duration, counts, frames, sizes, gaps, unknown types, recovery events.
enum InfoCommand {
    static let json = Option.flag("--json", HelpWords.printTheSummaryAsJson)

    static let spec = CommandSpec(
        name: "info", usage: "info TRACE|PARTS... [--json] [--strict]",
        summary: HelpWords.summariseATraceHeaderDurationRecord,
        options: [json, CommonOptions.strict],
        exits: ExitCodes(failure: nil, readsTraces: true))

    static let command = Command(spec: spec) { args, context in
        let strict = args[CommonOptions.strict]
        // The parts of one session are summarised in part order (JSON: one object per part, a line each).
        let parts = try TraceInput.resolve(args.positionals, in: context)
        var problems = 0
        for (i, path) in parts.paths.enumerated() {
            let s = try TraceSummary.read(path)
            // An archive or a file that is not a trace is no trace to summarise (it exited 0).
            if s.records == 0, let p = s.problems.first(where: { $0.kind == .notATrace }) { throw DataError(message: p.description) }
            problems += s.damageCount
            if args[json] {
                context.out.line(json(s))
            } else {
                for p in s.problems { context.warn(p) }
                if i > 0 { context.out.write("\n") }
                context.out.write(text(s))
            }
        }
        return strict && problems > 0 ? .failure : .success
    }

    static func text(_ s: TraceSummary) -> String {
        var o = "trace     \(terminalSafe(s.file))\n"
        if let h = s.header {
            let words = LayerWords(h.layer)
            o += MessageWords.layerSThatSAnd(h.layer.rawValue, words.product, words.session, words.participant, words.join, words.leave)
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
            o += MessageWords.reportAtSeq(terminalSafe(m.id), formatDuration(m.t), m.seq) + (m.note.map { ": " + terminalSafe($0) } ?? "") + "\n"
        }
        o += "records   \(s.records)\n"
        for (type, n) in s.byType.sorted(by: { $0.key < $1.key }) {
            o += "  " + terminalSafe(type) + String(repeating: " ", count: max(1, 28 - type.count)) + "\(n)\n"
        }
        if s.stats.compressed {
            o += MessageWords.framesZstdFramesSkippable(s.stats.frames, s.stats.skippableFrames)
            o += MessageWords.sizeBytesCompressedRawRatio(s.stats.compressedBytes, s.stats.rawBytes, ratio(s))
            if s.stats.storedFrames > 0 {
                o += "stored    " + (s.stats.storedFrames == s.stats.frames
                    ? MessageWords.uncompressedAllZstdFramesHoldStored(s.stats.frames)
                    : MessageWords.ofZstdFramesHoldStoredBlocks(s.stats.storedFrames, s.stats.frames))
            }
            if s.records > 0 { o += MessageWords.perRecBytesCompressed(fixed(Double(s.stats.compressedBytes) / Double(s.records), 1)) }
            let closed = s.stats.hasStartMark ? (s.stats.endsWithEndMark ? MessageWords.yesEndMarkPresent : MessageWords.noNoEndMarkCrashOr) : MessageWords.aNotWrittenByRtctrace
            o += "closed    " + closed + "\n"
        } else {
            o += MessageWords.formatPlainJsonLinesBytes(s.stats.rawBytes)
        }
        if s.otherTypes > 0 { o += "  (records of \(TraceSummary.typeCap)+ further types)  \(s.otherTypes)\n" }
        let silent = s.gaps.gaps
        o += "no data   " + (silent.isEmpty ? MessageWords.noStretchWithoutRecordsLongerThan(formatDuration(s.gaps.thresholdMs))
            : silent.prefix(10).map { g in "\(formatDuration(g.durationMs)) from \(formatDuration(g.startT)) (seq \(g.startSeq)–\(g.endSeq))"
                // A stretch around lost seqs says what lost them, not a guess (X5).
                + (s.problems.first { p in p.lost.map { $0.lowerBound > g.startSeq && $0.upperBound < g.endSeq } ?? false }
                    .map { " [lost seq \($0.lost!.lowerBound)–\($0.lost!.upperBound): \(Self.gapCause($0))]" } ?? "") }
                .joined(separator: ", ") + (silent.count > 10 ? ", … \(silent.count - 10) more" : "")
                + MessageWords.stretchesWithoutRecordsLongerThanThree(formatDuration(s.gaps.thresholdMs))) + "\n"
        if let log = s.systemLog.text { o += "syslog    " + log + "\n" }
        if !s.unknownTypes.isEmpty {
            o += "unknown   " + s.unknownTypes.sorted { $0.key < $1.key }.map { "\(terminalSafe($0.key)) ×\($0.value)" }.joined(separator: ", ") + "\n"
        }
        // What the recorder itself lost: it counted the records (or paused), so seq has no gap there.
        if !s.lost.isEmpty { o += "lost      " + terminalSafe(s.lostText) + MessageWords.theRecorderSOwnAccountWhat }
        // Lost seqs are seq gaps whatever lost them (a seq jump, an unreadable frame): each says its cause (X5).
        let gaps = s.problems.filter { $0.kind == .seqGap || $0.lost != nil }
        o += "seq gaps  \(gaps.isEmpty ? "none" : gaps.map { p in (p.lost.map { "\($0.lowerBound)–\($0.upperBound)" } ?? "seq \(p.seq ?? -1)") + " (\(Self.gapCause(p)))" }.joined(separator: ", "))\n"
        let recovery = s.problems.filter { $0.kind != .seqGap }
        o += "problems  \(s.problemCount == 0 ? "none" : "\(s.problemCount)")\n"
        for p in recovery.prefix(20) { o += "  " + terminalSafe(p.description) + "\n" }
        if recovery.count > 20 { o += "  … \(recovery.count - 20) more\n" }
        return o
    }

    /// What lost the seqs of a gap, as the reader knows it.
    static func gapCause(_ p: TraceProblem) -> String {
        switch p.kind {
        case .seqGap: MessageWords.seqJumpsTheRecordsNeverReached
        case .badFrame, .garbage, .windowTooLarge: MessageWords.aFrameCouldNotBeRead
        case .tornFrame, .notClosed: MessageWords.theLastFrameIsTorn
        case .badRecord, .lineTooLong: MessageWords.aRecordCouldNotBeDecoded
        case .timeBackwards, .header, .headerMissing, .empty, .notATrace, .io, .byteOrderMark, .bundleMismatch: MessageWords.aProblemWhileReading
        }
    }

    static func ratio(_ s: TraceSummary) -> String {
        s.stats.compressedBytes == 0 ? "-" : fixed(Double(s.stats.rawBytes) / Double(s.stats.compressedBytes), 2)
    }

    static func json(_ s: TraceSummary) -> String {
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
        if s.systemLog.records > 0 { w.key("systemLog"); s.systemLog.write(&w) }
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
        w.key("problems"); problemsJSON(s.problems, &w)
        w.endObject()
        return w.string
    }
}

/// Writes problems as a JSON array.
func problemsJSON(_ problems: [TraceProblem], _ w: inout JSONWriter) {
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

