// quality.spuriousChange and quality.missedChange: derived level changes against the SDK's events.
import TraceModel

extension QualityEngine {
    /// How many held changes are kept while no `sdk.qualityChanged` has been seen (memory stays bounded).
    static let heldCap = 1000

    var findings: QualityFindings { QualityFindings(layer: state.layer, options: options) }

    mutating func sdkChangeObserved(previous: QualityLevel, overall: QualityLevel, mos: Double?, seq: Int,
                                    t: Int64, into out: inout QualitySink) {
        if let mos { valueChecks(CollectionOfOne(mos), field: "sdk.qualityChanged.mos", seq: seq, t: t, range: 1.0...4.5, into: &out) }
        if !state.seen.qualityChanged {
            // The kind is present after all: the changes held back are judged now.
            state.seen.qualityChanged = true
            for change in state.heldMissed { out.finding(.qualityMissedChange, seq: change.seq, t: t) { findings.missed(change, t: t) } }
            state.heldMissed = []
            state.heldMissedDropped = 0
        }
        // Robust to a replayer that delivers timers late: a window that closed before `t` is closed.
        expireChanges(before: t - options.matchWindowMs, t: t, into: &out)
        if let index = state.unmatchedChanges.firstIndex(where: {
            ($0.previous == previous || $0.previousUnknown) && $0.overall == overall && $0.t <= t
        }) {
            state.unmatchedChanges.remove(at: index)  // one-to-one: earliest unmatched first
        } else if state.baselineFromBefore {
            // Before the part's first derived change the SDK's level came from before the part: nothing to judge.
        } else {
            out.finding(.qualitySpuriousChange, seq: seq, t: t) {
                findings.spurious(previous: previous, overall: overall, seq: seq, t: t, lastDerived: state.changes.last)
            }
        }
    }

    mutating func matchWindowClosed(changeSeq: Int, t: Int64, into out: inout QualitySink) {
        guard let index = state.unmatchedChanges.firstIndex(where: { $0.seq == changeSeq }) else { return }
        let change = state.unmatchedChanges.remove(at: index)
        judgeUnmatched(change, t: t, into: &out)
    }

    /// Every unmatched change older than `cutoff` has had its whole window: judge it.
    mutating func expireChanges(before cutoff: Int64, t: Int64, into out: inout QualitySink) {
        while let first = state.unmatchedChanges.first, first.t < cutoff {
            state.unmatchedChanges.removeFirst()
            judgeUnmatched(first, t: first.t.saturatingAdd(options.matchWindowMs).saturatingAdd(1), into: &out)
        }
    }

    mutating func judgeUnmatched(_ change: LevelChange, t: Int64, into out: inout QualitySink) {
        // The SDK may have had that level already, from before the part: not missed.
        if change.previousUnknown { return }
        if state.seen.qualityChanged {
            out.finding(.qualityMissedChange, seq: change.seq, t: t) { findings.missed(change, t: t) }
            return
        }
        if state.heldMissed.count < Self.heldCap {
            state.heldMissed.append(change)
        } else {
            state.heldMissedDropped += 1
        }
    }

    /// At the end of the trace, changes whose whole window passed are judged; held ones (the kind was never
    /// seen) are dropped, and windows the trace ended inside are not judged.
    mutating func closeMatchWindowsAtEnd(t: Int64, into out: inout QualitySink) {
        let open = state.unmatchedChanges
        state.unmatchedChanges = []
        // A window the trace ended inside is not judged: the trace does not cover the rest of it.
        for change in open where t > change.t.saturatingAdd(options.matchWindowMs) {
            judgeUnmatched(change, t: t, into: &out)
        }
        state.heldMissed = []
        state.heldMissedDropped = 0
    }
}
