// S1–S2 at the rate of a call: the derived speaker set kept in S2's order one entry at a time, indexed by
// the symbols of its keys, with its S3 content hashed as it changes.
import TraceModel

/// A speaker's key as the engine indexes it: the symbols of its uid and track id (equal strings, equal
/// symbols), so that looking an entry up compares two integers.
struct SpeakerID: Hashable, Sendable {
    var uid: Symbol
    var track: Symbol

    init(uid: Symbol, track: Symbol) {
        self.uid = uid
        self.track = track
    }

    init(_ s: SpeakerRef) {
        uid = s.uid
        track = s.track
    }
}

extension QualityEngine {
    /// The most entries an update applies one at a time; a larger one is merged into the set in one pass.
    static let entryByEntryLimit = 32

    /// A set of at most this many speakers is searched by a scan of its keys' symbols (comparing integers
    /// beats hashing); a larger one through `speakerLevels`.
    static let scannedSetLimit = 32

    /// Makes the index agree with `state.speakers` when the set was replaced outside an update (a reset, a
    /// restart, a part's start): the symbols of its keys, and the level of each.
    mutating func syncSpeakerIndex(_ symbols: SymbolTable) {
        if speakerIDs.count != state.speakers.count || (levelsIndexed && speakerLevels.count != state.speakers.count) {
            speakerIDs = state.speakers.map { SpeakerID(uid: symbols.intern($0.uid), track: symbols.intern($0.trackId)) }
            speakerLevels = [:]
            levelsIndexed = false
        }
        keepLevelsIndex()
    }

    /// Keeps `speakerLevels` for a set larger than `scannedSetLimit`, and none for a smaller one.
    mutating func keepLevelsIndex() {
        if state.speakers.count > Self.scannedSetLimit {
            guard !levelsIndexed else { return }
            speakerLevels = Dictionary(zip(speakerIDs, state.speakers.lazy.map(\.level)), uniquingKeysWith: { a, _ in a })
            levelsIndexed = true
        } else if levelsIndexed {
            speakerLevels = [:]
            levelsIndexed = false
        }
    }

    /// Where the speaker with key `id` is in the set, if it is there.
    func index(of id: SpeakerID, _ symbols: SymbolTable) -> Int? {
        guard levelsIndexed else { return speakerIDs.firstIndex(of: id) }
        guard let level = speakerLevels[id] else { return nil }
        return position(of: id, level: level, symbols)
    }

    /// The speaker as the state lists it, its strings made once per symbol.
    static func speaker(_ s: SpeakerRef, _ symbols: SymbolTable) -> Speaker {
        Speaker(uid: symbols.text(s.uid), trackId: symbols.text(s.track), level: s.level)
    }

