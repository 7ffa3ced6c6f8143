/// A JSON value read whole: for lines that are not records (triage's rows), where the fields wanted
/// are looked up by name rather than decoded in one pass.
package indirect enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number (every JSON number, integers included).
    case number(Double)
    /// A string, unescaped.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, by key (a key appears once).
    case object([String: JSONValue])

    /// Why a line is not one JSON value.
    package struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong, with the column.
        package var description: String
    }

    /// Parses one JSON value that fills the whole of `bytes` (whitespace around it aside); an object
    /// with the same key twice is an error, as it is in a trace's records.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(ParseError) -> JSONValue {
        var c = JSONCursor(bytes)
        do {
            let v = try value(&c, depth: 0)
            c.skipWhitespace()
            guard c.atEnd else { throw JSONFault.moreAfterValue(c.found) }
            return v
        } catch let f as JSONFault {
            throw ParseError(description: f.reason + (f.reason.contains("column") ? "" : " (column \(c.pos + 1))"))
        } catch {
            throw ParseError(description: "\(error)")
        }
    }

    /// Parses a string's bytes (tests, short texts).
    package static func parse(_ text: String) throws(ParseError) -> JSONValue {
        var copy = text
        do {
            return try copy.withUTF8 { p in try parse(p) }
        } catch let e as ParseError {
            throw e
        } catch {
            throw ParseError(description: "\(error)")
        }
    }

    private static func value(_ c: inout JSONCursor, depth: Int) throws -> JSONValue {
        guard depth < JSONCursor.maxDepth else { throw JSONFault.tooDeep(JSONCursor.maxDepth) }
        c.skipWhitespace()
        switch c.peek() {
        case UInt8(ascii: "\""): return .string(try c.readString())
        case UInt8(ascii: "{"):
            c.pos += 1
            var members: [String: JSONValue] = [:]
            c.skipWhitespace()
            if c.peek() == UInt8(ascii: "}") { c.pos += 1; return .object(members) }
            while true {
                let key = try c.readString()
                try c.expect(UInt8(ascii: ":"), "':'")
                let v = try value(&c, depth: depth + 1)
                guard members.updateValue(v, forKey: key) == nil else { throw JSONFault(reason: "the key '\(key)' appears twice") }
                c.skipWhitespace()
                if c.peek() == UInt8(ascii: ",") { c.pos += 1; continue }
                try c.expect(UInt8(ascii: "}"), "',' or '}'")
                return .object(members)
            }
        case UInt8(ascii: "["):
            var elements: [JSONValue] = []
            try c.forEachElement { inner, _ in elements.append(try value(&inner, depth: depth + 1)) }
            return .array(elements)
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool(try c.readBool())
        case UInt8(ascii: "n"):
            guard c.readNull() else { throw JSONFault(reason: "invalid literal \(c.found)") }
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try c.readDouble())
        default: throw JSONFault.expectedValue(c.found)
        }
    }

    /// The member `key` of an object (nil for another kind of value or a missing key).
    package subscript(key: String) -> JSONValue? {
        if case .object(let m) = self { return m[key] }
        return nil
    }

    /// Whether the value is `null`.
    package var isNull: Bool { self == .null }

    /// The string, or nil for another kind of value.
    package var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number when it is a whole number that fits an `Int`, else nil.
    package var int: Int? {
        guard case .number(let d) = self, d.rounded() == d, abs(d) < 9.0e15 else { return nil }
        return Int(d)
    }

    /// The number, or nil for another kind of value.
    package var double: Double? {
        if case .number(let d) = self { return d }
        return nil
    }

    /// The boolean, or nil for another kind of value.
    package var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The elements of an array, or nil for another kind of value.
    package var array: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The members of an object, or nil for another kind of value.
    package var object: [String: JSONValue]? {
        if case .object(let m) = self { return m }
        return nil
    }
}
