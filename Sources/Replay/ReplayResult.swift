import Contract
import QualityEngine
import RouteEngine
import TraceCodec
import TraceModel

/// Everything a replay concluded about one trace.
package struct ReplayResult: Sendable {
    /// The trace file.
    package var file: String
    /// Its header, when it had one.
    package var header: TraceHeader?
    /// The layer whose words reports use (SRTC when the header is missing).
    package var layer: Layer = .srtc
    /// Records replayed.
    package var records = 0
    /// First record's t.
    package var firstT: Int64?
    /// Last record's t.
    package var lastT: Int64?
    /// One verdict per route call and switchLayer, in order (the first `ReplayOptions.maxVerdicts`).
    package var verdicts: [Verdict] = []
    /// Verdicts decided, all of them.
    package var verdictCount = 0
    /// Of those, `api.switchLayer` calls.
    package var layerCallCount = 0
    /// Calls that did not take effect, by outcome and cause (a pending call keeps the cause it was
    /// deferred for; layer calls by verdict), kept up to date as deferred calls are decided (V2).
    package var notTakingEffectCounts: [OutcomeKey: Int] = [:]
    /// Every call by what became of it (kind, verdict and cause, outcome and cause), over all verdicts,
    /// kept up to date as outcomes are decided (V2).
    package var callFates: [CallFate: Int] = [:]
    /// Verdicts beyond the cap, counted only.
    package var verdictsDropped = 0
    /// Route divergences (X2), in order of start (the first `ReplayOptions.maxDivergences`).
    package var divergences: [Divergence] = []
    /// Route divergences, all of them (not capped).
    package var divergenceCount = 0
    /// Unexplained route divergences, all of them (not capped): neither explained by a finding nor begun
    /// from an unknown start state.
    package var unexplainedDivergenceCount = 0
    /// Route divergences no finding explains that began while the state before the part was unknown, all
    /// of them (not capped): not judged.
    package var unknownStartDivergenceCount = 0
    /// Route divergences no finding explains whose evidence is missing (X5: open beside lost records, or
    /// begun from an unknown start state), all of them (not capped): uncertain, never escalated.
    package var uncertainDivergenceCount = 0
    /// The damage a golden trace declares (`expect.damage`): the seqs it lost on purpose (nil: none declared).
    package var declaredDamage: [ClosedRange<Int>]?
    /// The restarts of the app's process the session shows (RS1), the first 100.
    package var restarts: [Restart] = []
    /// The stretches where records were lost (X5), in order, the first 100.
    package var lost: [LostStretch] = []
    /// Divergences beyond the cap, counted only.
    package var divergencesDropped: Int { divergenceCount - divergences.count }
    /// Findings, in the order raised (up to the cap).
    package var findings: [Finding] = []
    /// Findings by code, all of them (not capped).
    package var findingCounts: [FindingCode: Int] = [:]
    /// Findings beyond the cap, counted only.
    package var findingsDropped = 0
    /// Findings of error severity other than `route.divergence` among the first `ReplayOptions.maxFindings`
    /// raised: those of `findings` when they are built, counted when they are not.
    package var keptErrorFindings = 0
    /// Outcomes of the trace's `expect.*` records, by seq.
    package var expectations: [ExpectationResult] = []
    /// The engine's predicted route over time.
    package var predictedTimeline: [RouteSegment] = []
    /// The device's actual route over time.
    package var actualTimeline: [RouteSegment] = []
    /// Whether the timelines were cut at the segment cap.
    package var timelineTruncated = false
    /// The quality engine's summary (set when the replay finishes).
    package var quality: QualitySummary?
    /// The level changes the quality engine derived (Q2), as many as it keeps.
    package var levelChanges: [QualityEngine.LevelChange] = []
    /// Interruption recoveries the route engine made (I3).
    package var recoveries = 0
    /// Problems the reader reported (damage, invalid records), up to a cap.
    package var problems: [TraceProblem] = []
    /// All problems, counted.
    package var problemCount = 0
    /// All problems by kind, over all parts (not capped).
    package var problemsByKind: [TraceProblem.Kind: Int] = [:]
    /// Bytes of JSON Lines read (the input's decompressed size), over every part: what an output's size is
    /// proportional to.
    package var inputBytes = 0
    /// The files of the trace that could be opened (0 for records replayed from memory): none opened means
    /// the trace could not be read at all.
    package var partsOpened = 0
    /// Records read with strings longer than `TextCap.keptBytes`, replayed with them clipped (the full
    /// length noted in each): a limit the trace exceeded.
    package var recordsWithClippedStrings = 0
    /// Of the `seqGap` problems, those where a part of the session given starts after parts missing in
    /// between: the session notes say what is missing there.
    package var seqGapsAtMissingParts = 0
    /// The stretches in which the device-side recorder dropped records (`trace.dropped`) or recorded
    /// nothing (`trace.paused`), the first 100: what the replay concludes there is uncertain.
    package var dropped: [DroppedRange] = []
    /// `trace.paused` records: stretches in which the recorder recorded nothing (in `dropped` too).
    package var pausedStretches = 0
    /// The user's problem reports marked in the trace (`trace.report`), the first `ReportMark.kept`.
    package var reports: [ReportMark] = []
    /// Records dropped in all, over every `trace.dropped`.
    package var droppedRecords = 0
    /// Records of types this version does not know, by type.
    package var unknownTypes: [String: Int] = [:]
    /// Type and time of the records findings can point at (calls, system and SDK events; not the
    /// high-rate server reports), by seq, up to a cap.
    package var recordIndex = RecordIndex()
    /// The match window the replay used (R12's window before a route change), which the explanation's
    /// evidence from the system log reads too (E1).
    package var matchWindowMs: Int64 = 1000

    /// Creates an empty result for a file.
    package init(file: String) { self.file = file }

    /// Duration covered by the records, in ms.
    package var durationMs: Int64 { (lastT ?? 0) - (firstT ?? 0) }
    /// Route calls whose verdict is `undetermined` (the state they met is unknown).
    package var undeterminedCalls = 0
    /// Whether the trace ended at its last record or at a crash (torn, or never closed).
    package var end: TraceEnd = .end
    /// The session this trace is part of, and how much of it the replay covered (nil: not a session).
    package var session: SessionCoverage?
    /// Whether the route contract applied: not to a macOS trace (R16), where route calls get no verdict,
    /// nothing is predicted and no divergence is counted.
    package var routeContractApplied: Bool { !(header?.isMacOS ?? false) }

    /// The layer's words for prose.
    package var words: LayerWords { LayerWords(layer) }

    /// Calls that did not take effect (of the verdicts kept): route calls whose outcome is not `applied` or
    /// `noop` (V2), layer calls whose verdict is not.
    package var notTakingEffect: [Verdict] { verdicts.filter(\.didNotTakeEffect) }

    /// Deferred route calls that took effect later (V2), shown once as taking effect late.
    package var tookEffectLate: [Verdict] { verdicts.filter { $0.lateEffect != nil } }

    /// Calls that did not take effect, over all verdicts.
    package var notTakingEffectCount: Int { notTakingEffectCounts.values.reduce(0, +) }

    /// Failed expectations.
    package var failedExpectations: [ExpectationResult] { expectations.filter { !$0.passed } }

    /// Why the input cannot be explained at all, or nil when it can: a file that is not a trace, or a
    /// trace with no header or no records gives no evidence, so it never gets an all-clear.
    package var unexplainable: String? {
        if let p = problems.first(where: { $0.kind == .notATrace }) { return p.message }
        if records == 0 { return ReplayWords.noRecords }
        if header == nil { return ReplayWords.noHeader }
        if records == 1 { return ReplayWords.onlyHeader }
        return nil
    }

    /// The share of records that may be undecodable before the replay is too little of the trace to give an
    /// all-clear (`unread`): 1 %.
    package static let undecodableShareLimit = 0.01

    /// What the reader could not read of the input, when it is evidence the judgement lacks: frames lost,
    /// more than `undecodableShareLimit` of the records undecodable, seqs missing, a last frame torn (its
    /// records were being written when the recorder stopped, and are lost: one of them may be the call that
    /// matters). Empty when the input was read well enough for an all-clear; an unclosed end that lost no
    /// bytes (cut at a frame's end) is not here: what holds at the end then holds at the crash, which the
    /// damage notes say.
    package var unread: [UnreadInput] {
        func n(_ k: TraceProblem.Kind) -> Int { problemsByKind[k] ?? 0 }
        var out: [UnreadInput] = []
        let frames = n(.badFrame) + n(.windowTooLarge), skipped = n(.garbage)
        if frames + skipped > 0 { out.append(.framesLost(frames: frames, resyncs: skipped)) }
        let undecodable = n(.badRecord) + n(.lineTooLong)
        if undecodable > 0 && Double(undecodable) > Self.undecodableShareLimit * Double(undecodable + records) {
            out.append(.recordsUndecodable(undecodable, of: undecodable + records))
        }
        let gaps = n(.seqGap) - seqGapsAtMissingParts
        if gaps > 0 { out.append(.seqsMissing(gaps: gaps)) }
        if n(.tornFrame) > 0 { out.append(.tornEnd) }
        if pausedStretches > 0 { out.append(.recorderPaused(stretches: pausedStretches)) }
        return out
    }

    /// Whether anything is wrong: a warning or worse, or a divergence (or nothing to judge by); or the
    /// session is not all there (a part judged without the parts before it, whatever its checkpoint says:
    /// a checkpoint is the recorder's word for a state this replay cannot check).
    /// A call that did not take effect in the end (still pending, superseded, dropped) is something to
    /// look at too: the summary must never list one above "Nothing is wrong".
    package var hasIssues: Bool {
        unexplainable != nil || !divergences.isEmpty || findings.contains { $0.severity >= .warning } || findingsDropped > 0
            || (session?.isPartial ?? false) || (session?.isIncomplete ?? false)
            || notTakingEffectCount > 0
            || lostAnything
    }
}

