import SystemLayer
import TraceModel

extension TraceReader {
    /// Events per batch handed from the reading thread to the caller's.
    static let pipelineBatch = 256
    /// Batches in flight between the two threads: the bound on what the reading thread runs ahead.
    static let pipelineDepth = 8
    /// The line bytes after which a batch is handed over however few events it holds, so that what runs
    /// ahead is bounded in bytes too (`pipelineDepth` batches of at most this plus one line): a trace of
    /// 15 MB log lines holds a few of them in flight, not 2,048.
    static let pipelineBatchBytes = 1 << 20

    /// Streams the rest of the trace like `forEach(record:problem:)`; with `pipelined`, reading,
    /// decompressing and decoding run on a thread of their own, a bounded queue of event batches
    /// ahead of the caller, while `record` and `problem` run on the calling thread. The events and their
    /// order are the same either way: the reading thread runs the same sequential reader, and the queue
    /// only carries what it produced. Falls back to one thread when a thread cannot be started.
    /// Nothing else may use the reader until this returns.
    package func forEach(pipelined: Bool, record: (Record) throws -> Void, problem: (TraceProblem) throws -> Void) rethrows {
        guard pipelined else { return try forEach(record: record, problem: problem) }
        let pipe = BatchPipe<[TraceEvent]>(depth: Self.pipelineDepth)
        let me = UncheckedReader(reader: self)
        guard let thread = JoinableThread({ me.reader.produce(into: pipe) }) else {
            return try forEach(record: record, problem: problem)
        }
        defer {
            pipe.cancel()
            thread.join()
        }
        var batch: [TraceEvent] = []
        while pipe.take(&batch) {
            for e in batch {
                switch e {
                case .record(let r): try record(r)
                case .problem(let p): try problem(p)
                }
            }
        }
    }

    /// Streams the rest of the trace for a replay, in batches (`RecordBatch`): a line of a high-rate type in
    /// canonical order becomes a replay record with its fields, every other line (and, with `whole`, every
    /// line) is decoded whole; problems come in the batch before the record they are reported before. With
    /// `pipelined`, the frames of a zstd trace are decompressed and decoded on two threads of their own
    /// while this one checks their order and replays (`readOnTwoCores`), and from anything that is not a
    /// whole, ordinary frame on, reading, decompressing and decoding run on one thread of their own, a
    /// bounded queue of batches ahead of the caller; the records and problems are what the one-thread read
    /// gives, in the same order (the batches may be cut elsewhere). `batch` may keep nothing of a batch past
    /// its return (its storage is reused).
    package func forEachBatch(pipelined: Bool, whole: Bool = false, _ batch: (inout RecordBatch) throws -> Void) rethrows {
        compacting = !whole
        defer { compacting = false }
        if pipelined { try readOnTwoCores(batch) }
        guard pipelined else {
            var more = true
            while more {
                filling.removeAll()
                more = fill()
                if !filling.isEmpty { try batch(&filling) }
            }
            return
        }
        let pipe = BatchPipe<RecordBatch>(depth: Self.pipelineDepth)
        let me = UncheckedReader(reader: self)
        guard let thread = JoinableThread({ me.reader.produceBatches(into: pipe) }) else {
            var more = true
            while more {
                filling.removeAll()
                more = fill()
                if !filling.isEmpty { try batch(&filling) }
            }
            return
        }
        defer {
            pipe.cancel()
            thread.join()
        }
        var taken = RecordBatch()
        while pipe.take(&taken) { try batch(&taken) }
    }

