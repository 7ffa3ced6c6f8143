// S1–S2: merging the server's incremental speaker updates into full snapshots; speakers.mismatch.
import TraceModel

extension QualityEngine {
    /// The most speakers the engine keeps in its snapshot; further additions are ignored.
    public static let speakerLimit = 10_000

    /// S2's order: level, highest first; ties by uid, then trackId, ascending.
    public static func speakerOrder(_ a: Speaker, _ b: Speaker) -> Bool {
        if a.level != b.level { return a.level > b.level }
        if a.uid != b.uid { return a.uid < b.uid }
        return a.trackId < b.trackId
    }

    /// S1: `speaking` entries are added or update the level, then `stopped` keys are removed
    /// (so a key in both lists of one update ends up stopped), then the set is sorted (S2).
    public static func merge(_ snapshot: [Speaker], speaking: [Speaker], stopped: [SpeakerKey]) -> [Speaker] {
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

    mutating func speakersUpdated(speaking: [Speaker], stopped: [SpeakerKey], seq: Int, t: Int64, into out: inout QualitySink) {
        valueChecks(speaking.lazy.map(\.level), field: "srv.speakers.level", seq: seq, t: t, into: &out)
        guard state.vendor == .seaStart else { return }  // Q5
        let ignored = mergeIndexed(speaking: speaking, stopped: stopped)
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

    /// The content of the current derived snapshot: kept up to date by `mergeIndexed` one entry at a time,
    /// hashed whole only when it disagrees with the state in size.
    private var currentContent: UInt64 {
        mutating get {
            if let cached = speakersContent, cached.count == state.speakers.count { return cached.content }
            let content = Self.content(state.speakers, tieOrderUnknown: state.tieOrderUnknown)
            speakersContent = (state.speakers.count, content)
            return content
        }
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

    /// A snapshot's content as `speakers.mismatch` compares it: uids and track ids in order (with
    /// `tieOrderUnknown`, in any order within each run of equal levels), hashed as the sum of the hashes of
    /// its adjacent pairs (from a start mark to an end mark), so that an insertion or a removal updates it
    /// in constant time (`contentAfter`). A derived snapshot is sorted by S2, whose ties already follow the
    /// keys' order, so the two readings agree on it.
    static func content(_ speakers: [Speaker], tieOrderUnknown: Bool) -> UInt64 {
        var keys = speakers.map(\.key)
        if tieOrderUnknown {
            var start = 0
            while start < speakers.count {
                var end = start + 1
                while end < speakers.count && speakers[end].level == speakers[start].level { end += 1 }
                keys[start..<end].sort()
                start = end
            }
        }
        var sum: UInt64 = 0, previous = contentStart
        for k in keys {
            let h = keyHash(k)
            sum = sum &+ pairHash(previous, h)
            previous = h
        }
        return sum &+ pairHash(previous, contentEnd)
    }

    private static let contentStart: UInt64 = 0x5354_4152_5421_0001, contentEnd: UInt64 = 0x454E_4421_0000_0002

    private static func keyHash(_ key: SpeakerKey) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for s in [key.uid, key.trackId] {
            for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
            h = (h ^ 0xFF) &* 0x0000_0100_0000_01b3
        }
        return h
    }

    private static func pairHash(_ a: UInt64, _ b: UInt64) -> UInt64 {
        func mix(_ x: UInt64) -> UInt64 {  // SplitMix64's finaliser
            var z = x &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        return mix(mix(a) ^ (b &* 0xD6E8_FEB8_6659_FD93))
    }

    /// `content` after inserting `key` at `index` of `speakers` (or removing the key there): the pair it
    /// splits (or joins) is replaced.
    private static func contentAfter(_ content: UInt64, _ speakers: [Speaker], inserting key: SpeakerKey? = nil, at index: Int) -> UInt64 {
        let previous = index > 0 ? keyHash(speakers[index - 1].key) : contentStart
        if let key {
            let next = index < speakers.count ? keyHash(speakers[index].key) : contentEnd
            let h = keyHash(key)
            return content &- pairHash(previous, next) &+ pairHash(previous, h) &+ pairHash(h, next)
        }
        let next = index + 1 < speakers.count ? keyHash(speakers[index + 1].key) : contentEnd
        let h = keyHash(speakers[index].key)
        return content &- pairHash(previous, h) &- pairHash(h, next) &+ pairHash(previous, next)
    }

    /// The most entries an update applies one at a time; a larger one is merged into the set in one pass.
    static let entryByEntryLimit = 32

    /// `merge(into:)`'s result, kept in order as it changes. A small update costs, per entry, a lookup, two
    /// binary searches and the move of the entries after it; a larger one (over `entryByEntryLimit`
    /// entries) one pass over the set: its entries are sorted and merged with the set's unchanged ones.
    /// Neither scans or sorts the whole set per entry, so an update of k entries to a set of n costs
    /// O(n + k log k) at worst, never O(k·n).
    mutating func mergeIndexed(speaking: [Speaker], stopped: [SpeakerKey], limit: Int = speakerLimit) -> Bool {
        if speakerLevels.count != state.speakers.count {
            speakerLevels = Dictionary(state.speakers.map { ($0.key, $0.level) }, uniquingKeysWith: { a, _ in a })
        }
        if speaking.count + stopped.count > Self.entryByEntryLimit {
            return mergeInOnePass(speaking: speaking, stopped: stopped, limit: limit)
        }
        var ignored = false
        var content = currentContent
        defer { speakersContent = (state.speakers.count, content) }
        for entry in speaking {
            let key = entry.key
            if let level = speakerLevels[key] {
                if let i = Self.position(of: Speaker(uid: key.uid, trackId: key.trackId, level: level), in: state.speakers) {
                    content = Self.contentAfter(content, state.speakers, at: i)
                    speakerSetWork += state.speakers.count - i
                    state.speakers.remove(at: i)
                }
            } else if state.speakers.count >= limit {
                ignored = true
                continue
            }
            speakerLevels[key] = entry.level
            let i = Self.insertionPoint(of: entry, in: state.speakers)
            content = Self.contentAfter(content, state.speakers, inserting: key, at: i)
            speakerSetWork += state.speakers.count - i
            state.speakers.insert(entry, at: i)
        }
        for key in stopped {
            guard let level = speakerLevels.removeValue(forKey: key) else { continue }
            if let i = Self.position(of: Speaker(uid: key.uid, trackId: key.trackId, level: level), in: state.speakers) {
                content = Self.contentAfter(content, state.speakers, at: i)
                speakerSetWork += state.speakers.count - i
                state.speakers.remove(at: i)
            }
        }
        return ignored
    }

    /// `mergeIndexed` for a large update: the same result (S1's order of additions, the limit counted as
    /// entries arrive, `stopped` applied last), built by one merge of two sorted runs.
    private mutating func mergeInOnePass(speaking: [Speaker], stopped: [SpeakerKey], limit: Int) -> Bool {
        var ignored = false
        var count = state.speakers.count
        var changed: [SpeakerKey: Double] = [:]
        changed.reserveCapacity(speaking.count)
        for entry in speaking {
            let key = entry.key
            if speakerLevels[key] == nil && changed[key] == nil {
                guard count < limit else { ignored = true; continue }
                count += 1
            }
            changed[key] = entry.level
        }
        var gone = Set<SpeakerKey>()
        for key in stopped where speakerLevels[key] != nil || changed[key] != nil {
            gone.insert(key)
            changed.removeValue(forKey: key)
        }
        let kept = state.speakers.filter { changed[$0.key] == nil && !gone.contains($0.key) }
        var fresh: [Speaker] = []
        fresh.reserveCapacity(changed.count)
        for (key, level) in changed {
            fresh.append(Speaker(uid: key.uid, trackId: key.trackId, level: level))
            speakerLevels[key] = level
        }
        for key in gone { speakerLevels.removeValue(forKey: key) }
        fresh.sort(by: Self.speakerOrder)
        var merged: [Speaker] = []
        merged.reserveCapacity(kept.count + fresh.count)
        var i = 0, j = 0
        while i < kept.count && j < fresh.count {
            if Self.speakerOrder(fresh[j], kept[i]) { merged.append(fresh[j]); j += 1 } else { merged.append(kept[i]); i += 1 }
        }
        merged += kept[i...]
        merged += fresh[j...]
        speakerSetWork += state.speakers.count + merged.count
        state.speakers = merged
        // The derived order is S2's, whose ties follow the keys: the plain reading is the content.
        speakersContent = (merged.count, Self.content(merged, tieOrderUnknown: false))
        return ignored
    }

    /// The first index whose speaker does not come before `s` in S2's order.
    static func insertionPoint(of s: Speaker, in sorted: [Speaker]) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if speakerOrder(sorted[mid], s) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The index of the speaker with `s`'s key and level, if it is there.
    static func position(of s: Speaker, in sorted: [Speaker]) -> Int? {
        let i = insertionPoint(of: s, in: sorted)
        return i < sorted.count && sorted[i].uid == s.uid && sorted[i].trackId == s.trackId ? i : nil
    }

    mutating func sdkSpeakersObserved(_ speakers: [Speaker], seq: Int, t: Int64, into out: inout QualitySink) {
        valueChecks(speakers.lazy.map(\.level), field: "sdk.activeSpeakers.level", seq: seq, t: t, into: &out)
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
            if Self.sameSnapshot(speakers, derived, ignoringTieOrder: state.tieOrderUnknown) { state.speakersFromBefore = false }
            return
        }
        if Self.sameSnapshot(speakers, derived, ignoringTieOrder: state.tieOrderUnknown) {
            // S3, many-to-one: an equal answer answers every unanswered snapshot it equals in its window.
            let content = currentContent
            obligations.unansweredSnapshots.removeAll { inWindow($0) && $0.content == content }
            return
        }
        // A wrong snapshot is reported once, as the mismatch, and answers every unanswered one in its window.
        obligations.unansweredSnapshots.removeAll(where: inWindow)
        out.append(.finding(findings.speakersMismatch(observed: speakers, derived: derived, seq: seq,
                                                      derivedSeq: state.speakersSeq, t: t)))
    }

    /// Whether the SDK's snapshot lists the derived speakers (uids and trackIds) in the derived order; with
    /// `ignoringTieOrder` (a trace redacted at the source, where the original uids' order is unknown), in any
    /// order within each run of equal derived levels.
    static func sameSnapshot(_ observed: [Speaker], _ derived: [Speaker], ignoringTieOrder: Bool) -> Bool {
        guard observed.count == derived.count else { return false }
        if zip(observed, derived).allSatisfy({ $0.uid == $1.uid && $0.trackId == $1.trackId }) { return true }
        guard ignoringTieOrder else { return false }
        var start = 0
        while start < derived.count {
            var end = start + 1
            while end < derived.count && derived[end].level == derived[start].level { end += 1 }
            if end - start == 1 {
                guard observed[start].key == derived[start].key else { return false }
            } else {
                let want = derived[start..<end].map(\.key).sorted(), got = observed[start..<end].map(\.key).sorted()
                guard want == got else { return false }
            }
            start = end
        }
        return true
    }
}
