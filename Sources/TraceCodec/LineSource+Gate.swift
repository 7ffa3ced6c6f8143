/// The reader's share of the process's `DecompressionGate`: entered before a large window or hold
/// buffer is allocated, left between frames once both are small again.
extension LineSource {
    /// Takes the process's decompression gate (once), before a large window or hold buffer is allocated.
    func enterHeavy() {
        guard !heavy else { return }
        DecompressionGate.shared.enter()
        heavy = true
    }

    /// Between frames, with little decoded data left: frees the large window (a fresh context) and the
    /// large hold buffer (the unread bytes moved to a small one), then lets the gate go.
    func leaveHeavy() {
        guard heavy else { return }
        if let fresh = try? ZstdDecompressor(maxWindowLog: limits.maxWindowLog) { dctx = fresh }
        let unread = dataEnd - dataPos
        let small = 1 << 20
        if dataCapacity > small && unread <= small / 2 {
            let smaller = UnsafeMutablePointer<UInt8>.allocate(capacity: small)
            smaller.update(from: data + dataPos, count: unread)
            data.deallocate()
            data = smaller
            dataCapacity = small
            verifiedEnd -= dataPos
            dataEnd -= dataPos
            compacted += dataPos
            dataPos = 0
        }
        heavy = false
        DecompressionGate.shared.leave()
    }
}
