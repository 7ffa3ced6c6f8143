import Contract
import Replay
import TraceModel

extension DiffSide {
    /// Leaves out, from `t` on, what only the device's readings and the SDK's callbacks say: the
    /// divergences, the device's route, and the findings their records raise.
    /// `isHistory`: whether the record with a seq is history.
    mutating func cutHistory(at t: Int64, isHistory: (Int) -> Bool) {
        let r = result
        let gone = r.divergences.filter { $0.start >= t }
        result.divergences.removeAll { $0.start >= t }
        result.divergenceCount -= gone.count
        result.unexplainedDivergenceCount -= gone.filter(\.unexplained).count
        result.actualTimeline.removeAll { $0.t >= t }
        func fromHistory(_ f: Finding) -> Bool {
            f.t >= t && (f.code == .routeDivergence || f.seqs.first.map(isHistory) == true)
        }
        for f in r.findings where fromHistory(f) { result.findingCounts[f.code, default: 1] -= 1 }
        result.findings.removeAll(where: fromHistory)
    }
}

extension DiffSide {
    /// Replaces this side's divergences and history's findings (all before the cut) with `other`'s,
    /// their seqs renumbered into this side's.
    /// `history` holds the seqs of `other`'s history records; this side has been cut where history ends,
    /// so what it still holds of history's findings came before the cut.
    mutating func takeHistory(of other: DiffSide, history: SeqIndex, renumbered seq: (Int) -> Int?) {
        func fromHistory(_ f: Finding) -> Bool { f.code == .routeDivergence || f.seqs.first.map(history.contains) == true }
        let kept = Set(other.result.findings.filter(fromHistory).compactMap { $0.seqs.first.flatMap(seq) })
        // This side's findings at the original's history records (renumbered): replaced by the original's.
        func mine(_ f: Finding) -> Bool { f.code == .routeDivergence || f.seqs.first.map(kept.contains) == true }
        for f in result.findings where mine(f) { result.findingCounts[f.code, default: 1] -= 1 }
        result.findings.removeAll(where: mine)
        for f in other.result.findings where fromHistory(f) {
            result.findings.append(Finding(code: f.code, severity: f.severity, rule: f.rule, seqs: f.seqs.compactMap(seq), t: f.t,
                                           message: f.message, advice: f.advice, call: f.call.flatMap(seq)))
            result.findingCounts[f.code, default: 0] += 1
        }
        result.findings.sort { $0.t < $1.t }
        result.divergences = other.result.divergences.map { d in
            var d = d
            d.predictedSeq = d.predictedSeq.flatMap(seq)
            d.startSeq = d.startSeq.flatMap(seq)
            d.actualSeq = d.actualSeq.flatMap(seq)
            d.afterAppliedCall = d.afterAppliedCall.flatMap(seq)
            d.explainedBySeq = d.explainedBySeq.flatMap(seq)
            d.finding = nil
            return d
        }
        result.divergenceCount = other.result.divergenceCount
        result.unexplainedDivergenceCount = other.result.unexplainedDivergenceCount
        result.actualTimeline = other.result.actualTimeline.map { RouteSegment(t: $0.t, route: $0.route, seq: $0.seq.flatMap(seq)) }
    }
}

extension TraceDiff {
    /// Names B's records by the seqs of the original trace (`name(newSeq)`, for new seqs below `count`).
    mutating func renameB(count: Int, _ name: (Int) -> Int) {
        func rename(_ r: DiffRecord?) -> DiffRecord? {
            guard var r, r.seq >= 0, r.seq < count else { return r }
            r.seq = name(r.seq)
            return r
        }
        for i in differences.indices { differences[i].b = rename(differences[i].b) }
        b.unpaired = b.unpaired.map { rename($0)! }
    }
}
