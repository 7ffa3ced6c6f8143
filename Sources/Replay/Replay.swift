import TraceCodec
import TraceModel

/// Which records a replay's `onRecord` sees.
package enum RecordsSeen: Sendable {
    /// Every record.
    case every
    /// Only those of the types that are not high-rate (`RecordKind.isHighRate`), expectations and types this
    /// version does not know: the records a replay keeps whole anyway, so that seeing them costs nothing.
    case lowRate
}

/// What a replay does with a file of the trace that cannot be opened.
package enum UnopenedFile: Sendable {
    /// The replay fails with the error: a command that names the trace has nothing to replay.
    case fails
    /// The file is an `io` problem of the result, and the other files are replayed: a fleet's trace, whose
    /// row says what could not be read.
    case isAProblem
}

/// Replays traces: one loop for a single file, the parts of one recorded session, and each side of a diff.
package enum Replay {
    /// Reads the files of one trace (a single file, or a session's parts in part order) and replays them
    /// through one replayer, as one trace. Reader problems are recorded in the result (and passed to
    /// `onProblem`), never fatal unless `strict` (then the first damage is thrown). A file that cannot be
    /// opened is thrown with `unopened: .fails`, else it is an `io` problem and the other files are
    /// replayed. `onRecord` sees the records (`seeing` says which) before they are replayed. With
    /// `pipelined`, each file is read, decompressed and decoded on a thread of its own while this one
    /// replays (`TraceReader.forEachBatch(pipelined:)`); the result is the same. `onBatch` sees each batch
    /// as the reader decoded it, before its records are replayed (a what-if keeps them for its second replay).
    package static func run(_ session: TraceSession, options: ReplayOptions = ReplayOptions(), limits: ReaderLimits = .standard,
                           strict: Bool = false, unopened: UnopenedFile = .fails, pipelined: Bool = false,
                           observer: ((ReplayStep) -> Void)? = nil, onRecord: ((Record) -> Void)? = nil, seeing: RecordsSeen = .every,
                           onBatch: ((RecordBatch) -> Void)? = nil, onProblem: (TraceProblem) -> Void = { _ in }) throws -> ReplayResult {
        // The arena of a replay that finished before, emptied: nothing of this replay refers to it once it
        // returns (the result holds strings and values, not symbols), so it is kept for the next. An observed
        // replay's steps are handed out as it goes: it has an arena of its own.
        guard observer == nil else {
            let replayer = Replayer(file: session.first, options: options)
            replayer.observer = observer
            return try drive(session.paths, replayer: replayer, limits: limits, strict: strict, unopened: unopened, pipelined: pipelined,
                             onRecord: onRecord, seeing: seeing, onBatch: onBatch, onProblem: onProblem)
        }
        let arena = ReplayArenaPool.shared.take(maxSymbols: options.maxDistinctStrings)
        defer { ReplayArenaPool.shared.give(arena) }
        let replayer = Replayer(file: session.first, options: options, arena: arena)
        return try drive(session.paths, replayer: replayer, limits: limits, strict: strict, unopened: unopened, pipelined: pipelined,
                         onRecord: onRecord, seeing: seeing, onBatch: onBatch, onProblem: onProblem)
    }

    /// Replays records already in memory (tests, reduction).
    package static func run(records: [Record], file: String = "<memory>", options: ReplayOptions = ReplayOptions(),
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
    static func drive(_ parts: [String], replayer: Replayer, limits: ReaderLimits, strict: Bool, unopened: UnopenedFile,
                      pipelined: Bool, onRecord: ((Record) -> Void)?, seeing: RecordsSeen, onBatch: ((RecordBatch) -> Void)? = nil,
                      onProblem: (TraceProblem) -> Void) throws -> ReplayResult {
        var problems: [TraceProblem] = []
        var count = 0
        var byKind: [TraceProblem.Kind: Int] = [:]
        var partsOpened = 0
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
            switch unopened {
            case .fails:
                reader = try TraceReader(path: path, limits: limits)
            case .isAProblem:
                do { reader = try TraceReader(path: path, limits: limits) } catch {
                    try report(TraceProblem(.io, file: path, message: "\(error)"))
                    continue
                }
            }
            reader.keptStringBytes = TextCap.keptBytes
            partsOpened += 1
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
                        if afterMissingPart { gapsAtMissingParts += 1 } else if r.seq > last + 1 { replayer.lost(seqs: (last + 1)...(r.seq - 1), cause: .seqGap) }
                        try report(TraceProblem(.seqGap, file: path, seq: r.seq, lost: r.seq > last + 1 ? (last + 1)...(r.seq - 1) : nil,
                                                message: ReplayWords.partSeqGap(first: r.seq, previousLast: last)))
                    }
                    if k > 0, let t = lastT, r.t < t {
                        try report(TraceProblem(.timeBackwards, file: path, seq: r.seq, field: "t",
                                                message: ReplayWords.partTimeBackwards(start: r.t, previousEnd: t)))
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
                if let cause = LossCause(p.kind) { replayer.lost(seqs: p.lost, cause: cause) }
                if firstRecord && p.kind == .header { held.append(p) } else { try report(p) }
            }
            try reader.forEachBatch(pipelined: pipelined, whole: replayer.arena.keepsWhole || (onRecord != nil && seeing == .every)) { batch in
                onBatch?(batch)
                replayer.begin(batch)
                defer { replayer.endBatch() }
                // The common case: past the part's first record, with no problem among them, the records are
                // replayed as they come, the part's last seq and time kept.
                if batch.problems.isEmpty, !firstRecord, let last = batch.records.last, var t = lastT {
                    for i in batch.records.indices {
                        let r = batch.records[i]
                        if r.t > t { t = r.t }
                        if let onRecord, r.hasFull {
                            let whole = batch.full[Int(r.full)]
                            if seeing == .every || !(whole.body.kind?.isHighRate ?? false) { onRecord(whole) }
                        }
                        replayer.feed(batch, i)
                    }
                    lastSeq = last.seq
                    lastT = t
                    return
                }
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
        result.partsOpened = partsOpened
        return result
    }
}
