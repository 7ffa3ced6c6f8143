import SystemLayer
import TraceModel

/// Appends records to a trace: JSON Lines in checksummed zstd frames, never rewriting earlier bytes.
///
/// This is what a recorder embeds. A frame is flushed when `frameRecords` records or
/// `frameBytes` bytes are buffered, or on `flush()`; `close()` flushes and writes the end mark.
/// Records buffered but not flushed are lost if the process dies: the flush size is the
/// trade-off between compression and data lost on a crash (see docs/performance.md).
package final class TraceWriter {
    /// Writer settings.
    package struct Options: Sendable {
        /// Records per frame before a flush.
        package var frameRecords: Int
        /// Buffered bytes before a flush.
        package var frameBytes: Int
        /// zstd compression level 1–22; nil (the default) is the tuned setting for trace lines
        /// (`ZstdCompressor.tuned`: level 9's size within ~3 %, at ~1.4× its speed).
        package var level: Int32?
        /// Hold an exclusive advisory lock on the file while open (refuses a second appender).
        package var lock: Bool
        /// The seq of the first record of a new trace: 0, or where the previous part of a session
        /// stopped (a recorder that rotates files continues seq in the next part). An existing
        /// trace continues from its own last seq.
        package var firstSeq = 0

        /// Creates options; the defaults are tuned in docs/performance.md.
        package init(frameRecords: Int = 1024, frameBytes: Int = 2 << 20, level: Int32? = nil, lock: Bool = true) {
            self.frameRecords = frameRecords
            self.frameBytes = frameBytes
            self.level = level
            self.lock = lock
        }
    }

    /// What opening an existing trace found and repaired.
    package struct OpenReport: Sendable {
        /// Records already in the trace.
        package var existingRecords = 0
        /// Bytes cut off the end (a torn final frame or stray bytes).
        package var truncatedBytes = 0
        /// Complete lines rescued from the torn frame and rewritten as a new frame.
        package var rescuedLines = 0
        /// Problems found in the existing trace.
        package var problems: [TraceProblem] = []
    }

    /// The path written.
    package let path: String
    /// The seq the next record must carry.
    package private(set) var nextSeq: Int
    /// The `t` of the last record appended (records must not go back in time).
    package private(set) var lastT: Int64
    /// What opening found.
    package private(set) var openReport = OpenReport()

    private let options: Options
    private let file: OpenFile
    private let compressor: ZstdCompressor
    private var buffer: [UInt8] = []
    private var buffered = 0
    private var writer = JSONWriter(reserving: 512)
    private var closed = false
    /// Whether this writer began the trace and has not appended a record yet.
    private var empty = false
    /// Bytes written to the file so far (its size).
    package private(set) var fileSize: Int

    /// Creates a new trace, or opens an existing one to append (repairing a torn tail first).
    /// With `exclusive` the file must not exist yet (not even as a symbolic link): for the fresh
    /// temporary file of `AtomicFile.replace`.
    package init(path: String, options: Options = Options(), create: Bool = true, exclusive: Bool = false) throws {
        self.path = path
        self.options = options
        compressor = try ZstdCompressor(level: options.level)
        do {
            let flags: FileDescriptor.OpenOptions = exclusive ? [.create, .exclusive, .noFollow, .closeOnExec]
                : create ? [.create, .closeOnExec] : [.closeOnExec]
            file = try OpenFile(path, .readWrite, options: flags)
        } catch {
            if error.errno == .noSuchFile && !create { throw FileError(path: path, message: WriteWords.noSuchTrace) }
            throw FileError.system(path, WriteWords.cannotOpenForWriting, error)
        }
        nextSeq = 0
        lastT = 0
        fileSize = 0
        // From here on a failure must not let deinit's close() write an end mark to this file.
        do {
            if options.lock {
                let locked: Bool
                do { locked = try file.lock(.exclusive) } catch { throw FileError.system(path, "cannot lock", error) }
                guard locked else { throw TraceLock.heldError(path) }
            }
            do { fileSize = Int(try file.status().size) } catch { throw FileError.system(path, WriteWords.cannotReadTheSize, error) }
            try openExisting()
        } catch {
            closed = true
            try? file.close()
            throw error
        }
    }

    /// Starts a new trace, or recovers an existing one and positions at its end.
    private func openExisting() throws {
        var report = OpenReport()
        buffer.reserveCapacity(min(options.frameBytes, 64 << 20) + 4096)
        if fileSize > 0 && fileSize < TraceMark.start.frame.count && Self.isStartMarkPrefix(file, size: fileSize) {
            // A creator that died (or hit a full disk) inside the start mark: nothing was recorded yet.
            do { try file.truncate(to: 0) } catch { throw FileError.system(path, WriteWords.cannotCutTornStartMark, error) }
            report.truncatedBytes = fileSize
            fileSize = 0
        }
        if fileSize == 0 {
            openReport = report
            nextSeq = options.firstSeq
            empty = true
            try? file.seek(to: 0)
            try writeFrame(TraceMark.start.frame)
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
            do { try file.truncate(to: Int64(scan.validEnd)) } catch { throw FileError.system(path, WriteWords.cannotCutTornTail, error) }
            fileSize = scan.validEnd
        }
        report.rescuedLines = scan.rescued.count
        openReport = report
        _ = try? file.seekToEnd()
        if fileSize == 0 {
            // The whole file was a torn tail (e.g. a cut start mark): begin it again.
            try writeFrame(TraceMark.start.frame)
        }
        if !scan.rescued.isEmpty {
            for line in scan.rescued { buffer += line; buffer.append(0x0A) }
            buffered = scan.rescued.count
            try flush()
        }
    }

    deinit {
        if !closed { try? close() }
    }

    /// Makes every frame written so far durable (`fsync`): a power cut after this loses none of them.
    package func sync() throws {
        guard !closed else { throw WriteError.closed(path: path) }
        do { try file.sync() } catch where error.errno == .invalidArgument {
            // A descriptor that cannot be synced (a pipe, some special files) has nothing to lose.
        } catch { throw FileError.system(path, "fsync failed", error) }
    }

    /// Makes the trace this writer began, while it holds no record yet, start at `seq` instead of
    /// `Options.firstSeq`: where a continuation part starts is learned from its first record, so an input
    /// that can be read only once (a pipe) is never read ahead. Returns false, changing nothing, once a
    /// record was appended or when the trace existed before.
    @discardableResult
    package func begin(atSeq seq: Int) -> Bool {
        guard empty, seq >= 0 else { return false }
        nextSeq = seq
        return true
    }

    /// Appends a record; its seq must be `nextSeq` and its `t` not before the last one.
    package func append(_ record: Record) throws {
        guard record.seq == nextSeq else {
            throw WriteError.badSeq(path: path, expected: nextSeq, got: record.seq)
        }
        writer.reset()
        record.encode(into: &writer)
        try appendLine(writer.bytes, t: record.t, late: record.late)
    }

    /// Appends a record with the next seq.
    package func append(t: Int64, _ body: RecordBody) throws {
        try append(Record(seq: nextSeq, t: t, body))
    }

    /// Appends an already encoded, already validated JSON line (no newline) whose seq is `nextSeq`; `late`:
    /// the record is marked late, and may go back by up to the match window (`Record.lateWindow`).
    package func appendLine(_ line: some Collection<UInt8>, t: Int64, late: Bool = false) throws {
        guard !closed else { throw WriteError.closed(path: path) }
        guard t >= lastT || nextSeq == 0 || late && lastT - t <= Record.lateWindow else {
            throw WriteError.timeBackwards(path: path, seq: nextSeq, last: lastT, t: t)
        }
        buffer.append(contentsOf: line)
        buffer.append(0x0A)
        buffered += 1
        nextSeq += 1
        lastT = Swift.max(lastT, t)
        empty = false
        if buffered >= options.frameRecords || buffer.count >= options.frameBytes { try flush() }
    }

    /// Writes the buffered records as one frame.
    ///
    /// On a write error (a full disk) the partial frame is cut off again, so the file still ends
    /// with a complete frame, and the records stay buffered: a later `flush()` retries them.
    package func flush() throws {
        guard buffered > 0 else { return }
        guard !closed else { throw WriteError.closed(path: path) }
        let frame = try buffer.withUnsafeBytes { try compressor.frame($0) }
        try frame.withUnsafeBytes { try writeFrame($0) }
        buffer.removeAll(keepingCapacity: true)
        buffered = 0
    }

    /// Records appended but not yet written in a frame (lost if the process dies now).
    package var unflushedRecords: Int { buffered }

    /// Flushes, writes the end mark and closes the file.
    package func close() throws {
        guard !closed else { return }
        defer {
            closed = true
            try? file.close()
        }
        try flush()
        try writeFrame(TraceMark.end(lastSeq: Int64(nextSeq - 1)).frame)
    }

    private func writeFrame(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try writeFrame($0) }
    }

    /// Writes one whole frame, or, on failure, cuts its partial bytes off again and throws.
    private func writeFrame(_ bytes: UnsafeRawBufferPointer) throws {
        let start = fileSize
        var off = 0
        while off < bytes.count {
            var n = 0
            var failure: SystemError?
            do { n = try file.write(UnsafeRawBufferPointer(rebasing: bytes[off...])) } catch { failure = error }
            if n <= 0 {
                let err = failure.map { FileError.system(path, WriteWords.writeFailed(after: start), $0) } ??
                    FileError(path: path, message: WriteWords.noMoreBytesAccepted(after: start))
                if off > 0 {
                    if (try? file.truncate(to: Int64(start))) != nil && (try? file.seek(to: Int64(start))) != nil {
                        fileSize = start
                    } else {
                        // The partial frame stays: readers report it as torn and the next open cuts it.
                        throw FileError(path: path, message: err.message + WriteWords.partialFrameStays)
                    }
                }
                throw FileError(path: path, message: err.message + WriteWords.endsWithCompleteFrame)
            }
            off += n
            fileSize += n
        }
    }

    /// Whether the file's first `size` bytes are the beginning of rtctrace's start mark.
    private static func isStartMarkPrefix(_ file: OpenFile, size: Int) -> Bool {
        var head = [UInt8](repeating: 0, count: size)
        let n = head.withUnsafeMutableBytes { try? file.read(into: $0, at: 0) }
        return n == size && head[...] == TraceMark.start.frame.prefix(size)
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
                scan.lastT = max(scan.lastT ?? r.t, r.t)
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
            throw FileError(path: path, message: WriteWords.plainJSONLines)
        }
        scan.validEnd = cutAt ?? reader.stats.compressedBytes
        return scan
    }
}

