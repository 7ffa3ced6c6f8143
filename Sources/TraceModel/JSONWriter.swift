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
    private var storage: [UInt8]
    /// Pieces not yet appended to `storage`.
    private var pending: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                          UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private var pendingCount = 0
    private static let pendingCapacity = 128
    /// Bit k: the open container at level k (from the outermost, below 64) already holds a member.
    private var members: UInt64 = 0
    /// Open containers.
    private var depth = 0
    /// The same for levels 64 and deeper.
    private var deepMembers: [Bool] = []

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

    /// Appends the pending pieces to the buffer.
    @inline(__always)
    private mutating func flush() {
        guard pendingCount > 0 else { return }
        let n = pendingCount
        pendingCount = 0
        withUnsafeBytes(of: pending) { storage.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[..<n])) }
    }

    /// Adds one byte to the pending pieces.
    @inline(__always)
    private mutating func put(_ b: UInt8) {
        if pendingCount == Self.pendingCapacity { flush() }
        let i = pendingCount
        withUnsafeMutableBytes(of: &pending) { $0[i] = b }
        pendingCount = i + 1
    }

    /// Adds `p` to the pending pieces (straight to the buffer when it is longer than they can hold).
    @inline(__always)
    private mutating func put(_ p: UnsafeRawBufferPointer) {
        let n = p.count
        if pendingCount + n > Self.pendingCapacity {
            flush()
            if n > Self.pendingCapacity { storage.append(contentsOf: p); return }
        }
        guard let from = p.baseAddress else { return }
        let i = pendingCount
        withUnsafeMutableBytes(of: &pending) { Self.copyPiece(to: $0.baseAddress! + i, from: from, count: n) }
        pendingCount = i + n
    }

    /// Copies `n` bytes that fit the pending run: up to sixteen with two loads and two stores, each of the
    /// widest size that fits (overlapping in the middle), rather than a call to copy a few bytes.
    @inline(__always)
    private static func copyPiece(to dst: UnsafeMutableRawPointer, from src: UnsafeRawPointer, count n: Int) {
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

    /// A comma before every member of a container but its first.
    @inline(__always)
    private mutating func separate() {
        guard depth > 0 else { return }
        let level = depth - 1
        if level < 64 {
            let bit: UInt64 = 1 << UInt64(level)
            if members & bit != 0 { put(UInt8(ascii: ",")) }
            members |= bit
        } else {
            if deepMembers[level - 64] { put(UInt8(ascii: ",")) }
            deepMembers[level - 64] = true
        }
    }

    @inline(__always)
    private mutating func open(_ bracket: UInt8) {
        valuePrologue()
        put(bracket)
        if depth < 64 { members &= ~(1 << UInt64(depth)) } else { deepMembers.append(false) }
        depth += 1
    }

    @inline(__always)
    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        if depth >= 64 { deepMembers.removeLast() }
        put(bracket)
        // A complete value is all in the buffer: `bytes` then needs no copy.
        if depth == 0 { flush() }
    }

    /// Opens an object (as a value or as the value of the key just written).
    public mutating func beginObject() { open(UInt8(ascii: "{")) }
    /// Closes the innermost object.
    public mutating func endObject() { close(UInt8(ascii: "}")) }
    /// Opens an array.
    public mutating func beginArray() { open(UInt8(ascii: "[")) }
    /// Closes the innermost array.
    public mutating func endArray() { close(UInt8(ascii: "]")) }

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

    private var pendingKey = false

    /// Writes a member key given as a literal of plain characters (no quote, backslash or control
    /// character, which the encoder's own keys never contain): copied without an escaping scan.
    public mutating func staticKey(_ k: StaticString) {
        separate()
        let n = k.utf8CodeUnitCount
        if pendingCount + n + 3 > Self.pendingCapacity { flush() }
        guard n + 3 <= Self.pendingCapacity else {
            storage.append(UInt8(ascii: "\""))
            storage.append(contentsOf: UnsafeBufferPointer(start: k.utf8Start, count: n))
            storage.append(UInt8(ascii: "\""))
            return endKey()
        }
        // `"key":` laid out in the pending run in one go.
        let i = pendingCount
        withUnsafeMutableBytes(of: &pending) { buf in
            let at = buf.baseAddress! + i
            at.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
            Self.copyPiece(to: at + 1, from: UnsafeRawPointer(k.utf8Start), count: n)
            at.storeBytes(of: UInt8(ascii: "\""), toByteOffset: n &+ 1, as: UInt8.self)
            at.storeBytes(of: UInt8(ascii: ":"), toByteOffset: n &+ 2, as: UInt8.self)
        }
        pendingCount = i + n + 3
        pendingKey = true
    }

    @inline(__always)
    private mutating func valuePrologue() {
        if pendingKey {
            pendingKey = false
        } else {
            separate()
        }
    }

    /// `s` as a JSON string literal: a short plain one among the pending pieces, any other escaped
    /// straight into the buffer.
    private mutating func appendQuoted(_ s: String) {
        let done = s.utf8.withContiguousStorageIfAvailable { p -> Bool in
            guard p.count <= 64, Self.isPlain(p) else { return false }
            put(UInt8(ascii: "\""))
            put(UnsafeRawBufferPointer(p))
            put(UInt8(ascii: "\""))
            return true
        }
        guard done != true else { return }
        flush()
        Self.appendEscaped(s, to: &storage)
    }

    /// Writes a string value.
    public mutating func string(_ s: String) { valuePrologue(); appendQuoted(s) }
    /// Writes an integer value.
    public mutating func int<I: BinaryInteger>(_ v: I) { valuePrologue(); putInt(Int64(v)) }
    /// Writes an integer value (not generic: the common case, specialised here once).
    public mutating func int(_ v: Int) { valuePrologue(); putInt(Int64(v)) }
    /// Writes an integer value.
    public mutating func int(_ v: Int64) { valuePrologue(); putInt(v) }
    /// Writes a number: integral values without a fraction, others in shortest round-trip form.
    public mutating func double(_ v: Double) { valuePrologue(); flush(); Self.appendDouble(v, to: &storage) }
    /// Writes a boolean.
    public mutating func bool(_ v: Bool) { valuePrologue(); putLiteral(v ? "true" : "false") }
    /// Writes null.
    public mutating func null() { valuePrologue(); putLiteral("null") }
    /// Writes pre-encoded JSON as a value, verbatim.
    public mutating func raw(_ json: String) { valuePrologue(); flush(); storage.append(contentsOf: json.utf8) }

    @inline(__always)
    private mutating func putLiteral(_ s: StaticString) {
        put(UnsafeRawBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// The decimal form of `v` among the pending pieces (`formatInt`).
    private mutating func putInt(_ v: Int64) {
        if v >= 0 && v < 10 { return put(UInt8(truncatingIfNeeded: v) &+ 0x30) }
        Self.formatInt(v) { put($0) }
    }

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
    /// Writes an optional integer, null when nil.
    public mutating func int(_ v: Int?) { if let v { int(v) } else { null() } }
    /// Writes an optional integer, null when nil.
    public mutating func int(_ v: Int64?) { if let v { int(v) } else { null() } }
    /// Writes an optional boolean, null when nil.
    public mutating func bool(_ v: Bool?) { if let v { bool(v) } else { null() } }
}
