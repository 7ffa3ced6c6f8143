import Glibc

/// Appends records to a trace: JSON Lines in checksummed zstd frames, never rewriting earlier bytes.
///
/// This is what a recorder embeds. A frame is flushed when `frameRecords` records or
/// `frameBytes` bytes are buffered, or on `flush()`; `close()` flushes and writes the end mark.
/// Records buffered but not flushed are lost if the process dies: the flush size is the
/// trade-off between compression and data lost on a crash (see docs/performance.md).
public final class TraceWriter {
    /// Writer settings.
    public struct Options: Sendable {
        /// Records per frame before a flush.
        public var frameRecords: Int
        /// Buffered bytes before a flush.
        public var frameBytes: Int
        /// zstd compression level.
        public var level: Int32
        /// Hold an exclusive advisory lock on the file while open (refuses a second appender).
        public var lock: Bool

        /// Creates options; the defaults are tuned in docs/performance.md.
        public init(frameRecords: Int = 16_384, frameBytes: Int = 2 << 20, level: Int32 = 9, lock: Bool = true) {
            self.frameRecords = frameRecords
            self.frameBytes = frameBytes
            self.level = level
            self.lock = lock
        }
    }

    /// What opening an existing trace found and repaired.
    public struct OpenReport: Sendable {
        /// Records already in the trace.
        public var existingRecords = 0
        /// Bytes cut off the end (a torn final frame or stray bytes).
        public var truncatedBytes = 0
        /// Complete lines rescued from the torn frame and rewritten as a new frame.
        public var rescuedLines = 0
        /// Problems found in the existing trace.
        public var problems: [TraceProblem] = []
    }

    /// The path written.
    public let path: String
    /// The seq the next record must carry.
    public private(set) var nextSeq: Int
    /// The `t` of the last record appended (records must not go back in time).
    public private(set) var lastT: Int64
    /// What opening found.
    public let openReport: OpenReport

    private let options: Options
    private let fd: Int32
    private let compressor: ZstdCompressor
    private var buffer: [UInt8] = []
    private var buffered = 0
    private var writer = JSONWriter(reserving: 512)
    private var closed = false
    /// Bytes written to the file so far (its size).
    public private(set) var fileSize: Int

