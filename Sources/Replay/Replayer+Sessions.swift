import Contract
import TraceModel

// The parts of a recorded session, replayed as one trace: a later part's header continues the trace; a
// part that begins without the part before it starts the engines from its checkpoint, or with an unknown
// state; a checkpoint in a continuous replay is checked against the state derived before it.
extension Replayer {
    /// A part whose first record after the header decides how the replay knows its state.
    struct AwaitedStart {
        var part: Int
        var headerSeq: Int
        var headerT: Int64
        /// The part was begun by a restarted process (RS1).
        var resumed = false
    }

    /// Notes a header; returns true for a later part's header of the same session, which is not replayed.
    func sessionHeader(_ h: TraceHeader, _ record: Record) -> Bool {
        guard result.header != nil else {
            result.header = h
            result.layer = h.layer
            if let s = h.session {
                result.session = SessionCoverage(id: s.id)
                result.session?.parts = [s.part]
                if s.part > 1 { awaitingStart = AwaitedStart(part: s.part, headerSeq: record.seq, headerT: record.t, resumed: s.resumed == true) }
                // RS1: a part a restarted process began is a restart, whether the parts before it are given or not.
                if s.resumed == true { result.restarts.append(Restart(seq: record.seq, t: record.t, part: s.part, lastT: nil)) }
            }
            return false
        }
        guard let s = h.session, var coverage = result.session, coverage.id == s.id else { return false }
        let last = coverage.parts.last ?? 0
        coverage.parts.append(s.part)
        if s.part > last + 1 {
            coverage.missing.append(SessionCoverage.MissingParts(parts: (last + 1)...(s.part - 1), afterT: previousT,
                                                                 beforeT: record.t))
            // X5 (d): the missing part's records are lost until a checkpoint vouches for the state.
            open(LostStretch(cause: .missingPart, fromSeq: previousSeq + 1, toSeq: max(previousSeq + 1, record.seq - 1),
                             fromT: previousT ?? record.t, toT: record.t))
            awaitingStart = AwaitedStart(part: s.part, headerSeq: record.seq, headerT: record.t)
        }
        result.session = coverage
        return true
    }

    /// The first record after the header of a part that began without the part before it: a checkpoint
    /// gives the state; anything else leaves it unknown until the part's records tell whether the call is up
    /// and which device has the route, or a checkpoint comes. Nothing the engines waited for carries over
    /// (their timers are dropped).
    func partStarts(at record: Record) {
        guard let start = awaitingStart else { return }
        awaitingStart = nil
        timers.removeAll()
        if case .checkpoint(let cp) = record.body {
            route.start(from: cp, seq: record.seq, t: record.t)
            quality.startWithoutPredecessors(checkpoint: cp)
            // RS1: the new process's transport starts afresh, so its first connected is no reconnect (Q7).
            if start.resumed { quality.processRestarted() }
            divergences.partStarts(actual: cp.currentRoute, t: record.t, seq: record.seq)
            result.session?.starts.append(SessionCoverage.PartStart(part: start.part, headerSeq: start.headerSeq, checkpointSeq: record.seq))
            startedHere = true
            if unknownStateOpen { stateKnownAgain(at: record) }
            return
        }
        route.startWithUnknownState()
        quality.startWithoutPredecessors(checkpoint: nil)
        if start.resumed { quality.processRestarted() }
        divergences.partStarts(actual: nil, t: record.t, seq: record.seq)
        result.session?.starts.append(SessionCoverage.PartStart(part: start.part, headerSeq: start.headerSeq, checkpointSeq: nil))
        if !unknownStateOpen {
            result.session?.unknownState.append(SessionCoverage.UnknownState(part: start.part, fromSeq: start.headerSeq, fromT: start.headerT))
        }
    }

    /// A checkpoint met while the state is unknown (a later part of a session whose earlier part began
    /// without its predecessors and without a checkpoint): nothing derived before it can be compared with
    /// it, so the route engine starts from it as at a part's start, and the unknown stretch ends there
    /// (the replay closes it when the engine's state is known). The quality engine keeps what it derived
    /// from the records (its baseline and speakers are not in a checkpoint), and takes the checkpoint's
    /// transport where it has recorded none.
    func startsFromCheckpoint(_ cp: TraceCheckpoint, _ record: Record) {
        timers.removeAll { timer in
            switch timer {
            case .route: true
            case .quality: false
            }
        }
        route.start(from: cp, seq: record.seq, t: record.t)
        quality.takeTransport(from: cp, unknownSince: result.session?.unknownState.last?.fromSeq ?? record.seq)
        if let current = cp.currentRoute { divergences.partStarts(actual: current, t: record.t, seq: record.seq) }
    }

    /// Whether an unknown-state stretch is open.
    var unknownStateOpen: Bool { result.session?.unknownState.last.map { $0.untilSeq == nil } ?? false }

    /// The record that made the state known again ends the open unknown-state stretch.
    func stateKnownAgain(at record: Record) {
        guard var coverage = result.session, var last = coverage.unknownState.popLast() else { return }
        last.untilSeq = record.seq
        last.untilT = record.t
        coverage.unknownState.append(last)
        result.session = coverage
    }

    /// A checkpoint in a replay that knows the state before it: compared with what the engines derived.
    func checkpointCompared(_ cp: TraceCheckpoint, _ record: Record, restart: Bool = false) {
        let differences = route.checkpointDifferences(cp, restart: restart) + (restart ? [] : quality.checkpointDifferences(cp))
        guard !differences.isEmpty else { return }
        let listed = differences.map { "\($0.field) (checkpoint: \($0.checkpoint); replayed: \($0.derived))" }.joined(separator: ", ")
        let part = result.session?.parts.last.map { " (part \($0))" } ?? ""
        let f = Finding(code: .traceCheckpointMismatch, severity: FindingCode.traceCheckpointMismatch.severity, rule: nil,
                        seqs: [record.seq], t: record.t,
                        message: "The checkpoint at seq \(record.seq)\(part) disagrees with the state replayed from the records before it: "
                            + listed + ". The replay keeps the state it derived.",
                        advice: "Compare the named fields: a record the SDK saw was not recorded (see trace.dropped and the recorder's "
                            + "filter), or the SDK's state is not what its events said. Send the whole session to the \(result.words.product) SDK team.")
        _ = add(f, &idle)
    }
}
