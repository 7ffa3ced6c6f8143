import TraceFrames

/// Frame decoding and recovery: the zstd side of `LineSource`.
extension LineSource {

    /// Makes progress until something is released, a problem is queued, or the input ends.
    func pump() {
        if heavy && !inFrame && dataEnd - dataPos <= DecompressionGate.lightBytes / 2 { leaveHeavy() }
        let releasedBefore = compacted + verifiedEnd
        while !finished && queue.isEmpty && compacted + verifiedEnd == releasedBefore {
            switch mode {
            case .detect: detect()
            case .plain: pumpPlain()
            case .zstd: pumpZstd()
            }
        }
    }

    /// Decides the container from the first buffered bytes (see `ContainerKind`).
    func detect() {
        _ = need(8)
        let kind = inBuf.withUnsafeBufferPointer { ContainerKind.sniff(UnsafeBufferPointer(rebasing: $0[inPos..<inEnd])) }
        switch kind {
        case let .archive(name, unpack):
            queue.append(TraceProblem(.notATrace, file: file, offset: 0, message: ReadWords.notATrace(name, unpack: unpack)))
            finished = true
        case .unknown where acceptsText:
            mode = .plain
        case .zstd, .zstdAfterGarbage, .unknown:
            // After garbage (or with no frame in sight yet), `startFrame` resynchronises at the next
            // frame magic anywhere in the file and says what it skipped.
            mode = .zstd
            stats.compressed = true
        case .jsonLines:
            mode = .plain
            let bom = ContainerKind.byteOrderMark
            if inEnd - inPos >= bom.count, inBuf[inPos..<inPos + bom.count].elementsEqual(bom) {
                inPos += bom.count
                queue.append(TraceProblem(.byteOrderMark, file: file, offset: 0,
                    message: ReadWords.byteOrderMark))
            }
        }
    }

    func pumpPlain() {
        if inPos == inEnd && !fill() { finished = true; return }
        let n = inEnd - inPos
        ensureOutputSpace(n)
        let take = min(n, dataCapacity - dataEnd)
        inBuf.withUnsafeBufferPointer { s in
            UnsafeMutableRawPointer(data + dataEnd).copyMemory(from: s.baseAddress! + inPos, byteCount: take)
        }
        inPos += take
        dataEnd += take
        stats.rawBytes += take
        verifiedEnd = dataEnd
    }

