import Replay
import TraceCodec
import TraceModel

// What a replay of part of a session can and cannot say, phrased once for every report.

/// A sentence on what the replay lacks of the session.
package struct SessionNote: Equatable, Sendable {
    /// The sentence.
    package var text: String
    /// Whether judgement was withheld because of it (an unknown state, a missing part), or it only says
    /// where the replay began (a checkpoint).
    package var withheld: Bool
}

extension Wording {
    /// One sentence per way the replay lacks some of the session: a part begun without the part before it
    /// (from its checkpoint, or with its state unknown, and until when), parts missing in between; each
    /// says whether judgement was withheld because of it.
    package static func sessionNotes(_ r: ReplayResult) -> [SessionNote] {
        guard let s = r.session else { return [] }
        var out: [SessionNote] = []
        for start in s.starts {
            let missing = s.missing.first { $0.parts.upperBound + 1 == start.part }
            let without = missing == nil ? "without the parts before it" : "after a missing part"
            if let checkpoint = start.checkpointSeq {
                out.append(SessionNote(text: "part \(start.part) of session \(s.id) was replayed \(without), from its checkpoint (seq \(checkpoint)): "
                    + "the route state is the SDK's at that moment; quality and speaker data from before it are unknown", withheld: false))
            } else if let stretch = s.unknownState.first(where: { $0.fromSeq == start.headerSeq }) {
                let until = stretch.untilSeq.map { "until \(record($0, in: r))" } ?? r.end.untilEnd
                out.append(SessionNote(text: "part \(start.part) of session \(s.id) was replayed \(without) and has no checkpoint: the state before it "
                    + "is unknown \(until), so no route call meanwhile gets a verdict and no all-clear is given for it", withheld: true))
            }
        }
        for gap in s.missing {
            let parts = gap.parts.count == 1 ? "part \(gap.parts.lowerBound)" : "parts \(gap.parts.lowerBound)–\(gap.parts.upperBound)"
            let stretch = gap.afterT.map { "between \(formatDuration($0)) and \(formatDuration(gap.beforeT))" } ?? "before \(formatDuration(gap.beforeT))"
            out.append(SessionNote(text: "\(parts) of session \(s.id) \(gap.parts.count == 1 ? "is" : "are") missing (\(stretch)): nothing can be said about that stretch",
                                   withheld: true))
        }
        return out
    }

    /// One sentence per restart of the app's process (RS1): when, which part, and the calls that died with it.
    /// Not withheld judgement: the session goes on in the new process.
    package static func restartNotes(_ r: ReplayResult) -> [SessionNote] {
        r.restarts.map { x in
            var text = "the app's process ended (a crash or a kill) and restarted"
                + (x.lastT.map { ": its last record before it was at \(formatDuration($0)), and" } ?? ":")
                + " part \(x.part)\(r.session.map { " of session \($0.id)" } ?? "") resumed the session at \(formatDuration(x.t)) (seq \(x.seq) trace.header); "
                + "what lived only in the dead process started afresh there (RS1)"
            if !x.droppedCalls.isEmpty {
                text += "; the route call\(x.droppedCalls.count == 1 ? "" : "s") still waiting (seq "
                    + x.droppedCalls.map(String.init).joined(separator: ", ") + ") died with it"
            }
            return SessionNote(text: text, withheld: false)
        }
    }

    /// Why the session is incomplete, in one line, or nil when the replay covers all of it.
    package static func incompleteSession(_ r: ReplayResult) -> String? {
        let notes = sessionNotes(r)
        return notes.isEmpty ? nil : notes.map(\.text).joined(separator: "; ")
    }

    /// How to replay the whole of an incomplete session: name the parts missing between those given
    /// (their folder was perhaps given already), else ask for every part.
    package static func completeSessionHint(_ r: ReplayResult) -> String {
        let missing = r.session?.missing.flatMap { Array($0.parts) } ?? []
        guard !missing.isEmpty else { return "give every part, or their folder, to replay the session as one trace" }
        let listed = missing.count == 1 ? "part \(missing[0]) is" : "parts " + missing.map(String.init).joined(separator: ", ") + " are"
        return "\(listed) not among the files given: add \(missing.count == 1 ? "it" : "them") to replay the session as one trace"
    }
}

