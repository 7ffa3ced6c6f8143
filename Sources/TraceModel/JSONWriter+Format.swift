/// The JSON forms of a string and of numbers, written into any byte buffer (`JSONWriter`, `Phrase`, the
/// decoder's own output).
extension JSONWriter {
    static let nullBytes = Array("null".utf8)

    /// Appends `s` as a JSON string literal, escaping quotes, backslashes and control characters.
    public static func appendEscaped(_ s: String, to out: inout [UInt8]) {
        // Read in place (no copy of the string, which costs a retain and a release per value).
        let done = s.utf8.withContiguousStorageIfAvailable { p -> Bool in
            appendEscaped(p, to: &out)
            return true
        }
        guard done != true else { return }
        let copy = Array(s.utf8)
        copy.withUnsafeBufferPointer { appendEscaped($0, to: &out) }
    }

    /// Appends the UTF-8 bytes `p` as a JSON string literal: nothing to escape (the common case) is copied
    /// in one go; otherwise the runs between the bytes to escape are, each such byte escaped on its own.
    static func appendEscaped(_ p: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        guard !isPlain(p) else {
            out.append(contentsOf: p)
            out.append(UInt8(ascii: "\""))
            return
        }
        var run = 0
        for i in 0..<p.count {
            let c = p[i]
            guard c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c == 0x7F else { continue }
            if run < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: p[run..<i])) }
            run = i + 1
            switch c {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(c)
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(c)
            case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
            default:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                        hex[Int(c >> 4)], hex[Int(c & 0xF)]])
            }
        }
        if run < p.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: p[run...])) }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether no byte of `p` needs escaping (below 0x20, a quote, a backslash, DEL), sixteen bytes (two
    /// words of eight) at a time, the rest with one or two words that overlap what was read (a short string
    /// too): a report writes megabytes of messages, nearly all of them plain.
    static func isPlain(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = p.baseAddress else { return true }
        let raw = UnsafeRawPointer(base), highs: UInt64 = 0x8080_8080_8080_8080
        let n = p.count
        if n < 8 {
            // Four bytes twice (overlapping), or the bytes one by one below four.
            if n >= 4 {
                let x = UInt64(raw.loadUnaligned(as: UInt32.self)) | UInt64(raw.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)) << 32
                return escapeHits(x) & highs == 0
            }
            for i in 0..<n {
                let c = p[i]
                if c < 0x20 || c == 0x22 || c == 0x5C || c == 0x7F { return false }
            }
            return true
        }
        var i = 0
        while i &+ 16 <= n {
            let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self), y = raw.loadUnaligned(fromByteOffset: i &+ 8, as: UInt64.self)
            if (escapeHits(x) | escapeHits(y)) & highs != 0 { return false }
            i &+= 16
        }
        // What is left (under sixteen bytes): its last eight, and its first eight when there are more.
        if i < n {
            let last = raw.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
            var hits = escapeHits(last)
            if n &- i > 8 { hits |= escapeHits(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) }
            if hits & highs != 0 { return false }
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
        var tmp: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: 20 digits and a sign
        withUnsafeMutableBytes(of: &tmp) { buf in
            let end = buf.baseAddress.unsafelyUnwrapped + buf.count
            let n = formatDigits(v, endingAt: end)
            body(UnsafeRawBufferPointer(start: end - n, count: n))
        }
    }

    /// Writes the decimal form of `v` (at most 20 digits and a sign) right to left, its last byte just
    /// before `end`, two digits at a time from a table; returns its length.
    @inline(__always)
    static func formatDigits(_ v: Int64, endingAt end: UnsafeMutableRawPointer) -> Int {
        var n = v.magnitude
        let pairs = UnsafeRawPointer(digitPairs.utf8Start)
        var at = end
        while n >= 100 {
            let pair = Int(n % 100) &* 2
            n /= 100
            at -= 2
            at.storeBytes(of: pairs.loadUnaligned(fromByteOffset: pair, as: UInt16.self), as: UInt16.self)
        }
        if n >= 10 {
            at -= 2
            at.storeBytes(of: pairs.loadUnaligned(fromByteOffset: Int(n) &* 2, as: UInt16.self), as: UInt16.self)
        } else {
            at -= 1
            at.storeBytes(of: UInt8(truncatingIfNeeded: n) &+ 0x30, as: UInt8.self)
        }
        if v < 0 {
            at -= 1
            at.storeBytes(of: UInt8(ascii: "-"), as: UInt8.self)
        }
        return end - at
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
