/// The members of one JSON object, located but not yet decoded: key ranges and value offsets.
///
/// Scanning once and looking fields up by name lets the decoder accept members in any order
/// without building a dictionary per record. Instances are reused across records.
struct JSONFields {
    struct Slot {
        var key: Range<Int>
        /// The unescaped key, only when the raw key held escapes.
        var escapedKey: String?
        var value: Int
    }

    /// Objects with more members than this are rejected (a hostile line cannot grow the table).
    static let maxMembers = 4096

    var slots: [Slot] = []

    init() { slots.reserveCapacity(16) }

    /// Scans the object at the cursor, leaving the cursor after its closing brace.
    mutating func scan(_ c: inout JSONCursor, depth: Int = 0) throws {
        slots.removeAll(keepingCapacity: true)
        try c.expect(UInt8(ascii: "{"), "an object")
        c.skipWhitespace()
        if c.peek() == UInt8(ascii: "}") { c.pos += 1; return }
        while true {
            let (key, escaped) = try c.readStringRange()
            let name = escaped ? try JSONCursor.unescape(UnsafeBufferPointer(rebasing: c.bytes[key])) : nil
            try c.expect(UInt8(ascii: ":"), "':'")
            c.skipWhitespace()
            guard slots.count < Self.maxMembers else { throw JSONFault(reason: "object has more than \(Self.maxMembers) members") }
            slots.append(Slot(key: key, escapedKey: name, value: c.pos))
            try c.skipValue(depth: depth + 1)
            c.skipWhitespace()
            if c.peek() == UInt8(ascii: ",") { c.pos += 1; continue }
            try c.expect(UInt8(ascii: "}"), "',' or '}'")
            return
        }
    }

    /// The value offset of the first member named `key`, if present.
    @inline(__always)
    func find(_ key: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = key.utf8CodeUnitCount
        let k = key.utf8Start
        outer: for slot in slots {
            if let e = slot.escapedKey {
                if e.utf8.elementsEqual(UnsafeBufferPointer(start: k, count: n)) { return slot.value }
                continue
            }
            guard slot.key.count == n else { continue }
            var i = 0
            var p = slot.key.lowerBound
            while i < n {
                if bytes[p] != k[i] { continue outer }
                i += 1
                p += 1
            }
            return slot.value
        }
        return nil
    }
}
