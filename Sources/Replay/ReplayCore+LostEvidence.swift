import Contract
import TraceModel

// X5, lost evidence: the stretches where records were lost (unreadable frames, seq gaps, `trace.dropped`,
// a missing part, a restart) last until a checkpoint that can vouch for the state; a divergence open beside
// one that no finding explains is uncertain, never unexplained, and its finding says so.
extension ReplayCore {
    /// Records were lost just before the next record (`seqs` when the reader could tell them).
    mutating func lost(seqs: ClosedRange<Int>?, cause: LossCause) {
        // The SDK records held for the ms before the loss are replayed before it.
        releaseHeld()
        if let pending = pendingLoss {
            // One loss the reader reports twice (a frame and the seq gap it leaves) is one stretch.
            let merged = seqs.map { s in pending.seqs.map { min($0.lowerBound, s.lowerBound)...max($0.upperBound, s.upperBound) } ?? s }
            pendingLoss = (pending.cause, merged ?? pending.seqs)
        } else {
            pendingLoss = (cause, seqs)
        }
    }

    /// The record after a loss the reader reported: the stretch is known from the records around it.
    mutating func lossEnds(at record: ReplayRecord) {
        guard let (cause, seqs) = pendingLoss else { return }
        pendingLoss = nil
        let fromSeq = seqs?.lowerBound ?? (lastSeq + 1), toSeq = seqs?.upperBound ?? (record.seq - 1)
        open(LostStretch(cause: cause, fromSeq: fromSeq, toSeq: max(fromSeq, toSeq), fromT: builder.result.lastT ?? record.t, toT: record.t))
    }

    /// Opens a lost stretch; divergences already closed that it covers become uncertain, their findings
    /// restated.
    mutating func open(_ stretch: LostStretch) {
        lostStretchesOpen.append(stretch)
        let tracker = divergences
        builder.update { result in
            if result.lost.count < ReplayCore.lostCap { result.lost.append(stretch) }
            for i in result.divergences.indices where result.divergences[i].unexplained
                && stretch.covers(result.divergences[i].start, result.divergences[i].end) {
                result.divergences[i].evidenceLost = stretch
                result.unexplainedDivergenceCount -= 1
                result.uncertainDivergenceCount += 1
                if let f = result.divergences[i].finding, f < result.findings.count {
                    result.findings[f] = tracker.finding(for: result.divergences[i], at: result.findings[f].t, final: true).finding
                }
            }
        }
    }

    /// A checkpoint: ends the open stretches it can vouch for (any checkpoint after a lost frame, a seq gap,
    /// a missing part or a restart; only one from the SDK's provider after a drop). Returns whether it ended one.
    mutating func vouches(_ cp: TraceCheckpoint, _ record: ReplayRecord) -> Bool {
        guard !lostStretchesOpen.isEmpty else { return false }
        var ended: [LostStretch] = []
        lostStretchesOpen.removeAll { s in
            guard cp.isFromSDK || !s.cause.needsSDKCheckpoint else { return false }
            ended.append(s)
            return true
        }
        guard !ended.isEmpty else { return false }
        let (seq, t) = (record.seq, record.t)
        builder.update { result in
            for s in ended {
                if let i = result.lost.lastIndex(where: { $0 == s }) {
                    result.lost[i].untilSeq = seq
                    result.lost[i].untilT = t
                }
            }
        }
        return true
    }

    /// The lost stretch a divergence from `start` to `end` is open beside, as known now.
    func lostCovering(_ start: Int64, _ end: Int64) -> LostStretch? {
        if let s = builder.result.lost.first(where: { $0.covers(start, end) }) { return s }
        return lostStretchesOpen.first { $0.covers(start, end) }
    }

    /// A divergence that closed: marked uncertain when it was open beside lost records and nothing explains
    /// it, with its finding restated (X5).
    func judged(_ o: DivergenceTracker.Output) -> DivergenceTracker.Output {
        guard case .closed(var d, let final) = o, !d.explained, let s = lostCovering(d.start, d.end) else { return o }
        d.evidenceLost = s
        return .closed(d, final.map { divergences.finding(for: d, at: $0.t, final: true) })
    }

    /// The most lost stretches a result keeps.
    static let lostCap = 100
}
