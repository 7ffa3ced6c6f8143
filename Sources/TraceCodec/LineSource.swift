import SystemLayer

/// Limits that bound a reader's memory on any input.
package struct ReaderLimits: Sendable, Equatable {
    /// Largest zstd window accepted, as a power of two (27 = 128 MiB, what stock `zstd` writes without `--long`).
    package var maxWindowLog: Int32
    /// Longest line accepted, in bytes; longer lines are skipped and reported.
    package var maxLineBytes: Int
    /// Decoded bytes of one frame held back until its checksum is verified; beyond this a big
    /// frame (as stock `zstd` writes) is released line by line before its checksum is known.
    package var holdBytes: Int

    /// Creates limits.
    package init(maxWindowLog: Int32 = 27, maxLineBytes: Int = 16 << 20, holdBytes: Int = 16 << 20) {
        self.maxWindowLog = maxWindowLog
        self.maxLineBytes = maxLineBytes
        self.holdBytes = holdBytes
    }

    /// The defaults: 128 MiB window, 16 MiB lines, 16 MiB held per frame.
    package static let standard = ReaderLimits()
}

/// Container statistics gathered while reading.
package struct ContainerStats: Sendable, Equatable {
    /// Whether the input was zstd (false: plain JSON Lines).
    package var compressed = false
    /// Bytes read from the file.
    package var compressedBytes = 0
    /// Decompressed bytes of the frames that decoded.
    package var rawBytes = 0
    /// zstd data frames seen.
    package var frames = 0
    /// Of those, frames whose data is stored, not compressed (the recorder's own encoder writes them).
    package var storedFrames = 0
    /// Skippable frames seen (rtctrace marks included).
    package var skippableFrames = 0
    /// The trace starts with rtctrace's start mark (it was created by rtctrace).
    package var hasStartMark = false
    /// The trace ends with rtctrace's end mark (its writer closed cleanly).
    package var endsWithEndMark = false
    /// The last seq the final end mark recorded.
    package var endMarkLastSeq: Int?

    /// Empty statistics.
    package init() {}
}

/// Turns a trace file into lines: detects zstd or plain text, decodes frames, holds each frame's
/// lines until its checksum passes, recovers from torn and bad frames, and bounds every buffer.
final class LineSource {
    enum Event { case line(Range<Int>), problem(TraceProblem) }

    enum Mode { case detect, zstd, plain }

    let file: String
    let limits: ReaderLimits
    let input: FileInput
    var dctx: ZstdDecompressor
    /// Whether this reader holds the process's `DecompressionGate` (a large window or hold buffer).
    var heavy = false
    var mode = Mode.detect
    /// Whether text that is not JSON Lines is read as lines too (a device log's text export), rather than
    /// scanned for frames and reported as not a trace.
    var acceptsText = false
    var stats = ContainerStats()

    // Compressed input window.
    var inBuf: [UInt8]
    var inStart = 0, inPos = 0, inEnd = 0
    var eof = false
    static let inCapacity = 4 << 20
    static let retainCap = 1 << 20
    /// The decoded buffer's size until a long line or a large frame needs more.
    static let dataStartCapacity = 1 << 20

    // Decoded output: [dataPos, verifiedEnd) is released; [verifiedEnd, dataEnd) is the current frame, held.
    /// The decoded bytes (a plain allocation: no copy-on-write or exclusivity checks per line).
    var data: UnsafeMutablePointer<UInt8>
    var dataCapacity: Int
    var dataPos = 0, verifiedEnd = 0, dataEnd = 0
    var maxData: Int
    /// Bytes compaction has moved the buffer's indexes down by, so that `pump` measures progress
    /// in absolute terms (a compaction must not make old and new `verifiedEnd` look equal).
    var compacted = 0

    var inFrame = false
    var frameStart = 0
    var skipRemaining = 0
    var queue: [TraceProblem] = []
    var tail: [TraceProblem] = []
    var finished = false
    var tornTail = false
    /// Lines ending past this data index came from a torn final frame.
    var tornFrom = Int.max
    var skippingLongLine = false
    /// Whether `fill` reads ahead of the lines handed on (`splitFrame`): a read failure is then kept for the
    /// read that would have met it (`readFailure`) instead of being reported where the reading ahead stands.
    var readingAhead = false
    var readFailure: String?
    var lineNumber = 0
    /// Byte offset of the frame the current line came from (0 for plain text).
    var lineFrameOffset = 0

    deinit {
        // A context that decoded a large window, or a grown hold buffer, is not kept: memory stays bounded.
        if heavy || dataCapacity != Self.dataStartCapacity || inBuf.count != Self.inCapacity
            || !ReaderBufferPool.shared.give(ReaderBuffers(dctx: dctx, inBuf: inBuf, data: data)) {
            data.deallocate()
        }
        if heavy { DecompressionGate.shared.leave() }
    }

