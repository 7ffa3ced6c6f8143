/// A record that could not be decoded, located by file, seq (or line) and field.
import TraceModel
package struct RecordDecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file the line came from, when known.
    package var file: String?
    /// 1-based line number in the decompressed trace.
    package var line: Int
    /// The record's seq, when it could be read.
    package var seq: Int?
    /// The offending field (dotted path), or nil when the line is not a JSON object at all.
    package var field: String?
    /// What is wrong, in words.
    package var reason: String

    /// Creates an error.
    package init(file: String? = nil, line: Int, seq: Int?, field: String?, reason: String) {
        self.file = file
        self.line = line
        self.seq = seq
        self.field = field
        self.reason = reason
    }

    /// `FILE: seq N: field X: reason`, or `line N` when the seq is unreadable.
    package var description: String {
        var s = file.map { "\($0): " } ?? ""
        if let seq { s += "seq \(seq) (line \(line))" } else { s += "line \(line)" }
        if let field { s += ": field '\(field)'" }
        return s + ": " + reason
    }
}

/// Decodes one JSON line into a typed `Record`: the fast, schema-aware path over bytes.
///
/// Reuse one decoder for a stream of lines; it keeps its scratch tables between calls.
package struct RecordDecoder {
    let top = JSONFields()
    let nested = JSONFields()

    /// Creates a decoder; `fastPath: false` decodes every line by the general path (same results, slower).
    package init(fastPath: Bool = true) { useFastPath = fastPath }

    /// Decodes one line (without its newline).
    package func decode(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int) throws(RecordDecodeError) -> Record {
        if useFastPath, let r = fastDecode(line) { return r }
        return try decodeGeneral(line, lineNumber: lineNumber)
    }

    /// Whether the single-pass path for canonical high-rate records is tried first (tests turn it off).
    var useFastPath = true

    /// The general path: members in any order, every error located.
    func decodeGeneral(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int) throws(RecordDecodeError) -> Record {
        var cursor = JSONCursor(line)
        do {
            try top.scan(&cursor)
            cursor.skipWhitespace()
            guard cursor.atEnd else { throw JSONFault.unexpectedAfterObject(cursor.found) }
        } catch let fault as JSONFault {
            throw RecordDecodeError(line: lineNumber, seq: Self.salvageSeq(line), field: nil, reason: "not a JSON object: " + fault.reason)
        } catch {
            throw RecordDecodeError(line: lineNumber, seq: nil, field: nil, reason: "\(error)")
        }
        let r = FieldReader(bytes: line, fields: top)
        var seq: Int?
        do {
            let s = try r.int("seq")
            guard s >= 0, s <= Int64(Int32.max) * 1024 else { throw FieldFault.notNonNegative("seq", got: s) }
            seq = Int(s)
            let t = try r.int("t")
            guard t >= 0, t <= Record.maxT else { throw FieldFault.timeOutOfRange(t) }
            var tc = try r.required("type")
            let (typeRange, escaped) = try r.wrap("type") { try tc.readStringRange() }
            let tag = escaped ? nil : RecordKindLookup.lookup(UnsafeBufferPointer(rebasing: line[typeRange]))
            let body: RecordBody
            if let tag {
                body = try decodeBody(tag, r)
            } else {
                body = try decodeOther(type: try r.string("type"), r, line: line)
            }
            var pairsSeq = false
            if case .expect(let e) = body, case .predictedBy = e.kind { pairsSeq = true }
            if let key = top.repeatedKey(in: line, allowedTwice: pairsSeq ? "seq" : nil) {
                throw FieldFault.duplicateKey(key, inRecord: true)
            }
            return Record(seq: seq!, t: t, body, late: try r.optionalBool("late") ?? false)
        } catch let f as FieldFault {
            throw RecordDecodeError(line: lineNumber, seq: seq, field: f.field, reason: f.reason)
        } catch {
            throw RecordDecodeError(line: lineNumber, seq: seq, field: nil, reason: "\(error)")
        }
    }

    /// Decodes a line held in an array or other contiguous collection.
    package func decode(_ line: [UInt8], lineNumber: Int = 1) throws(RecordDecodeError) -> Record {
        let result: Result<Record, RecordDecodeError> = line.withUnsafeBufferPointer { buf in
            do throws(RecordDecodeError) { return .success(try decode(buf, lineNumber: lineNumber)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Decodes a line given as a string.
    package func decode(_ line: String, lineNumber: Int = 1) throws(RecordDecodeError) -> Record {
        try decode(Array(line.utf8), lineNumber: lineNumber)
    }

    /// Finds `"seq":N` textually in a line that is not valid JSON, to name it in the error.
    static func salvageSeq(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        let needle = Array("\"seq\"".utf8)
        guard line.count >= needle.count else { return nil }
        var i = 0
        while i + needle.count <= line.count {
            if line[i] == needle[0], Array(line[i..<i + needle.count]) == needle {
                var c = JSONCursor(line, from: i + needle.count)
                guard (try? c.expect(UInt8(ascii: ":"), "':'")) != nil, let v = try? c.readInt(), v >= 0, v < Int64(Int32.max) else { return nil }
                return Int(v)
            }
            i += 1
        }
        return nil
    }
}

/// A field-level decoding fault, before seq and line are attached.
struct FieldFault: Error {
    let field: String
    let reason: String
}

/// Reads typed fields of one scanned object by name, naming the field path on error.
///
/// The path (`pub.level`, `speakers[2].uid`) is only built when an error names it.
struct FieldReader {
    let bytes: UnsafeBufferPointer<UInt8>
    unowned(unsafe) let fields: JSONFields
    /// The member this object is the value of (nil at the top level).
    var container: StaticString?
    /// The element index within `container`, for arrays of objects.
    var index = -1

    init(bytes: UnsafeBufferPointer<UInt8>, fields: JSONFields, container: StaticString? = nil, index: Int = -1) {
        self.bytes = bytes
        self.fields = fields
        self.container = container
        self.index = index
    }

    func name(_ key: StaticString) -> String {
        guard let container else { return "\(key)" }
        return index < 0 ? "\(container).\(key)" : "\(container)[\(index)].\(key)"
    }

    func cursor(_ key: StaticString) -> JSONCursor? {
        guard let at = fields.find(key, in: bytes) else { return nil }
        return JSONCursor(bytes, from: at)
    }

    /// A cursor on a present, non-null member; nil when absent or null.
    func optionalCursor(_ key: StaticString) -> JSONCursor? {
        guard var c = cursor(key) else { return nil }
        let start = c.pos
        if c.readNull() { return nil }
        c.pos = start
        return c
    }

    func required(_ key: StaticString) throws -> JSONCursor {
        guard let c = cursor(key) else { throw FieldFault.missing(name(key)) }
        return c
    }

    func wrap<T>(_ key: StaticString, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let f as JSONFault { throw FieldFault(field: name(key), reason: f.reason) }
    }

    func string(_ key: StaticString) throws -> String {
        var c = try required(key)
        return try wrap(key) { try c.readString() }
    }

    func optionalString(_ key: StaticString) throws -> String? {
        guard var c = optionalCursor(key) else { return nil }
        return try wrap(key) { try c.readString() }
    }

    func int(_ key: StaticString) throws -> Int64 {
        var c = try required(key)
        return try wrap(key) { try c.readInt() }
    }

    func optionalInt(_ key: StaticString) throws -> Int64? {
        guard var c = optionalCursor(key) else { return nil }
        return try wrap(key) { try c.readInt() }
    }

    func double(_ key: StaticString) throws -> Double {
        var c = try required(key)
        return try wrap(key) { try c.readDouble() }
    }

    func optionalDouble(_ key: StaticString) throws -> Double? {
        guard var c = optionalCursor(key) else { return nil }
        return try wrap(key) { try c.readDouble() }
    }

    func bool(_ key: StaticString) throws -> Bool {
        var c = try required(key)
        return try wrap(key) { try c.readBool() }
    }

    func optionalBool(_ key: StaticString) throws -> Bool? {
        guard var c = optionalCursor(key) else { return nil }
        return try wrap(key) { try c.readBool() }
    }

    func vocabulary<E: TraceVocabulary>(_ key: StaticString, _: E.Type = E.self) throws -> E {
        let raw = try string(key)
        return try Self.parse(raw, field: name(key))
    }

    func optionalVocabulary<E: TraceVocabulary>(_ key: StaticString, _: E.Type = E.self) throws -> E? {
        guard let raw = try optionalString(key) else { return nil }
        return try Self.parse(raw, field: name(key)) as E
    }

    static func parse<E: TraceVocabulary>(_ raw: String, field: String) throws -> E {
        guard let v = E(rawValue: raw) else { throw FieldFault.unknownValue(raw, allowed: E.allCases.map(\.rawValue), field: field) }
        return v
    }


    /// A value of an open vocabulary's type in a field the format keeps closed (outside T1's `os.*`
    /// fields, e.g. `sdk.callStateChanged.state`): an unlisted value is an unknown-value error.
    func listedVocabulary<E: OpenVocabulary>(_ key: StaticString, _: E.Type = E.self) throws -> E {
        let raw = try string(key)
        let v: E = E(rawValue: raw)
        guard v.unlistedValue == nil else { throw FieldFault.unknownValue(raw, allowed: E.listed.map(\.rawValue), field: name(key)) }
        return v
    }

    /// A value of an open vocabulary: never an unknown-value error (T1).
    func openVocabulary<E: OpenVocabulary>(_ key: StaticString, _: E.Type = E.self) throws -> E {
        E(rawValue: try string(key))
    }

    func optionalOpenVocabulary<E: OpenVocabulary>(_ key: StaticString, _: E.Type = E.self) throws -> E? {
        try optionalString(key).map { E(rawValue: $0) }
    }

    func stringArray(_ key: StaticString) throws -> [String] {
        var c = try required(key)
        return try wrap(key) {
            var out: [String] = []
            try c.forEachElement { c, _ in out.append(try c.readString()) }
            return out
        }
    }

    /// An array of inclusive seq ranges, each `[from, to]` with 0 ≤ from ≤ to (`expect.damage`'s `lost`).
    func seqRanges(_ key: StaticString) throws -> [ClosedRange<Int>] {
        var c = try required(key)
        return try wrap(key) {
            var out: [ClosedRange<Int>] = []
            try c.forEachElement { c, _ in
                var pair: [Int64] = []
                try c.forEachElement { c, _ in pair.append(try c.readInt()) }
                guard pair.count == 2, pair[0] >= 0, pair[0] <= pair[1], pair[1] <= Int64(Int32.max) * 1024 else {
                    throw JSONFault.badRange
                }
                out.append(Int(pair[0])...Int(pair[1]))
            }
            return out
        }
    }

    func optionalStringArray(_ key: StaticString) throws -> [String]? {
        guard optionalCursor(key) != nil else { return nil }
        return try stringArray(key)
    }

    /// Decodes a nested object member with `body`, using `scratch` as its field table.
    func object<T>(_ key: StaticString, scratch: JSONFields, optional: Bool = false,
                   _ body: (FieldReader) throws -> T) throws -> T? {
        guard var c = optional ? optionalCursor(key) : try required(key) else { return nil }
        try wrap(key) { try scratch.scan(&c, depth: 1) }
        if let repeated = scratch.repeatedKey(in: bytes) {
            throw FieldFault.duplicateKey("\(name(key)).\(repeated)", inRecord: false)
        }
        return try body(FieldReader(bytes: bytes, fields: scratch, container: key))
    }

    /// Decodes an array of objects member, calling `body` per element.
    func objectArray<T>(_ key: StaticString, scratch: JSONFields, _ body: (FieldReader) throws -> T) throws -> [T] {
        var c = try required(key)
        var out: [T] = []
        var index = 0
        try wrap(key) { try c.expect(UInt8(ascii: "["), "an array") }
        c.skipWhitespace()
        if c.peek() == UInt8(ascii: "]") { c.pos += 1; return out }
        while true {
            do { try scratch.scan(&c, depth: 2) } catch let f as JSONFault { throw FieldFault(field: "\(name(key))[\(index)]", reason: f.reason) }
            if let repeated = scratch.repeatedKey(in: bytes) {
                throw FieldFault.duplicateKey("\(name(key))[\(index)].\(repeated)", inRecord: false)
            }
            out.append(try body(FieldReader(bytes: bytes, fields: scratch, container: key, index: index)))
            index += 1
            c.skipWhitespace()
            if c.peek() == UInt8(ascii: ",") { c.pos += 1; continue }
            try wrap(key) { try c.expect(UInt8(ascii: "]"), "',' or ']'") }
            return out
        }
    }

    /// Whether the member is present with the literal value null.
    func isNull(_ key: StaticString) -> Bool {
        guard var c = cursor(key) else { return false }
        return c.readNull()
    }

    /// Whether the member is present at all.
    func has(_ key: StaticString) -> Bool { fields.find(key, in: bytes) != nil }
}

extension RecordDecoder {
    /// The line with its top-level `seq` value replaced, every other byte kept (unknown fields included).
    package static func replacingSeq(in line: [UInt8], with seq: Int) -> [UInt8]? {
        replacingIntegers(in: line, [("seq", Int64(seq))])
    }

    /// The line with its `seq` and `t` replaced and every other byte kept: an unknown record renumbered
    /// and retimed keeps its own fields as written. Nil when either is missing or not an integer.
    package static func replacingSeqAndTime(in line: [UInt8], seq: Int, t: Int64) -> [UInt8]? {
        replacingIntegers(in: line, [("seq", Int64(seq)), ("t", t)])
    }

    private static func replacingIntegers(in line: [UInt8], _ values: [(StaticString, Int64)]) -> [UInt8]? {
        line.withUnsafeBufferPointer { p -> [UInt8]? in
            let fields = JSONFields()
            var c = JSONCursor(p)
            guard (try? fields.scan(&c)) != nil else { return nil }
            var spans: [(start: Int, end: Int, value: Int64)] = []
            for (key, value) in values {
                guard let start = fields.find(key, in: p) else { return nil }
                var v = JSONCursor(p, from: start)
                guard (try? v.readInt()) != nil else { return nil }
                spans.append((start, v.pos, value))
            }
            var out: [UInt8] = []
            var at = 0
            for s in spans.sorted(by: { $0.start < $1.start }) {
                out.append(contentsOf: p[at..<s.start])
                JSONWriter.appendInt(s.value, to: &out)
                at = s.end
            }
            out.append(contentsOf: p[at...])
            return out
        }
    }
}
