import TraceModel

/// The read of a replay on two cores. zstd frames are independent, so whole frames of a small declared
/// window are decompressed and decoded by two workers while this thread splits the input into frames and
/// hands the frames' batches on in file order, checking seq, time and the header as the sequential read does
/// and adding its problems where it adds them. Whatever is not a whole, ordinary frame (damage, a torn
/// tail, a large window, a frame over the hold or line limits) ends it: the sequential reader resumes at
/// that frame with everything before it counted, and reads it, and the rest, as it always does. So the
/// records, the problems and their order are those of the one-thread read, whatever the timing.
extension TraceReader {
    /// The largest declared window, compressed size and decoded size of a frame read apart: what a reader
    /// may hold without the decompression gate. The writer's frames (1,024 records, 2 MiB at most) fit.
    static let frameApartBytes = DecompressionGate.lightBytes
    /// Workers decoding frames.
    static let frameWorkers = 2

    /// Reads from the start of the trace on two cores, handing batches to `batch` in order, until the end
    /// or until something only the sequential reader reads; the reader is then left where it stopped.
    /// Does nothing when the trace is not zstd, has been read from already, or the workers cannot start.
    func readOnTwoCores(_ batch: (inout RecordBatch) throws -> Void) rethrows {
        guard recordCount == 0, problems.isEmpty, !hasQueuedEvents, pendingLoss.isEmpty, source.canSplit() else { return }
        let reading = FrameReading(limits: source.limits, compacting: compacting, keptStringBytes: keptStringBytes,
                                   maxFrameBytes: Self.frameApartBytes)
        guard let workers = FrameWorkers(count: Self.frameWorkers, reading: reading) else { return }
        defer { workers.stop() }
        var items: [FrameSplit] = []
        var head = 0
        var ahead = source.inAbs
        var submitted = 0, taken = 0
        var splitting = true
        reading: while true {
            splitting: while splitting && submitted - taken < FrameWorkers.depth {
                let split = source.splitFrame(at: ahead, maxBytes: Self.frameApartBytes)
                switch split {
                case let .data(start, end, _):
                    let job = workers.job(submitted)
                    job.compressed.removeAll(keepingCapacity: true)
                    job.compressed.append(contentsOf: source.inBuf[(start - source.inStart)..<(end - source.inStart)])
                    workers.submit()
                    submitted += 1
                    items.append(split)
                    ahead = end
                case let .skippable(_, end, _):
                    items.append(split)
                    ahead = end
                case .noRoom:
                    break splitting
                case .stop:
                    splitting = false
                }
            }
            guard head < items.count else { break reading }
            let item = items[head]
            head += 1
            if case .data = item {
                workers.wait(taken)
                let job = workers.job(taken)
                taken += 1
                // What the sequential reader reads differently, it reads from this frame on.
                guard job.clean, !(job.tarLike && source.stats.rawBytes == 0) else { break reading }
                source.handOn(item, produced: job.produced)
                framesReadApart += 1
                try handOn(job, batch)
            } else {
                source.handOn(item)
            }
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            }
        }
    }

    /// Checks a frame's records in order as `deliver` does (seq, time, header, undecodable lines, with the
    /// line numbers the sequential read gives them), adds the problems before their records, and hands the
    /// batch on.
    private func handOn(_ job: FrameJob, _ body: (inout RecordBatch) throws -> Void) rethrows {
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
        if !job.batch.isEmpty { try body(&job.batch) }
    }
}
