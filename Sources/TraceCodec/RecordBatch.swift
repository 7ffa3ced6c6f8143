import TraceModel

/// Records read from a trace as a replay takes them, with the problems met among them: plain bytes and
/// trivially copyable records (`ReplayRecord`), handed whole between the reading thread and the replaying
/// one. A record of a high-rate type carries its fields; its strings are byte ranges of `bytes` (a text
/// field holds the range's index in `spans` plus one; a speaker entry's uid and track the same), which the
/// replay interns into its own symbols as it takes the record. A record of any other type, or one read
/// whole (clipped, or for a reader of every record), is kept whole in `full`.
package struct RecordBatch: Sendable {
    /// The records, in trace order.
    package internal(set) var records: [ReplayRecord] = []
    /// The problems, each with the index of the record it is reported before (`records.count`: after the last).
    package internal(set) var problems: [(before: Int, problem: TraceProblem)] = []
    /// The bytes of the records' strings.
    package internal(set) var bytes: [UInt8] = []
    /// Where each string is in `bytes`.
    package internal(set) var spans: [TextSpan] = []
    /// Speaker entries (their strings as span indices).
    package internal(set) var speakers: [SpeakerRef] = []
    /// Quality samples.
    package internal(set) var samples: [QualitySample] = []
    /// Lists of strings (span indices).
    package internal(set) var lists: [Symbol] = []
    /// Whole records.
    package internal(set) var full: [Record] = []

    /// An empty batch.
    package init() {}

    /// Whether it holds neither a record nor a problem.
    package var isEmpty: Bool { records.isEmpty && problems.isEmpty }

    /// The bytes of the record lines it was read from, roughly: what it holds in memory.
    var weight: Int { bytes.count + records.count * MemoryLayout<ReplayRecord>.stride + full.count * 256 }

    /// Empties it, keeping its storage.
    package mutating func removeAll() {
        records.removeAll(keepingCapacity: true)
        problems.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
        speakers.removeAll(keepingCapacity: true)
        samples.removeAll(keepingCapacity: true)
        lists.removeAll(keepingCapacity: true)
        if !full.isEmpty { full.removeAll(keepingCapacity: true) }
    }

    /// The bytes of the string a text field or speaker entry names (its span index plus one).
    @inlinable
    package func withText<T>(_ slot: UInt32, _ body: (UnsafeRawPointer, Int) -> T) -> T {
        let span = spans[Int(slot) - 1]
        let n = Int(span.count)
        if n <= TextSpan.inlineBytes { return withUnsafeBytes(of: span.word) { body($0.baseAddress!, n) } }
        return bytes.withUnsafeBytes { body($0.baseAddress! + Int(span.word), n) }
    }

    /// Takes record `i` into `arena` as a replay reads it: its strings interned into the arena's symbols,
    /// its lists copied into the arena's buffers (the batch is reused once it has been read), a record read
    /// whole taken whole (`ReplayArena.take`).
    package func take(_ i: Int, into arena: ReplayArena) -> ReplayRecord {
        var r = records[i]
        if r.hasFull { return arena.take(full[Int(r.full)]) }
        let symbols = arena.symbols
        // A short string is interned from the word its span holds: no bytes to hash or compare.
        @inline(__always) func intern(_ slot: UInt32) -> UInt32 {
            let span = spans[Int(slot) - 1]
            let n = Int(span.count)
            if n <= TextSpan.inlineBytes { return symbols.intern(word: span.word, count: n).id }
            return bytes.withUnsafeBytes { symbols.intern($0.baseAddress! + Int(span.word), count: n).id }
        }
        r.mapTexts(intern)
        switch r.kind {
        case .qualityReport?:
            let at = r.samplesAt
            r.moveList(to: arena.samples.count)
            arena.samples.append(samples[at])
            arena.samples.append(samples[at + 1])
        case .speakers?, .sdkActiveSpeakers?:
            let range = r.listRange
            r.moveList(to: arena.speakers.count)
            for k in range {
                let s = speakers[k]
                let u = spans[Int(s.uid.id) - 1], t = spans[Int(s.track.id) - 1]
                // Both short (as uids and track ids are): the pair interned at once, mostly found as a pair.
                let (uid, track) = u.count <= TextSpan.inlineBytes && t.count <= TextSpan.inlineBytes
                    ? symbols.intern(word: u.word, count: Int(u.count), word: t.word, count: Int(t.count))
                    : (Symbol(id: intern(s.uid.id)), Symbol(id: intern(s.track.id)))
                arena.speakers.append(SpeakerRef(uid: uid, track: track, level: s.level))
            }
        case .routeSnapshot?:
            if r.ports != nil {
                let range = r.listRange
                r.moveList(to: arena.lists.count)
                for k in range { arena.lists.append(Symbol(id: intern(lists[k].id))) }
            }
        case .sdkQualityChanged?, .sdkLog?, .routeChanged?, .setRoute?, .clearRouteOverride?, .deviceConnected?, .deviceDisconnected?,
             .header?, .dropped?, .checkpoint?, .report?, .paused?, .joinChannel?, .leaveChannel?, .enterMeeting?, .exitMeeting?, .setDefaultRoute?,
             .setAudioModuleEnabled?, .subscribe?, .switchLayer?, .micPermission?, .interruptionBegan?, .interruptionEnded?,
             .callState?, .appState?, .mediaServicesReset?, .callKit?, .sessionActivated?, .sessionDeactivated?, .overrideOutput?,
             .sdkInterrupted?, .sdkRecovered?, .sdkCallStateChanged?, .sdkLayerSwitched?, .sdkError?, .connEngine?, .connState?,
             .srvLayerSwitched?, .sysSessionActivated?, .sysRouteChanged?, .sysPropertySet?, .sysPlaying?, .sysAppState?, nil:
            break
        }
        return r
    }

    /// Adds a record read whole.
    mutating func append(whole record: Record) {
        var r = ReplayRecord(seq: record.seq, t: record.t, kind: record.body.kind)
        r.full = Int32(full.count)
        full.append(record)
        records.append(r)
    }

    /// Adds a problem, before the next record.
    mutating func append(_ problem: TraceProblem) {
        problems.append((records.count, problem))
    }

    /// Adds the string at `range` of `line`; returns its slot (span index plus one).
    @inline(__always)
    mutating func addText(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt32 {
        // Wrapping arithmetic and, for a short string, truncating conversions: the range lies within the line
        // (0 ≤ lowerBound ≤ upperBound ≤ its length), so no difference here can overflow, and a length of at
        // most 8 fits any width; the checks would cost a few instructions for each of a speaker entry's strings.
        let n = range.upperBound &- range.lowerBound
        if n <= TextSpan.inlineBytes {
            // Most strings a replay compares (uids, track ids, device ids) are this short: kept in the span
            // itself, which spares the copy into `bytes` and its growth checks.
            var word: UInt64 = 0
            if line.count &- range.lowerBound >= 8 {
                // The mask with wrapping arithmetic (n is at most 8): no overflow checks to pay for.
                word = UnsafeRawPointer(line.baseAddress! + range.lowerBound).loadUnaligned(as: UInt64.self)
                    & (n == 8 ? ~0 : (1 &<< UInt64(truncatingIfNeeded: 8 &* n)) &- 1)
            } else {
                for i in 0..<n { word |= UInt64(line[range.lowerBound + i]) << UInt64(8 * i) }
            }
            spans.append(TextSpan(word: word, count: UInt32(truncatingIfNeeded: n)))
        } else {
            spans.append(TextSpan(word: UInt64(bytes.count), count: UInt32(n)))
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: line[range]))
        }
        return UInt32(spans.count)
    }

    /// Where the side buffers end: what a record that turns out not to decode here gives back (`Int.max`
    /// for a buffer the record does not append to: nothing to take back there).
    struct Mark {
        let bytes: Int, spans: Int, speakers: Int, samples: Int, lists: Int
    }

    var mark: Mark { Mark(bytes: bytes.count, spans: spans.count, speakers: speakers.count, samples: samples.count, lists: lists.count) }

    mutating func rollBack(to m: Mark) {
        if bytes.count > m.bytes { bytes.removeSubrange(m.bytes...) }
        if spans.count > m.spans { spans.removeSubrange(m.spans...) }
        if speakers.count > m.speakers { speakers.removeSubrange(m.speakers...) }
        if samples.count > m.samples { samples.removeSubrange(m.samples...) }
        if lists.count > m.lists { lists.removeSubrange(m.lists...) }
    }
}

/// A string of a batch: its bytes themselves when it is short, else where they are in the batch's bytes.
package struct TextSpan: Sendable {
    /// The longest string kept in the span itself.
    @inlinable package static var inlineBytes: Int { 8 }
    /// A string of at most `inlineBytes`: its bytes, the first in the lowest byte (the rest zero); a longer
    /// one: the offset of its first byte in the batch's bytes.
    package var word: UInt64
    /// Its length in bytes.
    package var count: UInt32
}
