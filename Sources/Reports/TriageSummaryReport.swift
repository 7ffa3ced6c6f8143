import Analysis
import Contract
import TraceModel

/// The triage summary for a person (text) and for a script (JSON, schema `rtctrace.triage-summary/2`).
package enum TriageSummaryReport {
    /// The schema id of the JSON summary.
    package static let schema = "rtctrace.triage-summary/2"
    /// Tags listed in the text summary.
    static let topTags = 15
    /// Versions listed per breakdown, and tags per version.
    static let topVersions = 10, tagsPerVersion = 3
    /// Lines of regressions, and changes since a baseline, listed in the text summary without `--all`
    /// (each takes two lines with its query): a screenful.
    static let topRegressions = 10

    /// Where the rows went, for the summary.
    package struct Written: Sendable {
        /// The rows file.
        package var path: String
        /// Rows written.
        package var rows: Int
        /// Creates the note.
        package init(path: String, rows: Int) {
            self.path = path
            self.rows = rows
        }
    }

    /// The text summary; `thresholds` are the `--fail-on` expressions, each marked crossed or not; `changes`
    /// what changed since a baseline period (`--baseline`); `all` lists everything, not a screenful of each list.
    package static func render(_ s: TriageSummary, thresholds: [TriageThreshold] = [], changes: TriageChanges? = nil, all: Bool = false) -> String {
        var o = "Triaged \(s.traces) trace\(s.traces == 1 ? "" : "s"): \(s.readable) readable"
        let unreadable = s.count(.unreadable), notTraces = s.count(.notATrace)
        if unreadable + notTraces > 0 { o += TriageWords.unreadableCounts(notTraces, unreadable) }
        if s.duplicates > 0 { o += ", \(plural(s.duplicates, "duplicate upload")) (counted once)" }
        o += "; \(s.records) records.\n"
        if s.skippedCount > 0 {
            let reasons = TriageSummary.SkipReason.allCases.compactMap { r in s.skippedByReason[r].map { skippedPhrase(r, $0) } }
            o += TriageWords.skippedHeading(plural(s.skippedCount, "file")) + reasons.joined(separator: ", ") + "; e.g. "
                + s.skippedFiles.prefix(5).map(terminalSafe).joined(separator: ", ") + (s.skippedCount > 5 ? ", …" : "") + "\n"
        }
        let ranked = s.rankedTags
        if ranked.isEmpty {
            o += TriageWords.noTagsNothingIsWrongIn
        } else {
            o += TriageWords.topTagsTracesShareOfThe
                + TriageTag.ofAllInputs.map(\.rawValue).joined(separator: ", ") + ")\n"
            let shown = all ? ranked[...] : ranked.prefix(topTags)
            let width = shown.map(\.tag.rawValue.count).max() ?? 0
            for (tag, n) in shown {
                o += "  " + tag.rawValue.padded(width + 1) + String(n).leftPadded(7) + "  " + percent(s.share(tag)).leftPadded(6) + "\n"
            }
            if ranked.count > shown.count { o += "  … \(ranked.count - shown.count) more tags (--all, or --json)\n" }
        }
        o += breakdown(TriageWords.bySdkVersion, s.bySDK, all: all)
        o += breakdown(TriageWords.byIosVersion, s.byOS, all: all)
        o += breakdown(TriageWords.byDeviceModel, s.byDevice, all: all)
        o += regressions(s.regressions, all: all)
        o += TriageWhatIfReport.render(s.whatif, all: all)
        if let changes { o += Self.changes(changes, all: all) }
        let signatures = s.signatures
        let open = all ? signatures : s.openFirst
        if !open.isEmpty {
            o += TriageWords.openFirstOneTracePerDistinct
            for (i, c) in open.enumerated() {
                let u = c.example
                o += "  \(i + 1). \(plural(c.traces, "trace")): \(c.signature.description)" + (c.signature.compromised ? TriageWords.damagedOrPartial : "") + "\n"
                var why: [String] = []
                if u.unexplainedDivergences > 0 { why.append(plural(u.unexplainedDivergences, "unexplained divergence")) }
                if u.errors > 0 { why.append(plural(u.errors, "error")) }
                o += "     e.g. \(terminalSafe(u.path))" + (why.isEmpty ? "" : ": " + why.joined(separator: ", "))
                o += u.parts > 1 ? TriageWords.firstOfSession(u.parts) : "\n"
                o += "     \(terminalSafe(u.command))\n"
            }
            let more = signatures.count - open.count
            if more > 0 || s.tracesOfOtherSignatures > 0 {
                o += "  … " + (more > 0 ? "\(plural(more, "more signature")) (--all, or --json)" : "")
                    + (more > 0 && s.tracesOfOtherSignatures > 0 ? "; " : "")
                    + (s.tracesOfOtherSignatures > 0 ? TriageWords.furtherSignatures(plural(s.tracesOfOtherSignatures, "trace")) : "") + "\n"
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
        case .notATraceName: TriageWords.notTraceNames(n) + TriageSummary.traceNames + ")"
        case .hidden: "\(n) hidden"
        case .fifo: TriageWords.fifosNeverOpened(plural(n, "FIFO"))
        case .device: "\(plural(n, "device")) (never opened)"
        case .socket: "\(plural(n, "socket")) (never opened)"
        case .kernelFile: "\(plural(n, "kernel file")) (never opened)"
        }
    }

    /// Every tag with what it means, one a line, in taxonomy order; a tag whose definition reads a header
    /// field says which.
    package static func tagList() -> String {
        let width = TriageTag.allCases.map(\.rawValue.count).max() ?? 0
        return TriageTag.allCases.map { tag in
            let reads = tag.reads.map(\.rawValue).sorted()
            return tag.rawValue.padded(width + 1) + " " + tag.summary
                + (reads.isEmpty ? "" : TriageWords.untestedGrouping(reads.joined(separator: ", "))) + "\n"
        }.joined()
    }

    static func breakdown(_ title: String, _ table: [String: TriageSummary.Breakdown], all: Bool) -> String {
        guard !table.isEmpty else { return "" }
        let ranked = TriageSummary.ranked(table)
        let shown = all ? ranked[...] : ranked.prefix(topVersions)
        var o = TriageWords.readableHeading(title)
        let width = shown.map { terminalSafe($0.version).count }.max() ?? 0
        for (version, b) in shown {
            let tags = b.tagCounts.filter { $0.value > 0 }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(tagsPerVersion)
            o += "  " + terminalSafe(version).padded(width + 1) + String(b.traces).leftPadded(7) + "  "
            o += tags.isEmpty ? "no tags" : tags.map { "\($0.key.rawValue) \(percent(Double($0.value) / Double(max(b.traces, 1))))" }.joined(separator: ", ")
            o += "\n"
        }
        if ranked.count > shown.count { o += "  … \(ranked.count - shown.count) more (--all, or --json)\n" }
        return o
    }

    /// A p-value in two significant digits, scientific below 0.001: `0.0042`, `3.1e-07`.
    package static func scientific(_ p: Double) -> String {
        guard p > 0 else { return "0" }
        if p >= 0.001 { return fixed(p, p >= 0.01 ? 2 : 4) }
        var m = p, e = 0
        while m < 1 { m *= 10; e -= 1 }
        var text = fixed(m, 1)
        if text == "10.0" { text = "1.0"; e += 1 }
        return text + "e-" + (e > -10 ? "0" : "") + String(-e)
    }

    static func percent(_ share: Double) -> String { fixed(share * 100, 1) + "%" }

    static func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
}

extension String {
    /// The string padded on the left with spaces to at least `width` characters.
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