/// A record the writer refuses.
package enum WriteError: Error, Equatable, CustomStringConvertible {
    /// The record's seq is not the next one.
    case badSeq(path: String, expected: Int, got: Int)
    /// The record's t is before the previous record's.
    case timeBackwards(path: String, seq: Int, last: Int64, t: Int64)
    /// The writer was closed.
    case closed(path: String)

    /// The same error about `path` where it named `temporary`.
    package func naming(_ path: String, insteadOf temporary: String) -> WriteError {
        func swap(_ p: String) -> String { p == temporary ? path : p }
        return switch self {
        case .badSeq(let p, let expected, let got): .badSeq(path: swap(p), expected: expected, got: got)
        case .timeBackwards(let p, let seq, let last, let t): .timeBackwards(path: swap(p), seq: seq, last: last, t: t)
        case .closed(let p): .closed(path: swap(p))
        }
    }

    /// A message naming the file and seq.
    package var description: String {
        switch self {
        case .badSeq(let path, let expected, let got):
            WriteWords.seqDoesNotContinue(path, got: got, expected: expected)
        case .timeBackwards(let path, let seq, let last, let t):
            WriteWords.timeBeforePrevious(path, seq: seq, t: t, last: last)
        case .closed(let path): WriteWords.writerClosed(path)
        }
    }
}
