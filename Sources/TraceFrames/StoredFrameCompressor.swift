/// The project's own zstd encoder: frames of stored (raw) blocks, with the content checksum. Nothing is
/// compressed (a frame is its input plus 12 to 20 bytes), but every zstd reader reads it (RFC 8878:
/// single-segment frame header with the content size, raw blocks of at most 128 KiB, XXH64 checksum).
/// It is what a recorder writes when no zstd library is at hand.
public final class StoredFrameCompressor: TraceCompressor {
    /// A block holds at most this many bytes (the format's maximum).
    public static let maxBlock = 128 << 10

    /// Creates the encoder.
    public init() {}

    public func maxFrameSize(forInput count: Int) -> Int {
        4 + 1 + 8 + max(1, (count + Self.maxBlock - 1) / Self.maxBlock) * 3 + count + 4
    }

    public func compressFrame(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws -> Int {
        guard output.count >= maxFrameSize(forInput: input.count) else { throw CompressionError(FrameWords.outputBufferTooSmall) }
        var at = 0
        func byte(_ b: UInt8) { output[at] = b; at += 1 }
        func le(_ v: UInt64, _ bytes: Int) { for i in 0..<bytes { byte(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
        le(UInt64(ZstdMagic.frame), 4)
        // Frame header descriptor: single segment (no window descriptor: the window is the content
        // size), content checksum, no dictionary; the content-size field as small as it can be.
        let n = UInt64(input.count)
        let sizeFlag: UInt8, sizeBytes: Int, sizeValue: UInt64
        switch n {
        case 0...255: (sizeFlag, sizeBytes, sizeValue) = (0, 1, n)
        case 256...65_791: (sizeFlag, sizeBytes, sizeValue) = (1, 2, n - 256)
        case 65_792...0xFFFF_FFFF: (sizeFlag, sizeBytes, sizeValue) = (2, 4, n)
        default: (sizeFlag, sizeBytes, sizeValue) = (3, 8, n)
        }
        byte(sizeFlag << 6 | 1 << 5 | 1 << 2)
        le(sizeValue, sizeBytes)
        var offset = 0
        repeat {
            let size = min(Self.maxBlock, input.count - offset)
            let last: UInt32 = offset + size == input.count ? 1 : 0
            // Block header: last-block bit, type 0 (raw), size.
            le(UInt64(UInt32(size) << 3 | last), 3)
            if size > 0 {
                UnsafeMutableRawBufferPointer(rebasing: output[at..<at + size])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: input[offset..<offset + size]))
            }
            at += size
            offset += size
        } while offset < input.count
        le(XXH64.hash(input) & 0xFFFF_FFFF, 4)
        return at
    }
}
