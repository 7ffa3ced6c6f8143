/// Bounds trace text that reports render: a hostile trace can carry a megabyte device name, and a
/// report that repeats it for every call it explains would grow by that much each time.
public enum TextCap {
    /// Characters of one trace string a report renders.
    public static let characters = 200

    /// Characters of one identifier (a uid, a track id) a label that lists several renders: a state label
    /// names up to eight speakers, and eight 1 KiB uids in every label made a 34 KB trace export 89 MB.
    public static let identifierCharacters = 48

    /// An identifier as a label that lists several shows it (`identifierCharacters` at most).
    public static func identifier(_ s: String) -> String { clip(s, identifierCharacters) }

    /// `s` when it is short enough, else its first `limit` characters, an ellipsis and the full length:
    /// of a string the reader already clipped (`clip(bytes:)`), the length it had in the trace, in bytes.
    public static func clip(_ s: String, _ limit: Int = characters) -> String {
        guard s.utf8.count > limit else { return s }
        if let (kept, bytes) = clippedNote(s) {
            return kept.count > limit ? String(kept.prefix(limit)) + "… (\(bytes) bytes)" : s
        }
        var count = 0, cut = s.startIndex
        for i in s.indices {
            if count == limit { cut = i; break }
            count += 1
            cut = s.index(after: i)
        }
        return String(s[..<cut]) + "… (\(s.count) characters)"
    }

    /// UTF-8 bytes of one trace string kept by a replay (in its state, its result and what observers
    /// keep): a record whose line is longer has every longer string clipped as it is read, with the full
    /// length recorded (`clip(bytes:)`). Reading and writing traces (`cat`, `redact`, `reduce`) keep every
    /// string whole; no golden trace has a string this long.
    public static let keptBytes = 1024

    /// The text before a `clip(bytes:)` note and the length the note records, when `s` ends with one.
    static func clippedNote(_ s: String) -> (Substring, Int)? {
        let marker = "…[clipped from "
        guard s.hasSuffix(" bytes]") else { return nil }
        let body = s.dropLast(" bytes]".count)
        let digits = body.reversed().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let n = Int(String(digits.reversed())) else { return nil }
        let before = body.dropLast(digits.count)
        guard before.hasSuffix(marker) else { return nil }
        return (before.dropLast(marker.count), n)
    }

    /// `s` cut to at most `limit` UTF-8 bytes (at a character boundary) followed by
    /// `…[clipped from N bytes]`, the note counted in the limit; nil when it is not longer than that.
    public static func clip(bytes s: String, _ limit: Int) -> String? {
        let n = s.utf8.count
        guard n > limit else { return nil }
        let note = "…[clipped from \(n) bytes]"
        let u = s.utf8
        var end = u.index(u.startIndex, offsetBy: max(0, limit - note.utf8.count))
        // Back off continuation bytes, so that no character is cut in half.
        while end > u.startIndex && u[end] & 0xC0 == 0x80 { end = u.index(before: end) }
        return String(decoding: u[..<end], as: UTF8.self) + note
    }
}

extension RecordBody {
    /// The body with every string over `limit` UTF-8 bytes clipped (`TextCap.clip(bytes:)`), walking the
    /// string fields the personal-field map names; nil when none is. The fields of an unknown type are
    /// one JSON text and are clipped as text: `Record.clipped(to:)` keeps a record valid JSON.
    public func clipped(to limit: Int) -> RecordBody? {
        mapStrings { value, _ in TextCap.clip(bytes: value, limit) }
    }
}

extension Record {
    /// The record with every string over `limit` UTF-8 bytes clipped; nil when none is. A record of an
    /// unknown type longer than `limit` keeps its seq, t and type and says how long it was
    /// (`"clippedFromBytes"`), so that it still encodes as a JSON object.
    public func clipped(to limit: Int) -> Record? {
        if case .unknown(let type, let json) = body {
            guard json.utf8.count > limit else { return nil }
            var w = JSONWriter()
            w.beginObject()
            w.staticKey("seq"); w.int(seq)
            w.staticKey("t"); w.int(t)
            w.staticKey("type"); w.string(TextCap.clip(bytes: type, max(limit / 4, 64)) ?? type)
            w.staticKey("clippedFromBytes"); w.int(json.utf8.count)
            w.endObject()
            return Record(seq: seq, t: t, .unknown(type: type, json: w.string))
        }
        return body.clipped(to: limit).map { Record(seq: seq, t: t, $0) }
    }
}
