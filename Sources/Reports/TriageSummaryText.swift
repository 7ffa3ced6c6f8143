import Analysis
import TraceModel

/// The triage summary for a person (text) and for a script (JSON, schema `rtctrace.triage-summary/2`).
public enum TriageSummaryText {
    /// The schema id of the JSON summary.
    public static let schema = "rtctrace.triage-summary/2"
    /// Tags listed in the text summary.
    static let topTags = 15
    /// Versions listed per breakdown, and tags per version.
    static let topVersions = 10, tagsPerVersion = 3
    /// Regressions and clusters listed in the text summary.
    static let topRegressions = 20

    /// Where the rows went, for the summary.
    public struct Written: Sendable {
        /// The rows file.
        public var path: String
        /// Rows written.
        public var rows: Int
        /// Creates the note.
        public init(path: String, rows: Int) {
            self.path = path
            self.rows = rows
        }
    }

    /// The text summary; `thresholds` are the `--fail-on` expressions, each marked crossed or not.
    public static func render(_ s: TriageSummary, thresholds: [TriageThreshold] = []) -> String {
        var o = "Triaged \(s.traces) trace\(s.traces == 1 ? "" : "s"): \(s.readable) readable"
        let unreadable = s.count(.unreadable), notTraces = s.count(.notATrace)
        if unreadable + notTraces > 0 { o += ", \(notTraces) not a trace, \(unreadable) unreadable" }
        if s.duplicates > 0 { o += ", \(plural(s.duplicates, "duplicate upload")) (counted once)" }
        o += "; \(s.records) records.\n"
        if s.skippedCount > 0 {
            let reasons = TriageSummary.SkipReason.allCases.compactMap { r in s.skippedByReason[r].map { skippedPhrase(r, $0) } }
            o += "Skipped \(plural(s.skippedCount, "file")) in the folders given (no row): " + reasons.joined(separator: ", ") + "; e.g. "
                + s.skippedFiles.prefix(5).map(terminalSafe).joined(separator: ", ") + (s.skippedCount > 5 ? ", …" : "") + "\n"
        }
        let ranked = s.rankedTags
        if ranked.isEmpty {
            o += "\nNo tags: nothing is wrong in any trace.\n"
        } else {
            o += "\nTop tags (traces, share of the readable traces; of all inputs for "
                + TriageTag.ofAllInputs.map(\.rawValue).joined(separator: ", ") + ")\n"
            let width = ranked.prefix(topTags).map(\.tag.rawValue.count).max() ?? 0
            for (tag, n) in ranked.prefix(topTags) {
                o += "  " + tag.rawValue.padded(width + 1) + String(n).leftPadded(7) + "  " + percent(s.share(tag)).leftPadded(6) + "\n"
            }
            if ranked.count > topTags { o += "  … \(ranked.count - topTags) more tags (see --json)\n" }
        }
        o += breakdown("By SDK version", s.bySDK)
        o += breakdown("By iOS version", s.byOS)
        o += breakdown("By device model", s.byDevice)
        o += regressions(s.regressions)
        let open = s.openFirst
        if !open.isEmpty {
            o += "\nOpen first (one trace per distinct problem: unexplained divergences, then errors; most traces first; damaged and partial traces last)\n"
            for (i, c) in open.enumerated() {
                let u = c.example
                o += "  \(i + 1). \(plural(c.traces, "trace")): \(c.signature.description)" + (c.signature.compromised ? " (damaged or partial)" : "") + "\n"
                var why: [String] = []
                if u.unexplainedDivergences > 0 { why.append(plural(u.unexplainedDivergences, "unexplained divergence")) }
                if u.errors > 0 { why.append(plural(u.errors, "error")) }
                o += "     e.g. \(terminalSafe(u.path))" + (why.isEmpty ? "" : ": " + why.joined(separator: ", "))
                o += u.parts > 1 ? " (first of \(u.parts) parts of a session; the command replays them all)\n" : "\n"
                o += "     rtctrace explain \(u.arguments.map { terminalSafe(shellQuoted($0)) }.joined(separator: " "))\n"
            }
            let more = s.signatures.count - open.count
            if more > 0 || s.tracesOfOtherSignatures > 0 {
                o += "  … \(plural(more, "more signature")) (see --json)" + (s.tracesOfOtherSignatures > 0 ? "; \(plural(s.tracesOfOtherSignatures, "trace")) of further signatures counted only" : "") + "\n"
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

    /// `n` files skipped for `reason`, for the summary's line.
    static func skippedPhrase(_ reason: TriageSummary.SkipReason, _ n: Int) -> String {
        switch reason {
        case .notATraceName: "\(n) whose name\(n == 1 ? " is" : "s are") not a trace's (" + TriageSummary.traceNames + ")"
        case .hidden: "\(n) hidden"
        case .fifo: "\(plural(n, "FIFO")) (never opened: reading one blocks)"
        case .device: "\(plural(n, "device")) (never opened)"
        case .socket: "\(plural(n, "socket")) (never opened)"
        case .kernelFile: "\(plural(n, "kernel file")) (never opened)"
        }
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

    /// The regressions and clusters, most significant first.
    static func regressions(_ r: TriageRegressions) -> String {
        guard r.tests > 0 else { return "" }
        var o = "\nRegressions and clusters (a tag more common in an SDK version than in the previous one, or in a version or device model "
            + "than in the rest of the fleet; two-proportion test, Bonferroni over \(plural(r.tests, "test")): p < \(scientific(r.threshold)))\n"
        if r.entries.isEmpty { return o + "  none: no share differs by more than chance\n" }
        for e in r.entries.prefix(topRegressions) {
            let t = e.test
            o += "  \(e.dimension.title) \(terminalSafe(e.group)): \(e.tag.rawValue) \(percent(t.rate)) (\(t.tagged) of \(t.traces)) against "
            o += "\(percent(t.baselineRate)) (\(t.baselineTagged) of \(t.baselineTraces)) in " + baselineName(e.baseline)
            o += "; " + testText(t) + "\n"
        }
        if r.entries.count > topRegressions { o += "  … \(r.entries.count - topRegressions) more (see --json)\n" }
        return o
    }

    static func baselineName(_ b: TriageRegressions.Baseline) -> String {
        switch b {
        case .previousVersion(let v): terminalSafe(v)
        case .restOfFleet: "the rest of the fleet"
        }
    }

    static func testText(_ t: TwoProportionTest) -> String {
        switch t.method {
        case .z: "z = \(fixed(t.z, 1)), p = \(scientific(t.p))"
        case .fisher: "Fisher's exact test, p = \(scientific(t.p))"
        }
    }

    /// A p-value in two significant digits, scientific below 0.001: `0.0042`, `3.1e-07`.
    public static func scientific(_ p: Double) -> String {
        guard p > 0 else { return "0" }
        if p >= 0.001 { return fixed(p, p >= 0.01 ? 2 : 4) }
        var m = p, e = 0
        while m < 1 { m *= 10; e -= 1 }
        var text = fixed(m, 1)
        if text == "10.0" { text = "1.0"; e += 1 }
        return text + "e-" + (e > -10 ? "0" : "") + String(-e)
    }

    /// The summary as one JSON object (no trailing newline); `written` says where the rows went.
    public static func json(_ s: TriageSummary, thresholds: [TriageThreshold] = [], written: Written? = nil) -> String {
        var w = JSONWriter(reserving: 4096)
        w.beginObject()
        w.key("schema"); w.string(schema)
        w.key("traces"); w.int(s.traces)
        w.key("duplicates"); w.int(s.duplicates)
        w.key("readable"); w.int(s.readable)
        w.key("records"); w.int(s.records)
        w.key("skipped"); w.beginObject()
        w.key("files"); w.int(s.skippedCount)
        w.key("examples"); w.beginArray()
        for p in s.skippedFiles { w.path(p) }
        w.endArray()
        w.key("byReason"); w.beginObject()
        for r in TriageSummary.SkipReason.allCases { if let n = s.skippedByReason[r] { w.key(r.rawValue); w.int(n) } }
        w.endObject()
        w.key("entries"); w.beginArray()
        for e in s.skipped {
            w.beginObject()
            w.key("path"); w.path(e.path)
            w.key("reason"); w.string(e.reason.rawValue)
            w.key("why"); w.string(e.why)
            w.endObject()
        }
        w.endArray()
        w.endObject()
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
        versions("byDevice", "device", s.byDevice, &w)
        let r = s.regressions
        w.key("regressions"); w.beginObject()
        w.key("alpha"); w.raw(fixed(TriageRegressions.alpha, 4))
        w.key("tests"); w.int(r.tests)
        w.key("threshold"); w.raw(scientificJSON(r.threshold))
        w.key("entries"); w.beginArray()
        for e in r.entries {
            let t = e.test
            w.beginObject()
            w.key("dimension"); w.string(e.dimension.rawValue)
            w.key("group"); w.string(e.group)
            w.key("tag"); w.string(e.tag.rawValue)
            w.key("baseline")
            switch e.baseline {
            case .previousVersion(let v): w.string(v)
            case .restOfFleet: w.null()
            }
            w.key("traces"); w.int(t.traces)
            w.key("tagged"); w.int(t.tagged)
            w.key("rate"); w.raw(fixed(t.rate, 4))
            w.key("baselineTraces"); w.int(t.baselineTraces)
            w.key("baselineTagged"); w.int(t.baselineTagged)
            w.key("baselineRate"); w.raw(fixed(t.baselineRate, 4))
            w.key("test"); w.string(t.method.rawValue)
            w.key("z"); w.raw(fixed(t.z, 3))
            w.key("p"); w.raw(scientificJSON(t.p))
            w.endObject()
        }
        w.endArray()
        w.endObject()
        w.key("openFirst"); w.beginArray()
        for c in s.openFirst {
            let u = c.example
            w.beginObject()
            w.key("signature"); w.beginObject()
            w.key("codes"); w.beginArray()
            for code in c.signature.codes { w.string(code.rawValue) }
            w.endArray()
            w.key("unexplainedDivergence"); w.bool(c.signature.unexplainedDivergence)
            w.key("damagedOrPartial"); w.bool(c.signature.compromised)
            w.endObject()
            w.key("traces"); w.int(c.traces)
            w.key("path"); w.path(u.path)
            w.key("parts"); w.int(u.parts)
            w.key("unexplainedDivergences"); w.int(u.unexplainedDivergences)
            w.key("errors"); w.int(u.errors)
            w.key("tags"); w.beginArray()
            for t in u.tags { w.string(t.rawValue) }
            w.endArray()
            w.key("command"); w.string("rtctrace explain " + u.arguments.map(shellQuoted).joined(separator: " "))
            w.endObject()
        }
        w.endArray()
        w.key("signatures"); w.int(s.signatures.count)
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
        w.key("output")
        if let written {
            w.beginObject()
            w.key("path"); w.path(written.path)
            w.key("rows"); w.int(written.rows)
            w.endObject()
        } else { w.null() }
        w.endObject()
        return w.string
    }

    /// A p-value as a JSON number: `3.1e-07`, `0.0042`.
    static func scientificJSON(_ p: Double) -> String { scientific(p) }

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
