import TraceModel

/// What kind of personal value a template log's or a custom event's value is (`.uid`, `.channel`,
/// `.room`, `.device`, `.free`): with privacy on it gets that kind's token, the one a record field of
/// the kind gets for the same value (the one personal-field map, `PersonalValue`, decides).
public typealias ValueKind = PersonalValue.Declared

extension TraceRecorder {
    /// A log message as a template with values, each public or private (OSLog's model): the template's
    /// text is the SDK's own and always public; an interpolated value is private unless marked public
    /// (strings and other values) or public unless marked private (numbers and booleans).
    ///
    /// ```swift
    /// recorder.record(.log(level: "debug", "rtp stats for \(uid) nack=\(nack) ssrc=\(ssrc, privacy: .private)"))
    /// ```
    /// With `Privacy.hashed`, each private value becomes a token: a value of a declared kind the token of
    /// that kind (`\(uid, kind: .uid)` → `uid-…`, as in a speaker record), any other private value
    /// `log-…` (the kind `rtctrace redact` gives log text); with privacy off the message is written as
    /// the app would print it.
    public struct LogMessage: ExpressibleByStringInterpolation, Equatable, Sendable {
        /// Whether a value may reach the disk as it is.
        public enum Privacy: Sendable, Equatable {
            /// Written as it is.
            case `public`
            /// Replaced by a keyed token when the recorder's privacy is on.
            case `private`
        }

        /// One piece of the message: the template's text, or a value (`kind` nil: public).
        enum Piece: Equatable, Sendable {
            case text(String)
            case value(String, kind: ValueKind?)
        }

        private(set) var pieces: [Piece]

        /// A message that is all template text.
        public init(stringLiteral value: String) { pieces = [.text(value)] }

        /// A message built by interpolation.
        public init(stringInterpolation: StringInterpolation) { pieces = stringInterpolation.pieces }

        init(pieces: [Piece]) { self.pieces = pieces }

        /// Builds a message from a template's text and its values.
        public struct StringInterpolation: StringInterpolationProtocol {
            var pieces: [Piece] = []

            /// Creates an empty message.
            public init(literalCapacity: Int, interpolationCount: Int) { pieces.reserveCapacity(interpolationCount * 2 + 1) }

            /// Template text.
            public mutating func appendLiteral(_ literal: String) {
                if !literal.isEmpty { pieces.append(.text(literal)) }
            }

            /// A string value: private unless marked public.
            public mutating func appendInterpolation(_ value: String, privacy: Privacy = .private) {
                pieces.append(.value(value, kind: privacy == .private ? .free : nil))
            }

            /// A personal value of a kind (`"joined \(uid, kind: .uid)"`): private, and with privacy on it
            /// becomes the token a record field of that kind gets for the same value (a uid in a speaker
            /// record), so a log line can be connected to the records it is about.
            public mutating func appendInterpolation(_ value: String, kind: ValueKind) {
                pieces.append(.value(value, kind: kind))
            }

            /// Any other value of a kind, as it describes itself.
            public mutating func appendInterpolation<T: CustomStringConvertible>(_ value: T, kind: ValueKind) {
                pieces.append(.value(value.description, kind: kind))
            }

            /// An integer: public unless marked private.
            public mutating func appendInterpolation<T: BinaryInteger>(_ value: T, privacy: Privacy = .public) {
                pieces.append(.value(String(value), kind: privacy == .private ? .free : nil))
            }

            /// A floating-point number: public unless marked private.
            public mutating func appendInterpolation(_ value: Double, privacy: Privacy = .public) {
                pieces.append(.value(String(value), kind: privacy == .private ? .free : nil))
            }

            /// A boolean: public unless marked private.
            public mutating func appendInterpolation(_ value: Bool, privacy: Privacy = .public) {
                pieces.append(.value(value ? "true" : "false", kind: privacy == .private ? .free : nil))
            }

            /// Any other value, as it describes itself: private unless marked public.
            public mutating func appendInterpolation<T: CustomStringConvertible>(_ value: T, privacy: Privacy = .private) {
                pieces.append(.value(value.description, kind: privacy == .private ? .free : nil))
            }
        }

        /// The message as the app would print it (no privacy applied).
        public var text: String { rendered(nil) }

        /// The message with each private value replaced by `token(value, kind)` (nil: left as it is).
        func rendered(_ token: ((String, ValueKind) -> String)?) -> String {
            var out = ""
            for p in pieces {
                switch p {
                case .text(let s): out += s
                case .value(let v, let kind): out += kind.flatMap { k in token?(v, k) } ?? v
                }
            }
            return out
        }

        /// The message with each value cut to `limit` bytes (the template's text too); nil when none is longer.
        func clipped(to limit: Int) -> LogMessage? {
            guard pieces.contains(where: { $0.string.utf8.count > limit }) else { return nil }
            return LogMessage(pieces: pieces.map { p in
                switch p {
                case .text(let s): .text(RecordClipping.clip(s, limit) ?? s)
                case .value(let v, let kind): .value(RecordClipping.clip(v, limit) ?? v, kind: kind)
                }
            })
        }
    }
}

extension TraceRecorder.LogMessage.Piece {
    var string: String {
        switch self {
        case .text(let s), .value(let s, _): s
        }
    }
}
