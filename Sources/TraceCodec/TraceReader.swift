/// What a trace reader yields: a record, or a problem it recovered from.
import TraceModel
package enum TraceEvent: Sendable {
    /// A decoded record.
    case record(Record)
    /// A problem; reading continues after it.
    case problem(TraceProblem)
}

/// Reads a trace (zstd frames or plain JSON Lines) record by record in bounded memory,
/// reporting and recovering from every problem the trace format's Recovery section names.
package final class TraceReader: IteratorProtocol, Sequence {
    /// The file being read.
    package let file: String
    let source: LineSource
    private let decoder = RecordDecoder()
    /// What reads the lines `forEachLine` passes through.
    private let skimmer = LineSkimmer()
    var pendingLoss: [TraceProblem] = []
    var lastSeq: Int?
    var lastT: Int64?
    var sawRecord = false
    private var done = false

    /// The trace header, once read.
    package private(set) var header: TraceHeader?
    /// The part number of the latest session header read (a later part's header in the same file continues it).
    private var lastPart = 0
    /// Records decoded so far.
    package internal(set) var recordCount = 0
    /// Records of a type this version does not know, by type: at most `maxUnknownTypeNames` names
    /// (each cut to `maxUnknownTypeName` bytes); the records of further types are counted under
    /// `otherUnknownTypes`, so a hostile trace cannot grow this table without bound.
    package private(set) var unknownTypes: [String: Int] = [:]
    /// Distinct unknown type names counted by name.
    package static let maxUnknownTypeNames = 256
    /// Longest unknown type name kept whole, in bytes.
    package static let maxUnknownTypeName = 128
    /// The key in `unknownTypes` that counts the records of types beyond `maxUnknownTypeNames`.
    package static let otherUnknownTypes = ReadWords.otherUnknownTypes
    /// Every problem reported so far, in order.
    package private(set) var problems: [TraceProblem] = []
    /// How many problems to keep in `problems` (all are still yielded).
    package var keepProblems = 10_000
    /// When set, a record read from a longer line has every string longer than this clipped
    /// (`Record.clipped(to:)`) before it is delivered: what a replay keeps (`TextCap.keptBytes`). Nil
    /// (the default) delivers every record as written, for the commands that copy records.
    package var keptStringBytes: Int?
    /// Frames decompressed and decoded on another core than the one that checks their order (`readOnTwoCores`).
    package internal(set) var framesReadApart = 0
    /// Records delivered with strings clipped to `keptStringBytes`.
    package internal(set) var clippedRecords = 0

    /// Opens a trace; `-` reads standard input.
    package init(path: String, limits: ReaderLimits = .standard) throws {
        file = path
        source = try LineSource(path: path, limits: limits)
    }

    /// Container statistics so far (frames, sizes, marks).
    package var stats: ContainerStats { source.stats }

    /// The raw bytes of the line the last record came from (valid until the next call to `next`).
    package func withCurrentLine<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        try body(source.bytes(currentLine))
    }

    private var currentLine: Range<Int> = 0..<0
    /// The length of the line last read, in bytes.
    var currentLineBytes: Int { currentLine.count }

    /// Whether the last record came from a torn final frame (kept, but its frame was never completed).
    package var currentFrameIsTorn: Bool { currentLine.upperBound > source.tornFrom }
    /// Events waiting behind the problems that go before them.
    private var out: [Queued] = []
    /// Whether events wait behind a problem that goes before them.
    var hasQueuedEvents: Bool { outHead < out.count }
    private var outHead = 0
    private enum Queued { case record(Record), compact(ReplayRecord), skimmed(SkimmedLine), problem(TraceProblem) }

    /// The next record or problem; nil at the end of the trace.
    package func next() -> TraceEvent? {
        var event: TraceEvent?
        _ = pull(record: { event = .record($0) }, compact: { _ in }, skimmed: { _ in }, problem: { event = .problem($0) })
        return event
    }

    /// Streams the rest of the trace: every record to `record`, every problem to `problem`, in
    /// trace order. The same events as `next()`, without wrapping each record in a `TraceEvent`.
    package func forEach(record: (Record) throws -> Void, problem: (TraceProblem) throws -> Void) rethrows {
        while try pull(record: record, compact: { _ in }, skimmed: { _ in }, problem: problem) {}
    }

    /// Streams the rest of the trace for a reader of lines (`cat`): a line of a high-rate type in canonical
    /// order whose structure holds (`RecordDecoder.skim`) goes to `skimmed` with its seq, time and type,
    /// its other fields unread; every other line is decoded in full and goes to `record`. Frames, checksums,
    /// seq, time and the header are checked as `forEach` checks them, with the same problems; a skimmed
    /// line's field values are not. `withCurrentLine` gives the line of either.
    package func forEachLine(skimmed: (SkimmedLine) throws -> Void, record: (Record) throws -> Void,
                            problem: (TraceProblem) throws -> Void) rethrows {
        skimming = true
        defer { skimming = false }
        while try pull(record: record, compact: { _ in }, skimmed: skimmed, problem: problem) {}
    }

    /// `forEachLine` for a reader that passes every line on as it is and needs none of them one by one
    /// (`cat` without filters): consecutive lines that would go to `skimmed`, each continuing the seq by one
    /// with the time not going back and nothing to report between them, go to `run` as one span of the
    /// decoded bytes (the newlines between them included, not the last one); a skimmed line on its own goes
    /// to `run` alone. Everything else, and every problem, as `forEachLine(skimmed:record:problem:)`, in the
    /// same order.
    package func forEachLine(run onRun: (UnsafeBufferPointer<UInt8>) throws -> Void, record onRecord: (Record) throws -> Void,
                            problem onProblem: (TraceProblem) throws -> Void) throws {
        skimming = true
        defer { skimming = false }
        let single: (SkimmedLine) throws -> Void = { _ in try onRun(self.source.bytes(self.currentLine)) }
        while true {
            // The checks `accept` makes, for lines that pass them all: no header, no gap, no time going back.
            if outHead == out.count, pendingLoss.isEmpty, sawRecord, let last = lastSeq, let lastTime = lastT {
                var seq = last, time = lastTime
                var span: Range<Int>?
                var other: Range<Int>?
                while let range = source.quickLine() {
                    guard let line = skimmer.skim(source.bytes(range)), line.seq == seq + 1, line.t >= time else {
                        other = range
                        break
                    }
                    seq = line.seq
                    time = line.t
                    recordCount += 1
                    span = (span?.lowerBound ?? range.lowerBound)..<range.upperBound
                    currentLine = range
                }
                lastSeq = seq
                lastT = time
                if let span { try onRun(source.bytes(span)) }
                if let other {
                    _ = try deliver(other, record: onRecord, compact: { _ in }, skimmed: single, problem: onProblem)
                    continue
                }
                if span != nil { continue }
            }
            guard try pull(record: onRecord, compact: { _ in }, skimmed: single, problem: onProblem) else { return }
        }
    }

    /// Whether lines are skimmed rather than decoded where they can be (`forEachLine`).
    private var skimming = false
    /// Whether lines of the high-rate types are decoded into `filling` (`forEachBatch`).
    var compacting = false
    /// The batch being filled.
    var filling = RecordBatch()

    /// Every line as the container gives it (frames decoded and checked, lines split and held until their
    /// frame's checksum passes), none of them read: the read path up to the decoder, for `make bench`'s
    /// phases (through the Tools SPI). Returns the number of problems met, which are not reported.
    package func forEachUndecodedLine(_ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Int {
        var problems = 0
        while true {
            if let range = source.quickLine() {
                body(source.bytes(range))
                continue
            }
            switch source.next() {
            case .line(let range)?: body(source.bytes(range))
            case .problem?: problems += 1
            case nil: return problems
            }
        }
    }

    /// Hands exactly one event to `record`, `compact` or `problem`; false at the end of the trace.
    func pull(record onRecord: (Record) throws -> Void, compact onCompact: (ReplayRecord) throws -> Void,
              skimmed onSkimmed: (SkimmedLine) throws -> Void,
              problem onProblem: (TraceProblem) throws -> Void) rethrows -> Bool {
        while true {
            if outHead < out.count {
                let e = out[outHead]
                outHead += 1
                if outHead == out.count { out.removeAll(keepingCapacity: true); outHead = 0 }
                switch e {
                case .record(let r): try onRecord(r)
                case .compact(let r): try onCompact(r)
                case .skimmed(let s): try onSkimmed(s)
                case .problem(let p): try onProblem(p)
                }
                return true
            }
            if done { return false }
            if let range = source.quickLine() {
                if try deliver(range, record: onRecord, compact: onCompact, skimmed: onSkimmed, problem: onProblem) { return true }
                continue
            }
            guard let event = source.next() else {
                for var p in pendingLoss {
                    if let last = lastSeq { p.message += ReadWords.recordsAfterMayBeLost(last) }
                    out.append(.problem(remember(p)))
                }
                pendingLoss.removeAll()
                if let p = endProblem() { out.append(.problem(remember(p))) }
                done = true
                continue
            }
            switch event {
            case .problem(let p):
                if p.kind == .badFrame || p.kind == .garbage || p.kind == .windowTooLarge {
                    // The lost seq range is known once the next record arrives.
                    pendingLoss.append(p)
                    continue
                }
                try onProblem(remember(p))
                return true
            case .line(let range):
                if try deliver(range, record: onRecord, compact: onCompact, skimmed: onSkimmed, problem: onProblem) { return true }
            }
        }
    }

    /// Decodes a line and hands on its record (or its problem); false when the line gave nothing to
    /// hand on yet (blank, or queued behind problems that go first).
    /// `compacting` false reads the line as if not compacting (`fillInOrder` has tried it already).
    @inline(__always)
    func deliver(_ range: Range<Int>, record onRecord: (Record) throws -> Void,
                 compact onCompact: (ReplayRecord) throws -> Void,
                 skimmed onSkimmed: (SkimmedLine) throws -> Void,
                 problem onProblem: (TraceProblem) throws -> Void, compacting: Bool? = nil) rethrows -> Bool {
        currentLine = range
        if range.isEmpty || isBlank(range) { return false }
        // A line longer than what a replay keeps of a string is read whole, to be clipped.
        if compacting ?? self.compacting, keptStringBytes.map({ range.count <= $0 }) ?? true,
           let r = decoder.decodeCompact(source.bytes(range), into: &filling), let kind = r.kind {
            if acceptCompact(r, kind) {
                try onCompact(r)
                return true
            }
            return false
        }
        if skimming, let line = skimmer.skim(source.bytes(range)) {
            let explained = explainLoss(before: line.seq)
            if let p = accept(seq: line.seq, t: line.t, body: nil, type: line.kind.rawValue, gapExplained: explained) {
                out.append(.problem(remember(p)))
            }
            if out.isEmpty {
                try onSkimmed(line)
                return true
            }
            out.append(.skimmed(line))
            return false
        }
        let lineNo = source.lineNumber
        var record: Record
        do {
            record = try decoder.decode(source.bytes(range), lineNumber: lineNo)
            if let cap = keptStringBytes, range.count > cap, let clipped = record.clipped(to: cap) {
                record = clipped
                clippedRecords += 1
            }
        } catch let e {
            // A record that is there but unreadable is reported once, not again as a gap.
            if let s = e.seq, s == (lastSeq ?? -1) + 1 { lastSeq = s }
            try onProblem(remember(TraceProblem(.badRecord, file: file, seq: e.seq, line: e.line, field: e.field, message: e.reason)))
            return true
        }
        let explained = explainLoss(before: record.seq)
        if let p = accept(seq: record.seq, t: record.t, body: record.body, type: record.type, gapExplained: explained, late: record.late) {
            out.append(.problem(remember(p)))
        }
        if out.isEmpty {
            try onRecord(record)
            return true
        }
        out.append(.record(record))
        return false
    }

    /// Checks a replay record as `deliver` does; true when it is to be handed on now, false when it is
    /// queued behind the problems that go before it.
    func acceptCompact(_ r: ReplayRecord, _ kind: RecordKind) -> Bool {
        let explained = explainLoss(before: r.seq)
        if let p = accept(seq: r.seq, t: r.t, body: nil, type: kind.rawValue, gapExplained: explained) {
            out.append(.problem(remember(p)))
        }
        if out.isEmpty { return true }
        out.append(.compact(r))
        return false
    }

    /// The common case of a replay's read (`forEachBatch`), without a closure per record: the lines at hand
    /// that decode into replay records (`RecordDecoder.decodeCompact`), each continuing the seq by one with
    /// its time not going back and nothing queued or waiting to be reported, go into `filling` as `accept`
    /// would take them (`accept` then only counts them). Stops at the end of what is at hand, at a full batch
    /// (`.full`), or at a line it does not take (`.line`: not yet read but for the compact decoding, which
    /// failed; or `.taken`: a replay record `acceptCompact` checked, in `filling` when `handedOn`).
    func fillInOrder(batchRecords: Int, batchBytes: Int) -> InOrderStop {
        guard compacting, outHead == out.count, pendingLoss.isEmpty, sawRecord, var last = lastSeq, var time = lastT else {
            return .none
        }
        // Counted here and added once: `accept`, which counts the records it takes itself, reads no count.
        var inOrder = 0
        defer {
            lastSeq = last
            lastT = time
            recordCount += inOrder
        }
        let cap = keptStringBytes ?? Int.max
        while let range = source.quickLine() {
            currentLine = range
            guard range.count <= cap, let r = decoder.decodeCompact(source.bytes(range), into: &filling), let kind = r.kind else {
                return .line(range)
            }
            guard r.seq == last &+ 1, r.t >= time else {
                (lastSeq, lastT) = (last, time)
                let now = acceptCompact(r, kind)
                (last, time) = (lastSeq ?? last, lastT ?? time)
                if now { filling.records.append(r) }
                return .taken(handedOn: now)
            }
            inOrder &+= 1
            last = r.seq
            time = r.t
            filling.records.append(r)
            if filling.records.count >= batchRecords || filling.weight >= batchBytes { return .full }
        }
        return .none
    }

    /// Where `fillInOrder` stopped.
    enum InOrderStop { case none, full, line(Range<Int>), taken(handedOn: Bool) }

    /// Queues the losses waiting for the next record's seq (damaged frames, garbage), now that it is
    /// known; whether there were any (they explain a seq gap before it).
    private func explainLoss(before seq: Int) -> Bool {
        guard !pendingLoss.isEmpty else { return false }
        let from = (lastSeq ?? -1) + 1
        pendingLoss[0].lost = seq > from ? from...(seq - 1) : nil
        for p in pendingLoss { out.append(.problem(remember(p))) }
        pendingLoss.removeAll()
        return true
    }

    private func isBlank(_ r: Range<Int>) -> Bool {
        source.bytes(r).allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// Checks order, header and gaps; returns a problem to report before the record, if any. `body` is
    /// nil for a skimmed line (a high-rate type: neither a header nor an unknown type).
    func accept(seq: Int, t: Int64, body: RecordBody?, type: @autoclosure () -> String, gapExplained: Bool,
                        late: Bool = false) -> TraceProblem? {
        let r = (seq: seq, t: t)
        defer {
            recordCount += 1
            lastSeq = r.seq
            lastT = Swift.max(lastT ?? r.t, r.t)
            sawRecord = true
        }
        if case .unknown(let type, _)? = body { countUnknown(type) }
        if case .header(let h)? = body {
            // A continuation part of a session (part > 1) starts at the seq where the part before it stopped;
            // the parts of a session written one after another in one file (merged, or concatenated) keep
            // their headers: a later part's header there is a part boundary, not a misplaced header.
            let continues = sawRecord && h.session.map { s in header?.session.map { $0.id == s.id && s.part > lastPart } ?? false } ?? false
            if continues {
                lastPart = h.session?.part ?? lastPart
            } else if sawRecord || r.seq != 0 && (h.session?.part ?? 1) <= 1 {
                return TraceProblem(.header, file: file, seq: r.seq, line: source.lineNumber,
                                    message: ReadWords.headerNotFirst)
            } else {
                header = h
                lastPart = h.session?.part ?? 0
            }
        } else if !sawRecord {
            return TraceProblem(.headerMissing, file: file, seq: r.seq, line: source.lineNumber,
                                message: ReadWords.firstRecordNotHeader(type()))
        }
        if let last = lastSeq, r.seq != last + 1 {
            if r.seq > last + 1 {
                if gapExplained { return nil }
                return TraceProblem(.seqGap, file: file, seq: r.seq, line: source.lineNumber, lost: (last + 1)...(r.seq - 1),
                                    message: ReadWords.seqJump(from: last, to: r.seq))
            }
            return TraceProblem(.seqGap, file: file, seq: r.seq, line: source.lineNumber,
                                message: ReadWords.seqNotFollowing(r.seq, last))
        }
        // A record marked late (version 4) may go back by up to the match window; readers order it.
        if let t = lastT, r.t < t, !(late && t - r.t <= Record.lateWindow) {
            return TraceProblem(.timeBackwards, file: file, seq: r.seq, line: source.lineNumber, field: "t",
                                message: ReadWords.timeBackwards(from: t, to: r.t))
        }
        return nil
    }

    private func countUnknown(_ type: String) {
        var name = type
        if name.utf8.count > Self.maxUnknownTypeName {
            name = String(decoding: name.utf8.prefix(Self.maxUnknownTypeName), as: UTF8.self) + "…"
        }
        if unknownTypes[name] == nil && unknownTypes.count >= Self.maxUnknownTypeNames { name = Self.otherUnknownTypes }
        unknownTypes[name, default: 0] += 1
    }

    private func endProblem() -> TraceProblem? {
        if recordCount == 0 && problems.isEmpty {
            return TraceProblem(.empty, file: file, message: ReadWords.empty)
        }
        if source.stats.hasStartMark && !source.stats.endsWithEndMark {
            return TraceProblem(.notClosed, file: file, offset: source.stats.compressedBytes,
                message: ReadWords.notClosed)
        }
        if source.stats.endsWithEndMark, let marked = source.stats.endMarkLastSeq, marked != (lastSeq ?? -1) {
            return TraceProblem(.notClosed, file: file, offset: source.stats.compressedBytes,
                message: ReadWords.endMarkDisagrees(marked: marked, last: lastSeq))
        }
        return nil
    }

    func remember(_ p: TraceProblem) -> TraceProblem {
        if problems.count < keepProblems { problems.append(p) }
        return p
    }
}
