/// Bounds trace text that reports render: a hostile trace can carry a megabyte device name, and a
/// report that repeats it for every call it explains would grow by that much each time.
public enum TextCap {
    /// Characters of one trace string a report renders.
    public static let characters = 200

    /// `s` when it is short enough, else its first `limit` characters, an ellipsis and the full length.
    public static func clip(_ s: String, _ limit: Int = characters) -> String {
        guard s.utf8.count > limit else { return s }
        var count = 0, cut = s.startIndex
        for i in s.indices {
            if count == limit { cut = i; break }
            count += 1
            cut = s.index(after: i)
        }
        return String(s[..<cut]) + "… (\(s.count) characters)"
    }
}
