import Analysis
import Contract
import QualityEngine
import Replay
import TraceModel

/// The replay result as JSON (schema `rtctrace.explain/1`, documented in docs/json.md).
///
/// Keys are written in a fixed order and numbers in a fixed form, so the same trace always
/// gives the same bytes; `golden` leaves out what depends on where the file lives.
package enum ExplainJSON {
    /// The user's problem reports marked in a trace, as `explain --json` and `info --json` write them.
    package static func reports(_ marks: [ReportMark], _ w: inout JSONWriter) {
        w.beginArray()
        for m in marks {
            w.beginObject()
            w.staticKey("id"); w.string(m.id)
            if let note = m.note { w.staticKey("note"); w.string(note) }
            w.staticKey("t"); w.int(m.t); w.staticKey("seq"); w.int(m.seq)
            w.endObject()
        }
        w.endArray()
    }

    /// The schema id written into every document.
    package static let schema = "rtctrace.explain/1"

    /// Renders the result; `golden` gives the canonical snapshot form (no file path, no reader problems).
    package static func render(_ r: ReplayResult, golden: Bool = false, pretty: Bool = false) -> String {
        let s = String(decoding: renderBytes(r, golden: golden), as: UTF8.self)
        return pretty ? prettyPrint(s) : s
    }

    /// The compact document's bytes, for a command that writes them as they are rather than as a `String`
    /// made of them (valid UTF-8: every string written comes from a `String`, everything else is ASCII).
    package static func renderBytes(_ r: ReplayResult, golden: Bool = false) -> [UInt8] {
        // Room for the whole document at once (a few hundred bytes a verdict, divergence and finding), so
        // that a document of megabytes is not copied as it grows.
        var w = JSONWriter(reserving: 4096 + 384 * (r.verdicts.count + r.divergences.count) + 512 * r.findings.count)
        w.beginObject()
        w.staticKey("schema"); w.string(schema)
        if !golden { w.staticKey("file"); w.path(r.file) }
        w.staticKey("layer"); w.string(r.layer.rawValue)
        if let h = r.header {
            w.staticKey("sdk"); w.string(h.sdk)
            w.staticKey("device"); w.beginObject()
            w.staticKey("model"); w.string(h.device.model)
            w.staticKey("os"); w.string(h.device.os)
            w.staticKey("simulator"); w.bool(h.device.simulator)
            w.endObject()
        }
        w.staticKey("records"); w.int(r.records)
        w.staticKey("durationMs"); w.int(r.durationMs)
        w.staticKey("traceEnd"); w.string(r.end == .crash ? "crash" : "end")
        session(r, &w)
        summary(r, &w)
        if !r.reports.isEmpty {
            // Only where the app marked a user's report: every other document keeps its shape.
            w.staticKey("reports"); reports(r.reports, &w)
        }
        if !r.dropped.isEmpty {
            // Only where the recorder dropped records: every other document keeps its shape.
            w.staticKey("droppedRecords"); w.int(r.droppedRecords)
            w.staticKey("dropped"); w.beginArray()
            for d in r.dropped {
                w.beginObject()
                w.staticKey("count"); w.int(d.count); w.staticKey("fromT"); w.int(d.fromT); w.staticKey("toT"); w.int(d.toT); w.staticKey("seq"); w.int(d.seq)
                if let reason = d.pause { w.staticKey("paused"); w.string(reason.rawValue) }
                w.endObject()
            }
            w.endArray()
        }
        let advice = Explanation.FindingAdvice(r)
        w.staticKey("verdicts"); w.beginArray()
        for v in r.verdicts {
            verdict(v, &w, uncertain: r.uncertain(v), laterEffect: Explanation.laterEffect(v, r, lookups: advice.lookups), advice: advice.advice(for: v, r))
        }
        w.endArray()
        w.staticKey("divergences"); w.beginArray()
        for d in r.divergences { divergence(d, &w, uncertain: r.droppedRange(overlapping: d.start, d.end) != nil || d.uncertain) }
        w.endArray()
        w.staticKey("findings"); w.beginArray()
        let evidence = SystemLogEvidence(r)
        for (i, f) in r.findings.enumerated() {
            finding(f, &w, uncertain: r.droppedRange(overlapping: f.t, f.t) != nil || r.lostStretch(overlapping: f.t, f.t) != nil, advice: advice.advice(i, r),
                    systemLog: evidence.item(forFinding: i)?.text)
        }
        w.endArray()
        w.staticKey("findingCounts"); w.beginObject()
        for (k, v) in r.findingCounts.sorted(by: { $0.key.rawValue < $1.key.rawValue }) { w.key(k.rawValue); w.int(v) }
        w.endObject()
        // The groups text and HTML tell (repeats once); every finding stays listed above.
        w.staticKey("findingGroups"); w.beginArray()
        for g in Explanation.findingGroups(r, evidence: evidence, advice: advice) {
            w.beginObject()
            w.staticKey("code"); w.string(g.code.rawValue)
            w.staticKey("severity"); w.string(g.severity.rawValue)
            w.staticKey("rule"); w.string(g.rule?.rawValue)
            w.staticKey("count"); w.int(g.count)
            w.staticKey("firstT"); w.int(g.first.t)
            w.staticKey("lastT"); w.int(g.lastT)
            w.staticKey("firstSeqs"); ints(g.first.seqs, &w)
            w.staticKey("afterReconnectSeq"); w.int(g.afterReconnect?.seq)
            w.endObject()
        }
        w.endArray()
        if evidence.records > 0 { systemLog(evidence, &w) }
        w.staticKey("quality")
        if let q = r.quality { quality(q, &w) } else { w.null() }
        if !golden {
            w.staticKey("expectations"); w.beginObject()
            w.staticKey("total"); w.int(r.expectations.count)
            w.staticKey("failed"); w.int(r.failedExpectations.count)
            w.endObject()
            w.staticKey("problemCount"); w.int(r.problemCount)
        }
        w.endObject()
        return w.bytes
    }

    static func summary(_ r: ReplayResult, _ w: inout JSONWriter) {
        w.staticKey("summary"); w.beginObject()
        w.staticKey("calls"); w.int(r.verdictCount)
        w.staticKey("callsNotTakingEffect"); w.int(r.notTakingEffectCount)
        if r.verdictsDropped > 0 { w.staticKey("verdictsNotListed"); w.int(r.verdictsDropped) }
        w.staticKey("byCause"); w.beginObject()
        var causes: [String: Int] = [:]
        for (key, n) in r.notTakingEffectCounts { causes[key.cause?.rawValue ?? key.kind.rawValue, default: 0] += n }
        for (k, n) in causes.sorted(by: { $0.key < $1.key }) { w.key(k); w.int(n) }
        w.endObject()
        w.staticKey("byOutcome"); w.beginObject()
        var outcomes: [String: Int] = [:]
        for (key, n) in r.notTakingEffectCounts { outcomes[key.kind.rawValue, default: 0] += n }
        for (k, n) in outcomes.sorted(by: { $0.key < $1.key }) { w.key(k); w.int(n) }
        w.endObject()
        w.staticKey("callsTakingEffectLate"); w.int(r.tookEffectLate.count)
        w.staticKey("routeContractApplied"); w.bool(r.routeContractApplied)
        w.staticKey("divergences"); w.int(r.divergenceCount)
        w.staticKey("unexplainedDivergences"); w.int(r.unexplainedDivergenceCount)
        if r.unknownStartDivergenceCount > 0 { w.staticKey("unknownStartStateDivergences"); w.int(r.unknownStartDivergenceCount) }
        w.staticKey("uncertainDivergences"); w.int(r.uncertainDivergenceCount)
        if r.divergencesDropped > 0 { w.staticKey("divergencesNotListed"); w.int(r.divergencesDropped) }
        w.staticKey("findingsBySeverity"); w.beginObject()
        // Counted by position among the severities: a stressed trace keeps thousands of findings.
        let severities = Severity.allCases
        var bySeverity = [Int](repeating: 0, count: severities.count)
        for f in r.findings { bySeverity[severities.firstIndex(of: f.severity)!] += 1 }
        for (i, s) in severities.enumerated().reversed() { w.key(s.rawValue); w.int(bySeverity[i]) }
        w.endObject()
        w.staticKey("ok"); w.bool(!r.hasIssues)
        if let why = r.unexplainable { w.staticKey("unexplainable"); w.string(why) }
        let unread = Wording.unread(r)
        if !unread.isEmpty { w.staticKey("unread"); w.beginArray(); for s in unread { w.string(s) }; w.endArray() }
        w.endObject()
    }

    /// A verdict; `advice` is what the explanation tells the app to do about the call (null: nothing).
    static func verdict(_ v: Verdict, _ w: inout JSONWriter, uncertain: Bool = false, laterEffect: LaterEffect? = nil, advice: String?) {
        w.beginObject()
        if uncertain { w.staticKey("uncertain"); w.bool(true) }
        w.staticKey("seq"); w.int(v.seq)
        w.staticKey("t"); w.int(v.t)
        w.staticKey("call"); w.string(v.call.rawValue)
        if let api = v.api { w.staticKey("api"); w.string(api) }
        w.staticKey("verdict"); w.string(v.verdict.rawValue)
        w.staticKey("cause"); w.string(v.cause?.rawValue)
        if let s = v.causeSeq { w.staticKey("causeSeq"); w.int(s) }
        w.staticKey("rule"); w.string(v.rule.rawValue)
        w.staticKey("outcome")
        if let o = v.outcome {
            w.beginObject()
            w.staticKey("outcome"); w.string(o.kind.rawValue)
            w.staticKey("cause"); w.string(o.cause?.rawValue)
            w.staticKey("t"); w.int(o.t)
            w.staticKey("seq"); w.int(o.seq)
            w.endObject()
        } else { w.null() }
        w.staticKey("advice"); w.string(advice)
        if let e = laterEffect {
            w.staticKey("laterEffect"); w.beginObject()
            w.staticKey("seq"); w.int(e.seq)
            w.staticKey("t"); w.int(e.t)
            w.staticKey("route"); w.string(e.route.rawValue)
            w.staticKey("device"); w.string(e.device)
            w.endObject()
        }
        w.endObject()
    }

    static func divergence(_ d: Divergence, _ w: inout JSONWriter, uncertain: Bool = false) {
        w.beginObject()
        if uncertain { w.staticKey("uncertain"); w.bool(true) }
        w.staticKey("start"); w.int(d.start)
        w.staticKey("end"); w.int(d.end)
        w.staticKey("openAtEnd"); w.bool(d.openAtEnd)
        w.staticKey("predicted"); w.string(d.predicted.rawValue)
        w.staticKey("actual"); w.string(d.actual.rawValue)
        w.staticKey("explained"); w.bool(d.explained)
        w.staticKey("explainedBy"); w.string(d.explainedBy?.rawValue)
        if d.startStateUnknown && !d.explained { w.staticKey("unknownStartState"); w.bool(true) }
        if let a = d.afterAppliedCall { w.staticKey("afterAppliedCall"); w.int(a) }
        w.staticKey("status"); w.string(d.explained ? "explained" : d.uncertain ? "uncertain" : "unexplained")
        if d.uncertain, let lost = d.evidenceLost {
            w.staticKey("cause"); w.string("evidenceLost")
            w.staticKey("evidenceLost"); w.beginObject()
            w.staticKey("fromSeq"); w.int(lost.fromSeq)
            w.staticKey("toSeq"); w.int(lost.toSeq)
            w.staticKey("fromT"); w.int(lost.fromT)
            w.staticKey("toT"); w.int(lost.toT)
            w.staticKey("lossCause"); w.string(lost.cause.rawValue)
            w.endObject()
        }
        w.staticKey("seqs"); w.beginArray(); d.forEachSeq { w.int($0) }; w.endArray()
        w.staticKey("predictedBy")
        if let p = d.predictedBy {
            w.beginObject()
            w.staticKey("rule"); w.string(p.rule.rawValue)
            w.staticKey("seq"); w.int(p.seq)
            w.staticKey("appliedBy"); w.int(p.appliedBy)
            w.endObject()
        } else { w.null() }
        w.endObject()
    }

    /// A finding; `advice` is the one the explanation tells it with (`Explanation.FindingAdvice`), `systemLog`
    /// what the system log names beside it (E1), when anything does.
    static func finding(_ f: Finding, _ w: inout JSONWriter, uncertain: Bool = false, advice: String, systemLog: String? = nil) {
        w.beginObject()
        if uncertain { w.staticKey("uncertain"); w.bool(true) }
        w.staticKey("code"); w.string(f.code.rawValue)
        w.staticKey("severity"); w.string(f.severity.rawValue)
        w.staticKey("rule"); w.string(f.rule?.rawValue)
        w.staticKey("seqs"); ints(f.seqs, &w)
        w.staticKey("t"); w.int(f.t)
        w.staticKey("message"); w.string(f.message)
        w.staticKey("advice"); w.string(advice)
        if let systemLog { w.staticKey("systemLog"); w.string(systemLog) }
        w.endObject()
    }

    static func ints(_ list: [Int], _ w: inout JSONWriter) {
        w.beginArray()
        for i in list { w.int(i) }
        w.endArray()
    }

    static func interval(_ i: QualitySummary.Interval, _ w: inout JSONWriter) {
        w.beginObject()
        w.staticKey("startT"); w.int(i.startT)
        w.staticKey("endT"); w.int(i.endT)
        w.staticKey("startSeq"); w.int(i.startSeq)
        w.staticKey("endSeq"); w.int(i.endSeq)
        w.endObject()
    }

    static func quality(_ q: QualitySummary, _ w: inout JSONWriter) {
        w.beginObject()
        w.staticKey("vendor"); w.string(q.vendor.rawValue)
        w.staticKey("reports"); w.int(q.reports)
        w.staticKey("levelChanges"); w.int(q.levelChanges)
        w.staticKey("reconnects"); w.int(q.reconnects)
        w.staticKey("timeMs"); w.beginObject()
        for l in QualityText.levels { w.key(l?.rawValue ?? "noData"); w.int(q.time[l]) }
        w.endObject()
        w.staticKey("worst"); if let worst = q.worst { interval(worst, &w) } else { w.null() }
        w.staticKey("mosMin"); w.double(q.mosMin)
        w.staticKey("mosMax"); w.double(q.mosMax)
        w.staticKey("attribution"); w.beginObject()
        w.staticKey("pubBadMs"); w.int(q.attribution.pubBadMs)
        w.staticKey("subBadMs"); w.int(q.attribution.subBadMs)
        w.staticKey("bothBadMs"); w.int(q.attribution.bothBadMs)
        w.staticKey("side"); w.string(q.attribution.side.rawValue)
        w.staticKey("sentence"); w.string(q.attributionSentence)
        w.endObject()
        w.staticKey("flappingEpisodes"); w.beginArray()
        for e in q.flappingEpisodes {
            w.beginObject()
            w.staticKey("startT"); w.int(e.startT)
            w.staticKey("endT"); w.int(e.endT)
            w.staticKey("changes"); w.int(e.changes)
            w.endObject()
        }
        w.endArray()
        w.staticKey("flappingEpisodeCount"); w.int(q.flappingEpisodeCount)
        w.staticKey("gapThresholdMs"); w.int(q.gapThresholdMs)
        w.staticKey("gapCount"); w.int(q.gapCount)
        w.staticKey("gaps"); w.beginArray()
        for g in q.gaps { interval(g, &w) }
        w.endArray()
        w.staticKey("rawPromptCount"); w.int(q.rawPromptCount)
        w.staticKey("hysteresis")
        if let h = q.hysteresis {
            w.beginObject()
            w.staticKey("k"); w.int(h.model.k)
            w.staticKey("n"); w.int(h.model.n)
            w.staticKey("holdMs"); w.int(h.model.holdMs)
            w.staticKey("episodeCount"); w.int(h.episodeCount)
            w.staticKey("shownMs"); w.int(h.shownMs)
            w.staticKey("episodes"); w.beginArray()
            for e in h.episodes { interval(e, &w) }
            w.endArray()
            w.endObject()
        } else { w.null() }
        w.endObject()
    }

    /// Indents compact JSON (two spaces), without reordering anything.
    package static func prettyPrint(_ json: String) -> String {
        var out: [UInt8] = []
        var depth = 0
        var inString = false, escaped = false
        let bytes = Array(json.utf8)
        func newline() { out.append(0x0A); out.append(contentsOf: [UInt8](repeating: 0x20, count: depth * 2)) }
        for (i, c) in bytes.enumerated() {
            if inString {
                out.append(c)
                if escaped { escaped = false } else if c == 0x5C { escaped = true } else if c == 0x22 { inString = false }
                continue
            }
            switch c {
            case 0x22: inString = true; out.append(c)
            case 0x7B, 0x5B:
                out.append(c)
                let next = i + 1 < bytes.count ? bytes[i + 1] : 0
                if next == 0x7D || next == 0x5D { continue }
                depth += 1
                newline()
            case 0x7D, 0x5D:
                let prev = i > 0 ? bytes[i - 1] : 0
                if prev != 0x7B && prev != 0x5B { depth -= 1; newline() }
                out.append(c)
            case 0x2C: out.append(c); newline()
            case 0x3A: out.append(c); out.append(0x20)
            default: out.append(c)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The session the trace is part of (`null` for none) and, when judgement was withheld, why (`partial`).
    static func session(_ r: ReplayResult, _ w: inout JSONWriter) {
        w.staticKey("session")
        guard let s = r.session else {
            w.null()
            w.staticKey("partial"); w.null()
            return
        }
        w.beginObject()
        w.staticKey("id"); w.string(s.id)
        w.staticKey("parts"); w.beginArray(); for p in s.parts { w.int(p) }; w.endArray()
        w.staticKey("startsWithoutPredecessors"); w.beginArray()
        for start in s.starts {
            w.beginObject()
            w.staticKey("part"); w.int(start.part)
            w.staticKey("headerSeq"); w.int(start.headerSeq)
            w.staticKey("checkpointSeq"); w.int(start.checkpointSeq)
            w.endObject()
        }
        w.endArray()
        // RS1: the parts a restarted process began, and each restart.
        w.staticKey("resumedParts"); w.beginArray(); for p in r.resumedParts { w.int(p) }; w.endArray()
        w.staticKey("restarts"); w.beginArray()
        for x in r.restarts {
            w.beginObject()
            w.staticKey("part"); w.int(x.part)
            w.staticKey("headerSeq"); w.int(x.seq)
            w.staticKey("t"); w.int(x.t)
            w.staticKey("lastT"); w.int(x.lastT)
            w.staticKey("droppedCalls"); ints(x.droppedCalls, &w)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        w.staticKey("partial")
        guard s.isPartial else { w.null(); return }
        w.beginObject()
        w.staticKey("why"); w.beginArray(); for note in Wording.sessionNotes(r) where note.withheld { w.string(note.text) }; w.endArray()
        w.staticKey("missingParts"); w.beginArray()
        for gap in s.missing {
            w.beginObject()
            w.staticKey("from"); w.int(gap.parts.lowerBound)
            w.staticKey("to"); w.int(gap.parts.upperBound)
            w.staticKey("afterT"); w.int(gap.afterT)
            w.staticKey("beforeT"); w.int(gap.beforeT)
            w.endObject()
        }
        w.endArray()
        w.staticKey("unknownState"); w.beginArray()
        for u in s.unknownState {
            w.beginObject()
            w.staticKey("part"); w.int(u.part)
            w.staticKey("fromSeq"); w.int(u.fromSeq)
            w.staticKey("fromT"); w.int(u.fromT)
            w.staticKey("untilSeq"); w.int(u.untilSeq)
            w.staticKey("untilT"); w.int(u.untilT)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }
}