    /// The bytes of a line range returned by `next()` (valid until the next call).
    @inline(__always)
    func bytes(_ r: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: data + r.lowerBound, count: r.count) }

    init(path: String, limits: ReaderLimits) throws {
        file = path
        self.limits = limits
        input = try FileInput(path: path)
        if let why = input.bundleMismatch { queue.append(TraceProblem(.bundleMismatch, file: path, message: why)) }
        dataCapacity = Self.dataStartCapacity
        maxData = limits.holdBytes + limits.maxLineBytes + (2 << 20)
        // A closed reader's context and buffers when some are kept (`ReaderBufferPool`): what they held
        // is never looked at, as a new buffer's bytes are not.
        if let kept = ReaderBufferPool.shared.take(maxWindowLog: limits.maxWindowLog) {
            dctx = kept.dctx
            inBuf = kept.inBuf
            data = kept.data
            return
        }
        dctx = try ZstdDecompressor(maxWindowLog: limits.maxWindowLog)
        // Not zeroed: only what `read` fills is ever looked at, and a short trace touches a page or two.
        inBuf = [UInt8](unsafeUninitializedCapacity: Self.inCapacity) { _, n in n = Self.inCapacity }
        data = .allocate(capacity: dataCapacity)
    }

    /// The next line or problem; nil at the end.
    func next() -> Event? {
        while true {
            if !queue.isEmpty { return .problem(queue.removeFirst()) }
            if let line = nextLine() { return line }
            if finished {
                if dataPos < verifiedEnd && !tornTail {
                    // A final line without its newline, in a frame that completed: accept it.
                    let r = dataPos..<verifiedEnd
                    dataPos = verifiedEnd
                    lineNumber += 1
                    if skippingLongLine { skippingLongLine = false; continue }
                    return .line(r)
                }
                if !tail.isEmpty { return .problem(tail.removeFirst()) }
                return nil
            }
            pump()
        }
    }

    /// The next line when nothing special is pending (no queued problem, no long line being skipped, a
    /// newline in the verified data within the length limit); nil leaves every case to `next()`.
    @inline(__always)
    func quickLine() -> Range<Int>? {
        guard queue.isEmpty, !skippingLongLine, let nl = nextNewline(), nl &- dataPos <= limits.maxLineBytes else { return nil }
        // A newline found at or after `dataPos`, within the buffer: no bound or sum here can be out of range.
        let r = Range(uncheckedBounds: (dataPos, nl))
        dataPos = nl &+ 1
        lineNumber &+= 1
        return r
    }

    /// The index of the next newline in the verified data, if any.
    @inline(__always)
    func nextNewline() -> Int? {
        let from = dataPos, end = verifiedEnd
        guard from < end, let found = Memory.firstAddress(of: 0x0A, in: data + from, count: end &- from) else { return nil }
        return found - UnsafeRawPointer(data)
    }

    func nextLine() -> Event? {
        while dataPos < verifiedEnd {
            guard let nl = nextNewline() else {
                if verifiedEnd - dataPos > limits.maxLineBytes {
                    lineNumber += 1
                    let skipped = verifiedEnd - dataPos
                    dataPos = verifiedEnd
                    if !skippingLongLine {
                        skippingLongLine = true
                        return .problem(TraceProblem(.lineTooLong, file: file, line: lineNumber,
                            message: ReadWords.lineOverLimit(limit: limits.maxLineBytes, skipped: skipped)))
                    }
                    lineNumber -= 1
                }
                return nil
            }
            let r = dataPos..<nl
            dataPos = nl + 1
            if skippingLongLine { skippingLongLine = false; continue }
            lineNumber += 1
            if r.count > limits.maxLineBytes {
                return .problem(TraceProblem(.lineTooLong, file: file, line: lineNumber,
                    message: ReadWords.lineTooLong(r.count, limit: limits.maxLineBytes)))
            }
            return .line(r)
        }
        return nil
    }

    // MARK: - Input

    var inAbs: Int { inStart + inPos }

    /// Reads more compressed input; false at end of file.
    @discardableResult
    func fill() -> Bool {
        if eof { return false }
        if let failed = readFailure {
            // A failure met while reading ahead (`splitFrame`) is reported where this read would have met it.
            if readingAhead { return false }
            readFailure = nil
            queue.append(TraceProblem(.io, file: file, offset: inAbs, message: failed))
            eof = true
            return false
        }
        if inEnd == inBuf.count {
            var keep = inPos
            let frameIdx = frameStart - inStart
            if inFrame, frameIdx >= 0, inPos - frameIdx <= Self.retainCap { keep = frameIdx }
            if inEnd - keep > inBuf.count - (64 << 10) { keep = inPos }
            inBuf.withUnsafeMutableBufferPointer { p in
                // copyMemory is memmove: the regions may overlap.
                UnsafeMutableRawPointer(p.baseAddress!).copyMemory(from: p.baseAddress! + keep, byteCount: inEnd - keep)
            }
            inStart += keep
            inPos -= keep
            inEnd -= keep
            // Reading ahead with the buffer full of frames not yet handed on: no room, which is not the end.
            if readingAhead && inEnd == inBuf.count { return false }
        }
        do {
            let n = try inBuf.withUnsafeMutableBytes { p in
                try input.read(into: p.baseAddress! + inEnd, count: p.count - inEnd)
            }
            if n == 0 { eof = true; return false }
            inEnd += n
            stats.compressedBytes += n
            return true
        } catch {
            if readingAhead {
                readFailure = "\(error)"
                return false
            }
            queue.append(TraceProblem(.io, file: file, offset: inAbs, message: "\(error)"))
            eof = true
            return false
        }
    }

    /// Ensures `count` unread input bytes are buffered; false when the file ends first.
    func need(_ count: Int) -> Bool {
        while inEnd - inPos < count { if !fill() { return false } }
        return true
    }
}
