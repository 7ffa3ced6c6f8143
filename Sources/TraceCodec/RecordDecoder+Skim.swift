import TraceModel

/// What `cat` reads of a line it passes through: the leading members in canonical order and the line's
/// structure, never the fields it does not filter on.
public struct SkimmedLine: Sendable, Equatable {
    /// The record's seq.
    public var seq: Int
    /// The record's time.
    public var t: Int64
    /// The record's type.
    public var kind: RecordKind
}

extension RecordDecoder {
    /// The seq, time and type of a line of a high-rate type written in canonical order (`{"seq":N,"t":N,
    /// "type":"…"` first) whose structure holds: it is one JSON object that closes at the end of the line,
    /// its strings end and hold no control characters, its brackets nest, and it is ASCII. Its other fields
    /// are not read. Nil for anything else, which the caller decodes in full (and so reports as before).
    static func skim(_ line: UnsafeBufferPointer<UInt8>) -> SkimmedLine? {
        var c = JSONCursor(line)
        guard c.literal("{\"seq\":"), let seq = c.fastCount(), seq <= Int64(Int32.max) * 1024,
              c.literal(",\"t\":"), let t = c.fastCount(), t <= Record.maxT,
              c.literal(",\"type\":"), let (typeRange, escaped) = try? c.readStringRange(), !escaped,
              let kind = RecordKindLookup.lookup(UnsafeBufferPointer(rebasing: line[typeRange])), kind.isHighRate,
              LineStructure.closesObject(line, from: c.pos) else { return nil }
        return SkimmedLine(seq: Int(seq), t: t, kind: kind)
    }
}

/// The structural check of a line `cat` passes through: one pass over its bytes that follows strings and
/// nesting only. Ways of skipping ahead over bytes that need no look are kept as `Skip` for `make bench`
/// to measure against the plain loop; on trace lines (a quote every few bytes) none paid, so the reader
/// uses the plain loop (docs/performance.md).
public enum LineStructure {
    /// How the pass finds the bytes it must look at.
    public enum Skip: String, CaseIterable, Sendable {
        /// Every byte through the loop.
        case none
        /// Eight bytes at a time in a UInt64 (SWAR: bit tricks find a quote, bracket, backslash, control or
        /// non-ASCII byte in a word).
        case words
        /// Sixteen bytes at a time as `SIMD16<UInt8>` comparisons and masks.
        case simd16
    }

    /// The skip the reader uses.
    public static let standard = Skip.none

    /// Whether `line` from `start` (inside the top-level object, outside any string) closes that object
    /// exactly once, with only whitespace after it: strings end and hold no control characters, `{}` and
    /// `[]` nest (at most 64 deep), and every byte is ASCII (a line with other bytes is left to the
    /// decoder, which validates its UTF-8).
    public static func closesObject(_ line: UnsafeBufferPointer<UInt8>, from start: Int, skip: Skip = standard) -> Bool {
        guard let base = line.baseAddress else { return false }
        let n = line.count
        var stack: UInt64 = 0  // bit k: the container at depth k is an array
        var depth = 1
        var i = start
        var inString = false
        while i < n {
            switch skip {
            case .none: break
            case .words:
                while i + 8 <= n, !mayMatter(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self), inString: inString) { i += 8 }
            case .simd16:
                while i + 16 <= n, !mayMatter(UnsafeRawPointer(base + i).loadUnaligned(as: SIMD16<UInt8>.self), inString: inString) { i += 16 }
            }
            guard i < n else { break }
            let b = base[i]
            i += 1
            if inString {
                if b == UInt8(ascii: "\"") { inString = false } else if b == UInt8(ascii: "\\") {
                    guard i < n, base[i] >= 0x20, base[i] < 0x80 else { return false }
                    i += 1
                } else if b < 0x20 || b >= 0x80 { return false }
                continue
            }
            switch b {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth < 64 else { return false }
                if b == UInt8(ascii: "[") { stack |= 1 << UInt64(depth) } else { stack &= ~(1 << UInt64(depth)) }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                let isArray = stack & (1 << UInt64(depth)) != 0
                // The top level (depth 0) is the record's object, never an array.
                guard (b == UInt8(ascii: "]")) == (isArray && depth > 0) else { return false }
                if depth == 0 {
                    while i < n {
                        let w = base[i]
                        guard w == 0x20 || w == 0x09 || w == 0x0D else { return false }
                        i += 1
                    }
                    return true
                }
            default:
                if (b < 0x20 && b != 0x09 && b != 0x0D) || b >= 0x80 { return false }
            }
        }
        return false
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// A high bit in each byte of `x` that equals `c`.
    @inline(__always)
    private static func equal(_ x: UInt64, _ c: UInt8) -> UInt64 {
        let y = x ^ (ones &* UInt64(c))
        return (y &- ones) & ~y & highs
    }

    /// Whether a word holds a byte the loop must look at: outside a string, a quote or a bracket; inside
    /// one, a quote or a backslash; anywhere, a control or non-ASCII byte.
    @inline(__always)
    static func mayMatter(_ x: UInt64, inString: Bool) -> Bool {
        // Bytes below 0x20 (for bytes below 0x80; the others are flagged by their high bit anyway).
        let odd = ((x &- ones &* 0x20) & ~x & highs) | (x & highs)
        if inString { return odd | equal(x, UInt8(ascii: "\"")) | equal(x, UInt8(ascii: "\\")) != 0 }
        // `{` `}` `[` `]` are 0x7B 0x7D 0x5B 0x5D: with bit 5 cleared, 0x5B or 0x5D.
        let folded = x & ~(ones &* 0x20)
        return odd | equal(x, UInt8(ascii: "\"")) | equal(folded, 0x5B) | equal(folded, 0x5D) != 0
    }

    /// `mayMatter` for sixteen bytes as SIMD comparisons.
    @inline(__always)
    static func mayMatter(_ v: SIMD16<UInt8>, inString: Bool) -> Bool {
        let quote = v .== SIMD16(repeating: UInt8(ascii: "\""))
        let odd = (v .< SIMD16(repeating: 0x20)) .| (v .>= SIMD16(repeating: 0x80))
        if inString { return any(quote .| odd .| (v .== SIMD16(repeating: UInt8(ascii: "\\")))) }
        let folded = v & SIMD16(repeating: 0xDF)
        return any(quote .| odd .| (folded .== SIMD16(repeating: 0x5B)) .| (folded .== SIMD16(repeating: 0x5D)))
    }
}
