import SystemLayer
/// Appends JSON text to a byte buffer: the one JSON escaping helper of the project.
///
/// Its cost per value is constant: which open containers already hold a member is a bit per level (an
/// array only past 64 levels), keys given as literals are copied as they are (`staticKey`), and integers
/// are formatted two digits at a time, never through `String`. Small pieces (punctuation, keys, numbers,
/// short strings) gather in a fixed run of bytes inside the writer and reach the buffer together: each
/// append to an `Array` costs more than the few bytes most pieces are.
public struct JSONWriter {
    /// The bytes written so far (complete once the outermost container is closed).
    public var bytes: [UInt8] {
        guard pendingCount > 0 else { return storage }
        var all = storage
        withUnsafeBytes(of: pending) { all.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[..<pendingCount])) }
        return all
    }
    /// How many bytes are written so far.
    public var count: Int { storage.count + pendingCount }
    /// The buffer, but for the last `pendingCount` bytes written, which are in `pending`.
    @usableFromInline var storage: [UInt8]
    /// Pieces not yet appended to `storage`.
    @usableFromInline var pending: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                                    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    @usableFromInline var pendingCount = 0
    @inlinable static var pendingCapacity: Int { 128 }
    /// Bit k: the open container at level k (from the outermost, below 64) already holds a member.
    @usableFromInline var members: UInt64 = 0
    /// Open containers.
    @usableFromInline var depth = 0
    /// The same for levels 64 and deeper.
    @usableFromInline var deepMembers: [Bool] = []
    /// Whether a member key was just written: the value that follows must not add a comma of its own.
    @usableFromInline var pendingKey = false

    /// Creates a writer, optionally reusing a buffer's capacity.
    public init(reserving capacity: Int = 256) {
        storage = []
        storage.reserveCapacity(capacity)
    }

    /// Empties the buffer, keeping its capacity.
    public mutating func reset() {
        storage.removeAll(keepingCapacity: true)
        pendingCount = 0
        members = 0
        depth = 0
        deepMembers.removeAll(keepingCapacity: true)
        pendingKey = false
    }

    /// The text written so far.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    // The pieces of a document (punctuation, literal keys, the calls' entry points) are inlined into the
    // renderers: a literal key's length and bytes are then constants, laid out with a store or two, and a
    // value after a key knows it takes no comma. What has a loop or grows the buffer stays a call.

    /// Appends the pending pieces to the buffer.
    @inlinable @inline(__always)
    mutating func flush() {
        guard pendingCount > 0 else { return }
        flushPending()
    }

    /// Appends the pending pieces (at least one) to the buffer.
    @usableFromInline
    mutating func flushPending() {
        let n = pendingCount
        pendingCount = 0
        withUnsafeBytes(of: pending) { storage.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[..<n])) }
    }

    /// Adds one byte to the pending pieces.
    @inlinable @inline(__always)
    mutating func put(_ b: UInt8) {
        if pendingCount == Self.pendingCapacity { flushPending() }
        let i = pendingCount
        withUnsafeMutableBytes(of: &pending) { $0.baseAddress.unsafelyUnwrapped.storeBytes(of: b, toByteOffset: i, as: UInt8.self) }
        pendingCount = i &+ 1
    }

    /// Adds `p` to the pending pieces (straight to the buffer when it is longer than they can hold).
    @inlinable @inline(__always)
    mutating func put(_ p: UnsafeRawBufferPointer) {
        let n = p.count
        if pendingCount &+ n > Self.pendingCapacity {
            flush()
            if n > Self.pendingCapacity { storage.append(contentsOf: p); return }
        }
        guard let from = p.baseAddress else { return }
        let i = pendingCount
        withUnsafeMutableBytes(of: &pending) { Self.copyPiece(to: $0.baseAddress.unsafelyUnwrapped + i, from: from, count: n) }
        pendingCount = i &+ n
    }

    /// Copies `n` bytes that fit the pending run: up to sixteen with two loads and two stores, each of the
    /// widest size that fits (overlapping in the middle), rather than a call to copy a few bytes.
    @inlinable @inline(__always)
    static func copyPiece(to dst: UnsafeMutableRawPointer, from src: UnsafeRawPointer, count n: Int) {
        if n >= 8 {
            guard n <= 16 else { return dst.copyMemory(from: src, byteCount: n) }
            let head = src.loadUnaligned(as: UInt64.self), tail = src.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
            dst.storeBytes(of: head, as: UInt64.self)
            dst.storeBytes(of: tail, toByteOffset: n &- 8, as: UInt64.self)
        } else if n >= 4 {
            let head = src.loadUnaligned(as: UInt32.self), tail = src.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
            dst.storeBytes(of: head, as: UInt32.self)
            dst.storeBytes(of: tail, toByteOffset: n &- 4, as: UInt32.self)
        } else if n >= 2 {
            let head = src.loadUnaligned(as: UInt16.self), tail = src.loadUnaligned(fromByteOffset: n &- 2, as: UInt16.self)
            dst.storeBytes(of: head, as: UInt16.self)
            dst.storeBytes(of: tail, toByteOffset: n &- 2, as: UInt16.self)
        } else if n == 1 {
            dst.storeBytes(of: src.load(as: UInt8.self), as: UInt8.self)
        }
    }

    /// Whether the next member of the innermost container takes a comma (every member but its first);
    /// counts the member.
    @inlinable @inline(__always)
    mutating func takesComma() -> Bool {
        guard depth > 0 else { return false }
        let level = depth &- 1
        guard level < 64 else { return deepTakesComma(level) }
        let bit: UInt64 = 1 &<< UInt64(truncatingIfNeeded: level)
        let had = members & bit != 0
        members |= bit
        return had
    }

    /// `takesComma` for a container 64 levels deep or more.
    @usableFromInline
    mutating func deepTakesComma(_ level: Int) -> Bool {
        let had = deepMembers[level - 64]
        deepMembers[level - 64] = true
        return had
    }

    /// A comma before every member of a container but its first.
    @inlinable @inline(__always)
    mutating func separate() {
        if takesComma() { put(UInt8(ascii: ",")) }
    }

    @inlinable @inline(__always)
    mutating func open(_ bracket: UInt8) {
        valuePrologue()
        put(bracket)
        if depth < 64 { members &= ~(1 &<< UInt64(truncatingIfNeeded: depth)) } else { deepMembers.append(false) }
        depth &+= 1
    }

    @inlinable @inline(__always)
    mutating func close(_ bracket: UInt8) {
        depth &-= 1
        if depth >= 64 { deepMembers.removeLast() }
        put(bracket)
        // A complete value is all in the buffer: `bytes` then needs no copy.
        if depth == 0 { flush() }
    }

    /// Opens an object (as a value or as the value of the key just written).
    @inlinable public mutating func beginObject() { open(UInt8(ascii: "{")) }
    /// Closes the innermost object.
    @inlinable public mutating func endObject() { close(UInt8(ascii: "}")) }
    /// Opens an array.
    @inlinable public mutating func beginArray() { open(UInt8(ascii: "[")) }
    /// Closes the innermost array.
    @inlinable public mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Writes a member key; the next value written is its value.
    public mutating func key(_ k: String) {
        separate()
        appendQuoted(k)
        endKey()
    }

    /// Ends a member key: the value that follows must not add a comma of its own.
    private mutating func endKey() {
        put(UInt8(ascii: ":"))
        pendingKey = true
    }

    /// Writes a member key given as a literal of plain characters (no quote, backslash or control
    /// character, which the encoder's own keys never contain): copied without an escaping scan, its comma,
    /// quotes and colon laid out around it in one go.
    @inlinable @inline(__always)
    public mutating func staticKey(_ k: StaticString) {
        let n = k.utf8CodeUnitCount
        guard n <= 32 else { return longStaticKey(k) }
        let comma = takesComma() ? 1 : 0
        // n + 4 is at most 36: a flush leaves room.
        if pendingCount &+ n &+ 4 > Self.pendingCapacity { flushPending() }
        let i = pendingCount
        withUnsafeMutableBytes(of: &pending) { buf in
            let at = buf.baseAddress.unsafelyUnwrapped + i
            // `,"key":`, or `"key":` over the comma.
            at.storeBytes(of: UInt8(ascii: ","), as: UInt8.self)
            at.storeBytes(of: UInt8(ascii: "\""), toByteOffset: comma, as: UInt8.self)
            Self.copyPiece(to: at + (comma &+ 1), from: UnsafeRawPointer(k.utf8Start), count: n)
            at.storeBytes(of: UInt8(ascii: "\""), toByteOffset: comma &+ n &+ 1, as: UInt8.self)
            at.storeBytes(of: UInt8(ascii: ":"), toByteOffset: comma &+ n &+ 2, as: UInt8.self)
        }
        pendingCount = i &+ comma &+ n &+ 3
        pendingKey = true
    }

    /// `staticKey` for a key longer than 32 bytes.
    @usableFromInline
    mutating func longStaticKey(_ k: StaticString) {
        separate()
        let n = k.utf8CodeUnitCount
        if pendingCount + n + 3 > Self.pendingCapacity { flush() }
        guard n + 3 <= Self.pendingCapacity else {
            storage.append(UInt8(ascii: "\""))
            storage.append(contentsOf: UnsafeBufferPointer(start: k.utf8Start, count: n))
            storage.append(UInt8(ascii: "\""))
            return endKey()
        }
        put(UInt8(ascii: "\""))
        put(UnsafeRawBufferPointer(start: k.utf8Start, count: n))
        put(UInt8(ascii: "\""))
        endKey()
    }

    @inlinable @inline(__always)
    mutating func valuePrologue() {
        if pendingKey {
            pendingKey = false
        } else {
            separate()
        }
    }

    /// `s` as a JSON string literal: a short plain one among the pending pieces, any other escaped
    /// straight into the buffer.
    @usableFromInline
    mutating func appendQuoted(_ s: String) {
        let done = s.utf8.withContiguousStorageIfAvailable { p -> Bool in
            let n = p.count
            guard n <= 64, Self.isPlain(p) else { return false }
            // n + 2 is at most 66: a flush leaves room.
            if pendingCount &+ n &+ 2 > Self.pendingCapacity { flushPending() }
            let i = pendingCount
            withUnsafeMutableBytes(of: &pending) { buf in
                let at = buf.baseAddress.unsafelyUnwrapped + i
                at.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
                if let from = p.baseAddress { Self.copyPiece(to: at + 1, from: UnsafeRawPointer(from), count: n) }
                at.storeBytes(of: UInt8(ascii: "\""), toByteOffset: n &+ 1, as: UInt8.self)
            }
            pendingCount = i &+ n &+ 2
            return true
        }
        guard done != true else { return }
        flush()
        Self.appendEscaped(s, to: &storage)
    }

    /// Writes a string value.
    @inlinable public mutating func string(_ s: String) { valuePrologue(); appendQuoted(s) }
    /// Writes an integer value.
    @inlinable public mutating func int<I: BinaryInteger>(_ v: I) { valuePrologue(); putInt(Int64(v)) }
    /// Writes an integer value (not generic: the common case, specialised here once).
    @inlinable public mutating func int(_ v: Int) { valuePrologue(); putInt(Int64(v)) }
    /// Writes an integer value.
    @inlinable public mutating func int(_ v: Int64) { valuePrologue(); putInt(v) }
    /// Writes a number: integral values without a fraction, others in shortest round-trip form.
    public mutating func double(_ v: Double) { valuePrologue(); flush(); Self.appendDouble(v, to: &storage) }
    /// Writes a boolean.
    @inlinable public mutating func bool(_ v: Bool) { valuePrologue(); if v { putLiteral("true") } else { putLiteral("false") } }
    /// Writes null.
    @inlinable public mutating func null() { valuePrologue(); putLiteral("null") }
    /// Writes pre-encoded JSON as a value, verbatim.
    public mutating func raw(_ json: String) { valuePrologue(); flush(); storage.append(contentsOf: json.utf8) }

    @inlinable @inline(__always)
    mutating func putLiteral(_ s: StaticString) {
        put(UnsafeRawBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// The decimal form of `v` among the pending pieces (`formatInt`'s digits): formatted right to left
    /// into the last 24 of 48 bytes, then moved with three fixed 8-byte copies, whatever its length.
    @usableFromInline
    mutating func putInt(_ v: Int64) {
        if v >= 0 && v < 10 { return put(UInt8(truncatingIfNeeded: v) &+ 0x30) }
        if pendingCount &+ 24 > Self.pendingCapacity { flushPending() }
        var tmp: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
        let length = withUnsafeMutableBytes(of: &tmp) { buf in Self.formatDigits(v, endingAt: buf.baseAddress.unsafelyUnwrapped + 48) }
        let i = pendingCount
        withUnsafeBytes(of: &tmp) { digits in
            let from = digits.baseAddress.unsafelyUnwrapped + (48 &- length)
            withUnsafeMutableBytes(of: &pending) { buf in
                let at = buf.baseAddress.unsafelyUnwrapped + i
                at.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
                at.storeBytes(of: from.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
                at.storeBytes(of: from.loadUnaligned(fromByteOffset: 16, as: UInt64.self), toByteOffset: 16, as: UInt64.self)
            }
        }
        pendingCount = i &+ length
    }

    /// Writes an optional string, null when nil.
    @inlinable public mutating func string(_ s: String?) { if let s { string(s) } else { null() } }
    /// Writes a file's path as a reader can use it: a name that is not UTF-8 has each of its other bytes
    /// as `\xNN` (SystemLayer's `PathName.displayed`), as text output shows it, never as the internal
    /// scalar that stands for the byte.
    public mutating func path(_ p: String) { string(PathName.displayed(p)) }
    /// Writes an optional path, null when nil.
    public mutating func path(_ p: String?) { if let p { path(p) } else { null() } }
    /// Writes an optional number, null when nil.
    @inlinable public mutating func double(_ v: Double?) { if let v { double(v) } else { null() } }
    /// Writes an optional integer, null when nil.
    @inlinable public mutating func int(_ v: Int?) { if let v { int(v) } else { null() } }
    /// Writes an optional integer, null when nil.
    @inlinable public mutating func int(_ v: Int64?) { if let v { int(v) } else { null() } }
    /// Writes an optional boolean, null when nil.
    @inlinable public mutating func bool(_ v: Bool?) { if let v { bool(v) } else { null() } }
}
