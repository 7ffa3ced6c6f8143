// S1–S2: merging the server's incremental speaker updates into full snapshots; speakers.mismatch.
import TraceModel

extension QualityEngine {
    /// The most speakers the engine keeps in its snapshot; further additions are ignored.
    package static let speakerLimit = 10_000

    /// S2's order: level, highest first; ties by uid, then trackId, ascending.
    package static func speakerOrder(_ a: Speaker, _ b: Speaker) -> Bool {
        if a.level != b.level { return a.level > b.level }
        if a.uid != b.uid { return a.uid < b.uid }
        return a.trackId < b.trackId
    }

    /// S1: `speaking` entries are added or update the level, then `stopped` keys are removed
    /// (so a key in both lists of one update ends up stopped), then the set is sorted (S2).
    package static func merge(_ snapshot: [Speaker], speaking: [Speaker], stopped: [SpeakerKey]) -> [Speaker] {
        var merged = snapshot
        merge(into: &merged, speaking: speaking, stopped: stopped)
        return merged
    }

    /// `merge`, in place (the engine's own snapshot is updated without a copy); a new speaker beyond `limit`
    /// is ignored. Returns whether one was.
    @discardableResult
    static func merge(into merged: inout [Speaker], speaking: [Speaker], stopped: [SpeakerKey],
                      limit: Int = speakerLimit) -> Bool {
        var ignored = false
        for entry in speaking {
            if let index = merged.firstIndex(where: { $0.uid == entry.uid && $0.trackId == entry.trackId }) {
                merged[index].level = entry.level
            } else if merged.count < limit {
                merged.append(entry)
            } else {
                ignored = true
            }
        }
        if stopped.count > 8 {
            let gone = Set(stopped)
            merged.removeAll { gone.contains($0.key) }
        } else if !stopped.isEmpty {
            // An update stops one or two speakers: a scan beats hashing strings into a set.
            merged.removeAll { s in stopped.contains { $0.uid == s.uid && $0.trackId == s.trackId } }
        }
        merged.sort(by: speakerOrder)
        return ignored
    }

    /// An `srv.speakers` update: its entries in `arena.speakers`.
    mutating func speakersUpdated(_ arena: ReplayArena, speaking: Range<Int>, stopped: Range<Int>, seq: Int, t: Int64,
                                  into out: inout QualitySink) {
        valueChecks(arena.speakers[speaking].lazy.map(\.level), field: "srv.speakers.level", seq: seq, t: t, into: &out)
        guard state.vendor == .seaStart else { return }  // Q5
        let ignored = mergeIndexed(arena, speaking: speaking, stopped: stopped)
        state.speakersSeq = seq
        // The whole snapshot is an output only someone observing the steps reads.
        if out.observed { out.append(.snapshot(state.speakers)) }
        snapshotDerived(seq: seq, t: t, into: &out)
        guard ignored, !state.speakerLimitReported else { return }
        state.speakerLimitReported = true
        out.append(.finding(findings.limitExceeded("speakers", limit: Self.speakerLimit, seq: seq, t: t)))
    }

    /// The most derived snapshots kept waiting for an answer (S3); beyond it the oldest are judged early.
    static let snapshotCap = 10_000

    /// S3: every derived snapshot, the empty one and one that changed nothing included, must be answered
    /// within the match window after it.
    mutating func snapshotDerived(seq: Int, t: Int64, into out: inout QualitySink) {
        // The SDK's set came from before the part: nothing to hold it to yet.
        if state.speakersFromBefore { return }
        // Those whose whole window has passed are judged now (a replayer that delivers timers late, or none).
        while let first = obligations.unansweredSnapshots.first, t - first.t > options.matchWindowMs {
            judgeUnanswered(obligations.unansweredSnapshots.removeFirst(), t: first.t.saturatingAdd(options.matchWindowMs).saturatingAdd(1), into: &out)
        }
        if obligations.unansweredSnapshots.count >= Self.snapshotCap { judgeUnanswered(obligations.unansweredSnapshots.removeFirst(), t: t, into: &out) }
        if let last = obligations.unansweredSnapshots.last {
            if last.seq >= seq { unansweredInSeqOrder = false }
        } else {
            unansweredInSeqOrder = true
        }
        obligations.unansweredSnapshots.append(DerivedSnapshot(seq: seq, t: t, content: currentContent, count: state.speakers.count))
        // +1: an answer exactly `matchWindowMs` after the snapshot still counts (the window is inclusive).
        setDeadline(.snapshotWindow(snapshotSeq: seq), due: t.saturatingAdd(options.matchWindowMs).saturatingAdd(1), into: &out)
    }

    /// The match window of a derived snapshot closed: unanswered, it is missed (held until the kind is seen).
    mutating func snapshotWindowClosed(snapshotSeq: Int, t: Int64, into out: inout QualitySink) {
        let found = unansweredInSeqOrder ? obligations.unansweredSnapshots.remove(key: \.seq, equalTo: snapshotSeq)
            : obligations.unansweredSnapshots.remove(firstWhere: { $0.seq == snapshotSeq })
        guard let s = found else { return }
        judgeUnanswered(s, t: t, into: &out)
    }