extension Wording {
    /// What the reader could not read, one sentence per kind of damage: a torn end, frames lost and the
    /// resynchronisation after them, undecodable records, missing seqs, a trace never closed, records the
    /// recorder dropped. Empty for an undamaged trace.
    package static func damageNotes(_ r: ReplayResult) -> [String] {
        var count = r.problemsByKind
        if count.isEmpty { for p in r.problems { count[p.kind, default: 0] += 1 } }
        func n(_ k: TraceProblem.Kind) -> Int { count[k] ?? 0 }
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        var out: [String] = []
        if r.end == .crash {
            out.append(n(.tornFrame) > 0
                ? "the trace ends torn (a crash while writing): records after the last whole frame are lost, and what is said to hold at the end holds at the crash"
                : "the trace was never closed (its writer stopped without closing it, e.g. a crash): what is said to hold at the end holds at the crash")
        }
        let lostFrames = n(.badFrame) + n(.windowTooLarge)
        if lostFrames > 0 || n(.garbage) > 0 {
            var s = lostFrames > 0 ? "\(plural(lostFrames, "frame")) could not be read" : "unreadable bytes were skipped"
            s += n(.garbage) > 0 ? " and the reader resynchronised \(plural(n(.garbage), "time")) after them" : ""
            out.append(s + ": the records there are lost")
        }
        if n(.badRecord) + n(.lineTooLong) > 0 { out.append("\(plural(n(.badRecord) + n(.lineTooLong), "record")) could not be decoded and were skipped") }
        if n(.seqGap) > 0 { out.append("\(plural(n(.seqGap), "gap")) in seq: records are missing there") }
        if n(.timeBackwards) > 0 { out.append("time went backwards \(plural(n(.timeBackwards), "time"))") }
        if n(.header) + n(.headerMissing) > 0 { out.append("the header is missing or misplaced: the layer and device may be wrong") }
        let drops = r.dropped.filter { $0.pause == nil }
        if r.droppedRecords > 0 {
            out.append("the recorder dropped \(plural(r.droppedRecords, "record")) ("
                + drops.prefix(5).map { "\(formatDuration($0.fromT))–\(formatDuration($0.toT))" }.joined(separator: ", ")
                + (drops.count > 5 ? ", …" : "") + "): items there are marked uncertain")
        }
        let pauses = r.dropped.filter { $0.pause != nil }
        if !pauses.isEmpty {
            out.append("the recorder recorded nothing " + pauses.prefix(5).map { p in
                "from \(formatDuration(p.fromT)) to \(formatDuration(p.toT)) (\(p.pause!.words))"
            }.joined(separator: ", ") + (pauses.count > 5 ? ", …" : "") + ": items there are marked uncertain")
        }
        if r.recordsWithClippedStrings > 0 {
            out.append("\(plural(r.recordsWithClippedStrings, "record")) had strings over \(TextCap.keptBytes) bytes: they were replayed "
                + "with those strings clipped (each says its full length)")
        }
        if r.problemCount > r.problems.count { out.append("\(r.problemCount - r.problems.count) more reading problems not listed (run 'rtctrace verify')") }
        return out
    }
}

extension Wording {
    /// What the reader could not read that withholds the all-clear (`ReplayResult.unread`), one phrase
    /// per way; empty when the input was read well enough for one.
    package static func unread(_ r: ReplayResult) -> [String] {
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        return r.unread.map { u in
            switch u {
            case let .framesLost(frames, resyncs):
                let lost = frames > 0 ? "\(plural(frames, "frame")) could not be read" : "unreadable bytes were skipped"
                return lost + (frames > 0 && resyncs > 0 ? " (and unreadable bytes were skipped \(plural(resyncs, "time")))" : "")
                    + ": the records there are lost"
            case let .recordsUndecodable(n, total):
                let share = total > 0 ? Double(n) * 100 / Double(total) : 100
                return "\(n) of \(total) records (\(fixed(share, share >= 10 ? 0 : 1))%) could not be decoded"
            case .seqsMissing(let gaps):
                return "seqs are missing in \(plural(gaps, "place")): records there were never read"
            case .tornEnd:
                return "the last frame is torn (the recorder stopped while writing it): the records in it are lost"
            case .recorderPaused(let n):
                return "the recorder paused \(plural(n, "time")) (trace.paused): nothing was recorded there"
            }
        }
    }
}
