import TraceCodec
import TraceModel

/// Which records a replay's `onRecord` sees.
public enum RecordsSeen: Sendable {
    /// Every record.
    case every
    /// Only those of the types that are not high-rate (`RecordKind.isHighRate`), expectations and types this
    /// version does not know: the records a replay keeps whole anyway, so that seeing them costs nothing.
    case lowRate
}

/// Replays traces: one loop for a single file, the parts of one recorded session, and each side of a diff.
public enum Replay {
    /// Reads the trace at `path` and replays it; reader problems are recorded in the result (and passed
    /// to `onProblem`), never fatal unless `strict`. Throws when the file cannot be opened, and with
    /// `strict` at the first problem. `onRecord` sees every record before it is replayed. With `pipelined`,
    /// the trace is read, decompressed and decoded on a thread of its own while this one replays
    /// (`TraceReader.forEach(pipelined:)`); the result is the same.
    public static func run(path: String, options: ReplayOptions = ReplayOptions(), limits: ReaderLimits = .standard,
                           strict: Bool = false, pipelined: Bool = false, observer: ((ReplayStep) -> Void)? = nil,
                           onRecord: ((Record) -> Void)? = nil, seeing: RecordsSeen = .every,
                           onProblem: (TraceProblem) -> Void = { _ in }) throws -> ReplayResult {
        let reader = try TraceReader(path: path, limits: limits)
        let replayer = Replayer(file: path, options: options)
        replayer.observer = observer
        return try drive([path], first: reader, replayer: replayer, limits: limits, strict: strict, pipelined: pipelined,
                         onRecord: onRecord, seeing: seeing, onProblem: onProblem).result
    }

    /// Replays the files of one trace in the order given (a session's parts in part order, or a single
    /// file) through one replayer; never throws: a part that cannot be opened is an `io` problem, and so
    /// is reading nothing at all.
    /// `onRecord` sees every record before it is replayed.
    public static func run(parts: [String], options: ReplayOptions = ReplayOptions(),
                           limits: ReaderLimits = .standard, pipelined: Bool = false, observer: ((ReplayStep) -> Void)? = nil,
                           onRecord: ((Record) -> Void)? = nil, seeing: RecordsSeen = .every,
                           onProblem: (TraceProblem) -> Void = { _ in }) -> PartsReplay {
        let replayer = Replayer(file: parts.first ?? "", options: options)
        replayer.observer = observer
        // Not strict, so nothing is thrown.
        return (try? drive(parts, first: nil, replayer: replayer, limits: limits, strict: false, pipelined: pipelined,
                           onRecord: onRecord, seeing: seeing, onProblem: onProblem))
            ?? PartsReplay(result: replayer.finish())
    }

    /// Replays records already in memory (tests, reduction).
    public static func run(records: [Record], file: String = "<memory>", options: ReplayOptions = ReplayOptions(),
                           observer: ((ReplayStep) -> Void)? = nil) -> ReplayResult {
        let replayer = Replayer(file: file, options: options)
        replayer.observer = observer
        for r in records { replayer.feed(r) }
        return replayer.finish()
    }

