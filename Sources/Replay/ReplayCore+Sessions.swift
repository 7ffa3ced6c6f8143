import Contract
import RouteEngine
import TraceModel

// The parts of a recorded session, replayed as one trace: a later part's header continues the trace; a
// part that begins without the part before it starts the engines from its checkpoint, or with an unknown
// state; a checkpoint in a continuous replay is checked against the state derived before it.
extension ReplayCore {
    /// A part whose first record after the header decides how the replay knows its state.
    struct AwaitedStart {
        var part: Int
        var headerSeq: Int
        var headerT: Int64
        /// The part was begun by a restarted process (RS1).
        var resumed = false
    }

    /// Notes a header; returns true for a later part's header of the same session, which is not replayed.
    mutating func sessionHeader(_ h: TraceHeader, _ record: Record) -> Bool {
        guard builder.result.header != nil else {
            builder.update { result in
                result.header = h
                result.layer = h.layer
                if let s = h.session {
                    result.session = SessionCoverage(id: s.id)
                    result.session?.parts = [s.part]
                }
            }
            if let s = h.session, s.part > 1 { awaitingStart = AwaitedStart(part: s.part, headerSeq: record.seq, headerT: record.t, resumed: s.resumed) }
            // RS1: a part a restarted process began is a restart, whether the parts before it are given or not.
            if let s = h.session, s.resumed {
                builder.update { $0.restarts.append(Restart(seq: record.seq, t: record.t, part: s.part, lastT: nil)) }
            }
            return false
        }
        guard let s = h.session, var coverage = builder.result.session, coverage.id == s.id else { return false }
        let last = coverage.parts.last ?? 0
        coverage.parts.append(s.part)
        if s.part > last + 1 {
            coverage.missing.append(SessionCoverage.MissingParts(parts: (last + 1)...(s.part - 1), afterT: previousT,
                                                                 beforeT: record.t))
            awaitingStart = AwaitedStart(part: s.part, headerSeq: record.seq, headerT: record.t)
        }
        builder.update { $0.session = coverage }
        if s.part > last + 1 {
            // X5 (d): the missing part's records are lost until a checkpoint vouches for the state.
            open(LostStretch(cause: .missingPart, fromSeq: previousSeq + 1, toSeq: max(previousSeq + 1, record.seq - 1),
                             fromT: previousT ?? record.t, toT: record.t))
        }
        return true
    }

    /// The first record after the header of a part that began without the part before it: a checkpoint
    /// gives the state; anything else leaves it unknown until the part's records tell whether the call is up
    /// and which device has the route, or a checkpoint comes. Nothing the engines waited for carries over
    /// (their timers are dropped).
    mutating func partStarts(at record: ReplayRecord, _ whole: Record?) {
        guard let start = awaitingStart else { return }
        awaitingStart = nil
        dropTimers()
        if case .checkpoint(let cp)? = whole?.body {
            engines.first.start(from: cp, seq: record.seq, t: record.t)
            engines.second.startWithoutPredecessors(checkpoint: cp)
            // RS1: the new process's transport starts afresh, so its first connected is no reconnect (Q7).
            if start.resumed { engines.second.processRestarted() }
            divergences.partStarts(actual: cp.currentRoute, t: record.t, seq: record.seq)
            builder.update { $0.session?.starts.append(SessionCoverage.PartStart(part: start.part, headerSeq: start.headerSeq, checkpointSeq: record.seq)) }
            startedHere = true
            if unknownStateOpen { stateKnownAgain(at: record) }
            return
        }
        engines.first.startWithUnknownState()
        engines.second.startWithoutPredecessors(checkpoint: nil)
        if start.resumed { engines.second.processRestarted() }
        divergences.partStarts(actual: nil, t: record.t, seq: record.seq)
        let open = unknownStateOpen
        builder.update { result in
            result.session?.starts.append(SessionCoverage.PartStart(part: start.part, headerSeq: start.headerSeq, checkpointSeq: nil))
            if !open {
                result.session?.unknownState.append(SessionCoverage.UnknownState(part: start.part, fromSeq: start.headerSeq, fromT: start.headerT))
            }
        }
    }

