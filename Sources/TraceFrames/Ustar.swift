/// The POSIX `ustar` archive layout a bundle is written in (an uncompressed tar any `tar` lists): a
/// 512-byte header per member, its bytes padded to 512, and two zero blocks at the end. Only what a
/// bundle needs: regular files with flat names of at most 100 bytes.
public enum Ustar {
    /// The block size: headers and member data are in whole blocks.
    public static let block = 512

    /// The longest member name (bytes) a header holds without a prefix.
    public static let maxName = 100

    /// A member's header: `name`, `size` bytes, modified at `mtime` (seconds since 1970), mode 0644.
    public static func header(name: String, size: Int, mtime: Int64) -> [UInt8] {
        var h = [UInt8](repeating: 0, count: block)
        func put(_ bytes: [UInt8], at offset: Int) { for (i, b) in bytes.enumerated() { h[offset + i] = b } }
        func octal(_ v: Int64, width: Int) -> [UInt8] {
            // Width - 1 octal digits, zero-padded, then NUL.
            var s = String(v, radix: 8)
            while s.count < width - 1 { s = "0" + s }
            return Array(s.utf8) + [0]
        }
        put(Array(name.utf8.prefix(maxName)), at: 0)
        put(octal(0o644, width: 8), at: 100)
        put(octal(0, width: 8), at: 108)
        put(octal(0, width: 8), at: 116)
        put(octal(Int64(size), width: 12), at: 124)
        put(octal(max(0, mtime), width: 12), at: 136)
        h[156] = UInt8(ascii: "0")
        put(Array("ustar".utf8) + [0], at: 257)
        put(Array("00".utf8), at: 263)
        // The checksum: the sum of the header's bytes with its own field read as spaces.
        put([UInt8](repeating: 0x20, count: 8), at: 148)
        let sum = h.reduce(0) { $0 + Int64($1) }
        put(octal(sum, width: 7) + [0x20], at: 148)
        return h
    }

    /// The padding after `size` bytes of member data, to the next whole block.
    public static func padding(_ size: Int) -> Int { (block - size % block) % block }

    /// The two zero blocks that end an archive.
    public static let end = [UInt8](repeating: 0, count: 2 * block)

    /// One member header read back.
    public struct Entry: Equatable, Sendable {
        /// Its name (the prefix field joined with a `/`, when there is one).
        public var name: String
        /// Its data's size in bytes.
        public var size: Int
        /// Its type flag (`0` or NUL: a regular file).
        public var type: UInt8

        /// Whether it is a regular file.
        public var isFile: Bool { type == UInt8(ascii: "0") || type == 0 }
    }

    /// What a header block says: an entry, nil for a zero block (the end), or a `Fault` naming what is wrong.
    public static func parse(_ h: UnsafeRawBufferPointer) -> Result<Entry?, Fault> {
        guard h.count >= block else { return .failure(Fault(FrameWords.headerCut(blockBytes: block))) }
        if h.prefix(block).allSatisfy({ $0 == 0 }) { return .success(nil) }
        func field(_ at: Int, _ n: Int) -> [UInt8] { Array(h[at..<at + n].prefix { $0 != 0 }) }
        func octal(_ at: Int, _ n: Int) -> Int64? {
            var v: Int64 = 0, seen = false
            for b in h[at..<at + n] {
                if b == 0 || b == 0x20 { if seen { break } else { continue } }
                guard b >= 0x30 && b <= 0x37 else { return nil }
                v = v * 8 + Int64(b - 0x30)
                seen = true
                if v > Int64(1) << 40 { return nil }
            }
            return v
        }
        guard h[257] == 0x75, h[258] == 0x73, h[259] == 0x74, h[260] == 0x61, h[261] == 0x72 else {
            return .failure(Fault(FrameWords.noUstarMagic))
        }
        var sum: Int64 = 0
        for i in 0..<block { sum += Int64(i >= 148 && i < 156 ? 0x20 : h[i]) }
        guard let recorded = octal(148, 8), recorded == sum else { return .failure(Fault(FrameWords.headerChecksumMismatch)) }
        guard let size = octal(124, 12) else { return .failure(Fault(FrameWords.headerSizeNotOctal)) }
        var name = String(decoding: field(0, 100), as: UTF8.self)
        let prefix = field(345, 155)
        if !prefix.isEmpty { name = String(decoding: prefix, as: UTF8.self) + "/" + name }
        return .success(Entry(name: name, size: Int(size), type: h[156]))
    }

    /// What is wrong with an archive, in words.
    public struct Fault: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }
}
