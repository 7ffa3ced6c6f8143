import TraceModel

/// What `cat` reads of a line it passes through: the leading members in canonical order and the line's
/// structure, never the fields it does not filter on.
package struct SkimmedLine: Sendable, Equatable {
    /// The record's seq.
    package var seq: Int
    /// The record's time.
    package var t: Int64
    /// The record's type.
    package var kind: RecordKind
}

extension RecordDecoder {
    /// The seq, time and type of a line of a high-rate type written in canonical order (`{"seq":N,"t":N,
    /// "type":"…"` first) whose structure holds: it is one JSON object that closes at the end of the line,
    /// its strings end and hold no control characters, its brackets nest, and it is ASCII. Its other fields
    /// are not read. Nil for anything else, which the caller decodes in full (and so reports as before).
    /// The definition, with the decoder's cursor; the reader runs `LineSkimmer`, which tests hold to it.
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


/// `RecordDecoder.skim` at the cost of the line's bytes: made once per reader, with the high-rate type
/// names as machine words to compare and no shared state to look up per line.
struct LineSkimmer {
    /// A high-rate type's name: its length, its bytes as `words` loads them, and its kind; a slot of the
    /// table without a name has a count of -1.
    private struct Name {
        var count: Int
        var words: Words
        var kind: RecordKind
    }

    private typealias Words = (UInt64, UInt64, UInt64, UInt64)
    /// The names by `slot`: a perfect hash, so a line's type is one slot's compare.
    private let table: [Name]
    /// The multiplier that gives every name a slot of its own.
    private let multiplier: UInt64
    private let maxT = Record.maxT
    private static let maxSeq = Int64(Int32.max) * 1024
    /// Names this long or longer are no high-rate type's (the longest is 22 bytes).
    private static let nameLimit = 32
    private static let slotBits: UInt64 = 6

    /// Builds the table from the kinds that are high-rate, with the first multiplier (from a fixed
    /// sequence) under which no two of them share a slot.
    init() {
        let names = RecordKind.allCases.filter(\.isHighRate).map { kind in
            let bytes = Array(kind.rawValue.utf8)
            precondition(bytes.count < Self.nameLimit, "a high-rate type name of \(bytes.count) bytes")
            return bytes.withUnsafeBufferPointer { Name(count: bytes.count, words: Self.words($0.baseAddress!, bytes.count), kind: kind) }
        }
        let empty = Name(count: -1, words: (0, 0, 0, 0), kind: names[0].kind)
        var candidate: UInt64 = 0x9E37_79B9_7F4A_7C15
        while true {
            var table = [Name](repeating: empty, count: 1 << Int(Self.slotBits))
            var distinct = true
            for name in names {
                let slot = Self.slot(name.count, name.words.0, candidate)
                if table[slot].count >= 0 { distinct = false; break }
                table[slot] = name
            }
            if distinct {
                self.table = table
                multiplier = candidate
                return
            }
            candidate = candidate &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 | 1
        }
    }

    @inline(__always)
    private static func slot(_ count: Int, _ first: UInt64, _ multiplier: UInt64) -> Int {
        Int(truncatingIfNeeded: ((first ^ UInt64(truncatingIfNeeded: count)) &* multiplier) >> (64 - slotBits))
    }

