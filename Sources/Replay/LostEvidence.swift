import Contract
import TraceCodec
import TraceModel

/// How records came to be lost (X5).
package enum LossCause: String, Sendable, CaseIterable {
    /// A frame that could not be read (a bad checksum, an undecodable frame, bytes skipped to resynchronise).
    case unreadableFrame
    /// `seq` skips: the records in between never reached the file.
    case seqGap
    /// The recorder dropped records (`trace.dropped`: its queue was full).
    case dropped
    /// The recorder recorded nothing for a while (`trace.paused`: disabled, volume locked, disk full, low space).
    case paused
    /// A part of the session was not given.
    case missingPart
    /// The app's process ended (a crash or a kill) and a restarted one resumed the session.
    case restart

    /// Whether only a checkpoint from the SDK's own provider vouches for the state after it: the recorder's
    /// derived state missed what it dropped (X5).
    package var needsSDKCheckpoint: Bool {
        switch self {
        case .dropped, .paused: true
        case .unreadableFrame, .seqGap, .missingPart, .restart: false
        }
    }
}

/// A stretch of the trace where records were lost, from the first lost record until the next checkpoint
/// that can vouch for the state (X5): the replay's state there may be wrong.
package struct LostStretch: Equatable, Sendable {
    /// How the records were lost.
    package var cause: LossCause
    /// The first and last seq lost (for a drop, which leaves no seq gap: the `trace.dropped` record).
    package var fromSeq: Int
    package var toSeq: Int
    /// When the lost records were made: from the last record read before them to the first after them
    /// (for a drop, its `fromT`–`toT`).
    package var fromT: Int64
    package var toT: Int64
    /// The checkpoint that vouched for the state again (nil: none did, the stretch lasts to the end).
    package var untilSeq: Int?
    package var untilT: Int64?

    /// Creates a stretch still open.
    package init(cause: LossCause, fromSeq: Int, toSeq: Int, fromT: Int64, toT: Int64) {
        self.cause = cause
        self.fromSeq = fromSeq
        self.toSeq = toSeq
        self.fromT = fromT
        self.toT = toT
    }

    /// Whether something open from `start` until `end` is open at a moment of the stretch (its start
    /// included; the vouching checkpoint's moment is known again).
    package func covers(_ start: Int64, _ end: Int64) -> Bool { start < (untilT ?? .max) && end > fromT }

    /// The lost seqs in words: `seq 16–23`.
    package var seqText: String { fromSeq == toSeq ? "seq \(fromSeq)" : "seq \(fromSeq)–\(toSeq)" }
}

extension ReplayResult {
    /// The first lost stretch something from `start` to `end` overlaps, if any: what is concluded there is
    /// uncertain (X5).
    package func lostStretch(overlapping start: Int64, _ end: Int64) -> LostStretch? {
        lost.first { $0.covers(start, end) }
    }

    /// Whether anything was lost: frames, seqs, dropped records, parts or a restart's gap (the all-clear
    /// is withheld, X5).
    package var lostAnything: Bool { !lost.isEmpty || droppedRecords > 0 || !unread.isEmpty }
}

extension LossCause {
    /// The loss a reader problem reports, if it loses records (X5 (a), (b)); a torn last frame loses only
    /// what follows it, where nothing is judged.
    init?(_ kind: TraceProblem.Kind) {
        switch kind {
        case .badFrame, .garbage, .windowTooLarge: self = .unreadableFrame
        case .seqGap: self = .seqGap
        case .badRecord, .tornFrame, .lineTooLong, .timeBackwards, .header, .headerMissing, .notClosed, .empty, .notATrace, .io,
             .byteOrderMark, .bundleMismatch: return nil
        }
    }
}

extension ReplayResult {
    /// Whether a call's verdict or outcome was decided where records were lost (X5; `trace.dropped` as
    /// before). A call dropped at a restart is not: the resumed header is its evidence.
    package func uncertain(_ v: Verdict) -> Bool {
        let end = v.outcome?.t ?? v.t
        if droppedRange(overlapping: v.t, end) != nil { return true }
        if v.outcome?.cause == .restarted { return false }
        return lostStretch(overlapping: v.t, end) != nil
    }
}

/// Which reader problems lose records (X5), for those that judge a trace's damage.
package enum LossReading {
    /// Whether a problem of this kind loses records the trace held.
    package static func losesRecords(_ kind: TraceProblem.Kind) -> Bool { LossCause(kind) != nil }
}

/// A stretch in which the recorder dropped records (its queue was full), or recorded nothing at all
/// (`trace.paused`: switched off, the volume locked, the disk full, free space low).
package struct DroppedRange: Equatable, Sendable {
    /// Records dropped (0 for a pause: nothing was made to count).
    package var count: Int
    /// The first dropped record's time.
    package var fromT: Int64
    /// The last dropped record's time.
    package var toT: Int64
    /// The `trace.dropped` (or `trace.paused`) record.
    package var seq: Int
    /// Why the recorder paused, for a `trace.paused` stretch; nil for dropped records.
    package var pause: PauseReason?

    /// Creates a range.
    package init(count: Int, fromT: Int64, toT: Int64, seq: Int, pause: PauseReason? = nil) {
        self.count = count
        self.fromT = fromT
        self.toT = toT
        self.seq = seq
        self.pause = pause
    }

    /// Whether the stretch from `start` to `end` overlaps it.
    package func overlaps(_ start: Int64, _ end: Int64) -> Bool { start <= toT && end >= fromT }
}

extension ReplayResult {
    /// The dropped range a stretch overlaps, if any: what is concluded there is uncertain.
    package func droppedRange(overlapping start: Int64, _ end: Int64) -> DroppedRange? {
        dropped.first { $0.overlaps(start, end) }
    }
}
