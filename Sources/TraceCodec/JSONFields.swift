import SystemLayer

/// The members of one JSON object, located but not yet decoded: key ranges and value offsets.
///
/// Scanning once and looking fields up by name lets the decoder accept members in any order
/// without building a dictionary per record. The table is reused across records and holds plain
/// values only, so reading it costs no reference counting.
final class JSONFields {
    struct Slot {
        var keyStart: Int32
        var keyEnd: Int32
        /// Index into `escapedKeys` when the raw key held escapes, else -1.
        var escaped: Int32
        var value: Int32
    }

    /// Objects with more members than this are rejected (a hostile line cannot grow the table).
    static let maxMembers = 4096

    private(set) var slots: UnsafeMutablePointer<Slot>
    private var capacity: Int
    private(set) var count = 0
    private(set) var escapedKeys: [[UInt8]] = []

    init() {
        capacity = 32
        slots = .allocate(capacity: capacity)
    }

    deinit { slots.deallocate() }

    /// Scans the object at the cursor, leaving the cursor after its closing brace.
    func scan(_ c: inout JSONCursor, depth: Int = 0) throws {
        // Work on locals: every access to a class's stored property is checked for exclusivity.
        var count = 0
        var slots = self.slots
        defer { self.count = count }
        self.count = 0
        if !escapedKeys.isEmpty { escapedKeys.removeAll() }
        try c.expect(UInt8(ascii: "{"), "an object")
        c.skipWhitespace()
        if c.peek() == UInt8(ascii: "}") { c.pos += 1; return }
        while true {
            let (key, escaped) = try c.readValidatedStringRange()
            var escapedIndex: Int32 = -1
            if escaped {
                escapedKeys.append(Array(try JSONCursor.unescape(UnsafeBufferPointer(rebasing: c.bytes[key])).utf8))
                escapedIndex = Int32(escapedKeys.count - 1)
            }
            try c.expect(UInt8(ascii: ":"), "':'")
            c.skipWhitespace()
            guard count < Self.maxMembers else { throw JSONFault.tooManyMembers(Self.maxMembers) }
            guard c.pos < Int32.max else { throw JSONFault.lineTooLongToIndex }
            if count == capacity {
                self.count = count
                grow()
                slots = self.slots
            }
            slots[count] = Slot(keyStart: Int32(key.lowerBound), keyEnd: Int32(key.upperBound), escaped: escapedIndex, value: Int32(c.pos))
            count += 1
            try c.skipValue(depth: depth + 1)
            c.skipWhitespace()
            if c.peek() == UInt8(ascii: ",") { c.pos += 1; continue }
            try c.expect(UInt8(ascii: "}"), "',' or '}'")
            return
        }
    }

    private func grow() {
        let bigger = UnsafeMutablePointer<Slot>.allocate(capacity: capacity * 2)
        bigger.update(from: slots, count: count)
        slots.deallocate()
        slots = bigger
        capacity *= 2
    }

    /// The value offset of the first member named `key`, if present.
    @inline(__always)
    func find(_ key: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = key.utf8CodeUnitCount
        let k = key.utf8Start
        let base = bytes.baseAddress!
        let slots = self.slots, count = self.count
        var i = 0
        while i < count {
            let slot = slots[i]
            i += 1
            if slot.escaped >= 0 {
                if escapedKeys[Int(slot.escaped)].elementsEqual(UnsafeBufferPointer(start: k, count: n)) { return Int(slot.value) }
                continue
            }
            guard Int(slot.keyEnd - slot.keyStart) == n, Memory.equal(base + Int(slot.keyStart), k, count: n) else { continue }
            return Int(slot.value)
        }
        return nil
    }

    /// The value offset of the second member named `key`, if the object repeats the name (only
    /// `expect.predictedBy` does: its `seq` after the record's own).
    func findSecond(_ key: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = key.utf8CodeUnitCount
        let k = UnsafeBufferPointer(start: key.utf8Start, count: n)
        var seen = 0
        for i in 0..<count {
            let slot = slots[i]
            let name = slot.escaped >= 0 ? escapedKeys[Int(slot.escaped)] : Array(bytes[keyRange(i)])
            guard name.elementsEqual(k) else { continue }
            seen += 1
            if seen == 2 { return Int(slot.value) }
        }
        return nil
    }

    /// The raw bytes of member `i`'s key (unescaped when it held escapes).
    func keyRange(_ i: Int) -> Range<Int> { Int(slots[i].keyStart)..<Int(slots[i].keyEnd) }

    /// The first key that repeats an earlier member's, or nil. Duplicate keys are refused, not
    /// resolved: JSON tools disagree on which one counts (jq, Python and DuckDB keep the last, others
    /// the first), so a trace that repeats one means different things to different readers. The one
    /// exception is the format's own: `allowedTwice` (expect.predictedBy's `seq`) may appear twice.
    func repeatedKey(in bytes: UnsafeBufferPointer<UInt8>, allowedTwice: StaticString? = nil) -> String? {
        guard count > 1 else { return nil }
        let base = bytes.baseAddress!
        func same(_ i: Int, _ j: Int) -> Bool {
            let a = slots[i], b = slots[j]
            if a.escaped < 0 && b.escaped < 0 {
                let n = Int(a.keyEnd - a.keyStart)
                return n == Int(b.keyEnd - b.keyStart) && Memory.equal(base + Int(a.keyStart), base + Int(b.keyStart), count: n)
            }
            return name(i, bytes).elementsEqual(name(j, bytes))
        }
        func hash(_ i: Int) -> Int {
            var h = Hasher()
            if slots[i].escaped >= 0 { escapedKeys[Int(slots[i].escaped)].withUnsafeBytes { h.combine(bytes: $0) } } else {
                h.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[keyRange(i)])))
            }
            return h.finalize()
        }
        // Small objects (every record the format defines) compare pairwise; large ones by hash buckets.
        var buckets: [Int: [Int]] = [:]
        for j in 1..<count {
            var repeats = 0
            if count <= 64 {
                for i in 0..<j where same(i, j) { repeats += 1 }
            } else {
                let h = hash(j)
                if buckets.isEmpty { buckets[hash(0), default: []].append(0) }
                for i in buckets[h] ?? [] where same(i, j) { repeats += 1 }
                buckets[h, default: []].append(j)
            }
            if repeats == 0 { continue }
            let key = name(j, bytes)
            if repeats == 1, let allowedTwice, key.elementsEqual(UnsafeBufferPointer(start: allowedTwice.utf8Start, count: allowedTwice.utf8CodeUnitCount)) { continue }
            return String(decoding: key, as: UTF8.self)
        }
        return nil
    }

    /// Member `i`'s key, unescaped.
    private func name(_ i: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        slots[i].escaped >= 0 ? escapedKeys[Int(slots[i].escaped)] : Array(bytes[keyRange(i)])
    }
}
