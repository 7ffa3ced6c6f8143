import CZstd

/// An error reported by libzstd, named with `ZSTD_getErrorName`.
public struct ZstdError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libzstd's error code.
    public let code: Int
    /// libzstd's name for it.
    public let name: String

    /// libzstd's message, e.g. "Restored data doesn't match checksum".
    public var description: String { name }

    /// Whether the error is the window limit being exceeded.
    public var isWindowTooLarge: Bool { ZSTD_getErrorCode(code) == ZSTD_error_frameParameter_windowTooLarge }
    /// Whether the error is a checksum mismatch.
    public var isChecksumWrong: Bool { ZSTD_getErrorCode(code) == ZSTD_error_checksum_wrong }
}

/// Turns a libzstd size-or-error result into a size or a thrown `ZstdError`.
@inline(__always)
func zstdCheck(_ result: Int) throws -> Int {
    if ZSTD_isError(result) != 0 {
        throw ZstdError(code: result, name: String(cString: ZSTD_getErrorName(result)))
    }
    return result
}

/// Frame magic numbers of the zstd format.
enum ZstdMagic {
    /// A zstd data frame.
    static let frame: UInt32 = 0xFD2F_B528
    /// The first of sixteen skippable-frame magics.
    static let skippableLow: UInt32 = 0x184D_2A50
    /// The skippable magic rtctrace uses for its own marks.
    static let rtctrace: UInt32 = 0x184D_2A5E

    static func isSkippable(_ m: UInt32) -> Bool { m & 0xFFFF_FFF0 == skippableLow }
}

/// A compression context producing one self-contained, checksummed frame per call.
final class ZstdCompressor {
    private let cctx: OpaquePointer
    private var out: [UInt8] = []

    /// The tuned setting for trace lines: lazy2 matching with a short search (3) and 5-byte minimum
    /// matches. JSON Lines repeat keys and shapes a line or two back, so a deeper search buys little;
    /// measured on trace data (docs/performance.md) this keeps level 9's size within ~3 % at ~1.4× its speed.
    static let tuned: [(ZSTD_cParameter, Int32)] = [(ZSTD_c_compressionLevel, 9), (ZSTD_c_strategy, Int32(ZSTD_lazy2.rawValue)),
                                                    (ZSTD_c_searchLog, 3), (ZSTD_c_minMatch, 5)]

    /// A context at `level`, or at the tuned setting when `level` is nil.
    init(level: Int32?, windowLog: Int32? = nil) throws {
        guard let c = ZSTD_createCCtx() else { throw ZstdError(code: -1, name: "out of memory creating a compression context") }
        cctx = c
        for (p, v) in level.map({ [(ZSTD_c_compressionLevel, $0)] }) ?? Self.tuned {
            _ = try zstdCheck(ZSTD_CCtx_setParameter(cctx, p, v))
        }
        _ = try zstdCheck(ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1))
        _ = try zstdCheck(ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1))
        if let windowLog { _ = try zstdCheck(ZSTD_CCtx_setParameter(cctx, ZSTD_c_windowLog, windowLog)) }
    }

    deinit { ZSTD_freeCCtx(cctx) }

    /// Compresses `input` as one complete frame and returns its bytes (valid until the next call).
    func frame(_ input: UnsafeRawBufferPointer) throws -> ArraySlice<UInt8> {
        let bound = ZSTD_compressBound(input.count)
        if out.count < bound { out = [UInt8](repeating: 0, count: bound) }
        let n = try out.withUnsafeMutableBytes { dst in
            try zstdCheck(ZSTD_compress2(cctx, dst.baseAddress, dst.count, input.baseAddress, input.count))
        }
        return out[0..<n]
    }
}

/// A streaming decompression context with a bounded window.
final class ZstdDecompressor {
    let dctx: OpaquePointer

    init(maxWindowLog: Int32) throws {
        guard let d = ZSTD_createDCtx() else { throw ZstdError(code: -1, name: "out of memory creating a decompression context") }
        dctx = d
        _ = try zstdCheck(ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax, maxWindowLog))
    }

    deinit { ZSTD_freeDCtx(dctx) }

    /// Forgets any partly decoded frame.
    func reset() { ZSTD_DCtx_reset(dctx, ZSTD_reset_session_only) }

    /// Decodes from `input` into `output`; returns the bytes consumed, produced and whether a frame ended.
    func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws -> (consumed: Int, produced: Int, frameEnded: Bool) {
        var inb = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
        var outb = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
        let r = try zstdCheck(ZSTD_decompressStream(dctx, &outb, &inb))
        return (inb.pos, outb.pos, r == 0)
    }

    /// The window size a frame header declares, when it can be read (RFC 8878, 3.1.1.1).
    static func declaredWindow(_ header: UnsafeRawBufferPointer) -> UInt64? {
        guard header.count >= 6 else { return nil }
        let descriptor = header[4]
        if descriptor & 0x20 != 0 { return nil }  // single segment: window = content size
        let wd = header[5]
        let windowLog = 10 + UInt64(wd >> 3)
        let base: UInt64 = 1 << windowLog
        return base + (base / 8) * UInt64(wd & 7)
    }
}
