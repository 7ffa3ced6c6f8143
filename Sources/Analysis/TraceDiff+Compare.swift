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
    /// `missing`: a side's lost stretches read as `missing` there (false where both sides lack the same
    /// records though only one replay was told so: a what-if's edited copy).
    package static func compare(_ a: DiffSide, _ b: DiffSide, toleranceMs: Int64 = 500, missing: Bool = true) -> TraceDiff {
        compareKeyed(a, b, toleranceMs: toleranceMs, missing: missing).diff
    }

    /// `compare`, with each of A's records' partner in B by identity alone (before calls changed between
    /// the sides are paired), and each of B's in A, which a what-if reads too.
    static func compareKeyed(_ a: DiffSide, _ b: DiffSide, toleranceMs: Int64, missing: Bool)
        -> (diff: TraceDiff, pairs: [Int32], pairsOfB: [Int32]) {
        // The sides' identities numbered in common by key (a long trace has few distinct ones, so each
        // record's number is two array reads): the k-th record of a key on A's side is paired with the
        // k-th on B's. Partners are indexes (-1: none).
        var ids: [UInt64: Int32] = [:]
        let commonOfB = b.identities.map { e in
            if let known = ids[e.key] { return known }
            let id = Int32(ids.count)
            ids[e.key] = id
            return id
        }
        let commonOfA = a.identities.map { ids[$0.key] ?? -1 }
        var counts = [Int](repeating: 0, count: ids.count)
        for r in b.records { counts[Int(commonOfB[Int(r.id)])] += 1 }
        var heads = [Int](repeating: 0, count: counts.count + 1)
        for id in counts.indices { heads[id + 1] = heads[id] + counts[id] }
        let ends = Array(heads.dropFirst())
        var grouped = [Int32](repeating: 0, count: b.records.count)
        var fill = heads
        for (j, r) in b.records.enumerated() {
            let id = Int(commonOfB[Int(r.id)])
            grouped[fill[id]] = Int32(j)
            fill[id] += 1
        }
        var aToB = [Int32](repeating: -1, count: a.records.count)
        var bToA = [Int32](repeating: -1, count: b.records.count)
        var pairedCount = 0
        for (i, r) in a.records.enumerated() {
            let id = Int(commonOfA[Int(r.id)])
            guard id >= 0, heads[id] < ends[id] else { continue }
            let j = Int(grouped[heads[id]])
            aToB[i] = Int32(j)
            bToA[j] = Int32(i)
            heads[id] += 1
            pairedCount += 1
        }
        let (pairs, pairsOfB) = (aToB, bToA)
        // B's clock against A's, from the records paired so far: an offset, and where it moves (room made
        // once: a million records' worth grown by doubling is twice the memory touched).
        var pairedA: [Int32] = [], offsets: [Int64] = []
        pairedA.reserveCapacity(pairedCount)
        offsets.reserveCapacity(pairedCount)
        for (i, j) in aToB.enumerated() where j >= 0 {
            pairedA.append(Int32(i))
            offsets.append(b.records[Int(j)].t - a.records[i].t)
        }
        let clock = DiffClock(offsets: offsets, tolerance: toleranceMs) { k in
            let i = Int(pairedA[k]), j = Int(aToB[i])
            return (i, j, a.records[i].t, b.records[j].t)
        }
        // A call of one type made with other arguments on each side (setRoute speaker here, earpiece there)
        // is one changed call, not two unpaired ones: the k-th unpaired app call of a type on each side.
        var changed: [(Int, Int)] = []
        var unpairedB: [String: [Int]] = [:]
        for j in b.records.indices where bToA[j] < 0 && b.identity(j).isCall { unpairedB[b.type(j), default: []].append(j) }
        var used: [String: Int] = [:]
        for i in a.records.indices where aToB[i] < 0 && a.identity(i).isCall {
            let type = a.type(i)
            guard let q = unpairedB[type], used[type, default: 0] < q.count else { continue }
            let j = q[used[type, default: 0]]
            used[type, default: 0] += 1
            aToB[i] = Int32(j)
            bToA[j] = Int32(i)
            changed.append((i, j))
        }
        let pairing = Pairing(a: a, b: b, aToB: aToB, bToA: bToA, tolerance: toleranceMs, clock: clock)
        var diffs = changed.map { i, j in
            Difference(kind: .call, subject: a.type(i), rule: nil, t: min(a.records[i].t, clock.a(b.records[j].t)),
                       a: a.ref(i), b: b.ref(j), aValue: a.label(i), bValue: b.label(j))
        }
        diffs += pairing.shifts()
        diffs += pairing.verdicts()
        let lastA = a.result.lastT ?? 0, lastB = clock.a(b.result.lastT ?? 0)
        let endT = min(lastA, lastB)
        // In A's time; a step back in B's clock can reorder B's changes, which are then taken in A's order.
        func shifted(_ f: [(Int64, String, Int?)]) -> [(Int64, String, Int?)] {
            f.enumerated().map { (clock.a($0.element.0), $0.offset, $0.element) }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map { ($0.0, $0.2.1, $0.2.2) }
        }
        // Each side's lost stretches read as missing, never as the state carried across them.
        func both(_ initial: String, _ fa: [(Int64, String, Int?)], _ fb: [(Int64, String, Int?)]) -> ([(Int64, String, Int?)], [(Int64, String, Int?)]) {
            (Pairing.masked(fa, initial: initial, lost: missing ? a.result.lost : []),
             shifted(Pairing.masked(fb, initial: initial, lost: missing ? b.result.lost : [])))
        }
        let predicted = both(TraceDiffWords.noPrediction, a.result.predictedTimeline.map { ($0.t, $0.route?.rawValue ?? TraceDiffWords.noPrediction, $0.seq) },
                             b.result.predictedTimeline.map { ($0.t, $0.route?.rawValue ?? TraceDiffWords.noPrediction, $0.seq) })
        diffs += pairing.stretches(.predictedRoute, subject: "predicted route", rule: .R8, endT: endT, initial: TraceDiffWords.noPrediction, predicted.0, predicted.1)
        let actual = both(TraceDiffWords.notReportedYet, a.result.actualTimeline.map { ($0.t, $0.route?.rawValue ?? TraceDiffWords.notReportedYet, $0.seq) },
                          b.result.actualTimeline.map { ($0.t, $0.route?.rawValue ?? TraceDiffWords.notReportedYet, $0.seq) })
        diffs += pairing.stretches(.actualRoute, subject: "device route", rule: .X1, endT: endT, initial: TraceDiffWords.notReportedYet, actual.0, actual.1)
        let quality = both(TraceDiffWords.noQualityData, a.levelChanges.map { ($0.t, $0.overall.rawValue, $0.seq) }, b.levelChanges.map { ($0.t, $0.overall.rawValue, $0.seq) })
        diffs += pairing.stretches(.quality, subject: "quality level", rule: .Q2, endT: endT, initial: TraceDiffWords.noQualityData, quality.0, quality.1)
        diffs += pairing.divergences()
        diffs += pairing.findings()
        if let end = pairing.end(lastA: lastA, lastB: lastB) { diffs.append(end) }
        if missing { for i in diffs.indices { pairing.markMissing(&diffs[i]) } }
        let order = Dictionary(uniqueKeysWithValues: Difference.Kind.allCases.enumerated().map { ($1, $0) })
        diffs.sort {
            ($0.t, order[$0.kind]!, $0.a?.seq ?? .max, $0.b?.seq ?? .max, $0.subject)
                < ($1.t, order[$1.kind]!, $1.a?.seq ?? .max, $1.b?.seq ?? .max, $1.subject)
        }
        func side(_ s: DiffSide, _ partner: [Int32]) -> Side {
            let unpaired = partner.indices.filter { partner[$0] < 0 }
            return Side(file: s.file, layer: s.result.layer, records: s.records.count,
                        unpaired: unpaired.prefix(listCap).map(s.ref), unpairedCount: unpaired.count)
        }
        return (TraceDiff(a: side(a, aToB), b: side(b, bToA), paired: aToB.lazy.filter { $0 >= 0 }.count, changedCalls: changed.count,
                          offsetMs: clock.initial, toleranceMs: toleranceMs, differences: Array(diffs.prefix(listCap)), differenceCount: diffs.count),
                pairs, pairsOfB)
    }
}