    /// A checkpoint met while the state is unknown (a later part of a session whose earlier part began
    /// without its predecessors and without a checkpoint): nothing derived before it can be compared with
    /// it, so the route engine starts from it as at a part's start, and the unknown stretch ends there
    /// (the replay closes it when the engine's state is known). The quality engine keeps what it derived
    /// from the records (its baseline and speakers are not in a checkpoint), and takes the checkpoint's
    /// transport where it has recorded none.
    mutating func startsFromCheckpoint(_ cp: TraceCheckpoint, _ record: Record) {
        timers.removeAll { timer in
            switch timer {
            case .first: true
            case .second: false
            }
        }
        engines.first.start(from: cp, seq: record.seq, t: record.t)
        engines.second.takeTransport(from: cp, unknownSince: builder.result.session?.unknownState.last?.fromSeq ?? record.seq)
        if let current = cp.currentRoute { divergences.partStarts(actual: current, t: record.t, seq: record.seq) }
    }

    /// Whether an unknown-state stretch is open.
    var unknownStateOpen: Bool {
        @inline(__always) get { builder.result.session?.unknownState.last.map { $0.untilSeq == nil } ?? false }
    }

    /// The record that made the state known again ends the open unknown-state stretch.
    mutating func stateKnownAgain(at record: ReplayRecord) {
        guard var coverage = builder.result.session, var last = coverage.unknownState.popLast() else { return }
        last.untilSeq = record.seq
        last.untilT = record.t
        coverage.unknownState.append(last)
        builder.update { $0.session = coverage }
    }

    /// A checkpoint in a replay that knows the state before it: compared with what the engines derived.
    /// With `restart`, only what survives a restart is compared (RS1, checkpoints as v4 reads them).
    mutating func checkpointCompared(_ cp: TraceCheckpoint, _ record: Record, restart: Bool = false) {
        let differences = engines.first.checkpointDifferences(cp, restart: restart) + (restart ? [] : engines.second.checkpointDifferences(cp))
        guard !differences.isEmpty else { return }
        let f = Finding(code: .traceCheckpointMismatch, severity: FindingCode.traceCheckpointMismatch.severity, rule: nil,
                        seqs: [record.seq], t: record.t,
                        FindingWords.checkpointMismatch(seq: record.seq, part: builder.result.session?.parts.last, differences: differences,
                                                        product: builder.result.words.product))
        // No step of its own: the comparison is part of the checkpoint's step, not what the record did.
        add(f, into: nil)
    }

    /// A session part begun by a recorder restarted after a crash (its header's `session.resumed`): what
    /// lived only in the dead process starts afresh at `record`, the part's header: the quality baseline
    /// and cache, the speaker set, the SDK's route settings, engagement and call session, the audio module
    /// switch, and the pending timers, which are dropped unfired (the process that would have met them is
    /// gone); a call still deferred there is dropped. The checkpoint that begins the part says what the new
    /// SDK knows of its own settings.
    mutating func processRestarted(at record: Record, header: TraceHeader) {
        // The dead process's last records of their ms are replayed first.
        releaseHeld()
        dropTimers()
        // X5 (e): what the dead process did after its last record is lost until the resumed part's checkpoint.
        open(LostStretch(cause: .restart, fromSeq: record.seq, toSeq: record.seq, fromT: previousT ?? record.t, toT: record.t))
        var outputs = RouteSink(observed: observing)
        engines.first.processRestarted(at: record, header: header, into: &outputs)
        engines.second.processRestarted()
        disabledWhileSpeakingReported = nil
        var restart = Restart(seq: record.seq, t: record.t, part: header.session?.part ?? 0, lastT: previousT)
        if !outputs.isEmpty {
            prepareSink()
            outputs.drain { o in
                if case let .outcome(callSeq, _) = o { restart.droppedCalls.append(callSeq) }
                sink.append(.first(o))
            }
            let step = newStep(t: record.t)
            absorb(into: step)
            if let step { observer?(step.value) }
        }
        let kept = restart
        builder.update { if $0.restarts.count < 100 { $0.restarts.append(kept) } }
        // The checkpoint that begins the part describes the new process: what survives the restart is
        // compared, what starts afresh is taken (RS1).
        restartedHere = true
    }
}
