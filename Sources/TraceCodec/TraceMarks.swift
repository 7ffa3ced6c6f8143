import TraceFrames

// rtctrace's marks, the zstd magic numbers and the compressor are the container's, defined once in
// TraceFrames (the device recorder writes them too, without this module).
typealias TraceMark = TraceFrames.TraceMark
typealias ZstdMagic = TraceFrames.ZstdMagic
typealias ZstdCompressor = TraceFrames.SystemZstdCompressor

/// Little-endian 32-bit read from a byte buffer.
@inline(__always)
func readLE32(_ p: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32 {
    UInt32(p[at]) | UInt32(p[at + 1]) << 8 | UInt32(p[at + 2]) << 16 | UInt32(p[at + 3]) << 24
}
