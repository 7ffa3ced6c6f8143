import TraceModel

extension TraceRecorder {
    /// A value of a custom event: a number, a boolean, or a string that is private unless marked public
    /// (and may say what kind of personal value it is, so that it gets that kind's token).
    public struct CustomValue: Equatable, Sendable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
        ExpressibleByBooleanLiteral, ExpressibleByStringLiteral {
        enum Storage: Equatable, Sendable {
            case int(Int64)
            case double(Double)
            case bool(Bool)
            case string(String, kind: ValueKind?)
        }

        let storage: Storage

        /// An integer.
        public static func int(_ v: some BinaryInteger) -> CustomValue { CustomValue(storage: .int(Int64(clamping: v))) }
        /// A floating-point number (a value that is not finite is written as null).
        public static func double(_ v: Double) -> CustomValue { CustomValue(storage: .double(v)) }
        /// A boolean.
        public static func bool(_ v: Bool) -> CustomValue { CustomValue(storage: .bool(v)) }
        /// A string: private unless marked public (with privacy on, a private one becomes a token).
        public static func string(_ v: String, privacy: LogMessage.Privacy = .private) -> CustomValue {
            CustomValue(storage: .string(v, kind: privacy == .private ? .free : nil))
        }
        /// A personal value of a kind: with privacy on, the token a record field of that kind gets for the
        /// same value (`.string(uid, kind: .uid)` → `uid-…`, as in a speaker record).
        public static func string(_ v: String, kind: ValueKind) -> CustomValue {
            CustomValue(storage: .string(v, kind: kind))
        }

        init(storage: Storage) { self.storage = storage }
        /// An integer literal.
        public init(integerLiteral value: Int64) { storage = .int(value) }
        /// A floating-point literal.
        public init(floatLiteral value: Double) { storage = .double(value) }
        /// A boolean literal.
        public init(booleanLiteral value: Bool) { storage = .bool(value) }
        /// A string literal: private, like any string not marked public.
        public init(stringLiteral value: String) { storage = .string(value, kind: .free) }
    }

    /// A custom event as the recorder holds it: its type (`x.NAME`) and its values, names already made safe.
    struct CustomEvent: Equatable, Sendable {
        /// The namespace the format leaves to SDKs: no record type of the format begins with it.
        static let prefix = CustomRecordName.prefix
        /// At most this many values; later ones are left out (and counted in `clipped`).
        static let maxValues = 32
        /// Names (the event's and its values') at most this long.
        static let maxName = CustomRecordName.maxName

        var type: String
        var values: [(name: String, value: CustomValue)]
        /// Whether names or values had to be cut or left out.
        var clipped = false
        /// The value that says so in the record (`"_clipped": true`).
        static let clippedKey = "_clipped"
        /// Names every record gives its own meaning (`late` since version 4): a value so named becomes `_NAME`.
        static let reservedNames: Set<String> = ["seq", "t", "type", "late"]

        init(name: String, values: [(String, CustomValue)]) {
            type = Self.prefix + Self.safeName(name, allowDots: true)
            var seen = Set<String>()
            var kept: [(name: String, value: CustomValue)] = []
            for (n, v) in values {
                var key = Self.safeName(n, allowDots: false)
                if Self.reservedNames.contains(key) { key = "_" + key }
                guard kept.count < Self.maxValues else { clipped = true; break }
                guard seen.insert(key).inserted else { continue }
                kept.append((key, v))
            }
            self.values = kept
            if name.utf8.count > Self.maxName { clipped = true }
        }

        static func == (a: CustomEvent, b: CustomEvent) -> Bool {
            a.type == b.type && a.values.map(\.name) == b.values.map(\.name) && a.values.map(\.value) == b.values.map(\.value)
        }

        /// ASCII letters, digits, `_`, `-` (and `.` in an event name) are kept; anything else becomes `_`
        /// (the naming rule, `CustomRecordName`, by which redaction keeps the type in clear).
        static func safeName(_ s: String, allowDots: Bool) -> String { CustomRecordName.safeName(s, allowDots: allowDots) }

        /// The heap bytes its strings hold (for the queue's estimate) and the longest of them.
        var stringBytes: (total: Int, longest: Int) {
            var total = 0, longest = 0
            for (_, v) in values {
                if case .string(let s, _) = v.storage {
                    let n = s.utf8.count
                    total += n > 15 ? n + 48 : 16
                    longest = max(longest, n)
                }
            }
            return (total + values.count * 48, longest)
        }

        /// The event with each string cut to `limit` bytes; nil when none is longer.
        func clipped(to limit: Int) -> CustomEvent? {
            guard stringBytes.longest > limit else { return nil }
            var c = self
            c.clipped = true
            c.values = values.map { n, v in
                guard case .string(let s, let p) = v.storage, let cut = RecordClipping.clip(s, limit) else { return (n, v) }
                return (n, CustomValue(storage: .string(cut, kind: p)))
            }
            return c
        }

        /// The record's JSON line: private strings through `token` (nil: as they are).
        func jsonLine(seq: Int, t: Int64, token: ((String, ValueKind) -> String)?) -> String {
            var w = JSONWriter(reserving: 128)
            encode(seq: seq, t: t, late: false, token: token, into: &w)
            return w.string
        }

        func encode(seq: Int, t: Int64, late: Bool, token: ((String, ValueKind) -> String)?, into w: inout JSONWriter) {
            w.beginObject()
            w.staticKey("seq"); w.int(seq)
            w.staticKey("t"); w.int(t)
            w.staticKey("type"); w.string(type)
            for (name, v) in values {
                w.key(name)
                switch v.storage {
                case .int(let i): w.int(i)
                case .double(let d): w.double(d)
                case .bool(let b): w.bool(b)
                case .string(let s, let kind): w.string(kind.flatMap { k in token?(s, k) } ?? s)
                }
            }
            // The note a reader sees: names or values were cut or left out (a clipped string says so itself).
            if clipped, !values.contains(where: { $0.name == Self.clippedKey }) { w.key(Self.clippedKey); w.bool(true) }
            if late, !values.contains(where: { $0.name == "late" }) { w.key("late"); w.bool(true) }
            w.endObject()
        }
    }
}
