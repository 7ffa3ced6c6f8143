#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// File names as the system has them: bytes, not necessarily UTF-8. A name that is not valid UTF-8 is
/// held in a `String` with each byte that is not part of a valid sequence as one scalar of the
/// Supplementary Private Use Area-B, U+10FF80 + (byte − 0x80); every call on a path in this module gives
/// the system those bytes back, so such a file can be listed, opened, renamed and removed, and shown
/// escaped (`\xNN`, `displayed`). A valid name is held as itself.
public enum PathName {
    /// The scalar standing for byte 0x80; bytes 0x80…0xFF map to U+10FF80…U+10FFFF.
    static let rawBase: UInt32 = 0x10FF00

    /// The byte a scalar stands for, when it is one of the raw-byte scalars.
    @inline(__always)
    public static func rawByte(_ scalar: Unicode.Scalar) -> UInt8? {
        scalar.value >= rawBase + 0x80 && scalar.value <= rawBase + 0xFF ? UInt8(scalar.value - rawBase) : nil
    }

    /// The name for `bytes` (without a terminating NUL): valid UTF-8 as itself, any other byte as its raw-byte scalar.
    public static func decode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let b = Array(bytes)
        var valid = 0
        while valid < b.count, case let n = sequenceLength(b, valid), n > 0 { valid += n }
        if valid == b.count { return String(decoding: b, as: UTF8.self) }
        var out = String.UnicodeScalarView()
        var i = 0
        while i < b.count {
            let n = sequenceLength(b, i)
            if n > 0 {
                out.append(contentsOf: String(decoding: b[i..<i + n], as: UTF8.self).unicodeScalars)
                i += n
            } else {
                out.append(Unicode.Scalar(rawBase + UInt32(b[i]))!)
                i += 1
            }
        }
        return String(out)
    }

    /// The length of the valid UTF-8 sequence starting at `i`, or 0 when none starts there.
    static func sequenceLength(_ b: [UInt8], _ i: Int) -> Int {
        let c = b[i]
        func cont(_ k: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool { i + k < b.count && range.contains(b[i + k]) }
        switch c {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: return cont(1) ? 2 : 0
        case 0xE0: return cont(1, 0xA0...0xBF) && cont(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF: return cont(1) && cont(2) ? 3 : 0
        case 0xED: return cont(1, 0x80...0x9F) && cont(2) ? 3 : 0
        case 0xF0: return cont(1, 0x90...0xBF) && cont(2) && cont(3) ? 4 : 0
        case 0xF1...0xF3: return cont(1) && cont(2) && cont(3) ? 4 : 0
        case 0xF4: return cont(1, 0x80...0x8F) && cont(2) && cont(3) ? 4 : 0
        default: return 0
        }
    }

    /// The bytes the system knows `path` by.
    public static func bytes(_ path: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        for s in path.unicodeScalars {
            if let raw = rawByte(s) { out.append(raw) } else { out.append(contentsOf: String(s).utf8) }
        }
        return out
    }

    /// Runs `body` with `path` as the system's NUL-terminated bytes.
    @inline(__always)
    public static func withCString<T>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        // The raw-byte scalars are the only ones encoded F4 8F BE/BF …: a path without 0xF4 is as it is.
        if !path.utf8.contains(0xF4) { return try path.withCString(body) }
        let b = bytes(path) + [0]
        return try b.withUnsafeBufferPointer { try $0.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) } }
    }

    /// `path` with each raw byte shown as `\xNN` (for messages and terminals; the path itself is unchanged).
    public static func displayed(_ path: String) -> String {
        guard path.utf8.contains(0xF4) else { return path }
        var out = ""
        for s in path.unicodeScalars {
            if let raw = rawByte(s) {
                let hex = String(raw, radix: 16, uppercase: true)
                out += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            } else {
                out.unicodeScalars.append(s)
            }
        }
        return out
    }
}
