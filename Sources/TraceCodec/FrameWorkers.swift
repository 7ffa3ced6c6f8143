import SystemLayer
import TraceModel

/// One whole zstd frame handed to a worker, and what the worker made of it: its lines decoded into a batch
/// as `TraceReader.deliver` decodes them, with nothing checked that depends on the frames before it (seq,
/// time, the header: the reader checks those in order as it hands the batch on).
final class FrameJob {
    /// The frame's compressed bytes.
    var compressed: [UInt8] = []
    /// Whether the worker read it as the sequential reader would without a problem: decoded whole, its
    /// checksum verified, its lines ending with it and within the limits. Otherwise the sequential reader
    /// reads it (and everything after it).
    var clean = false
    /// Its decoded size.
    var produced = 0
    /// Whether its decoded bytes begin with a tar header (what the reader refuses in a first frame).
    var tarLike = false
    /// Its lines, blank ones included.
    var lines = 0
    /// Its records, in order; their problems are added by the reader.
    var batch = RecordBatch()
    /// The line within the frame (from 1) of each record.
    var recordLines: [Int32] = []
    /// Lines that did not decode: before which record, their line within the frame, and why.
    var bad: [(before: Int, line: Int32, error: RecordDecodeError)] = []
    /// Records whose strings were clipped to what a replay keeps.
    var clipped = 0

    func reset() {
        clean = false
        produced = 0
        tarLike = false
        lines = 0
        batch.removeAll()
        recordLines.removeAll(keepingCapacity: true)
        bad.removeAll(keepingCapacity: true)
        clipped = 0
    }
}

/// How the workers read a frame's lines: what the reader's `deliver` is told for a replay.
struct FrameReading: Sendable {
    var limits: ReaderLimits
    /// Lines of the high-rate types become replay records (false: every line is decoded whole).
    var compacting: Bool
    var keptStringBytes: Int?
    /// The largest window, compressed size and decoded size of a frame read apart.
    var maxFrameBytes: Int
}

/// A worker's own decompression context, output buffer and decoder (a thread uses only its own).
final class FrameWorker {
    private let dctx: ZstdDecompressor
    private let output: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private let decoder = RecordDecoder()
    private let reading: FrameReading

    init(_ reading: FrameReading) throws {
        self.reading = reading
        // Never more window than a frame read apart may declare: zstd refuses a larger one unallocated.
        var log: Int32 = 10
        while (1 << log) < reading.maxFrameBytes { log += 1 }
        dctx = try ZstdDecompressor(maxWindowLog: min(log, reading.limits.maxWindowLog))
        capacity = reading.maxFrameBytes
        output = .allocate(capacity: capacity)
    }

    deinit { output.deallocate() }

    /// Decompresses and decodes `job`'s frame into its batch.
    func run(_ job: FrameJob) {
        job.reset()
        dctx.reset()
        var consumed = 0, produced = 0, ended = false
        let ok: Bool = job.compressed.withUnsafeBytes { src in
            while !ended && produced < capacity {
                guard let r = try? dctx.decompress(UnsafeRawBufferPointer(rebasing: src[consumed...]),
                                                   into: UnsafeMutableRawBufferPointer(start: output + produced, count: capacity - produced)) else { return false }
                consumed += r.consumed
                produced += r.produced
                ended = r.frameEnded
                if r.consumed == 0 && r.produced == 0 && !ended { return false }
            }
            return ended && consumed == src.count
        }
        // A frame over the hold limit is released line by line before its checksum by the sequential reader.
        guard ok, produced <= reading.limits.holdBytes, produced == 0 || output[produced - 1] == 0x0A else { return }
        job.produced = produced
        job.tarLike = produced >= 262 && ContainerKind.isTarHeader(UnsafeBufferPointer(start: output, count: produced))
        var pos = 0
        while pos < produced {
            let nl = Memory.firstAddress(of: 0x0A, in: output + pos, count: produced - pos).map { $0 - UnsafeRawPointer(output) } ?? produced
            let line = UnsafeBufferPointer(start: output + pos, count: nl - pos)
            pos = nl + 1
            job.lines += 1
            guard line.count <= reading.limits.maxLineBytes else { return }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            decode(line, number: Int32(job.lines), into: job)
        }
        job.clean = true
    }

