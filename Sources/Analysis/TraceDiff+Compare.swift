import Contract
import Replay
import TraceModel

extension TraceDiff {
    /// Compares two replayed traces of the same scenario.
    ///
    /// Records are paired by type and identifying fields (the k-th `api.setRoute speaker` of A with the
    /// k-th of B; times do not matter). Verdicts and outcomes are compared on paired calls; the predicted
    /// route, the device's route and the quality level as step functions of time, where a stretch of
    /// difference counts only when it lasts longer than `toleranceMs`; divergences and findings are
    /// matched by what they say and by a paired record or a start within the tolerance. Findings that
    /// only repeat a verdict or a divergence (`route.ineffective`, `route.divergence`) are not compared again.
    public static func compare(_ a: DiffSide, _ b: DiffSide, toleranceMs: Int64 = 500) -> TraceDiff {
        var queues: [UInt64: [Int]] = [:]
        for (j, r) in b.records.enumerated() { queues[r.key, default: []].append(j) }
        var heads: [UInt64: Int] = [:]
        var aToB = [Int?](repeating: nil, count: a.records.count)
        var bToA = [Int?](repeating: nil, count: b.records.count)
        for (i, r) in a.records.enumerated() {
            guard let q = queues[r.key] else { continue }
            let h = heads[r.key, default: 0]
            guard h < q.count else { continue }
            aToB[i] = q[h]
            bToA[q[h]] = i
            heads[r.key] = h + 1
        }
        let pairing = Pairing(a: a, b: b, aToB: aToB, bToA: bToA, tolerance: toleranceMs)
        var diffs = pairing.verdicts()
        let endT = min(a.result.lastT ?? 0, b.result.lastT ?? 0)
        diffs += pairing.stretches(.predictedRoute, subject: "predicted route", rule: .R8, endT: endT, initial: "no prediction",
                                   a.result.predictedTimeline.map { ($0.t, $0.route?.rawValue ?? "no prediction", $0.seq) },
                                   b.result.predictedTimeline.map { ($0.t, $0.route?.rawValue ?? "no prediction", $0.seq) })
        diffs += pairing.stretches(.actualRoute, subject: "device route", rule: .X1, endT: endT, initial: "not reported yet",
                                   a.result.actualTimeline.map { ($0.t, $0.route?.rawValue ?? "not reported yet", $0.seq) },
                                   b.result.actualTimeline.map { ($0.t, $0.route?.rawValue ?? "not reported yet", $0.seq) })
        diffs += pairing.stretches(.quality, subject: "quality level", rule: .Q2, endT: endT, initial: "no data",
                                   a.levelChanges.map { ($0.t, $0.overall.rawValue, $0.seq) },
                                   b.levelChanges.map { ($0.t, $0.overall.rawValue, $0.seq) })
        diffs += pairing.divergences()
        diffs += pairing.findings()
        let order = Dictionary(uniqueKeysWithValues: Difference.Kind.allCases.enumerated().map { ($1, $0) })
        diffs.sort {
            ($0.t, order[$0.kind]!, $0.a?.seq ?? .max, $0.b?.seq ?? .max, $0.subject)
                < ($1.t, order[$1.kind]!, $1.a?.seq ?? .max, $1.b?.seq ?? .max, $1.subject)
        }
        func side(_ s: DiffSide, _ partner: [Int?]) -> Side {
            let unpaired = partner.indices.filter { partner[$0] == nil }
            return Side(file: s.file, layer: s.result.layer, records: s.records.count,
                        unpaired: unpaired.prefix(listCap).map(s.ref), unpairedCount: unpaired.count)
        }
        return TraceDiff(a: side(a, aToB), b: side(b, bToA), paired: aToB.compactMap { $0 }.count, toleranceMs: toleranceMs,
                         differences: Array(diffs.prefix(listCap)), differenceCount: diffs.count)
    }
}

/// Both sides with their record pairing, and the comparisons that use it.
struct Pairing {
    let a: DiffSide
    let b: DiffSide
    let aToB: [Int?]
    let bToA: [Int?]
    let tolerance: Int64

