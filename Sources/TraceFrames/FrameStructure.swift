/// The structure of the frames a trace file is made of, read from their headers alone (RFC 8878: the
/// frame header, then block headers, each giving its block's size): where a frame ends, and whether it
/// is whole, without decompressing anything. It is how a recorder with no zstd decoder on board
/// repairs a part a crash left open, and how a compressor passed in from outside is checked.
public enum FrameStructure {
    /// What starts at an offset.
    public enum Extent: Equatable, Sendable {
        /// A whole data frame of this many bytes; whether it carries the content checksum.
        case data(length: Int, checksummed: Bool)
        /// A whole skippable frame: its magic and where its payload lies (offsets into the buffer).
        case skippable(length: Int, magic: UInt32, payload: Range<Int>)
        /// A frame that the bytes end inside (a write cut short).
        case truncated
        /// No frame starts here, or its headers are impossible (a reserved bit or block type).
        case invalid
    }

    /// The frame that starts at `at` in `bytes`.
    public static func extent(of bytes: UnsafeRawBufferPointer, at: Int) -> Extent {
        extent(at: at, size: bytes.count) { offset, count in
            guard offset >= 0, offset + count <= bytes.count else { return nil }
            return Array(bytes[offset..<offset + count])
        }
    }

    /// The frame that starts at `at` in a file of `size` bytes, read through `read(offset, count)`, which
    /// returns exactly `count` bytes or nil. Reads only headers: a few bytes per block.
    public static func extent(at: Int, size: Int, read: (Int, Int) -> [UInt8]?) -> Extent {
        func le(_ b: [UInt8], _ from: Int, _ n: Int) -> UInt64 {
            var v: UInt64 = 0
            for i in 0..<n { v |= UInt64(b[from + i]) << (8 * UInt64(i)) }
            return v
        }
        guard at + 4 <= size else { return at < size ? .truncated : .invalid }
        guard let m = read(at, 4) else { return .invalid }
        let magic = UInt32(le(m, 0, 4))
        if ZstdMagic.isSkippable(magic) {
            guard at + 8 <= size, let h = read(at + 4, 4) else { return .truncated }
            let length = 8 + Int(le(h, 0, 4))
            guard at + length <= size else { return .truncated }
            return .skippable(length: length, magic: magic, payload: (at + 8)..<(at + length))
        }
        guard magic == ZstdMagic.frame else { return .invalid }
        guard at + 5 <= size, let d = read(at + 4, 1) else { return .truncated }
        let fhd = d[0]
        guard fhd & 0x08 == 0 else { return .invalid }  // reserved bit
        let single = fhd & 0x20 != 0, checksum = fhd & 0x04 != 0
        let didBytes = [0, 1, 2, 4][Int(fhd & 3)]
        let fcsBytes = [single ? 1 : 0, 2, 4, 8][Int(fhd >> 6)]
        var pos = at + 5 + (single ? 0 : 1) + didBytes + fcsBytes
        guard pos <= size else { return .truncated }
        while true {
            guard pos + 3 <= size else { return .truncated }
            guard let b = read(pos, 3) else { return .invalid }
            let header = le(b, 0, 3)
            let last = header & 1 != 0, type = (header >> 1) & 3, blockSize = Int(header >> 3)
            guard type != 3, blockSize <= 128 << 10 else { return .invalid }
            pos += 3 + (type == 1 ? 1 : blockSize)
            guard pos <= size else { return .truncated }
            if last { break }
        }
        if checksum { pos += 4 }
        guard pos <= size else { return .truncated }
        return .data(length: pos - at, checksummed: checksum)
    }
}

extension FrameStructure {
    /// Whether the data frame whose first bytes are `head` begins with a stored (raw) block, as the
    /// project's own encoder writes them; nil when `head` is too short to say.
    public static func startsWithStoredBlock(_ head: UnsafeRawBufferPointer) -> Bool? {
        guard head.count >= 5 else { return nil }
        let fhd = head[4]
        let single = fhd & 0x20 != 0
        let at = 5 + (single ? 0 : 1) + [0, 1, 2, 4][Int(fhd & 3)] + [single ? 1 : 0, 2, 4, 8][Int(fhd >> 6)]
        guard head.count > at else { return nil }
        return (head[at] >> 1) & 3 == 0
    }
}