    mutating func judgeUnanswered(_ s: DerivedSnapshot, t: Int64, into out: inout QualitySink) {
        if state.seen.activeSpeakers { return out.finding(.speakersMissedSnapshot, seq: s.seq, t: t) { findings.missedSnapshot(s, t: t) } }
        // The gate: a recorder that captures no sdk.activeSpeakers is not an SDK that skips them.
        if obligations.heldSnapshots.count < Self.heldCap { obligations.heldSnapshots.append(s) }
    }

    /// An `sdk.activeSpeakers` snapshot: its entries in `arena.speakers`.
    mutating func sdkSpeakersObserved(_ arena: ReplayArena, _ speakers: Range<Int>, seq: Int, t: Int64, into out: inout QualitySink) {
        valueChecks(arena.speakers[speakers].lazy.map(\.level), field: "sdk.activeSpeakers.level", seq: seq, t: t, into: &out)
        syncSpeakerIndex(arena.symbols)
        if !state.seen.activeSpeakers {
            // The kind is present after all: the snapshots held back are judged now, at this record's time.
            state.seen.activeSpeakers = true
            for s in obligations.heldSnapshots { out.finding(.speakersMissedSnapshot, seq: s.seq, t: t) { findings.missedSnapshot(s, t: t) } }
            obligations.heldSnapshots = []
        }
        let derived = state.speakers
        let window = options.matchWindowMs
        let inWindow = { (s: DerivedSnapshot) in s.t <= t && t - s.t <= window }
        if state.speakersFromBefore {
            // Until they agree once, the SDK's set may hold speakers from before the part.
            if sameSnapshot(arena, speakers, ignoringTieOrder: state.tieOrderUnknown) { state.speakersFromBefore = false }
            return
        }
        if sameSnapshot(arena, speakers, ignoringTieOrder: state.tieOrderUnknown) {
            // S3, many-to-one: an equal answer answers every unanswered snapshot it equals in its window.
            let content = currentContent
            let answered = { (s: DerivedSnapshot) in inWindow(s) && s.content == content }
            // Looked for first: removing none still rebuilds the queue's storage.
            if obligations.unansweredSnapshots.contains(where: answered) { obligations.unansweredSnapshots.removeAll(where: answered) }
            return
        }
        // A wrong snapshot is reported once, as the mismatch, and answers every unanswered one in its window.
        if obligations.unansweredSnapshots.contains(where: inWindow) { obligations.unansweredSnapshots.removeAll(where: inWindow) }
        let derivedSeq = state.speakersSeq
        out.finding(.speakersMismatch, seq: seq, t: t) {
            findings.speakersMismatch(observed: arena.speakerList(speakers), derived: derived, seq: seq, derivedSeq: derivedSeq, t: t)
        }
    }

    /// Whether the SDK's snapshot lists the derived speakers (uids and trackIds) in the derived order; with
    /// `ignoringTieOrder` (a trace redacted at the source, where the original uids' order is unknown), in any
    /// order within each run of equal derived levels. The rule on whole snapshots; the engine compares the
    /// symbols of their keys (`sameSnapshot(_:_:ignoringTieOrder:)` on an engine).
    static func sameSnapshot(_ observed: [Speaker], _ derived: [Speaker], ignoringTieOrder: Bool) -> Bool {
        guard observed.count == derived.count else { return false }
        if zip(observed, derived).allSatisfy({ $0.uid == $1.uid && $0.trackId == $1.trackId }) { return true }
        guard ignoringTieOrder else { return false }
        var start = 0
        while start < derived.count {
            var end = start + 1
            while end < derived.count && derived[end].level == derived[start].level { end += 1 }
            let want = derived[start..<end].map(\.key).sorted(), got = observed[start..<end].map(\.key).sorted()
            guard want == got else { return false }
            start = end
        }
        return true
    }

    /// Whether the SDK's snapshot (the entries of `arena.speakers` in `observed`) lists the derived speakers
    /// (uids and trackIds) in the derived order; with `ignoringTieOrder` (a trace redacted at the source,
    /// where the original uids' order is unknown), in any order within each run of equal derived levels.
    func sameSnapshot(_ arena: ReplayArena, _ observed: Range<Int>, ignoringTieOrder: Bool) -> Bool {
        let derived = state.speakers
        guard observed.count == derived.count else { return false }
        if zip(observed, speakerIDs).allSatisfy({ SpeakerID(arena.speakers[$0]) == $1 }) { return true }
        guard ignoringTieOrder else { return false }
        let symbols = arena.symbols
        func key(_ k: Int) -> SpeakerKey {
            let s = arena.speakers[observed.lowerBound + k]
            return SpeakerKey(uid: symbols.text(s.uid), trackId: symbols.text(s.track))
        }
        var start = 0
        while start < derived.count {
            var end = start + 1
            while end < derived.count && derived[end].level == derived[start].level { end += 1 }
            if end - start == 1 {
                guard SpeakerID(arena.speakers[observed.lowerBound + start]) == speakerIDs[start] else { return false }
            } else {
                let want = derived[start..<end].map(\.key).sorted(), got = (start..<end).map(key).sorted()
                guard want == got else { return false }
            }
            start = end
        }
        return true
    }
}
