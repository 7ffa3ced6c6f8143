import SystemLayer

/// A string the replay compares, as an id in its symbol table: equal strings have equal symbols, so the
/// engines compare ids, never text. Symbol 0 is no string (an absent field).
public struct Symbol: Hashable, Sendable {
    /// The id.
    public var id: UInt32

    /// A symbol by its id.
    @inlinable
    public init(id: UInt32) { self.id = id }

    /// No string.
    public static let none = Symbol(id: 0)
    /// The symbol every string shares once the table is full (`SymbolTable.overflowed`).
    public static let overflow = Symbol(id: UInt32.max)

    /// Whether it stands for a string.
    @inlinable
    public var isSome: Bool { id != 0 }
}

/// The strings one replay compares (uids, track ids, device ids and names, api names, ports), each kept
/// once and named by a `Symbol`: interned straight from the bytes of the trace, bounded like every other
/// kept list. Past `maxSymbols` distinct strings or `maxBytes` of them, every new string shares the overflow
/// symbol (`overflowed` says so, and the replay reports it); a string is turned back into a `String` only
/// where output needs it, once per symbol.
public final class SymbolTable {
    /// Distinct strings kept at most (by default).
    public static let defaultMaxSymbols = 1 << 21
    /// Bytes of distinct strings kept at most (by default).
    public static let defaultMaxBytes = 64 << 20
    /// The text of the overflow symbol.
    public static let overflowText = ModelWords.stringPastSymbolLimit

    /// The limits this table keeps to.
    public let maxSymbols: Int, maxBytes: Int
    /// Whether a string came that the table had no room for (it and every later new string share `Symbol.overflow`).
    public private(set) var overflowed = false

    // One replay uses a table, on one thread at a time: its accesses need no run-time exclusivity check.
    @exclusivity(unchecked) @usableFromInline var bytes: [UInt8] = []
    /// `ends[k]`: where symbol k's bytes end (they start at `ends[k - 1]`); `ends[0]` is 0, for no string.
    @exclusivity(unchecked) @usableFromInline var ends: [UInt32] = [0]
    @exclusivity(unchecked) @usableFromInline var hashes: [UInt32] = [0]
    /// `words[k]`: symbol k's first eight bytes as a word (the first in the lowest byte; zeros past a shorter
    /// string's end).
    @exclusivity(unchecked) @usableFromInline var words: [UInt64] = [0]
    @exclusivity(unchecked) @usableFromInline var slots: [UInt32] = Array(repeating: 0, count: SymbolTable.firstSlots)
    @exclusivity(unchecked) @usableFromInline var strings: [String?] = [nil]
    /// Pairs of short strings lately interned together (`intern(word:count:word:count:)`), in the slot their
    /// words hash to: a replay meets the same few speakers over and over.
    @exclusivity(unchecked) @usableFromInline var pairs: [InternedPair] = Array(repeating: InternedPair(), count: SymbolTable.pairSlots)

    /// An empty table with these limits.
    public init(maxSymbols: Int = defaultMaxSymbols, maxBytes: Int = defaultMaxBytes) {
        self.maxSymbols = maxSymbols
        self.maxBytes = maxBytes
    }

    /// Distinct strings kept.
    public var count: Int { ends.count - 1 }

    /// The number of slots a new table has.
    static let firstSlots = 1024