    /// `merge(into:)`'s result, kept in order as it changes, for the entries of `arena.speakers` in
    /// `speaking` and `stopped`. A small update costs, per entry, a lookup, two binary searches and the move
    /// of the entries after it; a larger one (over `entryByEntryLimit` entries) one pass over the set: its
    /// entries are sorted and merged with the set's unchanged ones. Neither scans or sorts the whole set per
    /// entry, so an update of k entries to a set of n costs O(n + k log k) at worst, never O(k·n).
    mutating func mergeIndexed(_ arena: ReplayArena, speaking: Range<Int>, stopped: Range<Int>, limit: Int = speakerLimit) -> Bool {
        syncSpeakerIndex(arena.symbols)
        if speaking.count + stopped.count > Self.entryByEntryLimit {
            return mergeInOnePass(arena, speaking: speaking, stopped: stopped, limit: limit)
        }
        var ignored = false
        var content = currentContent
        defer { speakersContent = (state.speakers.count, content) }
        for k in speaking {
            let ref = arena.speakers[k]
            let id = SpeakerID(ref)
            if let i = index(of: id, arena.symbols) {
                let j = placeAfterMove(i, level: ref.level)
                if levelsIndexed { speakerLevels[id] = ref.level }
                if j == i {
                    // The new level leaves it between the same neighbours: the keys' order, and so the
                    // content, stay; only the level is edited.
                    state.speakers[i].level = ref.level
                    continue
                }
                // It moves from `i` to `j` (its place in the set without it): the entry keeps its strings, and
                // the entries between slide by one where they lie (no removal and insertion of the arrays).
                content = contentAfter(content, removingAt: i)
                content = contentAfter(content, inserting: id, at: j, without: i)
                speakerSetWork += (state.speakers.count - i) + (state.speakers.count - 1 - j)
                state.speakers.withUnsafeMutableBufferPointer { Self.move(in: $0, from: i, to: j) }
                state.speakers[j].level = ref.level
                speakerIDs.withUnsafeMutableBufferPointer { Self.move(in: $0, from: i, to: j) }
                continue
            } else if state.speakers.count >= limit {
                ignored = true
                continue
            }
            if levelsIndexed { speakerLevels[id] = ref.level }
            let entry = Self.speaker(ref, arena.symbols)
            let i = Self.insertionPoint(of: entry, in: state.speakers)
            content = contentAfter(content, inserting: id, at: i)
            speakerSetWork += state.speakers.count - i
            if state.speakers.count < Self.scannedSetLimit {
                // A small set: added at the end and slid to its place, which costs less than the arrays'
                // generic insertion.
                state.speakers.append(entry)
                state.speakers.withUnsafeMutableBufferPointer { Self.move(in: $0, from: $0.count - 1, to: i) }
                speakerIDs.append(id)
                speakerIDs.withUnsafeMutableBufferPointer { Self.move(in: $0, from: $0.count - 1, to: i) }
            } else {
                state.speakers.insert(entry, at: i)
                speakerIDs.insert(id, at: i)
            }
            keepLevelsIndex()
        }
        for k in stopped {
            let id = SpeakerID(arena.speakers[k])
            guard let i = index(of: id, arena.symbols) else { continue }
            if levelsIndexed { speakerLevels.removeValue(forKey: id) }
            content = contentAfter(content, removingAt: i)
            speakerSetWork += state.speakers.count - i
            if state.speakers.count <= Self.scannedSetLimit {
                // A small set: slid to the end and removed there (see the insertion above).
                state.speakers.withUnsafeMutableBufferPointer { Self.move(in: $0, from: i, to: $0.count - 1) }
                state.speakers.removeLast()
                speakerIDs.withUnsafeMutableBufferPointer { Self.move(in: $0, from: i, to: $0.count - 1) }
                speakerIDs.removeLast()
            } else {
                state.speakers.remove(at: i)
                speakerIDs.remove(at: i)
            }
            keepLevelsIndex()
        }
        return ignored
    }

