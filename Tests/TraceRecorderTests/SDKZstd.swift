import CZstd
import SystemLayer
import TraceRecorder

/// The compressor an SDK that links its own zstd passes in: docs/recorder.md's example, as written
/// there, plus a count of the frames it made (so tests can tell it was used).
final class SDKZstd: TraceCompressor {
    private let cctx = ZSTD_createCCtx()!
    /// Frames made by every instance so far.
    static var frames: Int { counter.withLock { count.value } }
    private static let counter = Lock()
    private final class Count: @unchecked Sendable { var value = 0 }
    private static let count = Count()

    init() {
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 3)
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1)
    }

    deinit { ZSTD_freeCCtx(cctx) }

    func maxFrameSize(forInput count: Int) -> Int { ZSTD_compressBound(count) }

    func compressFrame(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = ZSTD_compress2(cctx, output.baseAddress, output.count, input.baseAddress, input.count)
        if ZSTD_isError(n) != 0 { throw CompressionError(String(cString: ZSTD_getErrorName(n))) }
        Self.counter.withLock { Self.count.value += 1 }
        return n
    }
}