/// A way the input was not read that withholds the all-clear (`ReplayResult.unread`).
package enum UnreadInput: Equatable, Sendable {
    /// Frames that could not be read (a bad checksum, an undecodable frame, a window over the limit), and
    /// times the reader skipped unreadable bytes to find the next frame: the records there are lost.
    case framesLost(frames: Int, resyncs: Int)
    /// Records that could not be decoded, of the lines read, over the share an all-clear allows.
    case recordsUndecodable(Int, of: Int)
    /// Jumps in seq: records are missing there.
    case seqsMissing(gaps: Int)
    /// The last frame is torn: the recorder stopped while writing it, and the records in it are lost.
    case tornEnd
    /// The recorder paused (`trace.paused`): nothing was recorded in those stretches.
    case recorderPaused(stretches: Int)
}

/// What became of a call that did not take effect, and why: what the counts are keyed by.
package struct OutcomeKey: Hashable, Sendable, Comparable {
    /// The outcome (for a layer call, its verdict as an outcome: `ineffective` or `rejected`).
    package var kind: OutcomeKind
    /// The cause, when there is one.
    package var cause: VerdictCause?

    /// Creates a key.
    package init(kind: OutcomeKind, cause: VerdictCause?) {
        self.kind = kind
        self.cause = cause
    }

    /// Ordered by outcome, then cause, by their names.
    package static func < (a: OutcomeKey, b: OutcomeKey) -> Bool {
        (a.kind.rawValue, a.cause?.rawValue ?? "") < (b.kind.rawValue, b.cause?.rawValue ?? "")
    }
}