    /// The bytes of a name shorter than `nameLimit` as four words: whole words from the start, then the
    /// word that ends the name (overlapping the one before); a name shorter than a word, byte by byte.
    /// Reads only the name's own bytes.
    @inline(__always)
    private static func words(_ p: UnsafePointer<UInt8>, _ n: Int) -> Words {
        let raw = UnsafeRawPointer(p)
        guard n >= 8 else {
            var w: UInt64 = 0
            for i in 0..<n { w |= UInt64(p[i]) << UInt64(8 * i) }
            return (w, 0, 0, 0)
        }
        let last = raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
        return (raw.loadUnaligned(as: UInt64.self), n >= 16 ? raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self) : 0,
                n >= 24 ? raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self) : 0, last)
    }

    /// A key of at most eight bytes, as a word to compare with the eight bytes at a position.
    private struct Key {
        var word: UInt64
        var mask: UInt64
        var count: Int

        init(_ text: StaticString) {
            count = text.utf8CodeUnitCount
            precondition(count <= 8)
            word = 0
            for i in 0..<count { word |= UInt64(text.utf8Start[i]) << UInt64(8 * i) }
            mask = count == 8 ? ~0 : (1 << UInt64(8 * count)) - 1
        }
    }

    private let seqKey = Key("{\"seq\":")
    private let tKey = Key(",\"t\":")
    private let typeKey = Key(",\"type\":")

    /// Whether `key` is at `i` (then `i` moves past it): one compare where eight bytes remain.
    @inline(__always)
    private static func match(_ key: Key, _ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int) -> Bool {
        if n - i >= 8 {
            guard UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self) & key.mask == key.word else { return false }
        } else {
            guard n - i >= key.count else { return false }
            for j in 0..<key.count where UInt64(p[i + j]) != (key.word >> UInt64(8 * j)) & 0xFF { return false }
        }
        i += key.count
        return true
    }

    /// A non-negative integer of at most 18 digits without a leading zero, fraction or exponent, as the
    /// decoder's fast path reads counts. Eight digits at a time where eight bytes remain (a word's leading
    /// digits found and converted with a few multiplications), then byte by byte.
    @inline(__always)
    private static func count(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int) -> Int64? {
        let start = i
        var value: UInt64 = 0
        if n - i >= 8 {
            let (k, v) = JSONCursor.leadingDigits(UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
            value = v
            i += k
            if k < 8 { return finishCount(p, n, start, i, value) }
        }
        while i < n {
            let d = p[i] &- 0x30
            if d >= 10 { break }
            value = value &* 10 &+ UInt64(d)
            i += 1
        }
        return finishCount(p, n, start, i, value)
    }

    /// The checks of a count read from `start` to `i`.
    @inline(__always)
    private static func finishCount(_ p: UnsafePointer<UInt8>, _ n: Int, _ start: Int, _ i: Int, _ value: UInt64) -> Int64? {
        let digits = i - start
        guard digits > 0, digits <= 18, digits == 1 || p[start] != UInt8(ascii: "0") else { return nil }
        if i < n && (p[i] == UInt8(ascii: ".") || p[i] | 0x20 == UInt8(ascii: "e")) { return nil }
        return Int64(value)
    }

    /// `RecordDecoder.skim(line)`.
    @inline(__always)
    func skim(_ line: UnsafeBufferPointer<UInt8>) -> SkimmedLine? {
        guard let p = line.baseAddress else { return nil }
        let n = line.count
        var i = 0
        guard Self.match(seqKey, p, n, &i), let seq = Self.count(p, n, &i), seq <= Self.maxSeq,
              Self.match(tKey, p, n, &i), let t = Self.count(p, n, &i), t <= maxT,
              Self.match(typeKey, p, n, &i) else { return nil }
        while i < n, p[i] == 0x20 || p[i] == 0x0A || p[i] == 0x0D || p[i] == 0x09 { i += 1 }
        guard i < n, p[i] == UInt8(ascii: "\"") else { return nil }
        // The name runs to the next quote; a backslash or control byte in it matches no name, as the
        // definition refuses an escaped or broken type.
        let start = i + 1
        var end = start
        while end - start < Self.nameLimit {
            if n - end >= 8 {
                let x = UnsafeRawPointer(p + end).loadUnaligned(as: UInt64.self) ^ 0x2222_2222_2222_2222
                // A zero byte of x is a quote; the lowest flagged byte is exactly the first.
                let quotes = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
                if quotes != 0 { end += quotes.trailingZeroBitCount / 8; break }
                end += 8
            } else {
                while end < n, p[end] != UInt8(ascii: "\"") { end += 1 }
                break
            }
        }
        let count = end - start
        guard end < n, count < Self.nameLimit, p[end] == UInt8(ascii: "\"") else { return nil }
        let words = Self.words(p + start, count)
        let name = table[Self.slot(count, words.0, multiplier)]
        guard name.count == count, name.words == words, LineStructure.closesObject(line, from: end + 1) else { return nil }
        return SkimmedLine(seq: Int(seq), t: t, kind: name.kind)
    }
}
