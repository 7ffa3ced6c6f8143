import TraceFrames

/// What `LineSource.splitFrame` found at the next unsplit byte.
enum FrameSplit {
    /// A whole zstd frame of a small declared window at `start..<end` (absolute offsets), to be decoded apart.
    case data(start: Int, end: Int, stored: Bool)
    /// A whole skippable frame at `start..<end`, with its mark when it is short enough to hold one.
    case skippable(start: Int, end: Int, mark: TraceMark?)
    /// The frames split but not yet handed on fill the input buffer: split again once some are.
    case noRoom
    /// Nothing more to split: the end, or something only the sequential reader reads as the format says
    /// (damage, a torn frame, a large window, a frame too large to hold whole).
    case stop
}

/// The frame splitter of a read on two cores: it reads ahead of the lines handed on (`inPos` stays at the
/// first frame not yet handed on, so everything after it stays buffered) and finds whole frames, which are
/// independent and so can be decompressed and decoded on another thread. It reports nothing: whatever is
/// not a whole, ordinary frame stops it, and the sequential reader, resuming at `inPos`, meets it as it
/// always does.
extension LineSource {
    /// Whether the splitter may start: the container is zstd and nothing was read or reported yet.
    func canSplit() -> Bool {
        if mode == .detect { detect() }
        return mode == .zstd && queue.isEmpty && !finished && !inFrame && skipRemaining == 0 && dataPos == dataEnd && !heavy
    }

    /// The next frame at absolute offset `at`, read ahead of `inPos`; `maxBytes` bounds its declared window
    /// and its compressed size.
    func splitFrame(at: Int, maxBytes: Int) -> FrameSplit {
        readingAhead = true
        defer { readingAhead = false }
        // At least `count` bytes buffered from `at`, read while they fit before the frames not yet handed
        // on; otherwise why not: `.noRoom`, or `.stop` at the end of the file (or a read failure, kept).
        func have(_ count: Int) -> FrameSplit? {
            while inStart + inEnd - at < count {
                if at + count - inAbs > inBuf.count - (64 << 10) { return at == inAbs ? .stop : .noRoom }
                if !fill() { return .stop }
            }
            return nil
        }
        if let short = have(4) { return short }
        let magic = inBuf.withUnsafeBufferPointer { readLE32($0, at - inStart) }
        if magic == ZstdMagic.frame {
            // The stored-block test and the window read the bytes `startFrame` reads (32 and 18, or to the end).
            if let short = have(32), case .noRoom = short { return .noRoom }
            let j = at - inStart
            let stored = inBuf.withUnsafeBytes { FrameStructure.startsWithStoredBlock(UnsafeRawBufferPointer(rebasing: $0[j..<min(inEnd, j + 32)])) }
            let window = inBuf.withUnsafeBytes { ZstdDecompressor.frameWindow(UnsafeRawBufferPointer(rebasing: $0[j..<min(inEnd, j + 18)])) }
            guard let window, window <= UInt64(maxBytes) else { return .stop }
            while true {
                let k = at - inStart
                let buffered = inEnd - k
                if let size = inBuf.withUnsafeBytes({ ZstdDecompressor.frameSize(UnsafeRawBufferPointer(rebasing: $0[k..<inEnd])) }) {
                    return size <= maxBytes ? .data(start: at, end: at + size, stored: stored == true) : .stop
                }
                guard buffered < maxBytes else { return .stop }
                if let short = have(min(buffered + (64 << 10), maxBytes)) {
                    if case .noRoom = short { return .noRoom }
                    // The file ends within the frame (torn, or damaged): one last look at what is there.
                    let k = at - inStart
                    if let size = inBuf.withUnsafeBytes({ ZstdDecompressor.frameSize(UnsafeRawBufferPointer(rebasing: $0[k..<inEnd])) }),
                       size <= maxBytes {
                        return .data(start: at, end: at + size, stored: stored == true)
                    }
                    return .stop
                }
            }
        }
        guard ZstdMagic.isSkippable(magic) else { return .stop }
        if let short = have(8) { return short }
        let size = Int(inBuf.withUnsafeBufferPointer { readLE32($0, at - inStart + 4) })
        // A size past the end of the file is damage or a torn mark: the sequential reader says which.
        if let total = input.size, at + 8 + size > total { return .stop }
        guard size <= maxBytes else { return .stop }
        if let short = have(8 + size) { return short }
        let p = at - inStart + 8
        let mark = size <= 64 ? TraceMark.parse(magic: magic, payload: inBuf[p..<p + size]) : nil
        return .skippable(start: at, end: at + 8 + size, mark: mark)
    }

    /// Hands on a frame the splitter found: its statistics, as `startFrame` and `pumpZstd` count them, and
    /// the input position past it. `produced` is the decoded size of a data frame.
    func handOn(_ split: FrameSplit, produced: Int = 0) {
        switch split {
        case let .data(start, end, stored):
            if stored { stats.storedFrames += 1 }
            frameStart = start
            stats.frames += 1
            stats.endsWithEndMark = false
            stats.rawBytes += produced
            lineFrameOffset = start
            inPos = end - inStart
        case let .skippable(start, end, mark):
            frameStart = start
            stats.skippableFrames += 1
            stats.endsWithEndMark = false
            switch mark {
            case .start?: if start == 0 { stats.hasStartMark = true }
            case .end(let lastSeq)?:
                stats.endsWithEndMark = true
                stats.endMarkLastSeq = Int(lastSeq)
            case .part?, .frameIndex?, nil: break
            }
            inPos = end - inStart
        case .noRoom, .stop:
            break
        }
    }
}
