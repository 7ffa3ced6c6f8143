/// The naming rule for record types the format leaves to SDKs (custom events, `x.NAME`): the one
/// definition the recorder makes names by and the personal-field map judges names by. A name keeps
/// ASCII letters, digits, `_`, `-` and `.`, at most `maxName` of them; a type that follows the rule
/// (`x.rtpStats`) is a name an SDK chose and stays in clear, any other may be anyone's text.
public enum CustomRecordName {
    /// The namespace of custom events: no record type of the format begins with it.
    public static let prefix = "x."
    /// Names (an event's, or one of its values') at most this long, in characters.
    public static let maxName = 64
    /// The longest family a record type may begin with (`trace`, `x`).
    static let maxFamily = 16

    /// Whether the character may stand in a name: an ASCII letter or digit, `_`, `-`, and `.` where
    /// `allowDots` (an event's name, not a value's).
    @inlinable
    public static func isNameScalar(_ u: Unicode.Scalar, allowDots: Bool) -> Bool {
        switch u.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F, 0x2D: true
        case 0x2E: allowDots
        default: false
        }
    }

    /// `s` made to follow the rule: its first `maxName` characters, each one the rule does not allow
    /// replaced by `_` (`_` for an empty name).
    public static func safeName(_ s: String, allowDots: Bool) -> String {
        var out = ""
        for u in s.unicodeScalars.prefix(maxName) { out.unicodeScalars.append(isNameScalar(u, allowDots: allowDots) ? u : "_") }
        return out.isEmpty ? "_" : out
    }

    /// The family a record type begins with, dot included (`x.` of `x.rtpStats`): 1…16 ASCII letters
    /// then `.`; nil when the type does not begin so.
    public static func family(of type: String) -> Substring? {
        var n = 0
        for u in type.unicodeScalars {
            if u == "." { return n == 0 ? nil : type.prefix(n + 1) }
            guard n < maxFamily, (0x41...0x5A).contains(u.value) || (0x61...0x7A).contains(u.value) else { return nil }
            n += 1
        }
        return nil
    }

    /// Whether a record type follows the rule: a family (`x.`), then a name of 1…`maxName` characters
    /// the rule allows (dots included).
    public static func follows(_ type: String) -> Bool {
        guard let family = family(of: type) else { return false }
        let name = type.unicodeScalars.dropFirst(family.unicodeScalars.count)
        return !name.isEmpty && name.count <= maxName && name.allSatisfy { isNameScalar($0, allowDots: true) }
    }
}
