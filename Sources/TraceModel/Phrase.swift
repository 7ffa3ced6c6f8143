/// A sentence written as UTF-8 bytes and made a `String` once (`string`).
///
/// Written as a string literal with interpolations, as a `String` would be; but each piece is copied into the
/// phrase's own bytes (a sentence of up to 256 bytes needs no buffer of its own) instead of appended to a
/// `String` piece by piece, which costs several hundred instructions a piece. Reports phrase thousands of
/// findings, each of a dozen pieces: this is for those sentences.
package struct Phrase: ExpressibleByStringInterpolation, Sendable {
    /// The bytes of a sentence of up to `headBytes`, in the value itself (no buffer to allocate and free);
    /// a longer sentence's bytes are all in `spilled`.
    private var head: Head = Phrase.emptyHead
    private var count = 0
    private var spilled: [UInt8]?

    private typealias Head = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    private static let emptyHead: Head = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private static let headBytes = MemoryLayout<Head>.size

    private init() {}

    /// A sentence without interpolations.
    package init(stringLiteral s: StaticString) { append(s) }

    /// A sentence with interpolations.
    package init(stringInterpolation i: Interpolation) { self = i.phrase }

    /// The sentence.
    package var string: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    /// Both sentences, one after the other.
    package static func + (a: Phrase, b: Phrase) -> Phrase {
        var joined = a
        b.withBytes { joined.append(UnsafeRawBufferPointer($0)) }
        return joined
    }

    /// Calls `body` with the sentence's bytes.
    private func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let spilled { return spilled.withUnsafeBufferPointer(body) }
        var head = head
        return withUnsafeBytes(of: &head) { body(UnsafeBufferPointer(rebasing: $0.bindMemory(to: UInt8.self)[..<count])) }
    }

    /// Appends bytes: copied into the head while they fit, else (from then on) into `spilled`.
    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let from = bytes.baseAddress, bytes.count > 0 else { return }
        if spilled == nil, count + bytes.count <= Self.headBytes {
            let at = count
            withUnsafeMutableBytes(of: &head) { $0.baseAddress!.advanced(by: at).copyMemory(from: from, byteCount: bytes.count) }
            count += bytes.count
            return
        }
        if spilled == nil {
            var all: [UInt8] = []
            all.reserveCapacity(2 * Self.headBytes)
            withBytes { all.append(contentsOf: $0) }
            spilled = all
        }
        spilled!.append(contentsOf: bytes.bindMemory(to: UInt8.self))
    }

    private mutating func append(_ s: StaticString) {
        append(UnsafeRawBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// The pieces of a phrase as they are written: literal text, and the values between.
    package struct Interpolation: StringInterpolationProtocol {
        var phrase = Phrase()

        /// Pieces go into the phrase's own bytes: nothing to reserve.
        package init(literalCapacity: Int, interpolationCount: Int) {}

        /// Literal text.
        package mutating func appendLiteral(_ s: StaticString) { phrase.append(s) }
        /// A string, as it is.
        package mutating func appendInterpolation(_ s: String) {
            // In one copy where the string's bytes lie in one piece (native strings), not byte by byte.
            if s.utf8.withContiguousStorageIfAvailable({ phrase.append(UnsafeRawBufferPointer($0)) }) == nil {
                Array(s.utf8).withUnsafeBytes { phrase.append($0) }
            }
        }
        /// Another phrase.
        package mutating func appendInterpolation(_ p: Phrase) { p.withBytes { phrase.append(UnsafeRawBufferPointer($0)) } }
        /// An integer in decimal.
        package mutating func appendInterpolation(_ v: Int) { JSONWriter.formatInt(Int64(v)) { phrase.append($0) } }
        /// An integer in decimal.
        package mutating func appendInterpolation(_ v: Int64) { JSONWriter.formatInt(v) { phrase.append($0) } }
        /// An integer in decimal when there is one, else nothing.
        package mutating func appendInterpolation(ifAny v: Int?) { if let v { appendInterpolation(v) } }
        /// Literal text chosen by the phrase (one of a few wordings), copied as it is.
        package mutating func appendInterpolation(_ s: StaticString) { phrase.append(s) }
        /// A duration as `formatDuration` writes it, its bytes copied without a `String` between.
        package mutating func appendInterpolation(duration ms: Int64) {
            withDurationText(ms) { phrase.append(UnsafeRawBufferPointer($0)) }
        }
    }
}
