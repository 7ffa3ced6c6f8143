import Contract
import TraceModel

extension ReplayCore {
    static let indexCap = 10_000

    /// The kinds no report points at: the bulk of a trace (quality, speakers, logs).
    @inline(__always)
    static func isUnindexed(_ kind: RecordKind) -> Bool {
        kind == .qualityReport || kind == .speakers || kind == .sdkActiveSpeakers || kind == .sdkLog
    }

    /// Keeps time and body of the records reports may point at (not the bulk kinds, expectations or unknown
    /// types). The test of the kind is inlined where a record is replayed: nearly every record is of a bulk
    /// kind, and a call only to return cost more than the test.
    @inline(__always)
    mutating func index(_ r: ReplayRecord) {
        guard let kind = r.kind, !Self.isUnindexed(kind) else { return }
        index(r, kind)
    }

    /// Keeps time and body of `r`, of a kind reports may point at.
    mutating func index(_ r: ReplayRecord, _ kind: RecordKind) {
        // The system log's records and the interruptions they explain have room beyond the cap: what the
        // explanation cites from the system log (E1) must not be lost to a long trace's calls.
        let evidence = kind.family == .sys || kind == .interruptionBegan
        guard builder.result.recordIndex.count < (evidence ? 2 * Self.indexCap : Self.indexCap) else { return }
        // The body is kept as the arena has it; what a report reads of it is made when a report asks.
        builder.index(r.seq, IndexedRecord(t: r.t, body: arena.record(r).body))
    }

    /// Findings that need both engines: the audio module disabled while someone speaks (R9), a state raised
    /// once per disabled period at its first record with a non-empty speaker snapshot: the disabling call
    /// itself, or the speaker update that makes the snapshot non-empty. Called for those two kinds only: the
    /// replay tests the kind where it calls, so that other records make no call.
    mutating func crossEngineChecks(_ record: ReplayRecord, into step: StepBox?) {
        // An `api.setAudioModuleEnabled` record is always kept whole.
        let disables: Bool
        if record.kind == .setAudioModuleEnabled, record.hasFull, case .setAudioModuleEnabled(false) = arena.full[Int(record.full)].body {
            disables = true
        } else {
            disables = false
        }
        guard disables || record.kind == .speakers else { return }
        guard !engines.first.state.audioModuleEnabled, let period = engines.first.state.audioModuleDisabledSeq,
              disabledWhileSpeakingReported != period, !engines.second.state.speakers.isEmpty else { return }
        disabledWhileSpeakingReported = period
        let w = builder.result.words
        let speakers = engines.second.state.speakers
        let who = speakers.prefix(3).map(\.uid).joined(separator: ", ")
        add(Finding(
            code: .audioModuleDisabledWhileSpeaking, severity: .warning, rule: .R9,
            seqs: record.seq == period ? [period] : [record.seq, period], t: record.t,
            FindingWords.audioModuleDisabledWhileSpeaking(seq: record.seq, period: period, speakers: speakers.count, who: who, w)),
            into: step)
    }

    /// The symbol table is full (a hostile trace of millions of distinct ids): said once, at the record whose
    /// strings found no room.
    mutating func symbolLimitReached(at r: ReplayRecord) {
        symbolLimitReported = true
        let w = builder.result.words, limit = arena.symbols.maxSymbols
        add(Finding(
            code: .traceLimitExceeded, severity: .warning, rule: nil, seqs: [r.seq], t: r.t,
            FindingWords.symbolLimitExceeded(limit: limit, seq: r.seq, w)),
            into: nil)
    }

    /// Notes what the route engine predicts now with the divergence tracker, read where it is kept
    /// (`cachedPrediction`, brought up to date first): not copied out of it for the call.
    mutating func notePrediction(t: Int64, seq: Int?) {
        if !predictionDerived || cachedPrediction.revision != engines.first.revision {
            cachedPrediction = derivedPrediction()
            predictionDerived = true
        }
        divergences.predictionChanged(cachedPrediction, t: t, seq: seq, into: &tracked)
    }

    /// What the route engine predicts now, for the divergence tracker: derived from its fields where they
    /// are (no copy of the engine), only when its revision moved since the one kept (`notePrediction`), and
    /// kept once (not stored by a getter and again by its caller).
    mutating func derivedPrediction() -> DivergenceTracker.Prediction {
        let facts = ExplanationFacts(callSession: engines.first.state.callSession,
                                     speakerByDefault: engines.first.state.override == nil && engines.first.state.defaultTarget == .speaker,
                                     recovery: engines.first.obligations.recoveryExplanation,
                                     callPath: engines.first.obligations.callPathExplanation)
        return DivergenceTracker.Prediction(route: engines.first.predictedRoute, source: engines.first.predictionSource,
                                            tolerated: engines.first.toleratedRoute, facts: facts,
                                            startStateUnknown: engines.first.state.startStateUnknown, revision: engines.first.revision)
    }

    /// The typed state now, for the step being described.
    func snapshot() -> StateSnapshot {
        StateSnapshot(route: engines.first.state, quality: engines.second.state, actual: divergences.actual)
    }
}