    /// Forgets every string: the table is then as a new one with its limits (the next string is symbol 1
    /// again), its storage kept; slots grown past a new table's are made anew rather than cleared.
    public func reset() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        ends.append(0)
        hashes.removeAll(keepingCapacity: true)
        hashes.append(0)
        words.removeAll(keepingCapacity: true)
        words.append(0)
        strings.removeAll(keepingCapacity: true)
        strings.append(nil)
        pairs.withUnsafeMutableBufferPointer { $0.update(repeating: InternedPair()) }
        if slots.count == Self.firstSlots {
            slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        } else {
            slots = Array(repeating: 0, count: Self.firstSlots)
        }
        overflowed = false
    }

    /// Bytes of the distinct strings kept.
    public var byteCount: Int { bytes.count }

    /// The symbol of the `count` bytes at `start`, added when new.
    @inlinable
    public func intern(_ start: UnsafeRawPointer, count: Int) -> Symbol {
        if count <= Self.wordBytes {
            var w: UInt64 = 0
            var i = 0
            while i < count {
                w |= UInt64(start.load(fromByteOffset: i, as: UInt8.self)) << UInt64(8 * i)
                i += 1
            }
            return intern(word: w, count: count)
        }
        let h = Self.hash(start, count)
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let k = slots[i]
            if k == 0 { return add(start, count: count, hash: h, slot: i) }
            if hashes[Int(k)] == h {
                let from = Int(ends[Int(k) - 1]), to = Int(ends[Int(k)])
                if to - from == count, bytes.withUnsafeBytes({ Memory.equal($0.baseAddress! + from, start, count: count) }) {
                    return Symbol(id: k)
                }
            }
            i = (i + 1) & mask
        }
    }

    /// The longest string interned from a machine word (`intern(word:count:)`).
    @inlinable
    public static var wordBytes: Int { 8 }

    /// The symbol of a string of at most `wordBytes` bytes given as the word that holds them (the first in
    /// the lowest byte, the bytes past `count` zero), added when new: no bytes to hash or compare, one
    /// word's mix and one word's compare per probe. Inlined where it is called (a replay calls it twice for
    /// each speaker entry), however large the caller: its one rare path, adding a string, is out of line.
    @inlinable @inline(__always)
    public func intern(word w: UInt64, count: Int) -> Symbol {
        let h = Self.hash(word: w, count)
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let k = Int(slots[i])
            if k == 0 { return add(word: w, count: count, hash: h, slot: i) }
            // A string's first word and its length settle equality for a short one.
            if words[k] == w, Int(ends[k] &- ends[k - 1]) == count { return Symbol(id: UInt32(k)) }
            i = (i + 1) & mask
        }
    }

    /// The number of pairs remembered (`pairs`).
    @inlinable
    static var pairSlots: Int { 256 }

    /// The symbols of two strings of at most `wordBytes` bytes each, given as their words (a speaker entry's
    /// uid and track id): those of `intern(word:count:)` for each, found without its two probes when the same
    /// pair came lately. A remembered pair stays right: a string's symbol does not change until `reset`,
    /// which forgets the pairs (one that got the overflow symbol could not be added later either, the
    /// table's counts only growing).
    @inlinable @inline(__always)
    public func intern(word a: UInt64, count na: Int, word b: UInt64, count nb: Int) -> (Symbol, Symbol) {
        let counts = UInt32(truncatingIfNeeded: na | nb &<< 8) | 0x1_0000
        let h = ((a &+ UInt64(counts)) &* 0x9E37_79B9_7F4A_7C15) ^ (b &* 0xD6E8_FEB8_6659_FD93)
        let i = Int(truncatingIfNeeded: h >> 56)
        let p = pairs[i]
        if p.counts == counts, p.first == a, p.second == b { return (Symbol(id: p.ids.0), Symbol(id: p.ids.1)) }
        let x = intern(word: a, count: na), y = intern(word: b, count: nb)
        pairs[i] = InternedPair(first: a, second: b, counts: counts, ids: (x.id, y.id))
        return (x, y)
    }

    /// The symbol of `bytes`, added when new.
    @inlinable
    public func intern(_ bytes: UnsafeRawBufferPointer) -> Symbol {
        guard let base = bytes.baseAddress else { return intern(UnsafeRawPointer(bitPattern: 1)!, count: 0) }
        return intern(base, count: bytes.count)
    }

    /// The symbol of `s`, added when new.
    public func intern(_ s: String) -> Symbol {
        var s = s
        return s.withUTF8 { intern(UnsafeRawBufferPointer($0)) }
    }

    /// The symbol of `s`, nil for an absent string: `Symbol.none`.
    public func intern(_ s: String?) -> Symbol {
        guard let s else { return .none }
        return intern(s)
    }

    /// `add` of the bytes of a word, out of line: the address of `w` taken here, not in `intern(word:count:)`,
    /// keeps that probe free of a stack protector (a new string is rare; a lookup is every speaker entry).
    @usableFromInline @inline(never)
    func add(word w: UInt64, count: Int, hash: UInt32, slot: Int) -> Symbol {
        withUnsafeBytes(of: w) { add($0.baseAddress!, count: count, hash: hash, slot: slot) }
    }

    @usableFromInline
    func add(_ start: UnsafeRawPointer, count: Int, hash: UInt32, slot: Int) -> Symbol {
        guard ends.count <= maxSymbols, bytes.count + count <= maxBytes, ends.count < Int(UInt32.max - 1) else {
            overflowed = true
            return .overflow
        }
        let k = UInt32(ends.count)
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: start, count: count))
        ends.append(UInt32(bytes.count))
        hashes.append(hash)
        var first: UInt64 = 0
        for i in 0..<min(count, Self.wordBytes) { first |= UInt64(start.load(fromByteOffset: i, as: UInt8.self)) << UInt64(8 * i) }
        words.append(first)
        strings.append(nil)
        slots[slot] = k
        // At most half full: probes stay short.
        if ends.count * 2 > slots.count { grow() }
        return Symbol(id: k)
    }

    private func grow() {
        var bigger = [UInt32](repeating: 0, count: slots.count * 2)
        let mask = bigger.count - 1
        for k in 1..<ends.count {
            var i = Int(hashes[k]) & mask
            while bigger[i] != 0 { i = (i + 1) & mask }
            bigger[i] = UInt32(k)
        }
        slots = bigger
    }

    /// The string of a symbol (made once, then kept); nil for no string.
    public func string(_ s: Symbol) -> String? {
        guard s.isSome else { return nil }
        if s == .overflow { return Self.overflowText }
        let k = Int(s.id)
        if let cached = strings[k] { return cached }
        let from = Int(ends[k - 1]), to = Int(ends[k])
        let made = bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[from..<to]), as: UTF8.self) }
        strings[k] = made
        return made
    }

    /// The string of a symbol that stands for one (an absent field reads as empty).
    public func text(_ s: Symbol) -> String { string(s) ?? "" }

    /// The hash of a string of at most `wordBytes` bytes, from the word that holds them.
    @inlinable
    static func hash(word w: UInt64, _ count: Int) -> UInt32 {
        var h = w &+ UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 32
        h = h &* 0xD6E8_FEB8_6659_FD93
        return UInt32(truncatingIfNeeded: h ^ (h >> 32))
    }

    /// A hash of `count` bytes (more than `wordBytes`), eight at a time.
    @inlinable
    static func hash(_ p: UnsafeRawPointer, _ count: Int) -> UInt32 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: count)
        var i = 0
        while i + 8 <= count {
            h = (h ^ p.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 29
            i += 8
        }
        if i < count {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < count {
                tail |= UInt64(p.load(fromByteOffset: i, as: UInt8.self)) << shift
                shift += 8
                i += 1
            }
            h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
        }
        h ^= h >> 32
        h = h &* 0xD6E8_FEB8_6659_FD93
        return UInt32(truncatingIfNeeded: h ^ (h >> 32))
    }
}

/// A pair of short strings interned together, with their symbols (`SymbolTable.intern(word:count:word:count:)`).
@usableFromInline
struct InternedPair {
    /// The strings' words.
    @usableFromInline var first: UInt64, second: UInt64
    /// Their lengths (the first's in the lowest byte) with bit 16 set; 0 for no pair.
    @usableFromInline var counts: UInt32
    /// Their symbols' ids.
    @usableFromInline var ids: (UInt32, UInt32)

    @inlinable
    init(first: UInt64 = 0, second: UInt64 = 0, counts: UInt32 = 0, ids: (UInt32, UInt32) = (0, 0)) {
        self.first = first
        self.second = second
        self.counts = counts
        self.ids = ids
    }
}
