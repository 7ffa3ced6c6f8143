import TraceModel

/// Replaces personal values with keyed tokens before a record is written (`"redacted":"source"`).
///
/// It replaces exactly the fields `RecordBody.mapStrings` declares personal, through
/// `PersonalValue.replace` (the policy `rtctrace redact` applies), under a per-install salt: headers
/// (the bundle id; the session id, which also names the files) and checkpoints included. Unlike the
/// command, it sees one record at a time and cannot rank uids and track ids by their original order,
/// so tokens carry no rank (the contract lets `speakers.mismatch` ignore the order of equal levels in
/// such traces). Log templates and custom events say themselves which values are private: only those
/// become tokens.
struct SourceRedactor {
    private let key: [UInt8]
    private var cache: [PersonalValue.Kind: [String: String]] = [:]
    private var cached = 0
    /// Values held in the token cache at most (a long meeting must not grow it without bound).
    static let cacheLimit = 4096

    init(salt: [UInt8]) { key = salt }

    /// The token for a value.
    mutating func token(_ kind: PersonalValue.Kind, _ value: String) -> String {
        if let t = cache[kind]?[value] { return t }
        let t = PersonalValue.token(key: key, kind: kind, value: value)
        // Log lines are mostly distinct: caching them would only evict the values that repeat.
        if kind != .logMessage && kind != .errorText {
            if cached >= Self.cacheLimit { cache.removeAll(keepingCapacity: true); cached = 0 }
            cache[kind, default: [:]][value] = t
            cached += 1
        }
        return t
    }

    /// The body with every personal value replaced.
    mutating func redact(_ body: RecordBody) -> RecordBody {
        body.mapStrings { value, field in
            guard case .personal(let kind) = field.privacy else { return nil }
            let new = PersonalValue.replace(value, kind) { self.token($0, $1) }
            return new == value ? nil : new
        } ?? body
    }

    /// A header with its personal values replaced and the session as given (already as the files name it).
    mutating func redact(header: TraceHeader) -> TraceHeader {
        var h = header
        h.session = nil
        guard case .header(var out) = redact(.header(h)) else { return header }
        out.session = header.session
        return out
    }

    /// A log record's level as `redact` keeps it (a level word) or a token.
    mutating func level(_ level: String) -> String {
        PersonalValue.replace(level, .logLevel) { self.token($0, $1) }
    }

    /// A private value of a log template: the token of its declared kind's field, else of log text.
    mutating func logValue(_ value: String, _ kind: ValueKind) -> String { token(kind.field ?? .logMessage, value) }

    /// A private string of a custom event: the token of its declared kind's field, else of an unknown
    /// record's fields (`rtctrace redact` tokenises such a record whole, under that kind).
    mutating func customValue(_ value: String, _ kind: ValueKind) -> String { token(kind.field ?? .unknownRecord, value) }
}
