import TraceModel

/// Replaces personal data in records with stable keyed tokens: the same value of the same kind
/// always gives the same token under the same salt, so the replay's verdicts, divergences and
/// findings do not change. Record structure, `seq` and `t` are kept exactly.
///
/// A token is `PREFIX-` + the first 8 hex digits of HMAC-SHA256(salt, kind NUL value). Uids and
/// track ids also carry their rank among the trace's values (`uid-03-3fa2b1c9`), because the engines
/// order active speakers by uid and track id on ties (S2): tokens sort as the originals did.
package final class Redactor {
    /// What kind of personal value a field holds (shared with the recorder's source redaction).
    package typealias Kind = PersonalValue.Kind

    /// A key for one run when none is given: 32 random bytes, used once and never written anywhere, so
    /// no reader can rebuild the token of a guessed value (a fixed built-in key would let anyone). The
    /// tokens still match within what the run writes; across runs they differ.
    package static func oneTimeKey() -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(g.next() as UInt64, radix: 16) }.joined(separator: "-")
    }

    private let key: [UInt8]
    private var cache: [Kind: [String: String]] = [:]
    private var ranks: [Kind: [String: Int]] = [:]
    private var rankWidth: [Kind: Int] = [:]
    /// Fields changed so far, by kind.
    package private(set) var changed: [Kind: Int] = [:]

    /// Creates a redactor with a salt (the HMAC key).
    package init(salt: String) {
        key = Array(salt.utf8)
    }

    /// Learns the uids and track ids of records (a first pass), so their tokens keep their order.
    package func learn(_ record: Record) {
        forEachOrdered(record) { kind, value in
            if ranks[kind, default: [:]][value] == nil { ranks[kind, default: [:]][value] = 0 }
        }
    }

    /// Fixes the ranks of the learned values; call once after `learn` and before `redact`.
    package func finishLearning() {
        for (kind, values) in ranks {
            let sorted = values.keys.sorted()
            var table: [String: Int] = [:]
            for (i, v) in sorted.enumerated() { table[v] = i + 1 }
            ranks[kind] = table
            rankWidth[kind] = max(2, String(sorted.count).count)
        }
        cache.removeAll()
    }

    /// The token for a value of a kind.
    package func token(_ kind: Kind, _ value: String) -> String {
        if let t = cache[kind]?[value] { return t }
        var rankText: String?
        if let rank = ranks[kind]?[value], let width = rankWidth[kind] {
            let digits = String(rank)
            rankText = String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let t = PersonalValue.token(key: key, kind: kind, value: value, rank: rankText)
        // Log messages are mostly distinct: caching them would grow with the trace.
        if kind != .logMessage && kind != .errorText { cache[kind, default: [:]][value] = t }
        return t
    }

    func map(_ kind: Kind, _ value: String) -> String {
        changed[kind, default: 0] += 1
        return token(kind, value)
    }

    /// The record with every personal value replaced: the fields `RecordBody.mapStrings` declares
    /// personal, through `PersonalValue.replace`; a type this version does not know keeps only its
    /// seq, t and type (its name redacted unless it follows the naming rule).
    package func redact(_ r: Record) -> Record {
        var out = r
        if let body = r.body.mapStrings({ value, field in
            // An unknown type's fields are dropped whole, below.
            guard case .personal(let kind) = field.privacy, kind != .unknownRecord else { return nil }
            let new = PersonalValue.replace(value, kind, token: map)
            return new == value ? nil : new
        }) {
            out.body = body
        }
        if case .unknown(let type, let json) = out.body {
            var w = JSONWriter()
            w.beginObject()
            w.key("seq"); w.int(r.seq)
            w.key("t"); w.int(r.t)
            w.key("type"); w.string(type)
            w.endObject()
            if w.string != json { changed[.unknownRecord, default: 0] += 1 }
            out.body = .unknown(type: type, json: w.string)
            return out
        }
        if case .header(var h) = out.body {
            // The header says who redacted; a trace redacted at the source keeps saying so (its uid order is lost).
            h.redacted = h.redacted ?? .redact
            out.body = .header(h)
        }
        return out
    }

    /// Calls `body` for every uid and track id in a record (the values whose order matters).
    private func forEachOrdered(_ r: Record, _ body: (Kind, String) -> Void) {
        r.body.forEachString { value, field in
            if case .personal(let kind) = field.privacy, kind == .uid || kind == .trackId { body(kind, value) }
        }
    }
}