/// Both sides with their record pairing, and the comparisons that use it.
struct Pairing {
    let a: DiffSide
    let b: DiffSide
    /// Each side's partners by index (-1: none).
    let aToB: [Int32]
    let bToA: [Int32]
    let tolerance: Int64
    /// B's clock against A's: B's times are taken to A's before they are compared.
    let clock: DiffClock

    /// The record paired with A's record `seq`, on B's side (and the other way round).
    func partnerInB(ofA seq: Int?) -> DiffRecord? { seq.flatMap { a.indexBySeq[$0] }.flatMap { aToB[$0] >= 0 ? b.ref(Int(aToB[$0])) : nil } }
    func partnerInA(ofB seq: Int?) -> DiffRecord? { seq.flatMap { b.indexBySeq[$0] }.flatMap { bToA[$0] >= 0 ? a.ref(Int(bToA[$0])) : nil } }

    /// One difference where B's clock moves against A's: B's records from there on are that much later
    /// (or earlier) than A's, and are compared after the move.
    func shifts() -> [Difference] {
        var before = clock.initial
        return clock.steps.map { step in
            defer { before = step.offset }
            return Difference(kind: .shift, subject: "clock", rule: nil, t: step.startA, a: a.ref(step.a), b: b.ref(step.b),
                              aValue: DiffClock.words(before), bValue: DiffClock.words(step.offset))
        }
    }

