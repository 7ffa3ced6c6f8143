import SystemLayer
/// Appends JSON text to a byte buffer: the one JSON escaping helper of the project.
public struct JSONWriter {
    /// The bytes written so far.
    public var bytes: [UInt8]
    private var needsComma: [Bool] = []

    /// Creates a writer, optionally reusing a buffer's capacity.
    public init(reserving capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Empties the buffer, keeping its capacity.
    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        needsComma.removeAll(keepingCapacity: true)
        pendingKey = false
    }

    /// The text written so far.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    private mutating func separate() {
        if let last = needsComma.last {
            if last { bytes.append(UInt8(ascii: ",")) }
            needsComma[needsComma.count - 1] = true
        }
    }

    /// Opens an object (as a value or as the value of the key just written).
    public mutating func beginObject() { valuePrologue(); bytes.append(UInt8(ascii: "{")); needsComma.append(false) }
    /// Closes the innermost object.
    public mutating func endObject() { needsComma.removeLast(); bytes.append(UInt8(ascii: "}")) }
    /// Opens an array.
    public mutating func beginArray() { valuePrologue(); bytes.append(UInt8(ascii: "[")); needsComma.append(false) }
    /// Closes the innermost array.
    public mutating func endArray() { needsComma.removeLast(); bytes.append(UInt8(ascii: "]")) }

    /// Writes a member key; the next value written is its value.
    public mutating func key(_ k: String) {
        separate()
        Self.appendEscaped(k, to: &bytes)
        endKey()
    }

    /// Ends a member key: the value that follows must not add a comma of its own.
    private mutating func endKey() {
        bytes.append(UInt8(ascii: ":"))
        pendingKey = true
    }

    private var pendingKey = false

    /// Writes a member key given as a literal of plain characters (no quote, backslash or control
    /// character, which the encoder's own keys never contain): copied without an escaping scan.
    public mutating func staticKey(_ k: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: k.utf8Start, count: k.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        endKey()
    }

    private mutating func valuePrologue() {
        if pendingKey {
            pendingKey = false
        } else {
            separate()
        }
    }

    /// Writes a string value.
    public mutating func string(_ s: String) { valuePrologue(); Self.appendEscaped(s, to: &bytes) }
    /// Writes an integer value.
    public mutating func int<I: BinaryInteger>(_ v: I) { valuePrologue(); Self.appendInt(Int64(v), to: &bytes) }
    /// Writes a number: integral values without a fraction, others in shortest round-trip form.
    public mutating func double(_ v: Double) { valuePrologue(); Self.appendDouble(v, to: &bytes) }
    /// Writes a boolean.
    public mutating func bool(_ v: Bool) { valuePrologue(); bytes.append(contentsOf: v ? Self.trueBytes : Self.falseBytes) }
    /// Writes null.
    public mutating func null() { valuePrologue(); bytes.append(contentsOf: Self.nullBytes) }
    /// Writes pre-encoded JSON as a value, verbatim.
    public mutating func raw(_ json: String) { valuePrologue(); bytes.append(contentsOf: json.utf8) }

    /// Writes an optional string, null when nil.
    public mutating func string(_ s: String?) { if let s { string(s) } else { null() } }
    /// Writes a file's path as a reader can use it: a name that is not UTF-8 has each of its other bytes
    /// as `\xNN` (SystemLayer's `PathName.displayed`), as text output shows it, never as the internal
    /// scalar that stands for the byte.
    public mutating func path(_ p: String) { string(PathName.displayed(p)) }
    /// Writes an optional path, null when nil.
    public mutating func path(_ p: String?) { if let p { path(p) } else { null() } }
    /// Writes an optional number, null when nil.
    public mutating func double(_ v: Double?) { if let v { double(v) } else { null() } }

    static let trueBytes = Array("true".utf8)
    static let falseBytes = Array("false".utf8)
    static let nullBytes = Array("null".utf8)

    /// Appends `s` as a JSON string literal, escaping quotes, backslashes and control characters.
    public static func appendEscaped(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Fast path: nothing to escape (the common case) is copied in one go.
        var str = s
        let plain = str.withUTF8 { p -> Bool in
            for c in p where c < 0x20 || c == 0x22 || c == 0x5C || c == 0x7F { return false }
            out.append(contentsOf: p)
            return true
        }
        if plain {
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

    /// The JSON string literal for `s`.
    public static func quoted(_ s: String) -> String {
        var b: [UInt8] = []
        appendEscaped(s, to: &b)
        return String(decoding: b, as: UTF8.self)
    }

    public static func appendInt(_ v: Int64, to out: inout [UInt8]) {
        if v == 0 { out.append(UInt8(ascii: "0")); return }
        var n = v.magnitude
        var tmp: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                  UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &tmp) { buf in
            // Digits are produced from the right, then appended in one go.
            var i = buf.count
            while n > 0 {
                i -= 1
                buf[i] = UInt8(n % 10) + 0x30
                n /= 10
            }
            if v < 0 { i -= 1; buf[i] = UInt8(ascii: "-") }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buf[i...]))
        }
    }

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
