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

/// Two threads that read a trace's frames apart: by turns, one of them splits the input into frames or checks
/// the order of decoded frames, in file order (`FrameFeed`: the reader's input and its order state, one
/// thread at a time), while the other decompresses and decodes; the reader's thread only waits for each
/// checked frame in number order and hands its batch on. A frame's slot is split into again once the reader
/// has handed its batch on, so nothing is allocated per frame once all are in use.
final class FrameWorkers: @unchecked Sendable {
    /// Frames split but not yet handed on, at most.
    static let depth = 4
    /// Condition `work`: workers wait for something to do; `ready`: the reader waits for a checked frame.
    private let lock = ConditionLock(conditions: 2)
    private let work = 0, ready = 1
    private let jobs: [FrameJob]
    private let feed: FrameFeed
    /// Whether each slot's frame is decoded.
    private var done: [Bool]
    /// Frames split, claimed for decoding, checked in order, and handed on by the reader.
    private var submitted = 0, claimed = 0, checked = 0, released = 0
    /// Whether a worker holds the feed (splitting, checking or finishing): one at a time, in file order.
    private var feeding = false
    /// Whether the feed may be used: set once every worker has started, so a pool that fails to start has
    /// read nothing.
    private var started = false
    /// Whether more frames may be split; blocked: the input buffer is full until a frame is checked.
    private var splitting = true, blocked = false
    /// Nothing more to check: a frame the sequential reader must read, or the end of the frames split.
    private var over = false
    private var stopping = false
    private var threads: [JoinableThread] = []

    /// Starts `count` workers over `feed`; nil when a context or a thread cannot be had (nothing has been
    /// read then: the reader reads alone).
    init?(count: Int, reading: FrameReading, feed: FrameFeed) {
        jobs = (0..<Self.depth).map { _ in FrameJob() }
        done = Array(repeating: false, count: Self.depth)
        self.feed = feed
        for _ in 0..<count {
            guard let worker = try? FrameWorker(reading) else { stop(); return nil }
            let me = UncheckedWorker(worker: worker, pool: self)
            guard let thread = JoinableThread({ me.pool.run(me.worker) }) else { stop(); return nil }
            threads.append(thread)
        }
        lock.withLock {
            started = true
            lock.broadcast(work)
        }
    }

    deinit { stop() }

    /// Waits until frame `n` is checked and returns its job, for the reader to hand its batch on (and then
    /// `release`); nil when no frame `n` will be: the frames read apart end before it.
    func checkedJob(_ n: Int) -> FrameJob? {
        lock.withLock {
            while checked <= n && !over { lock.wait(ready) }
            return checked > n ? jobs[n % Self.depth] : nil
        }
    }

    /// The reader has handed frame `released`'s batch on: its slot may be split into again. Workers waiting
    /// for a slot are woken once two are free, not at every one (a wake is a system call on this thread).
    func release() {
        lock.withLock {
            released += 1
            if submitted - released == Self.depth - 2 { lock.broadcast(work) }
        }
    }

    /// Stops the workers (what one is doing is finished first) and waits for them.
    func stop() {
        lock.withLock {
            stopping = true
            lock.broadcast(work)
        }
        for t in threads { t.join() }
        threads.removeAll()
    }

    private enum Task { case check(Int), finish, split(Int), decode(Int) }

    /// What a worker does next, waiting until there is something: the feed's work first (checking the next
    /// frame keeps the reader fed; splitting keeps the workers fed), else decoding.
    private func next() -> Task? {
        lock.withLock {
            while true {
                if stopping { return nil }
                if started && !feeding && !over {
                    if checked < submitted && done[checked % Self.depth] {
                        feeding = true
                        return .check(checked)
                    }
                    if !splitting && checked == submitted {
                        feeding = true
                        return .finish
                    }
                    if splitting && !blocked && submitted - released < Self.depth {
                        feeding = true
                        return .split(submitted)
                    }
                }
                if claimed < submitted {
                    claimed += 1
                    return .decode(claimed - 1)
                }
                lock.wait(work)
            }
        }
    }

    private func run(_ worker: FrameWorker) {
        while let task = next() {
            switch task {
            case .check(let n):
                let ok = feed.check(jobs[n % Self.depth])
                lock.withLock {
                    feeding = false
                    if ok {
                        checked += 1
                        blocked = false
                    } else {
                        over = true
                    }
                    lock.signal(ready)
                    lock.broadcast(work)
                }
            case .finish:
                feed.finish()
                lock.withLock {
                    feeding = false
                    over = true
                    lock.signal(ready)
                }
            case .split(let n):
                let split = feed.split(into: jobs[n % Self.depth])
                lock.withLock {
                    feeding = false
                    switch split {
                    case .frame:
                        done[n % Self.depth] = false
                        submitted += 1
                    case .noRoom: blocked = true
                    case .end: splitting = false
                    }
                    lock.broadcast(work)
                }
            case .decode(let n):
                worker.run(jobs[n % Self.depth])
                lock.withLock {
                    done[n % Self.depth] = true
                    lock.broadcast(work)
                }
            }
        }
    }
}

/// A worker and its pool, handed to the worker's thread: only that thread uses the worker.
private struct UncheckedWorker: @unchecked Sendable {
    let worker: FrameWorker
    let pool: FrameWorkers
}