    func verdicts() -> [Difference] {
        var bBySeq: [Int: Verdict] = [:]
        for v in b.result.verdicts { bBySeq[v.seq] = v }
        var matched = Set<Int>()
        var out: [Difference] = []
        func subject(_ side: DiffSide, _ v: Verdict) -> String { side.indexBySeq[v.seq].map(side.label) ?? v.call.rawValue }
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
                out.append(Difference(kind: .verdict, subject: subject(a, va), rule: rule, t: min(va.t, clock.a(vb.t)),
                                      a: a.record(seq: va.seq), b: p, aValue: va.verdict.rawValue, bValue: vb.verdict.rawValue,
                                      aCause: va.cause, bCause: vb.cause))
            }
            let oa = va.outcome, ob = vb.outcome
            // An outcome decided at the call is its verdict: a verdict difference already says it.
            let decidedLater = va.verdict == .deferred || vb.verdict == .deferred
            if decidedLater, (oa != nil || ob != nil) && (oa?.kind != ob?.kind || oa?.cause != ob?.cause) {
                out.append(Difference(kind: .outcome, subject: subject(a, va), rule: .V2, t: min(oa?.t ?? va.t, clock.a(ob?.t ?? vb.t)),
                                      a: a.record(seq: oa?.seq ?? va.seq), b: b.record(seq: ob?.seq ?? vb.seq),
                                      aValue: oa?.kind.rawValue, bValue: ob?.kind.rawValue, aCause: oa?.cause, bCause: ob?.cause))
            }
        }
        for vb in b.result.verdicts where !matched.contains(vb.seq) {
            out.append(Difference(kind: .verdict, subject: subject(b, vb), rule: vb.cause?.rule ?? vb.rule, t: clock.a(vb.t),
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
        // The stretch open now: where it began, each side's value then, and each side's later values in it.
        var open: (t: Int64, a: Int, b: Int, aSteps: [Difference.Step], bSteps: [Difference.Step])?
        var out: [Difference] = []
        func value(_ f: [(Int64, String, Int?)], _ i: Int) -> String { i < 0 ? initial : f[i].1 }
        func close(at end: Int64, toTheEnd: Bool) {
            guard let o = open else { return }
            open = nil
            guard end - o.t > tolerance else { return }
            var d = Difference(kind: kind, subject: subject, rule: rule, t: o.t, until: toTheEnd ? nil : end,
                               a: o.a < 0 ? nil : a.record(seq: fa[o.a].2), b: o.b < 0 ? nil : b.record(seq: fb[o.b].2),
                               aValue: value(fa, o.a), bValue: value(fb, o.b))
            d.aSteps = o.aSteps
            d.bSteps = o.bSteps
            if d.aValue == Self.missing || d.aSteps.contains(where: { $0.value == Self.missing }) { d.aMissing = missingInA(from: o.t, to: end) }
            if d.bValue == Self.missing || d.bSteps.contains(where: { $0.value == Self.missing }) { d.bMissing = missingInB(from: o.t, to: end) }
            out.append(d)
        }
        for t in times {
            let (pa, pb) = (value(fa, ia), value(fb, ib))
            while ia + 1 < fa.count && fa[ia + 1].0 <= t { ia += 1 }
            while ib + 1 < fb.count && fb[ib + 1].0 <= t { ib += 1 }
            let differs = value(fa, ia) != value(fb, ib)
            if differs, open != nil {
                // Still differing, but a side changed: say so, rather than one value per side for the stretch.
                if value(fa, ia) != pa { open!.aSteps.append(Difference.Step(t: t, value: value(fa, ia))) }
                if value(fb, ib) != pb { open!.bSteps.append(Difference.Step(t: t, value: value(fb, ib))) }
            }
            if differs && open == nil { open = (t, ia, ib, [], []) }
            if !differs { close(at: t, toTheEnd: false) }
        }
        close(at: endT, toTheEnd: true)
        return out
    }

    func divergences() -> [Difference] {
        func value(_ d: Divergence) -> String {
            TraceDiffWords.divergence(d)
        }
        func startSeq(_ d: Divergence) -> Int? { [d.predictedSeq, d.actualSeq].compactMap { $0 }.max() }
        let da = a.result.divergences, db = b.result.divergences
        var usedB = Set<Int>(), usedA = Set<Int>()
        func near(_ x: Divergence, _ y: Divergence) -> Bool {
            abs(x.start - clock.a(y.start)) <= tolerance || (partnerInB(ofA: startSeq(x)).map { $0.seq == startSeq(y) } ?? false)
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
            out.append(Difference(kind: .divergence, subject: "route divergence", rule: rule(x, y), t: min(x.start, y.map { clock.a($0.start) } ?? x.start),
                                  a: a.record(seq: startSeq(x)), b: y.map { b.record(seq: startSeq($0)) } ?? partnerInB(ofA: startSeq(x)),
                                  aValue: value(x), bValue: y.map(value)))
        }
        for (j, y) in db.enumerated() where !usedB.contains(j) {
            out.append(Difference(kind: .divergence, subject: "route divergence", rule: rule(y), t: clock.a(y.start),
                                  a: partnerInA(ofB: startSeq(y)), b: b.record(seq: startSeq(y)), aValue: nil, bValue: value(y)))
        }
        return out
    }

    func findings() -> [Difference] {
        let skip: Set<FindingCode> = [.routeIneffective, .routeDivergence]
        let fa = a.result.findings.filter { !skip.contains($0.code) }, fb = b.result.findings.filter { !skip.contains($0.code) }
        var usedB = [Bool](repeating: false, count: fb.count)
        // B's findings by code, in order, each list with the place before which every one is used: the
        // first unused finding of the code that matches, as a scan of all of B's would find it.
        var byCode: [FindingCode: (list: [Int], free: Int)] = [:]
        for (j, y) in fb.enumerated() { byCode[y.code, default: ([], 0)].list.append(j) }
        var out: [Difference] = []
        for x in fa {
            let partner = partnerInB(ofA: x.seqs.first)
            var match: Int?
            if var entry = byCode[x.code] {
                while entry.free < entry.list.count, usedB[entry.list[entry.free]] { entry.free += 1 }
                byCode[x.code] = entry
                match = entry.list[entry.free...].first { j in
                    !usedB[j] && (abs(clock.a(fb[j].t) - x.t) <= tolerance || (partner != nil && partner?.seq == fb[j].seqs.first))
                }
            }
            if let j = match { usedB[j] = true; continue }
            out.append(Difference(kind: .finding, subject: x.code.rawValue, rule: x.rule, t: x.t, a: a.record(seq: x.seqs.first),
                                  b: partner, aValue: x.severity.rawValue, bValue: nil))
        }
        for (j, y) in fb.enumerated() where !usedB[j] {
            out.append(Difference(kind: .finding, subject: y.code.rawValue, rule: y.rule, t: clock.a(y.t), a: partnerInA(ofB: y.seqs.first),
                                  b: b.record(seq: y.seqs.first), aValue: nil, bValue: y.severity.rawValue))
        }
        return out
    }

    /// One side going on after the other's last record (in A's time, by more than the tolerance) with
    /// records the other lacks: a copy cut short, or a recording that stopped early.
    func end(lastA: Int64, lastB: Int64) -> Difference? {
        func after(_ s: DiffSide, _ partner: [Int32], _ last: Int64, inA: (Int64) -> Int64) -> [Int] {
            partner.indices.filter { partner[$0] < 0 && inA(s.records[$0].t) > last }
        }
        let aMore = after(a, aToB, lastB, inA: { $0 }), bMore = after(b, bToA, lastA, inA: clock.a)
        func lastRecord(_ s: DiffSide) -> DiffRecord? { s.records.indices.last.map(s.ref) }
        if lastA - lastB > tolerance, !aMore.isEmpty {
            return Difference(kind: .end, subject: TraceDiffWords.endOfTheTrace, rule: nil, t: lastB, a: a.ref(aMore[0]), b: lastRecord(b),
                              aValue: TraceDiffWords.goesOn(aMore.count, to: lastA),
                              bValue: "ends")
        }
        if lastB - lastA > tolerance, !bMore.isEmpty {
            return Difference(kind: .end, subject: TraceDiffWords.endOfTheTrace, rule: nil, t: lastA, a: lastRecord(a), b: b.ref(bMore[0]),
                              aValue: "ends",
                              bValue: TraceDiffWords.goesOn(bMore.count, to: b.result.lastT ?? 0))
        }
        return nil
    }
}
