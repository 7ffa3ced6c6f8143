/// rtctrace's own skippable frames: a start mark at the head of every trace it creates, and an
/// end mark each time a writer closes cleanly. Stock zstd skips both.
///
/// The end mark is what lets `verify` tell a trace that was closed from one cut at a frame
/// boundary: a trace that starts with the start mark must end with an end mark.
enum TraceMark: Equatable {
    case start
    /// `lastSeq` is the seq of the last record before the mark (-1 when none).
    case end(lastSeq: Int64)

    static let tag = Array("RTCTRACE".utf8)

    /// The whole skippable frame for this mark.
    var frame: [UInt8] {
        var payload = Self.tag
        switch self {
        case .start:
            payload += [UInt8(ascii: "S"), 1, 0, 0]
        case .end(let lastSeq):
            payload += [UInt8(ascii: "E"), 1, 0, 0]
            withUnsafeBytes(of: lastSeq.littleEndian) { payload += $0 }
        }
        var out: [UInt8] = []
        withUnsafeBytes(of: ZstdMagic.rtctrace.littleEndian) { out += $0 }
        withUnsafeBytes(of: UInt32(payload.count).littleEndian) { out += $0 }
        return out + payload
    }

    /// Parses a skippable frame's payload; nil when it is not one of ours.
    static func parse(magic: UInt32, payload: ArraySlice<UInt8>) -> TraceMark? {
        guard magic == ZstdMagic.rtctrace, payload.count >= 12, Array(payload.prefix(8)) == tag else { return nil }
        let kind = payload[payload.startIndex + 8]
        if kind == UInt8(ascii: "S") { return .start }
        if kind == UInt8(ascii: "E"), payload.count >= 20 {
            var v: Int64 = 0
            for i in 0..<8 { v |= Int64(payload[payload.startIndex + 12 + i]) << (8 * i) }
            return .end(lastSeq: v)
        }
        return nil
    }
}

/// Little-endian 32-bit read from a byte buffer.
@inline(__always)
func readLE32(_ p: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32 {
    UInt32(p[at]) | UInt32(p[at + 1]) << 8 | UInt32(p[at + 2]) << 16 | UInt32(p[at + 3]) << 24
}
