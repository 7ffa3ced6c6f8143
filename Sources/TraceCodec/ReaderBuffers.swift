import SystemLayer

/// What a closed reader leaves for the next one: its decompression context and its input and output
/// buffers, kept in the state a new reader's would be in (a context with no frame begun, buffers whose
/// bytes are never looked at before they are written). A fleet's run opens each file twice (its header,
/// then its replay): the next reader takes these instead of creating a context and mapping its buffers
/// again. At most `maxKept` are kept, so memory does not grow with the readers a process opens.
struct ReaderBuffers {
    let dctx: ZstdDecompressor
    var inBuf: [UInt8]
    let data: UnsafeMutablePointer<UInt8>

    /// How many closed readers' buffers are kept (a reader that is reading holds its own).
    static let maxKept = 4

    /// Frees what is kept.
    func free() { data.deallocate() }
}

/// The buffers closed readers left, shared by every thread.
final class ReaderBufferPool: @unchecked Sendable {
    static let shared = ReaderBufferPool()
    private let lock = Lock()
    private var kept: [ReaderBuffers] = []

    /// The buffers of a closed reader, their context ready for a new trace with this window limit; nil when none are kept.
    func take(maxWindowLog: Int32) -> ReaderBuffers? {
        while let b = lock.withLock({ kept.popLast() }) {
            if b.dctx.restart(maxWindowLog: maxWindowLog) { return b }
            b.free()
        }
        return nil
    }

    /// Keeps a closed reader's buffers for the next reader; false (nothing kept) when enough are kept already.
    func give(_ b: ReaderBuffers) -> Bool {
        lock.withLock {
            guard kept.count < ReaderBuffers.maxKept else { return false }
            kept.append(b)
            return true
        }
    }
}

extension ReaderBufferPool {
    /// How many closed readers' buffers are kept now.
    var count: Int { lock.withLock { kept.count } }

    /// Frees every kept buffer: the next readers make their own.
    func drop() {
        let all = lock.withLock { () -> [ReaderBuffers] in
            defer { kept = [] }
            return kept
        }
        for b in all { b.free() }
    }
}

extension TraceReader {
    /// How many closed readers' contexts and buffers are kept for the next readers (at most a few).
    package static var keptBuffers: Int { ReaderBufferPool.shared.count }

    /// Frees the contexts and buffers closed readers left: the next readers make new ones.
    package static func dropKeptBuffers() { ReaderBufferPool.shared.drop() }
}
