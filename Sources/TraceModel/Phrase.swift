/// A sentence written as UTF-8 bytes and made a `String` once (`string`).
///
/// Written as a string literal with interpolations, as a `String` would be; but each piece is copied into one
/// byte buffer instead of appended to a `String` piece by piece, which costs several hundred instructions a
/// piece. Reports phrase thousands of findings, each of a dozen pieces: this is for those sentences.
package struct Phrase: ExpressibleByStringInterpolation, Sendable {
    /// The sentence's bytes.
    package var bytes: [UInt8]

    /// A sentence without interpolations.
    package init(stringLiteral s: StaticString) {
        bytes = []
        Self.append(s, to: &bytes)
    }

    /// A sentence with interpolations.
    package init(stringInterpolation i: Interpolation) { bytes = i.bytes }

    /// The sentence.
    package var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Both sentences, one after the other.
    package static func + (a: Phrase, b: Phrase) -> Phrase {
        var joined = a
        joined.bytes.append(contentsOf: b.bytes)
        return joined
    }

    static func append(_ s: StaticString, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// The pieces of a phrase as they are written: literal text, and the values between.
    package struct Interpolation: StringInterpolationProtocol {
        var bytes: [UInt8] = []

        /// Room for the literal text and about as much again for the values.
        package init(literalCapacity: Int, interpolationCount: Int) {
            bytes.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        /// Literal text.
        package mutating func appendLiteral(_ s: StaticString) { Phrase.append(s, to: &bytes) }
        /// A string, as it is.
        package mutating func appendInterpolation(_ s: String) {
            // In one copy where the string's bytes lie in one piece (native strings), not byte by byte.
            if s.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil { bytes.append(contentsOf: s.utf8) }
        }
        /// Another phrase.
        package mutating func appendInterpolation(_ p: Phrase) { bytes.append(contentsOf: p.bytes) }
        /// An integer in decimal.
        package mutating func appendInterpolation(_ v: Int) { JSONWriter.appendInt(Int64(v), to: &bytes) }
        /// An integer in decimal.
        package mutating func appendInterpolation(_ v: Int64) { JSONWriter.appendInt(v, to: &bytes) }
        /// An integer in decimal when there is one, else nothing.
        package mutating func appendInterpolation(ifAny v: Int?) { if let v { JSONWriter.appendInt(Int64(v), to: &bytes) } }
        /// Literal text chosen by the phrase (one of a few wordings), copied as it is.
        package mutating func appendInterpolation(_ s: StaticString) { Phrase.append(s, to: &bytes) }
        /// A duration as `formatDuration` writes it, its bytes copied without a `String` between.
        package mutating func appendInterpolation(duration ms: Int64) {
            withDurationText(ms) { bytes.append(contentsOf: $0) }
        }
    }
}
