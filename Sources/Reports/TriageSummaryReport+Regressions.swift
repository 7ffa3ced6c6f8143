import Analysis
import TraceModel

extension TriageSummaryReport {
    /// The regressions within each product, ranked, each line with the query that reproduces it; a line
    /// that one content cluster drives says so and holds every entry it drives.
    static func regressions(_ r: TriageRegressions, all: Bool) -> String {
        guard r.tests > 0 else { return "" }
        var o = TriageWords.regressionsWithinEachProductAVersion
            + TriageWords.deviceModelTestMethod(plural(r.tests, "test"))
            + TriageWords.significanceAndOrder(scientific(r.threshold))
            + TriageWords.queryNote(TriageQuery.rowsFile)
        let lines = r.lines
        if lines.isEmpty { return o + TriageWords.noneNoShareDiffersByMore }
        let shown = all ? lines[...] : lines.prefix(topRegressions)
        for (i, line) in shown.enumerated() {
            let e = line.entries[0]
            o += "  \(i + 1). " + title(e) + ": "
            if let cluster = line.cluster, let c = e.cluster {
                o += TriageWords.clusterDrives(plural(line.entries.count, "tag"), c.traces, e.test.tagged)
                    + "\(e.tag.rawValue) are \(terminalSafe(cluster.description)); "
                    + line.entries.map { "\($0.tag.rawValue) \(percent($0.test.rate)) against \(percent($0.test.baselineRate)), \(added($0.added))" }
                    .joined(separator: "; ") + " (in " + baselineName(e) + ")\n"
            } else {
                let t = e.test
                o += "\(e.tag.rawValue) \(percent(t.rate)) (\(t.tagged) of \(t.traces)) against \(percent(t.baselineRate)) "
                    + "(\(t.baselineTagged) of \(t.baselineTraces)) in " + baselineName(e) + ", \(added(e.added)); " + testText(t) + "\n"
            }
            o += "     " + terminalSafe(e.query) + "\n"
        }
        if lines.count > shown.count { o += "  … \(lines.count - shown.count) more (--all, or --json)\n" }
        return o
    }

    /// `SRTC 4.6.2`, `SMeeting 3.2.0, the oldest SMeeting version`, `iOS 17.5.1 with SRTC`, `device model iPhone9,9 with SRTC`.
    static func title(_ e: TriageRegressions.Entry) -> String {
        let group = terminalSafe(e.group), product = terminalSafe(e.product.description)
        switch (e.dimension, e.kind) {
        case (.sdk, .oldVersion): return TriageWords.oldestVersion(group, product)
        case (.sdk, _): return group
        case (.os, .oldVersion): return TriageWords.oldestIOSVersion(group, product)
        case (.os, _): return "\(group) with \(product)"
        case (.device, _): return TriageWords.deviceModel(group, product)
        }
    }

    static func baselineName(_ e: TriageRegressions.Entry) -> String {
        switch e.baseline {
        case .previousVersion(let v): terminalSafe(v)
        case .laterVersions(let vs): TriageWords.laterVersions(vs.count) + vs.map(terminalSafe).joined(separator: ", ") + ")"
        case .restOfProduct: TriageWords.restOf(terminalSafe(e.product.description))
        }
    }

    /// `+33 traces` (rounded; at least one: a listed entry added some).
    static func added(_ v: Double) -> String {
        let n = Int(v.rounded())
        return (n >= 0 ? "+" : "−") + plural(abs(n), "trace")
    }

    static func testText(_ t: TwoProportionTest) -> String {
        switch t.method {
        case .z: "z = \(fixed(t.z, 1)), p = \(scientific(t.p))"
        case .fisher: TriageWords.fisherP(scientific(t.p))
        }
    }

    /// What changed since the baseline period: new (rose, new codes, escalations) and gone (fell, codes gone).
    static func changes(_ c: TriageChanges, all: Bool) -> String {
        var o = TriageWords.baselineHeading(plural(c.baselineTraces, "trace"), c.baselineReadable)
            + "Bonferroni over \(plural(c.tests, "test")): p < \(scientific(c.threshold)))\n"
        if c.isEmpty { return o + TriageWords.nothingNewNothingGoneNoShare }
        func limited<T>(_ xs: [T]) -> ArraySlice<T> { all ? xs[...] : xs.prefix(topRegressions) }
        func more(_ total: Int, _ shown: Int) -> String { total > shown ? "    … \(total - shown) more (--all, or --json)\n" : "" }
        func change(_ x: TriageChanges.Change) -> String {
            let t = x.test
            let what: String = switch x.subject {
            case .tag(let tag): tag.rawValue
            case .signature(let s): "signature " + s.key
            }
            return "    \(terminalSafe(x.product.description)): \(what) \(percent(t.rate)) (\(t.tagged) of \(t.traces)) against "
                + "\(percent(t.baselineRate)) (\(t.baselineTagged) of \(t.baselineTraces)), \(added(x.added)); " + testText(t) + "\n"
        }
        // New and gone: shares that rose or fell, then the codes that appeared or disappeared.
        for (title, shares, codes) in [("New", c.rose, c.newCodes), ("Gone", c.fell, c.goneCodes)] where !shares.isEmpty || !codes.isEmpty {
            o += "  \(title)\n"
            let shown = limited(shares), listed = limited(codes)
            for x in shown { o += change(x) }
            o += more(shares.count, shown.count)
            for code in listed {
                o += "    finding code \(code.code.rawValue): " + (code.traces > 0 ? TriageWords.onlyNow(plural(code.traces, "trace"))
                    : TriageWords.onlyInBaseline(plural(code.baselineTraces, "trace")))
            }
            o += more(codes.count, listed.count)
        }
        if !c.escalations.isEmpty {
            o += TriageWords.newEscalationsBySdkVersionTraces
            let shown = limited(c.escalations)
            for e in shown {
                let t = e.test
                o += "    \(terminalSafe(e.sdk)): \(t.tagged) of \(t.traces) (\(percent(t.rate))) against \(percent(t.baselineRate)) in "
                    + (e.versionInBaseline ? TriageWords.theSameVersion : TriageWords.productNewSinceBaseline(terminalSafe(e.product.description)))
                    + ", \(added(e.added)); " + testText(t) + (t.p < c.threshold ? "" : " (within chance)") + "\n"
            }
            o += more(c.escalations.count, shown.count)
        }
        return o
    }
}
