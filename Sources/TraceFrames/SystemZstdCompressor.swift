#if canImport(CZstd)
import CZstd

/// libzstd, where the platform has it (the `CZstd` system library: Linux, macOS with Homebrew): one
/// self-contained, checksummed frame per call, at the tuned setting for trace lines or a given level.
public final class SystemZstdCompressor: TraceCompressor {
    private let cctx: OpaquePointer
    private var out: [UInt8] = []

    /// The tuned setting for trace lines: lazy2 matching with a short search (3) and 5-byte minimum
    /// matches. JSON Lines repeat keys and shapes a line or two back, so a deeper search buys little;
    /// measured on trace data (docs/performance.md) this keeps level 9's size within ~3 % at ~1.4× its speed.
    static let tuned: [(ZSTD_cParameter, Int32)] = [(ZSTD_c_compressionLevel, 9), (ZSTD_c_strategy, Int32(ZSTD_lazy2.rawValue)),
                                                    (ZSTD_c_searchLog, 3), (ZSTD_c_minMatch, 5)]

    /// A context at `level`, or at the tuned setting when `level` is nil.
    public init(level: Int32? = nil, windowLog: Int32? = nil) throws {
        guard let c = ZSTD_createCCtx() else { throw CompressionError(FrameWords.noCompressionContext) }
        cctx = c
        for (p, v) in level.map({ [(ZSTD_c_compressionLevel, $0)] }) ?? Self.tuned {
            _ = try Self.check(ZSTD_CCtx_setParameter(cctx, p, v))
        }
        _ = try Self.check(ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1))
        _ = try Self.check(ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1))
        if let windowLog { _ = try Self.check(ZSTD_CCtx_setParameter(cctx, ZSTD_c_windowLog, windowLog)) }
    }

    deinit { ZSTD_freeCCtx(cctx) }

    public func maxFrameSize(forInput count: Int) -> Int { ZSTD_compressBound(count) }

    public func compressFrame(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws -> Int {
        try Self.check(ZSTD_compress2(cctx, output.baseAddress, output.count, input.baseAddress, input.count))
    }

    /// Compresses `input` as one complete frame and returns its bytes (valid until the next call).
    public func frame(_ input: UnsafeRawBufferPointer) throws -> ArraySlice<UInt8> {
        let bound = ZSTD_compressBound(input.count)
        if out.count < bound { out = [UInt8](repeating: 0, count: bound) }
        let n = try out.withUnsafeMutableBytes { try compressFrame(input, into: $0) }
        return out[0..<n]
    }

    /// A libzstd size-or-error result as a size, or a thrown error named with `ZSTD_getErrorName`.
    @inline(__always)
    static func check(_ result: Int) throws -> Int {
        if ZSTD_isError(result) != 0 { throw CompressionError(String(cString: ZSTD_getErrorName(result))) }
        return result
    }
}
#endif