    /// Fills `filling` with up to a batch of records (and the problems among them); false at the end of the
    /// trace. A batch ends only where no event waits behind a problem, so that every record's side data is in
    /// the batch of the record.
    private func fill() -> Bool {
        filling.removeAll()
        while true {
            switch fillInOrder(batchRecords: Self.pipelineBatch, batchBytes: Self.pipelineBatchBytes) {
            case .full:
                return true
            case .line(let range):
                guard deliver(range, record: { filling.append(whole: $0) }, compact: { filling.records.append($0) },
                              skimmed: { _ in }, problem: { filling.append($0) }, compacting: false) else { continue }
            case .taken(let handedOn):
                guard handedOn else { continue }
            case .none:
                guard pull(record: { filling.append(whole: $0) }, compact: { filling.records.append($0) },
                           skimmed: { _ in }, problem: { filling.append($0) }) else { return false }
            }
            if !hasQueuedEvents, filling.records.count >= Self.pipelineBatch || filling.weight >= Self.pipelineBatchBytes {
                return true
            }
        }
    }

    /// The reading thread's loop for `forEachBatch`.
    private func produceBatches(into pipe: BatchPipe<RecordBatch>) {
        var more = true
        while more {
            more = fill()
            if !filling.isEmpty {
                guard pipe.put(&filling) else { return }
            }
        }
        pipe.finish()
    }

    /// The reading thread's loop: batches of events into `pipe` until the trace ends or the caller stops.
    private func produce(into pipe: BatchPipe<[TraceEvent]>) {
        var batch: [TraceEvent] = []
        batch.reserveCapacity(Self.pipelineBatch)
        var more = true
        var bytes = 0
        while more {
            more = pull(record: { batch.append(.record($0)) }, compact: { _ in }, skimmed: { _ in }, problem: { batch.append(.problem($0)) })
            bytes += currentLineBytes
            if batch.count >= Self.pipelineBatch || bytes >= Self.pipelineBatchBytes || (!more && !batch.isEmpty) {
                guard pipe.put(&batch) else { return }
                bytes = 0
            }
        }
        pipe.finish()
    }
}

/// The reader, handed to its own thread: only that thread uses it until the caller joins it.
private struct UncheckedReader: @unchecked Sendable {
    let reader: TraceReader
}

/// What a pipe carries: a batch that can be emptied for reuse.
protocol PipeBatch {
    init()
    mutating func removeAll()
}

extension Array: PipeBatch {
    mutating func removeAll() { removeAll(keepingCapacity: true) }
}

extension RecordBatch: PipeBatch {}

/// A bounded queue of batches between the reading thread and the replaying one. Batches are swapped in
/// and out, so their storage is reused and nothing is allocated per batch once both threads are running.
final class BatchPipe<Batch: PipeBatch>: @unchecked Sendable {
    private let lock = ConditionLock(conditions: 2)
    private let filled = 0, emptied = 1
    private var slots: [Batch]
    private var head = 0, count = 0
    private var done = false, cancelled = false

    init(depth: Int) {
        slots = (0..<max(depth, 1)).map { _ in Batch() }
    }

    /// Hands `batch` over (waiting while the queue is full) and gives back an empty one to fill; false when
    /// the consumer has stopped.
    func put(_ batch: inout Batch) -> Bool {
        lock.withLock {
            while count == slots.count && !cancelled { lock.wait(emptied) }
            guard !cancelled else { return false }
            let i = (head + count) % slots.count
            swap(&slots[i], &batch)
            batch.removeAll()
            count += 1
            if count == 1 { lock.signal(filled) }
            return true
        }
    }

    /// The reading thread is done: no more batches.
    func finish() {
        lock.withLock {
            done = true
            lock.signal(filled)
        }
    }

    /// The next batch into `batch` (its old contents recycled); false once every batch is taken and the
    /// reading thread has finished.
    func take(_ batch: inout Batch) -> Bool {
        lock.withLock {
            while count == 0 && !done { lock.wait(filled) }
            guard count > 0 else { return false }
            batch.removeAll()
            swap(&slots[head], &batch)
            head = (head + 1) % slots.count
            count -= 1
            if count == slots.count - 1 { lock.signal(emptied) }
            return true
        }
    }

    /// The consumer stops (at the end, or on an error): a waiting reading thread returns.
    func cancel() {
        lock.withLock {
            cancelled = true
            lock.broadcast(emptied)
        }
    }
}
