import Glibc

/// Limits that bound a reader's memory on any input.
public struct ReaderLimits: Sendable, Equatable {
    /// Largest zstd window accepted, as a power of two (27 = 128 MiB, what stock `zstd` writes without `--long`).
    public var maxWindowLog: Int32
    /// Longest line accepted, in bytes; longer lines are skipped and reported.
    public var maxLineBytes: Int
    /// Decoded bytes of one frame held back until its checksum is verified; beyond this a big
    /// frame (as stock `zstd` writes) is released line by line before its checksum is known.
    public var holdBytes: Int

    /// Creates limits.
    public init(maxWindowLog: Int32 = 27, maxLineBytes: Int = 16 << 20, holdBytes: Int = 16 << 20) {
        self.maxWindowLog = maxWindowLog
        self.maxLineBytes = maxLineBytes
        self.holdBytes = holdBytes
    }

    /// The defaults: 128 MiB window, 16 MiB lines, 16 MiB held per frame.
    public static let standard = ReaderLimits()
}

/// Container statistics gathered while reading.
public struct ContainerStats: Sendable, Equatable {
    /// Whether the input was zstd (false: plain JSON Lines).
    public var compressed = false
    /// Bytes read from the file.
    public var compressedBytes = 0
    /// Decompressed bytes of the frames that decoded.
    public var rawBytes = 0
    /// zstd data frames seen.
    public var frames = 0
    /// Skippable frames seen (rtctrace marks included).
    public var skippableFrames = 0
    /// The trace starts with rtctrace's start mark (it was created by rtctrace).
    public var hasStartMark = false
    /// The trace ends with rtctrace's end mark (its writer closed cleanly).
    public var endsWithEndMark = false
    /// The last seq the final end mark recorded.
    public var endMarkLastSeq: Int?

    /// Empty statistics.
    public init() {}
}

/// Turns a trace file into lines: detects zstd or plain text, decodes frames, holds each frame's
/// lines until its checksum passes, recovers from torn and bad frames, and bounds every buffer.
final class LineSource {
    enum Event { case line(Range<Int>), problem(TraceProblem) }

    private enum Mode { case detect, zstd, plain }

    let file: String
    let limits: ReaderLimits
    private let input: FileInput
    private let dctx: ZstdDecompressor
    private var mode = Mode.detect
    private(set) var stats = ContainerStats()

    // Compressed input window.
    private var inBuf: [UInt8]
    private var inStart = 0, inPos = 0, inEnd = 0
    private var eof = false
    private static let inCapacity = 4 << 20
    private static let retainCap = 1 << 20

    // Decoded output: [dataPos, verifiedEnd) is released; [verifiedEnd, dataEnd) is the current frame, held.
    /// The decoded bytes (a plain allocation: no copy-on-write or exclusivity checks per line).
    private(set) var data: UnsafeMutablePointer<UInt8>
    private var dataCapacity: Int
    private var dataPos = 0, verifiedEnd = 0, dataEnd = 0
    private var maxData: Int
    /// Bytes compaction has moved the buffer's indexes down by, so that `pump` measures progress
    /// in absolute terms (a compaction must not make old and new `verifiedEnd` look equal).
    private var compacted = 0

    private var inFrame = false
    private var frameStart = 0
    private var skipRemaining = 0
    private var queue: [TraceProblem] = []
    private var tail: [TraceProblem] = []
    private var finished = false
    private var tornTail = false
    /// Lines ending past this data index came from a torn final frame.
    private(set) var tornFrom = Int.max
    private var skippingLongLine = false
    private(set) var lineNumber = 0
    /// Byte offset of the frame the current line came from (0 for plain text).
    private(set) var lineFrameOffset = 0

    deinit { data.deallocate() }