    /// Creates a new trace, or opens an existing one to append (repairing a torn tail first).
    public init(path: String, options: Options = Options(), create: Bool = true) throws {
        self.path = path
        self.options = options
        compressor = try ZstdCompressor(level: options.level)
        var report = OpenReport()
        let existing = access(path, F_OK) == 0
        if !existing && !create { throw FileError(path: path, message: "no such trace") }
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError.errno(path, "cannot open for writing") }
        if options.lock && flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let err = Glibc.errno
            Glibc.close(fd)
            if err == EWOULDBLOCK {
                throw FileError(path: path, message: "another writer is appending to this trace (it holds the lock); refusing to interleave")
            }
            throw FileError(path: path, message: "cannot lock: \(String(cString: strerror(err)))")
        }
        var st = stat()
        fstat(fd, &st)
        fileSize = Int(st.st_size)
        nextSeq = 0
        lastT = 0
        buffer.reserveCapacity(options.frameBytes + 4096)
        if fileSize == 0 {
            openReport = report
            try writeAll(TraceMark.start.frame)
            return
        }
        // Recover what the trace holds, then cut a torn tail and rewrite its complete lines.
        let scan = try Self.scanTail(path: path)
        report.existingRecords = scan.records
        report.problems = scan.problems
        nextSeq = scan.lastSeq.map { $0 + 1 } ?? 0
        lastT = scan.lastT ?? 0
        if scan.validEnd < fileSize {
            report.truncatedBytes = fileSize - scan.validEnd
            guard ftruncate(fd, off_t(scan.validEnd)) == 0 else { throw FileError.errno(path, "cannot cut the torn tail") }
            fileSize = scan.validEnd
        }
        report.rescuedLines = scan.rescued.count
        openReport = report
        _ = lseek(fd, 0, SEEK_END)
        if !scan.rescued.isEmpty {
            for line in scan.rescued { buffer += line; buffer.append(0x0A) }
            buffered = scan.rescued.count
            try flush()
        }
    }

    deinit {
        if !closed { try? close() }
    }

    /// Appends a record; its seq must be `nextSeq` and its `t` not before the last one.
    public func append(_ record: Record) throws {
        guard record.seq == nextSeq else {
            throw WriteError.badSeq(path: path, expected: nextSeq, got: record.seq)
        }
        writer.reset()
        record.encode(into: &writer)
        try appendLine(writer.bytes, t: record.t)
    }

    /// Appends a record with the next seq.
    public func append(t: Int64, _ body: RecordBody) throws {
        try append(Record(seq: nextSeq, t: t, body))
    }

    /// Appends an already encoded, already validated JSON line (no newline) whose seq is `nextSeq`.
    public func appendLine(_ line: some Collection<UInt8>, t: Int64) throws {
        guard !closed else { throw WriteError.closed(path: path) }
        guard t >= lastT || nextSeq == 0 else { throw WriteError.timeBackwards(path: path, seq: nextSeq, last: lastT, t: t) }
        buffer.append(contentsOf: line)
        buffer.append(0x0A)
        buffered += 1
        nextSeq += 1
        lastT = t
        if buffered >= options.frameRecords || buffer.count >= options.frameBytes { try flush() }
    }

    /// Writes the buffered records as one frame.
    public func flush() throws {
        guard buffered > 0 else { return }
        let frame = try buffer.withUnsafeBytes { try compressor.frame($0) }
        try frame.withUnsafeBytes { try writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
        buffered = 0
    }

    /// Flushes, writes the end mark and closes the file.
    public func close() throws {
        guard !closed else { return }
        defer {
            closed = true
            Glibc.close(fd)
        }
        try flush()
        try writeAll(TraceMark.end(lastSeq: Int64(nextSeq - 1)).frame)
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try writeAll($0) }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var off = 0
        while off < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + off, bytes.count - off)
            if n < 0 {
                if Glibc.errno == EINTR { continue }
                throw FileError.errno(path, "write failed after \(fileSize) bytes")
            }
            off += n
            fileSize += n
        }
    }

    struct TailScan {
        var records = 0
        var lastSeq: Int?
        var lastT: Int64?
        var validEnd = 0
        var rescued: [[UInt8]] = []
        var problems: [TraceProblem] = []
    }

    /// Reads an existing trace to find where its intact part ends and which lines a torn tail still holds.
    static func scanTail(path: String) throws -> TailScan {
        var scan = TailScan()
        let reader = try TraceReader(path: path)
        var cutAt: Int?
        var recordsSinceProblem = 0
        while let e = reader.next() {
            switch e {
            case .record(let r):
                scan.records += 1
                scan.lastSeq = r.seq
                scan.lastT = r.t
                recordsSinceProblem += 1
                if reader.currentFrameIsTorn { scan.rescued.append(reader.withCurrentLine { Array($0) }) }
            case .problem(let p):
                switch p.kind {
                case .tornFrame, .garbage, .badFrame, .windowTooLarge:
                    // Damage with nothing readable after it is a tail to cut; damage in the middle stays.
                    cutAt = p.offset
                    recordsSinceProblem = 0
                default: break
                }
                if p.kind != .notClosed { scan.problems.append(p) }
            }
        }
        if recordsSinceProblem > 0 { cutAt = nil }
        guard reader.stats.compressed else {
            throw FileError(path: path, message: "is plain JSON Lines, not a zstd trace; convert it with 'rtctrace record'")
        }
        scan.validEnd = cutAt ?? reader.stats.compressedBytes
        return scan
    }
}

/// A record the writer refuses.
public enum WriteError: Error, Equatable, CustomStringConvertible {
    /// The record's seq is not the next one.
    case badSeq(path: String, expected: Int, got: Int)
    /// The record's t is before the previous record's.
    case timeBackwards(path: String, seq: Int, last: Int64, t: Int64)
    /// The writer was closed.
    case closed(path: String)

    /// A message naming the file and seq.
    public var description: String {
        switch self {
        case .badSeq(let path, let expected, let got):
            "\(path): seq \(got): field 'seq': expected \(expected) (seq must continue the trace by 1; use --renumber to assign seqs)"
        case .timeBackwards(let path, let seq, let last, let t):
            "\(path): seq \(seq): field 't': \(t) ms is before the previous record's \(last) ms"
        case .closed(let path): "\(path): the writer is closed"
        }
    }
}