    /// The record paired with A's record `seq`, on B's side (and the other way round).
    func partnerInB(ofA seq: Int?) -> DiffRecord? { seq.flatMap { a.indexBySeq[$0] }.flatMap { aToB[$0] }.map(b.ref) }
    func partnerInA(ofB seq: Int?) -> DiffRecord? { seq.flatMap { b.indexBySeq[$0] }.flatMap { bToA[$0] }.map(a.ref) }

    func verdicts() -> [Difference] {
        var bBySeq: [Int: Verdict] = [:]
        for v in b.result.verdicts { bBySeq[v.seq] = v }
        var matched = Set<Int>()
        var out: [Difference] = []
        func subject(_ side: DiffSide, _ v: Verdict) -> String { side.indexBySeq[v.seq].map { side.records[$0].label } ?? v.call.rawValue }
        for va in a.result.verdicts {
            let partner = partnerInB(ofA: va.seq)
            guard let p = partner, let vb = bBySeq[p.seq] else {
                out.append(Difference(kind: .verdict, subject: subject(a, va), rule: va.cause?.rule ?? va.rule, t: va.t,
                                      a: a.record(seq: va.seq), b: partner, aValue: va.verdict.rawValue, bValue: nil, aCause: va.cause))
                continue
            }
            matched.insert(vb.seq)
            if va.verdict != vb.verdict || va.cause != vb.cause {
                let rule = (va.cause ?? vb.cause)?.rule ?? va.rule
                out.append(Difference(kind: .verdict, subject: subject(a, va), rule: rule, t: min(va.t, vb.t),
                                      a: a.record(seq: va.seq), b: p, aValue: va.verdict.rawValue, bValue: vb.verdict.rawValue,
                                      aCause: va.cause, bCause: vb.cause))
            }
            let oa = va.outcome, ob = vb.outcome
            // An outcome decided at the call is its verdict: a verdict difference already says it.
            let decidedLater = va.verdict == .deferred || vb.verdict == .deferred
            if decidedLater, (oa != nil || ob != nil) && (oa?.kind != ob?.kind || oa?.cause != ob?.cause) {
                out.append(Difference(kind: .outcome, subject: subject(a, va), rule: .V2, t: min(oa?.t ?? va.t, ob?.t ?? vb.t),
                                      a: a.record(seq: oa?.seq ?? va.seq), b: b.record(seq: ob?.seq ?? vb.seq),
                                      aValue: oa?.kind.rawValue, bValue: ob?.kind.rawValue, aCause: oa?.cause, bCause: ob?.cause))
            }
        }
        for vb in b.result.verdicts where !matched.contains(vb.seq) {
            out.append(Difference(kind: .verdict, subject: subject(b, vb), rule: vb.cause?.rule ?? vb.rule, t: vb.t,
                                  a: partnerInA(ofB: vb.seq), b: b.record(seq: vb.seq), aValue: nil, bValue: vb.verdict.rawValue,
                                  bCause: vb.cause))
        }
        return out
    }

    /// Stretches longer than the tolerance where two step functions of time differ, each with the
    /// records that set either side's value at its start.
    func stretches(_ kind: Difference.Kind, subject: String, rule: RuleID, endT: Int64, initial: String,
                   _ fa: [(Int64, String, Int?)], _ fb: [(Int64, String, Int?)]) -> [Difference] {
        var times = Set(fa.map(\.0)).union(fb.map(\.0)).filter { $0 <= endT }.sorted()
        if times.isEmpty { times = [0] }
        var ia = -1, ib = -1
        var open: (t: Int64, a: Int, b: Int)?
        var out: [Difference] = []
        func value(_ f: [(Int64, String, Int?)], _ i: Int) -> String { i < 0 ? initial : f[i].1 }
        func close(at end: Int64, toTheEnd: Bool) {
            guard let o = open else { return }
            open = nil
            guard end - o.t > tolerance else { return }
            out.append(Difference(kind: kind, subject: subject, rule: rule, t: o.t, until: toTheEnd ? nil : end,
                                  a: o.a < 0 ? nil : a.record(seq: fa[o.a].2), b: o.b < 0 ? nil : b.record(seq: fb[o.b].2),
                                  aValue: value(fa, o.a), bValue: value(fb, o.b)))
        }
        for t in times {
            while ia + 1 < fa.count && fa[ia + 1].0 <= t { ia += 1 }
            while ib + 1 < fb.count && fb[ib + 1].0 <= t { ib += 1 }
            let differs = value(fa, ia) != value(fb, ib)
            if differs && open == nil { open = (t, ia, ib) }
            if !differs { close(at: t, toTheEnd: false) }
        }
        close(at: endT, toTheEnd: true)
        return out
    }

