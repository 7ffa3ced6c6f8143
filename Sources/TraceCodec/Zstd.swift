import CZstd

/// An error reported by libzstd, named with `ZSTD_getErrorName`.
package struct ZstdError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libzstd's error code.
    package let code: Int
    /// libzstd's name for it.
    package let name: String

    /// libzstd's message, e.g. "Restored data doesn't match checksum".
    package var description: String { name }

    /// Whether the error is the window limit being exceeded.
    package var isWindowTooLarge: Bool { ZSTD_getErrorCode(code) == ZSTD_error_frameParameter_windowTooLarge }
    /// Whether the error is a checksum mismatch.
    package var isChecksumWrong: Bool { ZSTD_getErrorCode(code) == ZSTD_error_checksum_wrong }
}

/// Turns a libzstd size-or-error result into a size or a thrown `ZstdError`.
@inline(__always)
func zstdCheck(_ result: Int) throws -> Int {
    if ZSTD_isError(result) != 0 {
        throw ZstdError(code: result, name: String(cString: ZSTD_getErrorName(result)))
    }
    return result
}

/// A streaming decompression context with a bounded window.
final class ZstdDecompressor {
    let dctx: OpaquePointer

    init(maxWindowLog: Int32) throws {
        guard let d = ZSTD_createDCtx() else { throw ZstdError(code: -1, name: FileWords.outOfMemoryDecompressing) }
        dctx = d
        _ = try zstdCheck(ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax, maxWindowLog))
    }

    deinit { ZSTD_freeDCtx(dctx) }

    /// Forgets any partly decoded frame.
    func reset() { ZSTD_DCtx_reset(dctx, ZSTD_reset_session_only) }

    /// Makes the context as a new one with this window limit would be (no frame begun; the memory it
    /// allocated for earlier frames kept); false when the limit cannot be set.
    func restart(maxWindowLog: Int32) -> Bool {
        reset()
        return ZSTD_isError(ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax, maxWindowLog)) == 0
    }

    /// Decodes from `input` into `output`; returns the bytes consumed, produced and whether a frame ended.
    func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws -> (consumed: Int, produced: Int, frameEnded: Bool) {
        var inb = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
        var outb = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
        let r = try zstdCheck(ZSTD_decompressStream(dctx, &outb, &inb))
        return (inb.pos, outb.pos, r == 0)
    }

    /// The memory a frame header asks for its window (RFC 8878, 3.1.1.1): the declared window, or for a
    /// single-segment frame its content size; nil when the header cannot be read.
    static func frameWindow(_ header: UnsafeRawBufferPointer) -> UInt64? {
        guard header.count >= 5 else { return nil }
        let descriptor = header[4]
        guard descriptor & 0x20 != 0 else { return declaredWindow(header) }
        let dictBytes = [0, 1, 2, 4][Int(descriptor & 3)]
        let sizeBytes = [1, 2, 4, 8][Int(descriptor >> 6)]
        let at = 5 + dictBytes
        guard header.count >= at + sizeBytes else { return nil }
        var size: UInt64 = 0
        for i in (0..<sizeBytes).reversed() { size = size << 8 | UInt64(header[at + i]) }
        return sizeBytes == 2 ? size + 256 : size
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

extension ZstdDecompressor {
    /// The compressed size of the whole frame `bytes` starts with (its blocks and checksum walked, nothing
    /// decoded); nil when it does not end within `bytes` or its headers cannot be read.
    static func frameSize(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let n = ZSTD_findFrameCompressedSize(base, bytes.count)
        return ZSTD_isError(n) != 0 ? nil : n
    }
}
