import TraceModel

/// The read of a replay on two cores. zstd frames are independent, so whole frames of a small declared
/// window are decompressed and decoded by two workers, which also split the input into frames and check
/// each frame's batch in file order (seq, time and the header, as the sequential read does, adding its
/// problems where it adds them), while this thread hands the checked batches on in file order. Whatever is
/// not a whole, ordinary frame (damage, a torn tail, a large window, a frame over the hold or line limits)
/// ends it: the sequential reader resumes at that frame with everything before it counted, and reads it,
/// and the rest, as it always does. So the records, the problems and their order are those of the
/// one-thread read, whatever the timing.
extension TraceReader {
    /// The largest declared window, compressed size and decoded size of a frame read apart: what a reader
    /// may hold without the decompression gate. The writer's frames (1,024 records, 2 MiB at most) fit.
    static let frameApartBytes = DecompressionGate.lightBytes
    /// Workers decoding frames.
    static let frameWorkers = 2

    /// Reads from the start of the trace on two cores, handing batches to `batch` in order, until the end
    /// or until something only the sequential reader reads; the reader is then left where it stopped.
    /// Does nothing when the trace is not zstd, has been read from already, or the workers cannot start.
    /// The splitting into frames and the order checks run on the workers (`FrameFeed`), so this thread only
    /// hands the checked batches on.
    func readOnTwoCores(_ batch: (inout RecordBatch) throws -> Void) rethrows {
        // Whether the trace is zstd is found by the workers too (`FrameFeed.split`): it reads the first input.
        guard recordCount == 0, problems.isEmpty, !hasQueuedEvents, pendingLoss.isEmpty, source.mode == .detect else { return }
        let reading = FrameReading(limits: source.limits, compacting: compacting, keptStringBytes: keptStringBytes,
                                   maxFrameBytes: Self.frameApartBytes)
        guard let workers = FrameWorkers(count: Self.frameWorkers, reading: reading, feed: FrameFeed(self)) else { return }
        defer { workers.stop() }
        var n = 0
        while let job = workers.checkedJob(n) {
            if !job.batch.isEmpty { try batch(&job.batch) }
            workers.release()
            n += 1
        }
    }

    /// Checks a frame's records in order as `deliver` does (seq, time, header, undecodable lines, with the
    /// line numbers the sequential read gives them) and adds the problems before their records.
    fileprivate func checkOrder(_ job: FrameJob) {
        let base = source.lineNumber
        var b = 0
        func undecodable(_ k: Int) {
            let (before, line, e) = job.bad[k]
            // A record that is there but unreadable is reported once, not again as a gap.
            if let s = e.seq, s == (lastSeq ?? -1) + 1 { lastSeq = s }
            job.batch.problems.append((before, remember(TraceProblem(.badRecord, file: file, seq: e.seq, line: base + Int(line),
                                                                     field: e.field, message: e.reason))))
        }
        for i in job.batch.records.indices {
            while b < job.bad.count, job.bad[b].before <= i {
                undecodable(b)
                b += 1
            }
            let r = job.batch.records[i]
            // A replay record continuing the seq, its time not going back: all `accept` would do is count it.
            if !r.hasFull, sawRecord, let last = lastSeq, r.seq == last &+ 1, let before = lastT, r.t >= before {
                recordCount += 1
                lastSeq = r.seq
                lastT = r.t
                continue
            }
            source.lineNumber = base + Int(job.recordLines[i])
            let problem: TraceProblem?
            if r.hasFull {
                let whole = job.batch.full[Int(r.full)]
                problem = accept(seq: whole.seq, t: whole.t, body: whole.body, type: whole.type, gapExplained: false, late: whole.late)
            } else {
                problem = accept(seq: r.seq, t: r.t, body: nil, type: r.kind?.rawValue ?? "", gapExplained: false)
            }
            if let problem { job.batch.problems.append((i, remember(problem))) }
        }
        while b < job.bad.count {
            undecodable(b)
            b += 1
        }
        source.lineNumber = base + job.lines
        clippedRecords += job.clipped
    }
}

/// The reader's side of a read on two cores, used by one worker at a time in file order (`FrameWorkers`):
/// it splits the input into frames ahead of the frames handed on, and checks each decoded frame's order
/// as the sequential read does, handing on the skippable frames between them. What it reads and changes
/// is the reader's (its input, seq, time, header, problems), which no other thread touches meanwhile.
final class FrameFeed {
    private let reader: TraceReader
    private var source: LineSource { reader.source }
    /// Frames split and not yet handed on, in file order, from `head`.
    private var items: [FrameSplit] = []
    private var head = 0
    /// Where the next frame to split starts.
    private var ahead = 0
    /// Whether the container is known to be zstd, read from the start (`LineSource.canSplit`).
    private var detected = false

    init(_ reader: TraceReader) {
        self.reader = reader
    }

    /// What `split` found.
    enum Split { case frame, noRoom, end }

    /// Splits the next data frame into `job` (its compressed bytes), queueing the skippable frames before
    /// it; `.noRoom` while the input buffer is full of frames not yet handed on, `.end` at anything only the
    /// sequential reader reads.
    func split(into job: FrameJob) -> Split {
        if !detected {
            detected = true
            guard source.canSplit() else { return .end }
            ahead = source.inAbs
        }
        while true {
            let split = source.splitFrame(at: ahead, maxBytes: TraceReader.frameApartBytes)
            switch split {
            case let .data(start, end, _):
                job.compressed.removeAll(keepingCapacity: true)
                job.compressed.append(contentsOf: source.inBuf[(start - source.inStart)..<(end - source.inStart)])
                items.append(split)
                ahead = end
                return .frame
            case let .skippable(_, end, _):
                items.append(split)
                ahead = end
            case .noRoom:
                // Only skippable frames fill the buffer: every frame before them is checked, so they can go.
                guard !items[head...].contains(where: { if case .data = $0 { true } else { false } }) else { return .noRoom }
                handOnSkippable()
            case .stop:
                return .end
            }
        }
    }

    /// Hands on the skippable frames before the next data frame, then checks that frame's batch (`job`);
    /// false when the sequential reader must read it (and everything after it).
    func check(_ job: FrameJob) -> Bool {
        handOnSkippable()
        let item = items[head]
        head += 1
        // What the sequential reader reads differently, it reads from this frame on.
        guard job.clean, !(job.tarLike && source.stats.rawBytes == 0) else { return false }
        source.handOn(item, produced: job.produced)
        reader.framesReadApart += 1
        reader.checkOrder(job)
        return true
    }

    /// The frames split are all checked and there are no more: hands on the skippable frames after them.
    func finish() { handOnSkippable() }

    private func handOnSkippable() {
        while head < items.count, case .skippable = items[head] {
            source.handOn(items[head])
            head += 1
        }
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        }
    }
}
