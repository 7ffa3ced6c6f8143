/// Frame magic numbers of the zstd format (RFC 8878).
public enum ZstdMagic {
    /// A zstd data frame.
    public static let frame: UInt32 = 0xFD2F_B528
    /// The first of sixteen skippable-frame magics.
    public static let skippableLow: UInt32 = 0x184D_2A50
    /// The skippable magic rtctrace uses for its own marks.
    public static let rtctrace: UInt32 = 0x184D_2A5E

    /// Whether `m` is one of the sixteen skippable-frame magics.
    public static func isSkippable(_ m: UInt32) -> Bool { m & 0xFFFF_FFF0 == skippableLow }
}

/// rtctrace's own skippable frames, which stock zstd skips: a start mark at the head of every trace it
/// creates, an end mark each time a writer closes cleanly, and the device recorder's part and index
/// marks, which let it repair a part a crash left open by walking the frame structure, without a
/// decoder (docs/container.md).
///
/// The end mark is what lets `verify` tell a trace that was closed from one cut at a frame boundary: a
/// trace that starts with the start mark must end with an end mark.
public enum TraceMark: Equatable, Sendable {
    case start
    /// `lastSeq` is the seq of the last record before the mark (-1 when none).
    case end(lastSeq: Int64)
    /// After the start mark of a recorder's part: when its session began (wall clock, ms since 1970),
    /// its part number, and whether a recorder restarted after a crash began it.
    case part(sessionStartMs: Int64, part: Int32, resumed: Bool)
    /// After each data frame a recorder writes: the seq and `t` of the frame's last record.
    case frameIndex(lastSeq: Int64, lastT: Int64)

    /// `RTCTRACE`, the first eight bytes of every mark's payload.
    public static let tag = Array("RTCTRACE".utf8)

    /// The whole skippable frame for this mark.
    public var frame: [UInt8] {
        var payload = Self.tag
        func le<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { payload += $0 } }
        switch self {
        case .start:
            payload += [UInt8(ascii: "S"), 1, 0, 0]
        case .end(let lastSeq):
            payload += [UInt8(ascii: "E"), 1, 0, 0]
            le(lastSeq)
        case let .part(start, part, resumed):
            payload += [UInt8(ascii: "P"), 1, resumed ? 1 : 0, 0]
            le(start)
            le(part)
            le(Int32(0))
        case let .frameIndex(lastSeq, lastT):
            payload += [UInt8(ascii: "I"), 1, 0, 0]
            le(lastSeq)
            le(lastT)
        }
        var out: [UInt8] = []
        withUnsafeBytes(of: ZstdMagic.rtctrace.littleEndian) { out += $0 }
        withUnsafeBytes(of: UInt32(payload.count).littleEndian) { out += $0 }
        return out + payload
    }

    /// Parses a skippable frame's payload; nil when it is not one of ours (or a kind this version does not know).
    public static func parse(magic: UInt32, payload: ArraySlice<UInt8>) -> TraceMark? {
        guard magic == ZstdMagic.rtctrace, payload.count >= 12, Array(payload.prefix(8)) == tag else { return nil }
        let base = payload.startIndex
        func int64(_ at: Int) -> Int64 {
            var v: UInt64 = 0
            for i in 0..<8 { v |= UInt64(payload[base + at + i]) << (8 * UInt64(i)) }
            return Int64(bitPattern: v)
        }
        func int32(_ at: Int) -> Int32 {
            var v: UInt32 = 0
            for i in 0..<4 { v |= UInt32(payload[base + at + i]) << (8 * UInt32(i)) }
            return Int32(bitPattern: v)
        }
        switch payload[base + 8] {
        case UInt8(ascii: "S"): return .start
        case UInt8(ascii: "E") where payload.count >= 20: return .end(lastSeq: int64(12))
        case UInt8(ascii: "P") where payload.count >= 24: return .part(sessionStartMs: int64(12), part: int32(20), resumed: payload[base + 10] & 1 != 0)
        case UInt8(ascii: "I") where payload.count >= 28: return .frameIndex(lastSeq: int64(12), lastT: int64(20))
        default: return nil
        }
    }
}