    func pumpZstd() {
        if skipRemaining > 0 {
            if inPos == inEnd && !fill() {
                queue.append(TraceProblem(.tornFrame, file: file, offset: frameStart, message: ReadWords.skippableFrameCut))
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
            // The first decompressed bytes of the input: a tar header makes it an archive, not a trace.
            if stats.rawBytes == 0, r.produced >= 262,
               ContainerKind.isTarHeader(UnsafeBufferPointer(start: data + dataEnd, count: r.produced)),
               case let .archive(name, unpack) = ContainerWords.compressedTar {
                queue.append(TraceProblem(.notATrace, file: file, offset: 0, message: ReadWords.notATrace(name, unpack: unpack)))
                finished = true
                return
            }
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

    func startFrame() {
        if inPos == inEnd && !fill() { finished = true; return }
        guard need(4) else {
            queue.append(TraceProblem(.tornFrame, file: file, offset: inAbs, message: ReadWords.endsInFrameHeader(stray: inEnd - inPos)))
            inPos = inEnd
            finished = true
            return
        }
        let magic = inBuf.withUnsafeBufferPointer { readLE32($0, inPos) }
        if magic == ZstdMagic.frame {
            // Frames of stored blocks (a recorder with no zstd library) are counted, for `info`.
            _ = need(32)
            let stored = inBuf.withUnsafeBytes { FrameStructure.startsWithStoredBlock(UnsafeRawBufferPointer(rebasing: $0[inPos..<min(inEnd, inPos + 32)])) }
            if stored == true { stats.storedFrames += 1 }
            inFrame = true
            frameStart = inAbs
            stats.frames += 1
            stats.endsWithEndMark = false
            dctx.reset()
            // A window over the light size is decoded holding the gate (one at a time in the process);
            // one over the limit is refused by zstd without being allocated.
            _ = need(18)
            let window = inBuf.withUnsafeBytes { ZstdDecompressor.frameWindow(UnsafeRawBufferPointer(rebasing: $0[inPos..<min(inEnd, inPos + 18)])) }
            if let window, window > UInt64(DecompressionGate.lightBytes), window <= UInt64(1) << UInt64(limits.maxWindowLog) { enterHeavy() }
            return
        }
        if ZstdMagic.isSkippable(magic) {
            frameStart = inAbs
            guard need(8) else {
                queue.append(TraceProblem(.tornFrame, file: file, offset: inAbs, message: ReadWords.endsInSkippableFrameHeader))
                inPos = inEnd
                finished = true
                return
            }
            let size = Int(inBuf.withUnsafeBufferPointer { readLE32($0, inPos + 4) })
            if let total = input.size, frameStart + 8 + size > total {
                // A size running past the end is either a mark torn by a crash (nothing follows) or
                // damage (a flipped byte): skipping it would lose every valid frame after it.
                let at = frameStart
                resync(from: inPos + 1)
                if inPos == inEnd && eof {
                    queue.append(TraceProblem(.tornFrame, file: file, offset: at, message: ReadWords.skippableFrameCut))
                    finished = true
                } else {
                    queue.append(TraceProblem(.badFrame, file: file, offset: at,
                        message: ReadWords.skippableFramePastEnd(size: size, resumedAt: inAbs)))
                }
                return
            }
            stats.skippableFrames += 1
            stats.endsWithEndMark = false
            inPos += 8
            if size <= 64 {
                guard need(size) else {
                    queue.append(TraceProblem(.tornFrame, file: file, offset: frameStart, message: ReadWords.skippableFrameCut))
                    inPos = inEnd
                    finished = true
                    return
                }
                switch TraceMark.parse(magic: magic, payload: inBuf[inPos..<inPos + size]) {
                case .start?: if frameStart == 0 { stats.hasStartMark = true }
                case .end(let lastSeq)?:
                    stats.endsWithEndMark = true
                    stats.endMarkLastSeq = Int(lastSeq)
                case .part?, .frameIndex?, nil: break
                }
                inPos += size
            } else {
                skipRemaining = size
            }
            return
        }
        let at = inAbs
        resync(from: inPos + 1)
        let skipped = inAbs - at
        if inPos == inEnd && eof {
            if stats.frames == 0 && stats.skippableFrames == 0 {
                queue.append(TraceProblem(.notATrace, file: file, offset: 0,
                    message: ReadWords.neitherFramesNorLines(skipped: skipped)))
            } else {
                queue.append(TraceProblem(.garbage, file: file, offset: at,
                    message: ReadWords.trailingBytes(skipped)))
            }
            finished = true
            return
        }
        queue.append(TraceProblem(.garbage, file: file, offset: at,
                                  message: ReadWords.noFrameHere(skipped: skipped)))
    }

    /// Scans for the next frame magic from buffer index `from`, consuming what it passes.
    func resync(from: Int) {
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

    func badFrame(_ error: Error) {
        let offset = frameStart
        var message = ReadWords.frameNotDecoded("\(error)")
        var kind = TraceProblem.Kind.badFrame
        if let z = error as? ZstdError {
            if z.isWindowTooLarge {
                kind = .windowTooLarge
                let idx = frameStart - inStart
                let declared = idx >= 0 ? inBuf.withUnsafeBytes { ZstdDecompressor.declaredWindow(UnsafeRawBufferPointer(rebasing: $0[idx..<inEnd])) } : nil
                message = ReadWords.windowOverLimit(declared: declared, maxWindowLog: Int(limits.maxWindowLog))
            } else if z.isChecksumWrong {
                message = ReadWords.badChecksum
            }
        }
        dropHeldFrame()
        inFrame = false
        dctx.reset()
        let idx = frameStart - inStart
        resync(from: idx >= 0 ? idx + 1 : inPos)
        queue.append(TraceProblem(kind, file: file, offset: offset, message: message + ReadWords.resumedAt(inAbs)))
    }

    /// Drops the current frame's held bytes and any partial line carried into it.
    func dropHeldFrame() {
        let lastNL = lastNewline(in: dataPos..<verifiedEnd)
        verifiedEnd = lastNL.map { $0 + 1 } ?? dataPos
        dataEnd = verifiedEnd
        if skippingLongLine { skippingLongLine = false }
    }

    func tornFrame() {
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
            message: ReadWords.finalFrameCut(bytes: inAbs - frameStart, kept: kept, held: held)))
    }

    /// Releases the held part of a frame too large to hold until its checksum.
    func releaseEarly() {
        if let nl = lastNewline(in: verifiedEnd..<dataEnd) {
            verifiedEnd = nl + 1
        } else if dataEnd - verifiedEnd > limits.maxLineBytes || dataCapacity - dataEnd < (64 << 10) {
            verifiedEnd = dataEnd
        }
        lineFrameOffset = frameStart
    }

    func lastNewline(in range: Range<Int>) -> Int? {
        guard !range.isEmpty else { return nil }
        var i = range.upperBound - 1
        while i >= range.lowerBound {
            if data[i] == 0x0A { return i }
            i -= 1
        }
        return nil
    }

    /// Makes room for `want` more decoded bytes: compacts, then grows up to the bound.
    func ensureOutputSpace(_ want: Int) {
        // Every byte decoded has been handed on: the next ones go to the start, with nothing to move.
        if dataPos == dataEnd && dataPos > 0 {
            compacted += dataPos
            (dataPos, verifiedEnd, dataEnd) = (0, 0, 0)
        }
        if dataCapacity - dataEnd >= want { return }
        // Compact only when that frees a good part of the buffer; moving a large held frame
        // again and again for a little room would cost more than growing.
        if dataPos > 0 && (dataPos >= dataCapacity / 4 || dataCapacity >= maxData) {
            // copyMemory is memmove: the regions may overlap.
            UnsafeMutableRawPointer(data).copyMemory(from: data + dataPos, byteCount: dataEnd - dataPos)
            verifiedEnd -= dataPos
            dataEnd -= dataPos
            compacted += dataPos
            dataPos = 0
        }
        if dataCapacity - dataEnd >= want { return }
        let size = min(max(dataCapacity * 2, dataEnd + want), maxData)
        if size > DecompressionGate.lightBytes { enterHeavy() }
        if size > dataCapacity {
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
            bigger.update(from: data, count: dataEnd)
            data.deallocate()
            data = bigger
            dataCapacity = size
        }
    }
}
