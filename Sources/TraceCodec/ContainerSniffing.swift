/// What the first bytes of an input say it is, before any record is read.
///
/// Archives are recognised by their magic bytes first (so that a gzip'd trace gets "gunzip it first",
/// not a wall of bad records); then zstd frames at offset 0. Input that starts like a JSON object (after
/// blank space and a byte-order mark) is JSON Lines unless a frame magic starts right after one of its
/// complete lines: the 4 bytes of a magic inside a line (a bad record, since 0xFD is never UTF-8) are
/// that line's damage and must not turn the whole file into garbage before a frame. Anything else with a
/// frame magic in the first buffer is frames after damaged or foreign bytes.
enum ContainerKind: Equatable {
    /// A known archive format, with the command that unpacks it.
    case archive(name: String, unpack: String)
    /// zstd frames start at offset 0.
    case zstd
    /// zstd frames start later, after damaged or foreign bytes.
    case zstdAfterGarbage
    /// Plain JSON Lines (or an empty input).
    case jsonLines
    /// Neither zstd frames in the bytes seen nor text that starts like JSON; the reader still scans
    /// the rest of the input for a frame before it gives up.
    case unknown

    /// Classifies an input from its first buffered bytes.
    static func sniff(_ p: UnsafeBufferPointer<UInt8>) -> ContainerKind {
        func starts(_ magic: [UInt8]) -> Bool { p.count >= magic.count && zip(p, magic).allSatisfy { $0 == $1 } }
        if starts([0x1F, 0x8B]) { return ContainerWords.gzip }
        if starts([0x50, 0x4B, 0x03, 0x04]) || starts([0x50, 0x4B, 0x05, 0x06]) {
            return ContainerWords.zip
        }
        if starts([0x42, 0x5A, 0x68]) { return ContainerWords.bzip2 }
        if starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return ContainerWords.xz }
        if isTarHeader(p) { return ContainerWords.tar }
        if p.count >= 4, isFrameMagic(readLE32(p, 0)) { return .zstd }
        let text = p.starts(with: byteOrderMark) ? UnsafeBufferPointer(rebasing: p[byteOrderMark.count...]) : p
        let first = text.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 })
        if first == UInt8(ascii: "{") || first == nil {
            return firstFrameMagicAfterLine(p) != nil ? .zstdAfterGarbage : .jsonLines
        }
        return firstFrameMagic(p) != nil ? .zstdAfterGarbage : .unknown
    }

    /// The UTF-8 byte-order mark some editors put before the first line; the reader skips it.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The index of the first frame magic in `p` that starts right after a newline, if any: where a
    /// frame can follow JSON Lines.
    static func firstFrameMagicAfterLine(_ p: UnsafeBufferPointer<UInt8>) -> Int? {
        var from = 0
        while let i = firstFrameMagic(p, from: from) {
            if i > 0 && p[i - 1] == 0x0A { return i }
            from = i + 1
        }
        return nil
    }

    /// Whether `p` starts with a tar header (POSIX `ustar` magic at offset 257).
    static func isTarHeader(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        p.count >= 262 && p[257] == 0x75 && p[258] == 0x73 && p[259] == 0x74 && p[260] == 0x61 && p[261] == 0x72
    }


    /// The index of the first zstd data or skippable frame magic in `p`, if any.
    static func firstFrameMagic(_ p: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int? {
        var i = start
        while i + 4 <= p.count {
            if p[i] == 0x28 || p[i] & 0xF0 == 0x50, isFrameMagic(readLE32(p, i)) { return i }
            i += 1
        }
        return nil
    }

    static func isFrameMagic(_ m: UInt32) -> Bool { m == ZstdMagic.frame || ZstdMagic.isSkippable(m) }
}
