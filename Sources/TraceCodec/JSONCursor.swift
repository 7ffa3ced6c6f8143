/// Why a JSON value could not be read; the decoder adds the field name and position.
struct JSONFault: Error {
    let reason: String
}

/// A forward-only reader over the bytes of one JSON line: the hot path of decoding.
///
/// It works on raw bytes and allocates only for the strings it returns.
struct JSONCursor {
    /// The deepest nesting accepted; deeper input is rejected rather than recursed into.
    static let maxDepth = 64

    let bytes: UnsafeBufferPointer<UInt8>
    var pos: Int
    let end: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        self.pos = start
        self.end = end ?? bytes.count
    }

    @inline(__always) var atEnd: Bool { pos >= end }

    @inline(__always) func peek() -> UInt8 { pos < end ? bytes[pos] : 0 }

    @inline(__always) mutating func skipWhitespace() {
        while pos < end {
            let c = bytes[pos]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { pos += 1 } else { return }
        }
    }

    mutating func expect(_ byte: UInt8, _ what: StaticString) throws {
        skipWhitespace()
        guard pos < end, bytes[pos] == byte else { throw JSONFault(reason: "expected \(what) \(found)") }
        pos += 1
    }

    /// A short description of what is at the cursor, for messages.
    var found: String {
        JSONFault.foundAt(pos < end ? bytes[pos] : nil, column: pos + 1)
    }

    /// The kind of value at the cursor, named for messages.
    var valueKindName: String {
        switch peek() {
        case UInt8(ascii: "\""): "a string"
        case UInt8(ascii: "{"): "an object"
        case UInt8(ascii: "["): "an array"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
        case UInt8(ascii: "n"): "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): "a number"
        default: "invalid JSON"
        }
    }

    /// Reads a string's raw byte range (between the quotes) and whether it holds escapes.
    mutating func readStringRange() throws -> (Range<Int>, escaped: Bool) {
        skipWhitespace()
        guard pos < end, bytes[pos] == UInt8(ascii: "\"") else {
            throw JSONFault.expected("a string", found: valueKindName)
        }
        pos += 1
        let start = pos
        var escaped = false
        while pos < end {
            let c = bytes[pos]
            if c == UInt8(ascii: "\"") {
                let r = start..<pos
                pos += 1
                return (r, escaped)
            }
            if c == UInt8(ascii: "\\") {
                escaped = true
                pos += 2
                continue
            }
            if c < 0x20 { throw JSONFault.controlCharacter(c) }
            pos += 1
        }
        throw JSONFault(reason: "unterminated string")
    }

    /// Reads a string's raw range like `readStringRange`, and rejects invalid UTF-8 in it, for strings
    /// that are skipped or compared as bytes (unknown fields' values, keys): what a strict JSON parser
    /// rejects must not pass through to `cat` or a rewritten trace.
    mutating func readValidatedStringRange() throws -> (Range<Int>, escaped: Bool) {
        let (range, escaped) = try readStringRange()
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        if escaped {
            _ = try Self.unescape(slice)
        } else if !Self.isASCII(slice), String(validating: slice, as: UTF8.self) == nil {
            throw JSONFault.invalidUTF8InString
        }
        return (range, escaped)
    }

    /// Reads a string value, unescaping it and validating its UTF-8.
    mutating func readString() throws -> String {
        let (range, escaped) = try readStringRange()
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        if !escaped {
            // ASCII (the common case) needs no validation; anything else is validated as UTF-8.
            if Self.isASCII(slice) { return String(decoding: slice, as: UTF8.self) }
            guard let s = String(validating: slice, as: UTF8.self) else {
                throw JSONFault.invalidUTF8InString
            }
            return s
        }
        return try Self.unescape(slice)
    }

    @inline(__always)
    static func isASCII(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = p.baseAddress else { return true }
        var i = 0
        let n = p.count
        let raw = UnsafeRawPointer(base)
        while i + 8 <= n {
            if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            i += 8
        }
        while i < n {
            if base[i] >= 0x80 { return false }
            i += 1
        }
        return true
    }

    static func unescape(_ raw: UnsafeBufferPointer<UInt8>) throws -> String {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        func hex4(_ at: Int) throws -> UInt32 {
            guard at + 4 <= raw.count else { throw JSONFault(reason: "truncated \\u escape") }
            var v: UInt32 = 0
            for k in 0..<4 {
                let c = raw[at + k]
                let d: UInt32
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
                default: throw JSONFault.badHexDigit
                }
                v = v << 4 | d
            }
            return v
        }
        while i < raw.count {
            let c = raw[i]
            guard c == UInt8(ascii: "\\") else { out.append(c); i += 1; continue }
            guard i + 1 < raw.count else { throw JSONFault(reason: "dangling backslash") }
            let e = raw[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(i)
                i += 4
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    guard i + 6 <= raw.count, raw[i] == UInt8(ascii: "\\"), raw[i + 1] == UInt8(ascii: "u") else {
                        throw JSONFault.unpairedSurrogate
                    }
                    let low = try hex4(i + 2)
                    guard low >= 0xDC00 && low < 0xE000 else { throw JSONFault.unpairedSurrogate }
                    i += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw JSONFault.unpairedSurrogate
                }
                guard let u = Unicode.Scalar(scalar) else { throw JSONFault(reason: "invalid \\u escape") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                throw JSONFault(reason: "unknown escape \\\(Character(Unicode.Scalar(e)))")
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw JSONFault.invalidUTF8InString }
        return s
    }

    /// Reads an integer; fractions, exponents and values outside Int64 are errors.
    mutating func readInt() throws -> Int64 {
        skipWhitespace()
        let start = pos
        var negative = false
        if peek() == UInt8(ascii: "-") { negative = true; pos += 1 }
        try rejectLeadingZero(start)
        var value: Int64 = 0
        var digits = 0
        while pos < end {
            let c = bytes[pos]
            guard c >= 0x30 && c <= 0x39 else { break }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int64(c - 0x30))
            if o1 || o2 { throw JSONFault.integerOutOfRange }
            value = a
            digits += 1
            pos += 1
        }
        if digits == 0 {
            pos = start
            throw negative ? JSONFault.minusWithoutDigit : JSONFault.expected("an integer", found: valueKindName)
        }
        let next = peek()
        if next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            pos = start
            throw JSONFault.fractionalInteger
        }
        return negative ? -value : value
    }

    /// JSON numbers have no leading zeros (`007`); strict parsers reject them, so the trace does too.
    @inline(__always)
    private mutating func rejectLeadingZero(_ start: Int) throws {
        if pos + 1 < end, bytes[pos] == UInt8(ascii: "0"), bytes[pos + 1] &- 0x30 < 10 {
            pos = start
            throw JSONFault.leadingZero
        }
    }

    /// Reads a finite number as a Double.
    mutating func readDouble() throws -> Double {
        skipWhitespace()
        let start = pos
        let base = bytes.baseAddress!
        var p = pos
        let e = end
        var negative = false
        if p < e && base[p] == UInt8(ascii: "-") { negative = true; p += 1 }
        if p + 1 < e, base[p] == UInt8(ascii: "0"), base[p + 1] &- 0x30 < 10 {
            pos = start
            throw JSONFault.leadingZero
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var fracDigits = 0
        var simple = true
        while p < e {
            let d = base[p] &- 0x30
            guard d < 10 else { break }
            if digits < 18 { mantissa = mantissa &* 10 &+ UInt64(d) } else { simple = false }
            digits += 1
            p += 1
        }
        guard digits > 0 else {
            pos = start
            if negative { throw JSONFault.minusWithoutDigit }
            throw JSONFault.expected("a number", found: valueKindName)
        }
        if p < e && base[p] == UInt8(ascii: ".") {
            p += 1
            var any = false
            while p < e {
                let d = base[p] &- 0x30
                guard d < 10 else { break }
                if digits < 18 { mantissa = mantissa &* 10 &+ UInt64(d); fracDigits += 1 } else { simple = false }
                digits += 1
                any = true
                p += 1
            }
            guard any else { pos = p; throw JSONFault(reason: "malformed number") }
        }
        if p < e && (base[p] == UInt8(ascii: "e") || base[p] == UInt8(ascii: "E")) {
            simple = false
            p += 1
            if p < e && (base[p] == UInt8(ascii: "+") || base[p] == UInt8(ascii: "-")) { p += 1 }
            var any = false
            while p < e, base[p] &- 0x30 < 10 { p += 1; any = true }
            guard any else { pos = p; throw JSONFault(reason: "malformed number") }
        }
        pos = p
        if simple && fracDigits <= 15 && mantissa < (1 << 53) {
            // Exact: mantissa < 2^53 and 10^fracDigits is exact in Double, so one rounding.
            let v = Double(mantissa) / Self.powerOfTen(fracDigits)
            return negative ? -v : v
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<pos]), as: UTF8.self)
        guard let v = Double(text), v.isFinite else { throw JSONFault.numberOutOfRange }
        return v
    }

    /// 10^k for 0 ≤ k ≤ 15, exact in Double.
    @inline(__always)
    static func powerOfTen(_ k: Int) -> Double {
        switch k {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        default: 1e15
        }
    }

    /// Reads `true` or `false`.
    mutating func readBool() throws -> Bool {
        skipWhitespace()
        if matchLiteral("true") { return true }
        if matchLiteral("false") { return false }
        throw JSONFault.expected("a boolean", found: valueKindName)
    }

    /// Consumes `null` if it is next.
    mutating func readNull() -> Bool {
        skipWhitespace()
        return matchLiteral("null")
    }

    mutating func matchLiteral(_ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard end - pos >= n else { return false }
        let p = literal.utf8Start
        for k in 0..<n where bytes[pos + k] != p[k] { return false }
        pos += n
        return true
    }

    /// Skips one value of any kind, bounding the nesting depth.
    mutating func skipValue(depth: Int = 0) throws {
        guard depth < Self.maxDepth else { throw JSONFault.tooDeep(Self.maxDepth) }
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "\""): _ = try readValidatedStringRange()
        case UInt8(ascii: "{"):
            pos += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "}") { pos += 1; return }
            while true {
                _ = try readValidatedStringRange()
                try expect(UInt8(ascii: ":"), "':'")
                try skipValue(depth: depth + 1)
                skipWhitespace()
                if peek() == UInt8(ascii: ",") { pos += 1; continue }
                try expect(UInt8(ascii: "}"), "',' or '}'")
                return
            }
        case UInt8(ascii: "["):
            pos += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { pos += 1; return }
            while true {
                try skipValue(depth: depth + 1)
                skipWhitespace()
                if peek() == UInt8(ascii: ",") { pos += 1; continue }
                try expect(UInt8(ascii: "]"), "',' or ']'")
                return
            }
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try readBool()
        case UInt8(ascii: "n"):
            guard readNull() else { throw JSONFault(reason: "invalid literal \(found)") }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try readDouble()
        default: throw JSONFault.expectedValue(found)
        }
    }

    /// Iterates an array, calling `element` with the cursor on each element.
    mutating func forEachElement(_ element: (inout JSONCursor, Int) throws -> Void) throws {
        try expect(UInt8(ascii: "["), "an array")
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { pos += 1; return }
        var index = 0
        while true {
            try element(&self, index)
            index += 1
            skipWhitespace()
            if peek() == UInt8(ascii: ",") { pos += 1; continue }
            try expect(UInt8(ascii: "]"), "',' or ']'")
            return
        }
    }
}