    /// One line, as `TraceReader.deliver` decodes it.
    @inline(__always)
    private func decode(_ line: UnsafeBufferPointer<UInt8>, number: Int32, into job: FrameJob) {
        if reading.compacting, reading.keptStringBytes.map({ line.count <= $0 }) ?? true,
           let r = decoder.decodeCompact(line, into: &job.batch), r.kind != nil {
            job.batch.records.append(r)
            job.recordLines.append(number)
            return
        }
        do {
            var record = try decoder.decode(line, lineNumber: Int(number))
            if let cap = reading.keptStringBytes, line.count > cap, let clipped = record.clipped(to: cap) {
                record = clipped
                job.clipped += 1
            }
            job.batch.append(whole: record)
            job.recordLines.append(number)
        } catch let e {
            job.bad.append((job.batch.records.count, number, e))
        }
    }
}

/// Two threads decompressing and decoding frames while the reader's thread hands them on in order: jobs
/// are numbered, taken by whichever worker is free, and waited for in number order. A job's slot is the
/// reader's again once it has handed its batch on, so nothing is allocated per frame once all are in use.
final class FrameWorkers: @unchecked Sendable {
    /// Frames split but not yet handed on, at most.
    static let depth = 4
    private let lock = ConditionLock(conditions: 2)
    private let queued = 0, finished = 1
    private let jobs: [FrameJob]
    private var done: [Bool]
    private var submitted = 0, claimed = 0
    private var stopping = false
    private var threads: [JoinableThread] = []

    /// Starts `count` workers; nil when a context or a thread cannot be had (the reader then reads alone).
    init?(count: Int, reading: FrameReading) {
        jobs = (0..<Self.depth).map { _ in FrameJob() }
        done = Array(repeating: false, count: Self.depth)
        for _ in 0..<count {
            guard let worker = try? FrameWorker(reading) else { stop(); return nil }
            let me = UncheckedWorker(worker: worker, pool: self)
            guard let thread = JoinableThread({ me.pool.work(me.worker) }) else { stop(); return nil }
            threads.append(thread)
        }
    }

    deinit { stop() }

    /// The slot of job `n`, for the reader to fill before `submit` and to read after `wait`.
    func job(_ n: Int) -> FrameJob { jobs[n % Self.depth] }

    /// Hands job `submitted` (filled in its slot) to the workers.
    func submit() {
        lock.withLock {
            done[submitted % Self.depth] = false
            submitted += 1
            lock.signal(queued)
        }
    }

    /// Waits until job `n` is done.
    func wait(_ n: Int) {
        lock.withLock {
            while !done[n % Self.depth] { lock.wait(finished) }
        }
    }

    /// Stops the workers (a job under way is finished first) and waits for them.
    func stop() {
        lock.withLock {
            stopping = true
            lock.broadcast(queued)
        }
        for t in threads { t.join() }
        threads.removeAll()
    }

    private func work(_ worker: FrameWorker) {
        while true {
            let n: Int? = lock.withLock {
                while claimed == submitted && !stopping { lock.wait(queued) }
                guard !stopping else { return nil }
                claimed += 1
                return claimed - 1
            }
            guard let n else { return }
            worker.run(jobs[n % Self.depth])
            lock.withLock {
                done[n % Self.depth] = true
                lock.broadcast(finished)
            }
        }
    }
}

/// A worker and its pool, handed to the worker's thread: only that thread uses the worker.
private struct UncheckedWorker: @unchecked Sendable {
    let worker: FrameWorker
    let pool: FrameWorkers
}