    /// Where the speaker at `i`, given `level`, would be put once removed (`i`: it keeps its place): the
    /// binary search of `insertionPoint` over the set without it, so that the answer is the removal and
    /// insertion's own.
    private func placeAfterMove(_ i: Int, level: Double) -> Int {
        let speakers = state.speakers
        var moved = speakers[i]
        moved.level = level
        var low = 0, high = speakers.count - 1
        while low < high {
            let mid = (low + high) / 2
            if Self.speakerOrder(speakers[mid < i ? mid : mid + 1], moved) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Moves the element at `i` to `j`, the elements between sliding by one: the removal at `i` and the
    /// insertion at `j` of the array without it, done where the elements lie (swaps of a buffer copy no
    /// reference and allocate nothing).
    private static func move<T>(in buffer: UnsafeMutableBufferPointer<T>, from i: Int, to j: Int) {
        var k = i
        while k < j {
            buffer.swapAt(k, k + 1)
            k += 1
        }
        while k > j {
            buffer.swapAt(k, k - 1)
            k -= 1
        }
    }

    /// `mergeIndexed` for a large update: the same result (S1's order of additions, the limit counted as
    /// entries arrive, `stopped` applied last), built by one merge of two sorted runs.
    private mutating func mergeInOnePass(_ arena: ReplayArena, speaking: Range<Int>, stopped: Range<Int>, limit: Int) -> Bool {
        if !levelsIndexed {
            speakerLevels = Dictionary(zip(speakerIDs, state.speakers.lazy.map(\.level)), uniquingKeysWith: { a, _ in a })
            levelsIndexed = true
        }
        defer { keepLevelsIndex() }
        var ignored = false
        var count = state.speakers.count
        var changed: [SpeakerID: Double] = [:]
        changed.reserveCapacity(speaking.count)
        for k in speaking {
            let ref = arena.speakers[k]
            let id = SpeakerID(ref)
            if speakerLevels[id] == nil && changed[id] == nil {
                guard count < limit else { ignored = true; continue }
                count += 1
            }
            changed[id] = ref.level
        }
        var gone = Set<SpeakerID>()
        for k in stopped {
            let id = SpeakerID(arena.speakers[k])
            guard speakerLevels[id] != nil || changed[id] != nil else { continue }
            gone.insert(id)
            changed.removeValue(forKey: id)
        }
        let kept = state.speakers.indices.filter { changed[speakerIDs[$0]] == nil && !gone.contains(speakerIDs[$0]) }
        var fresh: [(speaker: Speaker, id: SpeakerID)] = []
        fresh.reserveCapacity(changed.count)
        for (id, level) in changed {
            fresh.append((Self.speaker(SpeakerRef(uid: id.uid, track: id.track, level: level), arena.symbols), id))
            speakerLevels[id] = level
        }
        for id in gone { speakerLevels.removeValue(forKey: id) }
        fresh.sort { Self.speakerOrder($0.speaker, $1.speaker) }
        var merged: [Speaker] = [], mergedIDs: [SpeakerID] = []
        merged.reserveCapacity(kept.count + fresh.count)
        mergedIDs.reserveCapacity(kept.count + fresh.count)
        var i = 0, j = 0
        while i < kept.count || j < fresh.count {
            if j < fresh.count, i == kept.count || Self.speakerOrder(fresh[j].speaker, state.speakers[kept[i]]) {
                merged.append(fresh[j].speaker)
                mergedIDs.append(fresh[j].id)
                j += 1
            } else {
                merged.append(state.speakers[kept[i]])
                mergedIDs.append(speakerIDs[kept[i]])
                i += 1
            }
        }
        speakerSetWork += state.speakers.count + merged.count
        state.speakers = merged
        speakerIDs = mergedIDs
        // The derived order is S2's, whose ties follow the keys: the plain reading is the content.
        speakersContent = (merged.count, Self.content(merged, mergedIDs, tieOrderUnknown: false))
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

    /// The index of the speaker with key `id` and `level` in the set, if it is there.
    func position(of id: SpeakerID, level: Double, _ symbols: SymbolTable) -> Int? {
        let probe = Speaker(uid: symbols.text(id.uid), trackId: symbols.text(id.track), level: level)
        let i = Self.insertionPoint(of: probe, in: state.speakers)
        return i < speakerIDs.count && speakerIDs[i] == id ? i : nil
    }

    // MARK: - S3's content

    /// The content of the current derived snapshot: kept up to date by `mergeIndexed` one entry at a time,
    /// hashed whole only when it disagrees with the state in size.
    var currentContent: UInt64 {
        mutating get {
            if let cached = speakersContent, cached.count == state.speakers.count { return cached.content }
            let content = Self.content(state.speakers, speakerIDs, tieOrderUnknown: state.tieOrderUnknown)
            speakersContent = (state.speakers.count, content)
            return content
        }
    }

    /// A snapshot's content as `speakers.mismatch` compares it: uids and track ids in order (with
    /// `tieOrderUnknown`, in any order within each run of equal levels), hashed as the sum of the hashes of
    /// its adjacent pairs (from a start mark to an end mark), so that an insertion or a removal updates it
    /// in constant time (`contentAfter`). A derived snapshot is sorted by S2, whose ties already follow the
    /// keys' order, so the two readings agree on it. `ids` are the symbols of `speakers`' keys.
    static func content(_ speakers: [Speaker], _ ids: [SpeakerID], tieOrderUnknown: Bool) -> UInt64 {
        var keys = ids
        if tieOrderUnknown {
            var start = 0
            while start < speakers.count {
                var end = start + 1
                while end < speakers.count && speakers[end].level == speakers[start].level { end += 1 }
                if end - start > 1 {
                    let order = (start..<end).sorted { speakers[$0].key < speakers[$1].key }
                    for (k, i) in order.enumerated() { keys[start + k] = ids[i] }
                }
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

    /// `content` of `speakers` with their keys' symbols taken from `symbols` (for tests and checks).
    static func content(_ speakers: [Speaker], symbols: SymbolTable, tieOrderUnknown: Bool) -> UInt64 {
        content(speakers, speakers.map { SpeakerID(uid: symbols.intern($0.uid), track: symbols.intern($0.trackId)) },
                tieOrderUnknown: tieOrderUnknown)
    }

    private static let contentStart: UInt64 = 0x5354_4152_5421_0001, contentEnd: UInt64 = 0x454E_4421_0000_0002

    private static func mix(_ x: UInt64) -> UInt64 {  // SplitMix64's finaliser
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private static func keyHash(_ id: SpeakerID) -> UInt64 { mix(UInt64(id.uid.id) << 32 | UInt64(id.track.id)) }

    private static func pairHash(_ a: UInt64, _ b: UInt64) -> UInt64 { mix(mix(a) ^ (b &* 0xD6E8_FEB8_6659_FD93)) }

    /// `content` after inserting `id` at `index` of the set: the pair it splits is replaced.
    private func contentAfter(_ content: UInt64, inserting id: SpeakerID, at index: Int) -> UInt64 {
        let previous = index > 0 ? Self.keyHash(speakerIDs[index - 1]) : Self.contentStart
        let next = index < speakerIDs.count ? Self.keyHash(speakerIDs[index]) : Self.contentEnd
        let h = Self.keyHash(id)
        return content &- Self.pairHash(previous, next) &+ Self.pairHash(previous, h) &+ Self.pairHash(h, next)
    }

    /// `content` after inserting `id` at `index` of the set without its entry at `removed`: the pair it
    /// splits is replaced (the set's keys are read around the entry that left).
    private func contentAfter(_ content: UInt64, inserting id: SpeakerID, at index: Int, without removed: Int) -> UInt64 {
        let before = index - 1, after = index
        let previous = before >= 0 ? Self.keyHash(speakerIDs[before < removed ? before : before + 1]) : Self.contentStart
        let next = after < speakerIDs.count - 1 ? Self.keyHash(speakerIDs[after < removed ? after : after + 1]) : Self.contentEnd
        let h = Self.keyHash(id)
        return content &- Self.pairHash(previous, next) &+ Self.pairHash(previous, h) &+ Self.pairHash(h, next)
    }

    /// `content` after removing the key at `index`: the two pairs it was in are joined.
    private func contentAfter(_ content: UInt64, removingAt index: Int) -> UInt64 {
        let previous = index > 0 ? Self.keyHash(speakerIDs[index - 1]) : Self.contentStart
        let next = index + 1 < speakerIDs.count ? Self.keyHash(speakerIDs[index + 1]) : Self.contentEnd
        let h = Self.keyHash(speakerIDs[index])
        return content &- Self.pairHash(previous, h) &- Self.pairHash(h, next) &+ Self.pairHash(previous, next)
    }
}