    func divergences() -> [Difference] {
        func value(_ d: Divergence) -> String {
            "predicted \(d.predicted.rawValue), device played \(d.actual.rawValue)" + (d.explainedBy.map { ", explained by \($0)" } ?? ", unexplained")
        }
        func startSeq(_ d: Divergence) -> Int? { [d.predictedSeq, d.actualSeq].compactMap { $0 }.max() }
        let da = a.result.divergences, db = b.result.divergences
        var usedB = Set<Int>(), usedA = Set<Int>()
        func near(_ x: Divergence, _ y: Divergence) -> Bool {
            abs(x.start - y.start) <= tolerance || (partnerInB(ofA: startSeq(x)).map { $0.seq == startSeq(y) } ?? false)
        }
        for (i, x) in da.enumerated() {
            if let j = db.indices.first(where: { !usedB.contains($0) && value(db[$0]) == value(x) && near(x, db[$0]) }) {
                usedA.insert(i); usedB.insert(j)
            }
        }
        var out: [Difference] = []
        func rule(_ ds: Divergence?...) -> RuleID { ds.contains { $0?.explained == true } ? .X3 : .X2 }
        for (i, x) in da.enumerated() where !usedA.contains(i) {
            let j = db.indices.first { !usedB.contains($0) && near(x, db[$0]) }
            if let j { usedB.insert(j) }
            let y = j.map { db[$0] }
            out.append(Difference(kind: .divergence, subject: "route divergence", rule: rule(x, y), t: min(x.start, y?.start ?? x.start),
                                  a: a.record(seq: startSeq(x)), b: y.map { b.record(seq: startSeq($0)) } ?? partnerInB(ofA: startSeq(x)),
                                  aValue: value(x), bValue: y.map(value)))
        }
        for (j, y) in db.enumerated() where !usedB.contains(j) {
            out.append(Difference(kind: .divergence, subject: "route divergence", rule: rule(y), t: y.start,
                                  a: partnerInA(ofB: startSeq(y)), b: b.record(seq: startSeq(y)), aValue: nil, bValue: value(y)))
        }
        return out
    }

    func findings() -> [Difference] {
        let skip: Set<FindingCode> = [.routeIneffective, .routeDivergence]
        let fa = a.result.findings.filter { !skip.contains($0.code) }, fb = b.result.findings.filter { !skip.contains($0.code) }
        var usedB = Set<Int>()
        var out: [Difference] = []
        for x in fa {
            let partner = partnerInB(ofA: x.seqs.first)
            let j = fb.indices.first { j in
                !usedB.contains(j) && fb[j].code == x.code && (abs(fb[j].t - x.t) <= tolerance || (partner != nil && partner?.seq == fb[j].seqs.first))
            }
            if let j { usedB.insert(j); continue }
            out.append(Difference(kind: .finding, subject: x.code.rawValue, rule: x.rule, t: x.t, a: a.record(seq: x.seqs.first),
                                  b: partner, aValue: x.severity.rawValue, bValue: nil))
        }
        for (j, y) in fb.enumerated() where !usedB.contains(j) {
            out.append(Difference(kind: .finding, subject: y.code.rawValue, rule: y.rule, t: y.t, a: partnerInA(ofB: y.seqs.first),
                                  b: b.record(seq: y.seqs.first), aValue: nil, bValue: y.severity.rawValue))
        }
        return out
    }
}
