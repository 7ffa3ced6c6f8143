// S1–S2: merging the server's incremental speaker updates into full snapshots; speakers.mismatch.
import TraceFormat

extension QualityEngine {
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

    /// `merge`, in place (the engine's own snapshot is updated without a copy).
    static func merge(into merged: inout [Speaker], speaking: [Speaker], stopped: [SpeakerKey]) {
        for entry in speaking {
            if let index = merged.firstIndex(where: { $0.uid == entry.uid && $0.trackId == entry.trackId }) {
                merged[index].level = entry.level
            } else {
                merged.append(entry)
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
    }

    mutating func speakersUpdated(speaking: [Speaker], stopped: [SpeakerKey], seq: Int) -> [QualityOutput] {
        guard state.vendor == .seaStart else { return [] }  // Q5
        Self.merge(into: &state.speakers, speaking: speaking, stopped: stopped)
        state.speakersSeq = seq
        return [.snapshot(state.speakers)]
    }

    mutating func sdkSpeakersObserved(_ speakers: [Speaker], seq: Int, t: Int64) -> [QualityOutput] {
        state.seen.activeSpeakers = true
        let derived = state.speakers
        let same = speakers.count == derived.count
            && zip(speakers, derived).allSatisfy { $0.uid == $1.uid && $0.trackId == $1.trackId }
        if same { return [] }
        return [.finding(findings.speakersMismatch(observed: speakers, derived: derived, seq: seq,
                                                   derivedSeq: state.speakersSeq, t: t))]
    }
}
