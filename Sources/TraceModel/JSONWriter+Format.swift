/// The JSON forms of a string and of numbers, written into any byte buffer (`JSONWriter`, `Phrase`, the
/// decoder's own output).
extension JSONWriter {
    static let nullBytes = Array("null".utf8)

    /// Appends `s` as a JSON string literal, escaping quotes, backslashes and control characters.
    public static func appendEscaped(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Fast path: nothing to escape (the common case) is copied in one go, read in place (no copy of the
        // string, which costs a retain and a release per value).
        let plain = s.utf8.withContiguousStorageIfAvailable { p -> Bool in
            guard isPlain(p) else { return false }
            out.append(contentsOf: p)
            return true
        }
        if plain == true {
            out.append(UInt8(ascii: "\""))
            return
        }
        for c in s.utf8 {
            switch c {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(c)
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(c)
            case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
            case 0..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                        hex[Int(c >> 4)], hex[Int(c & 0xF)]])
            default: out.append(c)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether no byte of `p` needs escaping (below 0x20, a quote, a backslash, DEL), sixteen bytes (two
    /// words of eight) at a time, then eight: a report writes megabytes of messages, nearly all of them plain.
    static func isPlain(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = p.baseAddress else { return true }
        let raw = UnsafeRawPointer(base), highs: UInt64 = 0x8080_8080_8080_8080
        let n = p.count
        var i = 0
        while i &+ 16 <= n {
            let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self), y = raw.loadUnaligned(fromByteOffset: i &+ 8, as: UInt64.self)
            if (escapeHits(x) | escapeHits(y)) & highs != 0 { return false }
            i &+= 16
        }
        if i &+ 8 <= n {
            if escapeHits(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) & highs != 0 { return false }
            i &+= 8
        }
        while i < n {
            let c = p[i]
            if c < 0x20 || c == 0x22 || c == 0x5C || c == 0x7F { return false }
            i += 1
        }
        return true
    }

    /// Per byte of `x`: x - 0x20 borrows into the high bit of a byte below 0x20, and (x ^ c) - 1 into that
    /// of a byte equal to c; masked by the bytes whose own high bit is clear, a high bit is set (under
    /// `highs`) exactly where a byte needs escaping (a false hit only ever follows a true one).
    @inline(__always)
    private static func escapeHits(_ x: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let q = x ^ (ones &* 0x22), b = x ^ (ones &* 0x5C), d = x ^ (ones &* 0x7F)
        return ((x &- ones &* 0x20) | (q &- ones) | (b &- ones) | (d &- ones)) & ~x
    }

    /// The JSON string literal for `s`.
    public static func quoted(_ s: String) -> String {
        var b: [UInt8] = []
        appendEscaped(s, to: &b)
        return String(decoding: b, as: UTF8.self)
    }

    /// Appends the decimal form of `v` (`formatInt`).
    public static func appendInt(_ v: Int64, to out: inout [UInt8]) {
        if v >= 0 && v < 10 { out.append(UInt8(truncatingIfNeeded: v) &+ 0x30); return }
        formatInt(v) { out.append(contentsOf: $0) }
    }

    /// The decimal form of `v`, given to `body`: digits two at a time from a table, right to left into a
    /// small buffer on the stack.
    @inline(__always)
    static func formatInt(_ v: Int64, _ body: (UnsafeRawBufferPointer) -> Void) {
        var n = v.magnitude
        var tmp: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: 20 digits and a sign
        withUnsafeMutableBytes(of: &tmp) { buf in
            let pairs = UnsafeRawPointer(digitPairs.utf8Start).assumingMemoryBound(to: UInt8.self)
            var i = buf.count
            while n >= 100 {
                let pair = Int(n % 100) &* 2
                n /= 100
                i -= 2
                buf[i] = pairs[pair]
                buf[i + 1] = pairs[pair + 1]
            }
            if n >= 10 {
                let pair = Int(n) &* 2
                i -= 2
                buf[i] = pairs[pair]
                buf[i + 1] = pairs[pair + 1]
            } else {
                i -= 1
                buf[i] = UInt8(truncatingIfNeeded: n) &+ 0x30
            }
            if v < 0 { i -= 1; buf[i] = UInt8(ascii: "-") }
            body(UnsafeRawBufferPointer(rebasing: buf[i...]))
        }
    }

    /// "00" to "99", for `appendInt`.
    fileprivate static let digitPairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    static func appendDouble(_ v: Double, to out: inout [UInt8]) {
        guard v.isFinite else { out.append(contentsOf: nullBytes); return }
        if v == v.rounded(), abs(v) < 1e15 {
            appendInt(Int64(v), to: &out)
            return
        }
        // Values with few decimals (most measurements) are printed directly: m / 10^k == v means the
        // decimal m·10^-k parses back to exactly v, and the smallest such k gives the shortest form.
        if abs(v) < 1e9 {
            var scale = 1.0
            for _ in 1...4 {
                scale *= 10
                let m = (v * scale).rounded()
                guard m / scale == v else { continue }
                let n = Int64(m)
                if n < 0 { out.append(UInt8(ascii: "-")) }
                let magnitude = n.magnitude
                let p = UInt64(scale)
                appendInt(Int64(magnitude / p), to: &out)
                out.append(UInt8(ascii: "."))
                let frac = magnitude % p
                var div = p / 10
                while div > 0 {
                    out.append(UInt8((frac / div) % 10) + 0x30)
                    div /= 10
                }
                return
            }
        }
        out.append(contentsOf: v.description.utf8)
    }
}
