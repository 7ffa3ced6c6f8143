import Analysis
import TraceModel

/// The triage summary for a person (text) and for a script (JSON, schema `rtctrace.triage-summary/1`).
public enum TriageSummaryText {
    /// The schema id of the JSON summary.
    public static let schema = "rtctrace.triage-summary/1"
    /// Tags listed in the text summary.
    static let topTags = 15
    /// Versions listed per breakdown, and tags per version.
    static let topVersions = 10, tagsPerVersion = 3

    /// The text summary; `thresholds` are the `--fail-on` expressions, each marked crossed or not.
    public static func render(_ s: TriageSummary, thresholds: [TriageThreshold] = []) -> String {
        var o = "Triaged \(s.traces) trace\(s.traces == 1 ? "" : "s"): \(s.readable) readable"
        let unreadable = s.count(.unreadable), notTraces = s.count(.notATrace)
        if unreadable + notTraces > 0 { o += ", \(notTraces) not a trace, \(unreadable) unreadable" }
        o += "; \(s.records) records.\n"
        let ranked = s.rankedTags
        if ranked.isEmpty {
            o += "\nNo tags: nothing is wrong in any trace.\n"
        } else {
            o += "\nTop tags (traces, share of the readable traces; of all inputs for not-a-trace and unreadable)\n"
            let width = ranked.prefix(topTags).map(\.tag.rawValue.count).max() ?? 0
            for (tag, n) in ranked.prefix(topTags) {
                o += "  " + tag.rawValue.padded(width + 1) + String(n).leftPadded(7) + "  " + percent(s.share(tag)).leftPadded(6) + "\n"
            }
            if ranked.count > topTags { o += "  … \(ranked.count - topTags) more tags (see --json)\n" }
        }
        o += breakdown("By SDK version", s.bySDK)
        o += breakdown("By iOS version", s.byOS)
        if !s.openFirst.isEmpty {
            o += "\nOpen first (unexplained divergences, then errors)\n"
            for (i, u) in s.openFirst.enumerated() {
                var why: [String] = []
                if u.unexplainedDivergences > 0 { why.append(plural(u.unexplainedDivergences, "unexplained divergence")) }
                if u.errors > 0 { why.append(plural(u.errors, "error")) }
                o += "  \(i + 1). \(terminalSafe(u.path)): " + why.joined(separator: ", ")
                o += u.parts > 1 ? " (first of \(u.parts) parts; explain replays one file)\n" : "\n"
                o += "     rtctrace explain \(terminalSafe(shellQuoted(u.path)))\n"
            }
        }
        if !thresholds.isEmpty {
            o += "\nThresholds\n"
            for t in thresholds {
                o += "  \(t.isCrossed(by: s) ? "CROSSED" : "ok     ")  \(t): \(t.actual(in: s))\n"
            }
        }
        return o
    }

    /// Every tag with what it means, one a line, in taxonomy order.
    public static func tagList() -> String {
        let width = TriageTag.allCases.map(\.rawValue.count).max() ?? 0
        return TriageTag.allCases.map { $0.rawValue.padded(width + 1) + " " + $0.summary + "\n" }.joined()
    }

    static func breakdown(_ title: String, _ table: [String: TriageSummary.Breakdown]) -> String {
        guard !table.isEmpty else { return "" }
        let ranked = TriageSummary.ranked(table)
        var o = "\n\(title) (readable traces; top tags with their share)\n"
        let width = ranked.prefix(topVersions).map { terminalSafe($0.version).count }.max() ?? 0
        for (version, b) in ranked.prefix(topVersions) {
            let tags = b.tagCounts.filter { $0.value > 0 }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(tagsPerVersion)
            o += "  " + terminalSafe(version).padded(width + 1) + String(b.traces).leftPadded(7) + "  "
            o += tags.isEmpty ? "no tags" : tags.map { "\($0.key.rawValue) \(percent(Double($0.value) / Double(max(b.traces, 1))))" }.joined(separator: ", ")
            o += "\n"
        }
        if ranked.count > topVersions { o += "  … \(ranked.count - topVersions) more (see --json)\n" }
        return o
    }

    /// The summary as one JSON object (no trailing newline).
    public static func json(_ s: TriageSummary, thresholds: [TriageThreshold] = []) -> String {
        var w = JSONWriter(reserving: 4096)
        w.beginObject()
        w.key("schema"); w.string(schema)
        w.key("traces"); w.int(s.traces)
        w.key("readable"); w.int(s.readable)
        w.key("records"); w.int(s.records)
        w.key("tags"); w.beginArray()
        for (tag, n) in s.rankedTags {
            w.beginObject()
            w.key("tag"); w.string(tag.rawValue)
            w.key("traces"); w.int(n)
            w.key("share"); w.raw(fixed(s.share(tag), 4))
            w.endObject()
        }
        w.endArray()
        versions("bySdk", "sdk", s.bySDK, &w)
        versions("byOs", "os", s.byOS, &w)
        w.key("openFirst"); w.beginArray()
        for u in s.openFirst {
            w.beginObject()
            w.key("path"); w.string(u.path)
            w.key("parts"); w.int(u.parts)
            w.key("unexplainedDivergences"); w.int(u.unexplainedDivergences)
            w.key("errors"); w.int(u.errors)
            w.key("tags"); w.beginArray()
            for t in u.tags { w.string(t.rawValue) }
            w.endArray()
            w.key("command"); w.string("rtctrace explain " + shellQuoted(u.path))
            w.endObject()
        }
        w.endArray()
        w.key("failOn"); w.beginArray()
        for t in thresholds {
            w.beginObject()
            w.key("expression"); w.string(t.description)
            w.key("crossed"); w.bool(t.isCrossed(by: s))
            w.key("traces"); w.int(s.count(t.tag))
            w.key("of"); w.int(s.denominator(for: t.tag))
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.string
    }

    static func versions(_ key: String, _ name: String, _ table: [String: TriageSummary.Breakdown], _ w: inout JSONWriter) {
        w.key(key); w.beginArray()
        for (version, b) in TriageSummary.ranked(table) {
            w.beginObject()
            w.key(name); w.string(version)
            w.key("traces"); w.int(b.traces)
            w.key("tags"); w.beginObject()
            for (tag, n) in b.tagCounts.sorted(by: { $0.key < $1.key }) where n > 0 { w.key(tag.rawValue); w.int(n) }
            w.endObject()
            w.endObject()
        }
        w.endArray()
    }

    static func percent(_ share: Double) -> String { fixed(share * 100, 1) + "%" }

    static func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
}

/// A path as one shell word: unchanged when it only has safe characters, else in single quotes.
public func shellQuoted(_ s: String) -> String {
    let safe = s.utf8.allSatisfy { c in
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || "/._-+,:@%=".utf8.contains(c)
    }
    return safe && !s.isEmpty ? s : "'" + s.replacingSingleQuotes() + "'"
}

extension String {
    /// The string with each `'` written as `'\''` (for single-quoted shell words).
    fileprivate func replacingSingleQuotes() -> String {
        var out = ""
        for ch in self { if ch == "'" { out += "'\\''" } else { out.append(ch) } }
        return out
    }

    /// The string padded on the left with spaces to at least `width` characters.
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
