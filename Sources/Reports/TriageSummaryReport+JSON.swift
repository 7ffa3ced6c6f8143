import Analysis
import TraceModel

extension TriageSummaryReport {
    /// The summary as one JSON object (no trailing newline); `written` says where the rows went, `changes`
    /// what changed since a baseline period (null without one). Every signature is in `openFirst`.
    package static func json(_ s: TriageSummary, thresholds: [TriageThreshold] = [], written: Written? = nil, changes: TriageChanges? = nil) -> String {
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
            case .laterVersions, .restOfProduct: w.null()
            }
            test(t, &w)
            w.key("kind"); w.string(e.kind.rawValue)
            w.key("layer"); w.string(e.product.layer?.rawValue)
            w.key("product"); w.string(e.product.name)
            w.key("baselineGroups"); w.beginArray()
            for g in e.baselineGroups { w.string(g) }
            w.endArray()
            w.key("added"); w.raw(fixed(e.added, 1))
            w.key("cluster")
            if let c = e.cluster {
                w.beginObject()
                w.key("bundleId"); w.string(c.cluster.bundleId)
                w.key("problem"); w.string(c.cluster.problem)
                w.key("traces"); w.int(c.traces)
                w.endObject()
            } else { w.null() }
            w.key("query"); w.string(e.query)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        w.key("changes")
        if let changes { Self.changes(changes, &w) } else { w.null() }
        w.key("openFirst"); w.beginArray()
        for c in s.signatures {
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
            w.key("command"); w.string(u.command)
            w.key("key"); w.string(c.signature.key)
            w.endObject()
        }
        w.endArray()
        w.key("signatures"); w.int(s.signatures.count)
        w.key("tracesOfOtherSignatures"); w.int(s.tracesOfOtherSignatures)
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
        // Only a `--whatif` run has it.
        if s.whatif.traces > 0 { w.key("whatif"); TriageWhatIfReport.json(s.whatif, &w) }
        w.endObject()
        return w.string
    }

    /// A test's counts, rates and result, as a regression entry and a change carry them.
    static func test(_ t: TwoProportionTest, _ w: inout JSONWriter) {
        w.key("traces"); w.int(t.traces)
        w.key("tagged"); w.int(t.tagged)
        w.key("rate"); w.raw(fixed(t.rate, 4))
        w.key("baselineTraces"); w.int(t.baselineTraces)
        w.key("baselineTagged"); w.int(t.baselineTagged)
        w.key("baselineRate"); w.raw(fixed(t.baselineRate, 4))
        w.key("test"); w.string(t.method.rawValue)
        w.key("z"); w.raw(fixed(t.z, 3))
        w.key("p"); w.raw(scientificJSON(t.p))
    }

    /// What changed since the baseline (`changes`).
    static func changes(_ c: TriageChanges, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("baseline"); w.beginObject()
        w.key("traces"); w.int(c.baselineTraces)
        w.key("readable"); w.int(c.baselineReadable)
        w.endObject()
        w.key("tests"); w.int(c.tests)
        w.key("threshold"); w.raw(scientificJSON(c.threshold))
        for (key, list) in [("rose", c.rose), ("fell", c.fell)] {
            w.key(key); w.beginArray()
            for x in list {
                w.beginObject()
                w.key("layer"); w.string(x.product.layer?.rawValue)
                w.key("product"); w.string(x.product.name)
                switch x.subject {
                case .tag(let t):
                    w.key("tag"); w.string(t.rawValue)
                    w.key("signature"); w.null()
                case .signature(let sig):
                    w.key("tag"); w.null()
                    w.key("signature"); w.string(sig.key)
                }
                test(x.test, &w)
                w.key("added"); w.raw(fixed(x.added, 1))
                w.endObject()
            }
            w.endArray()
        }
        for (key, list) in [("newCodes", c.newCodes), ("goneCodes", c.goneCodes)] {
            w.key(key); w.beginArray()
            for code in list {
                w.beginObject()
                w.key("code"); w.string(code.code.rawValue)
                w.key("traces"); w.int(code.traces)
                w.key("baselineTraces"); w.int(code.baselineTraces)
                w.endObject()
            }
            w.endArray()
        }
        w.key("escalations"); w.beginArray()
        for e in c.escalations {
            w.beginObject()
            w.key("layer"); w.string(e.product.layer?.rawValue)
            w.key("product"); w.string(e.product.name)
            w.key("sdk"); w.string(e.sdk)
            w.key("versionInBaseline"); w.bool(e.versionInBaseline)
            test(e.test, &w)
            w.key("added"); w.raw(fixed(e.added, 1))
            w.key("significant"); w.bool(e.test.p < c.threshold)
            w.endObject()
        }
        w.endArray()
        w.endObject()
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

}