    /// The one replay loop over the files of a trace.
    ///
    /// Every record goes to the replayer, which reads a later part's header as the continuation it is
    /// (`Replayer`, sessions). The reader's complaint that such a header does not have seq 0 is not damage;
    /// a part that does not continue the one before it (seq or time) is.
    static func drive(_ parts: [String], first: TraceReader?, replayer: Replayer, limits: ReaderLimits, strict: Bool,
                      pipelined: Bool = false, onRecord: ((Record) -> Void)?, seeing: RecordsSeen,
                      onProblem: (TraceProblem) -> Void) throws -> PartsReplay {
        var problems: [TraceProblem] = []
        var count = 0
        var byKind: [TraceProblem.Kind: Int] = [:]
        var out = PartsReplay(result: ReplayResult(file: parts.first ?? ""))
        func report(_ p: TraceProblem) throws {
            if strict && p.isDamage { throw p }
            count += 1
            byKind[p.kind, default: 0] += 1
            if problems.count < 1000 { problems.append(p) }
            onProblem(p)
        }
        var lastSeq: Int?
        var lastT: Int64?
        // The session part number of the part before, and the seq gaps at parts missing in between (what
        // the session notes say; not damage of the parts read).
        var lastPart: Int?
        var gapsAtMissingParts = 0
        var clipped = 0
        var inputBytes = 0
        var unknownTypes: [String: Int] = [:]
        // Whether the last part read ends torn or unclosed: the trace then ends at a crash.
        var endsTorn = false
        for (k, path) in parts.enumerated() {
            let reader: TraceReader
            if k == 0, let first {
                reader = first
            } else {
                do { reader = try TraceReader(path: path, limits: limits) } catch {
                    try report(TraceProblem(.io, file: path, message: "\(error)"))
                    continue
                }
            }
            reader.keptStringBytes = TextCap.keptBytes
            out.partsOpened += 1
            endsTorn = false
            var held: [TraceProblem] = []
            var firstRecord = true
            func record(_ batch: RecordBatch, _ i: Int) throws {
                let r = batch.records[i]
                if firstRecord {
                    firstRecord = false
                    var continuation = false
                    var part: Int?
                    if r.kind == .header, case .header(let h) = batch.full[Int(r.full)].body, let s = h.session {
                        continuation = k > 0 || s.part > 1
                        part = s.part
                    }
                    for p in held where !(continuation && p.kind == .header && p.seq == r.seq) { try report(p) }
                    held.removeAll()
                    var afterMissingPart = false
                    if k > 0, let part, let lastPart { afterMissingPart = part > lastPart + 1 }
                    lastPart = part
                    if k > 0, let last = lastSeq, r.seq != last + 1 {
                        if afterMissingPart { gapsAtMissingParts += 1 }
                        try report(TraceProblem(.seqGap, file: path, seq: r.seq, lost: r.seq > last + 1 ? (last + 1)...(r.seq - 1) : nil,
                                                message: "this part starts at seq \(r.seq), but the part before it ended at seq \(last)"))
                    }
                    if k > 0, let t = lastT, r.t < t {
                        try report(TraceProblem(.timeBackwards, file: path, seq: r.seq, field: "t",
                                                message: "this part starts at \(formatDuration(r.t)), before the part before it ended (\(formatDuration(t)))"))
                    }
                }
                lastSeq = r.seq
                lastT = max(lastT ?? r.t, r.t)
                if let onRecord, r.hasFull {
                    let whole = batch.full[Int(r.full)]
                    if seeing == .every || !(whole.body.kind?.isHighRate ?? false) { onRecord(whole) }
                }
                replayer.feed(batch, i)
            }
            func problem(_ p: TraceProblem) throws {
                if p.kind == .tornFrame || p.kind == .notClosed { endsTorn = true }
                if firstRecord && p.kind == .header { held.append(p) } else { try report(p) }
            }
            try reader.forEachBatch(pipelined: pipelined, whole: replayer.arena.keepsWhole || (onRecord != nil && seeing == .every)) { batch in
                var p = 0
                for i in batch.records.indices {
                    while p < batch.problems.count, batch.problems[p].before <= i {
                        try problem(batch.problems[p].problem)
                        p += 1
                    }
                    try record(batch, i)
                }
                while p < batch.problems.count {
                    try problem(batch.problems[p].problem)
                    p += 1
                }
            }
            for p in held { try report(p) }
            for (type, n) in reader.unknownTypes { unknownTypes[type, default: 0] += n }
            clipped += reader.clippedRecords
            inputBytes += reader.stats.rawBytes
        }
        var result = replayer.finish(end: endsTorn ? .crash : .end)
        result.problems = problems
        result.problemCount = count
        result.problemsByKind = byKind
        result.seqGapsAtMissingParts = gapsAtMissingParts
        result.recordsWithClippedStrings = clipped
        result.inputBytes = inputBytes
        result.unknownTypes = unknownTypes
        out.result = result
        return out
    }
}