    /// The bytes of a line range returned by `next()` (valid until the next call).
    @inline(__always)
    func bytes(_ r: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: data + r.lowerBound, count: r.count) }

    init(path: String, limits: ReaderLimits) throws {
        file = path
        self.limits = limits
        input = try FileInput(path: path)
        dctx = try ZstdDecompressor(maxWindowLog: limits.maxWindowLog)
        inBuf = [UInt8](repeating: 0, count: Self.inCapacity)
        dataCapacity = 1 << 20
        data = .allocate(capacity: dataCapacity)
        maxData = limits.holdBytes + limits.maxLineBytes + (2 << 20)
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

    private func nextLine() -> Event? {
        while dataPos < verifiedEnd {
            let found: Int? = memchr(data + dataPos, 0x0A, verifiedEnd - dataPos).map {
                UnsafeMutablePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - data
            }
            guard let nl = found else {
                if verifiedEnd - dataPos > limits.maxLineBytes {
                    lineNumber += 1
                    let skipped = verifiedEnd - dataPos
                    dataPos = verifiedEnd
                    if !skippingLongLine {
                        skippingLongLine = true
                        return .problem(TraceProblem(.lineTooLong, file: file, line: lineNumber,
                            message: "line longer than the line-length limit of \(limits.maxLineBytes) bytes (skipped \(skipped)+ bytes)"))
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
                    message: "line of \(r.count) bytes is longer than the line-length limit of \(limits.maxLineBytes) bytes; skipped"))
            }
            return .line(r)
        }
        return nil
    }

    // MARK: - Input

    private var inAbs: Int { inStart + inPos }

    /// Reads more compressed input; false at end of file.
    @discardableResult
    private func fill() -> Bool {
        if eof { return false }
        if inEnd == inBuf.count {
            var keep = inPos
            let frameIdx = frameStart - inStart
            if inFrame, frameIdx >= 0, inPos - frameIdx <= Self.retainCap { keep = frameIdx }
            if inEnd - keep > inBuf.count - (64 << 10) { keep = inPos }
            inBuf.withUnsafeMutableBufferPointer { p in
                _ = memmove(p.baseAddress!, p.baseAddress! + keep, inEnd - keep)
            }
            inStart += keep
            inPos -= keep
            inEnd -= keep
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
            queue.append(TraceProblem(.io, file: file, offset: inAbs, message: "\(error)"))
            eof = true
            return false
        }
    }

    /// Ensures `count` unread input bytes are buffered; false when the file ends first.
    private func need(_ count: Int) -> Bool {
        while inEnd - inPos < count { if !fill() { return false } }
        return true
    }

    // MARK: - Decoding

    /// Makes progress until something is released, a problem is queued, or the input ends.
    private func pump() {
        let releasedBefore = compacted + verifiedEnd
        while !finished && queue.isEmpty && compacted + verifiedEnd == releasedBefore {
            switch mode {
            case .detect: detect()
            case .plain: pumpPlain()
            case .zstd: pumpZstd()
            }
        }
    }

    private func detect() {
        _ = need(4)
        if inEnd - inPos >= 4 {
            let m = inBuf.withUnsafeBufferPointer { readLE32($0, inPos) }
            if m == ZstdMagic.frame || ZstdMagic.isSkippable(m) {
                mode = .zstd
                stats.compressed = true
                return
            }
        }
        mode = .plain
    }

    private func pumpPlain() {
        if inPos == inEnd && !fill() { finished = true; return }
        let n = inEnd - inPos
        ensureOutputSpace(n)
        let take = min(n, dataCapacity - dataEnd)
        inBuf.withUnsafeBufferPointer { s in
            _ = memcpy(data + dataEnd, s.baseAddress! + inPos, take)
        }
        inPos += take
        dataEnd += take
        stats.rawBytes += take
        verifiedEnd = dataEnd
    }

    private func pumpZstd() {
        if skipRemaining > 0 {
            if inPos == inEnd && !fill() {
                queue.append(TraceProblem(.tornFrame, file: file, offset: frameStart, message: "skippable frame cut short"))
                finished = true
                return
            }
            let k = min(skipRemaining, inEnd - inPos)
            inPos += k
            skipRemaining -= k
            return
        }
        if !inFrame { startFrame(); return }
        if inPos == inEnd && !fill() { tornFrame(); return }
        ensureOutputSpace(128 << 10)
        if dataCapacity - dataEnd < (64 << 10) {
            releaseEarly()
            return
        }
        let result: Result<(consumed: Int, produced: Int, frameEnded: Bool), Error> = inBuf.withUnsafeBytes { src in
            Result {
                try dctx.decompress(UnsafeRawBufferPointer(rebasing: src[inPos..<inEnd]),
                                    into: UnsafeMutableRawBufferPointer(start: data + dataEnd, count: dataCapacity - dataEnd))
            }
        }
        switch result {
        case .success(let r):
            inPos += r.consumed
            dataEnd += r.produced
            stats.rawBytes += r.produced
            if r.frameEnded {
                inFrame = false
                verifiedEnd = dataEnd
                lineFrameOffset = frameStart
            } else if dataEnd - verifiedEnd > limits.holdBytes {
                releaseEarly()
            }
        case .failure(let error):
            badFrame(error)
        }
    }

    private func startFrame() {
        if inPos == inEnd && !fill() { finished = true; return }
        guard need(4) else {
            queue.append(TraceProblem(.tornFrame, file: file, offset: inAbs, message: "trace ends inside a frame header (\(inEnd - inPos) stray bytes)"))
            inPos = inEnd
            finished = true
            return
        }
        let magic = inBuf.withUnsafeBufferPointer { readLE32($0, inPos) }
        if magic == ZstdMagic.frame {
            inFrame = true
            frameStart = inAbs
            stats.frames += 1
            stats.endsWithEndMark = false
            dctx.reset()
            return
        }
        if ZstdMagic.isSkippable(magic) {
            frameStart = inAbs
            guard need(8) else {
                queue.append(TraceProblem(.tornFrame, file: file, offset: inAbs, message: "trace ends inside a skippable frame header"))
                inPos = inEnd
                finished = true
                return
            }
            let size = Int(inBuf.withUnsafeBufferPointer { readLE32($0, inPos + 4) })
            stats.skippableFrames += 1
            stats.endsWithEndMark = false
            inPos += 8
            if size <= 64 {
                guard need(size) else {
                    queue.append(TraceProblem(.tornFrame, file: file, offset: frameStart, message: "skippable frame cut short"))
                    inPos = inEnd
                    finished = true
                    return
                }
                switch TraceMark.parse(magic: magic, payload: inBuf[inPos..<inPos + size]) {
                case .start?: if frameStart == 0 { stats.hasStartMark = true }
                case .end(let lastSeq)?:
                    stats.endsWithEndMark = true
                    stats.endMarkLastSeq = Int(lastSeq)
                case nil: break
                }
                inPos += size
            } else {
                skipRemaining = size
            }
            return
        }
        let at = inAbs
        resync(from: inPos + 1)
        queue.append(TraceProblem(.garbage, file: file, offset: at,
                                  message: "no frame starts here; skipped \(inAbs - at) bytes to the next frame"))
    }

    /// Scans for the next frame magic from buffer index `from`, consuming what it passes.
    private func resync(from: Int) {
        inPos = max(from, 0)
        while true {
            let hit: Int? = inBuf.withUnsafeBufferPointer { p in
                var i = inPos
                while i + 4 <= inEnd {
                    if p[i] == 0x28 || p[i] & 0xF0 == 0x50 {
                        let m = readLE32(p, i)
                        if m == ZstdMagic.frame || ZstdMagic.isSkippable(m) { return i }
                    }
                    i += 1
                }
                return nil
            }
            if let hit { inPos = hit; return }
            inPos = max(inPos, inEnd - 3)
            if !fill() { inPos = inEnd; return }
        }
    }

    private func badFrame(_ error: Error) {
        let offset = frameStart
        var message = "frame could not be decoded: \(error)"
        var kind = TraceProblem.Kind.badFrame
        if let z = error as? ZstdError {
            if z.isWindowTooLarge {
                kind = .windowTooLarge
                let idx = frameStart - inStart
                let declared = idx >= 0 ? inBuf.withUnsafeBytes { ZstdDecompressor.declaredWindow(UnsafeRawBufferPointer(rebasing: $0[idx..<inEnd])) } : nil
                message = "frame declares a window of \(declared.map { "\($0) bytes" } ?? "unknown size"), over the window limit of \(1 << limits.maxWindowLog) bytes (2^\(limits.maxWindowLog)); frame skipped"
            } else if z.isChecksumWrong {
                message = "frame failed its content checksum (the data is corrupt)"
            }
        }
        dropHeldFrame()
        inFrame = false
        dctx.reset()
        let idx = frameStart - inStart
        resync(from: idx >= 0 ? idx + 1 : inPos)
        queue.append(TraceProblem(kind, file: file, offset: offset, message: message + "; resumed at byte \(inAbs)"))
    }

    /// Drops the current frame's held bytes and any partial line carried into it.
    private func dropHeldFrame() {
        let lastNL = lastNewline(in: dataPos..<verifiedEnd)
        verifiedEnd = lastNL.map { $0 + 1 } ?? dataPos
        dataEnd = verifiedEnd
        if skippingLongLine { skippingLongLine = false }
    }

    private func tornFrame() {
        let held = dataEnd - verifiedEnd
        let keepEnd = lastNewline(in: verifiedEnd..<dataEnd).map { $0 + 1 } ?? verifiedEnd
        let kept = (verifiedEnd..<keepEnd).reduce(0) { $0 + (data[$1] == 0x0A ? 1 : 0) }
        tornFrom = verifiedEnd
        verifiedEnd = keepEnd
        dataEnd = keepEnd
        lineFrameOffset = frameStart
        tornTail = true
        inFrame = false
        finished = true
        tail.append(TraceProblem(.tornFrame, file: file, offset: frameStart,
            message: "final frame is cut short (\(inAbs - frameStart) bytes, a crash mid-write?); kept \(kept) complete line\(kept == 1 ? "" : "s") of \(held) decoded bytes"))
    }

    /// Releases the held part of a frame too large to hold until its checksum.
    private func releaseEarly() {
        if let nl = lastNewline(in: verifiedEnd..<dataEnd) {
            verifiedEnd = nl + 1
        } else if dataEnd - verifiedEnd > limits.maxLineBytes || dataCapacity - dataEnd < (64 << 10) {
            verifiedEnd = dataEnd
        }
        lineFrameOffset = frameStart
    }

    private func lastNewline(in range: Range<Int>) -> Int? {
        guard !range.isEmpty else { return nil }
        var i = range.upperBound - 1
        while i >= range.lowerBound {
            if data[i] == 0x0A { return i }
            i -= 1
        }
        return nil
    }

    /// Makes room for `want` more decoded bytes: compacts, then grows up to the bound.
    private func ensureOutputSpace(_ want: Int) {
        if dataCapacity - dataEnd >= want { return }
        // Compact only when that frees a good part of the buffer; moving a large held frame
        // again and again for a little room would cost more than growing.
        if dataPos > 0 && (dataPos >= dataCapacity / 4 || dataCapacity >= maxData) {
            _ = memmove(data, data + dataPos, dataEnd - dataPos)
            verifiedEnd -= dataPos
            dataEnd -= dataPos
            compacted += dataPos
            dataPos = 0
        }
        if dataCapacity - dataEnd >= want { return }
        let size = min(max(dataCapacity * 2, dataEnd + want), maxData)
        if size > dataCapacity {
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
            bigger.update(from: data, count: dataEnd)
            data.deallocate()
            data = bigger
            dataCapacity = size
        }
    }
}
