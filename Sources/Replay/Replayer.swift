import Contract
import QualityEngine
import RouteEngine
import TraceModel

/// Drives a trace through both engines on a virtual clock and compares them with what the device did.
///
/// Timers the engines ask for are delivered at their due time, before any record at or after it.
/// Memory stays bounded: verdicts, divergences and findings are kept (findings up to a cap), the
/// timeline is kept up to a cap, and nothing else grows with the trace.
public final class Replayer {
    /// The options in force.
    public let options: ReplayOptions
    /// The route engine, as of the last record.
    public internal(set) var route: RouteEngine
    /// The quality engine, as of the last record.
    public internal(set) var quality: QualityEngine
    /// Called after each record or timer with what it changed (for `rtctrace replay`); nil keeps replay fast.
    public var observer: ((ReplayStep) -> Void)?

    var result: ReplayResult
    var timers = TimerQueue<ReplayTimer>()
    var divergences: DivergenceTracker
    var verdictIndex: [Int: Int] = [:]
    /// Route calls whose outcome is still pending (V2): at most one per part of the route state.
    var pendingCalls: [Int: PendingCall] = [:]
    private var now: Int64 = 0
    private var lastSeq = -1
    private var finished = false
    /// The `route.divergence` finding of the divergence open now, once it counts.
    var openDivergenceFinding: Int?
    /// The disabled period (the disabling call's seq) `audioModule.disabledWhileSpeaking` was raised for.
    var disabledWhileSpeakingReported: Int?
    /// A part began without the part before it: its first record decides how its state is known.
    var awaitingStart: AwaitedStart?
    /// The record now processed is the checkpoint the engines started from (not compared).
    var startedHere = false
    /// The record before this one began a part a restarted process wrote: a checkpoint here sets the new
    /// SDK's own settings.
    var restartedHere = false
    /// The time of the record before the last one (a missing part's start).
    var previousT: Int64?

    /// Creates a replayer for the trace at `file` (used only to name it in results).
    public init(file: String, options: ReplayOptions = ReplayOptions()) {
        self.options = options
        // One match window for both engines (R12 and the quality matching).
        var routeOptions = options.route
        routeOptions.matchWindowMs = options.quality.matchWindowMs
        routeOptions.toleranceMs = options.toleranceMs
        route = RouteEngine(options: routeOptions)
        quality = QualityEngine(options: options.quality)
        result = ReplayResult(file: file)
        result.matchWindowMs = options.matchWindowMs
        divergences = DivergenceTracker(toleranceMs: options.toleranceMs, maxSegments: options.maxTimelineSegments,
                                        explainableMs: options.route.recoveryWindowMs.saturatingAdd(1))
    }

    /// Replays one record. Within one ms, every `sdk.*` record is taken after the other records of that ms
    /// (contract v3: an SDK callback or event answers what the system and the app did in the same ms);
    /// `expect.*` records keep their place, so the `sdk.*` records before one are taken before it.
    public func feed(_ record: Record) {
        if record.t != heldT { releaseHeld() }
        if record.body.kind?.family == .sdk {
            // A ms with more SDK records than `heldCap` (only a hostile trace has one) takes them in
            // batches: those held so far go first, so what waits stays bounded.
            if held.count >= Self.heldCap { releaseHeld() }
            heldT = record.t
            held.append(record)
            return
        }
        if case .expect = record.body { releaseHeld() }
        process(record)
    }

    /// The `sdk.*` records of the current ms waiting for the other records of that ms, at most `heldCap`
    /// (each string in them at most `TextCap.keptBytes`, as the reader delivers them).
    private var held: [Record] = []
    static let heldCap = 4_096
    private var heldT: Int64 = -1

    private func releaseHeld() {
        guard !held.isEmpty else { return }
        let records = held
        held.removeAll(keepingCapacity: true)
        for r in records { process(r) }
    }

    /// Replays one record in replay order: due timers first, then the record through both engines, then
    /// expectations.
    private func process(_ record: Record) {
        if case .header(let h) = record.body, h.session?.resumed == true, result.header != nil {
            // The timers of the process that died are dropped unfired, whenever they were due: it may
            // have died before any of them.
            timers.removeAll()
        }
        fireTimers(through: record.t)
        now = max(now, record.t)
        lastSeq = record.seq
        result.records += 1
        if result.firstT == nil { result.firstT = record.t }
        previousT = result.lastT
        result.lastT = record.t
        if case .header(let h) = record.body, sessionHeader(h, record) {
            // A later part's header continues the trace: read, not replayed (it would reset what the first
            // header set). A part a restarted process began starts what lived only in the dead one afresh.
            if h.session?.resumed == true { processRestarted(at: record, header: h) }
            index(record)
            return
        }
        if awaitingStart != nil, record.body.kind != .header { partStarts(at: record) }
        if case .checkpoint(let cp) = record.body {
            if !startedHere, route.state.startStateUnknown {
                startsFromCheckpoint(cp, record)
            } else if restartedHere {
                route.restartCheckpoint(cp, seq: record.seq)
            } else if !startedHere {
                checkpointCompared(cp, record)
            }
        }
        startedHere = false
        restartedHere = false
        if case let .dropped(count, fromT, toT) = record.body {
            result.droppedRecords += count
            if result.dropped.count < 100 { result.dropped.append(DroppedRange(count: count, fromT: fromT, toT: toT, seq: record.seq)) }
        }
        index(record)
        if case .expect(let e) = record.body {
            var step = ReplayStep(t: record.t, record: nil)
            handle(divergences.advance(to: record.t), into: &step)
            if !step.findings.isEmpty { observer?(step) }
            if !e.atEnd {
                let r = evaluate(e, seq: record.seq)
                result.expectations.append(r)
                observer?(ReplayStep(t: record.t, record: record, expectation: r))
            } else {
                pendingEnd.append((e, record.seq))
            }
            return
        }
        // A divergence that has lasted longer than the tolerance by now counts before this record's own
        // effects, exactly as it would at an expectation placed here: expectations change no output.
        if divergences.mayCount(at: record.t) {
            var step = ReplayStep(t: record.t, record: nil)
            handle(divergences.advance(to: record.t), into: &step)
            if observer != nil, !step.findings.isEmpty { observer?(step) }
        }
        let before = observer == nil ? nil : snapshot()
        let routeOut = route.apply(record)
        let qualityOut = quality.apply(record)
        if unknownStateOpen, !route.state.startStateUnknown { stateKnownAgain(at: record) }
        guard let observer, let before else {
            // Without an observer nothing is described: outputs go straight into the result.
            if !routeOut.isEmpty { absorb(routeOut, at: record, into: &idle) }
            if !qualityOut.isEmpty { absorb(qualityOut, into: &idle) }
            crossEngineChecks(record, into: &idle)
            let tracked = divergences.record(record, prediction: prediction)
            if !tracked.isEmpty { handle(tracked, into: &idle) }
            return
        }
        var step = ReplayStep(t: record.t, record: record)
        absorb(routeOut, at: record, into: &step)
        absorb(qualityOut, into: &step)
        crossEngineChecks(record, into: &step)
        handle(divergences.record(record, prediction: prediction), into: &step)
        if case .deviceConnected(let id, _, _, _) = record.body { step.events.append(.devicesChanged(added: [id], removed: [])) }
        if case .deviceDisconnected(let id) = record.body { step.events.append(.devicesChanged(added: [], removed: [id])) }
        step.settle(from: before, to: snapshot())
        observer(step)
    }

    private var pendingEnd: [(Expectation, Int)] = []
    /// The step outputs go into when nobody observes (it stays empty).
    var idle = ReplayStep(t: 0, record: nil)

    /// What the route engine predicts now, for the divergence tracker: derived again only when the engine
    /// may have changed (its revision moved), so a quality report or a speaker update costs no copy of
    /// the engine's state.
    private var prediction: DivergenceTracker.Prediction {
        if let cached = cachedPrediction, cachedRevision == route.revision { return cached }
        let p = DivergenceTracker.Prediction(route: route.predictedRoute, source: route.predictionSource,
                                             tolerated: route.toleratedRoute, facts: ExplanationFacts(route),
                                             startStateUnknown: route.state.startStateUnknown)
        cachedPrediction = p
        cachedRevision = route.revision
        return p
    }
    private var cachedPrediction: DivergenceTracker.Prediction?
    private var cachedRevision = 0

    /// Runs end-of-trace diagnostics and `"at":"end"` expectations; returns the result. `end` says whether
    /// the trace ended at its last record or at a crash (its last frame torn, or never closed).
    public func finish(end: TraceEnd = .end) -> ReplayResult {
        guard !finished else { return result }
        releaseHeld()
        finished = true
        // Timers due after the last record are not fired: the trace does not cover that time.
        fireTimers(through: now)
        var step = ReplayStep(t: now, record: nil)
        result.end = end
        absorb(route.finish(t: now, lastSeq: max(lastSeq, 0), end: end), at: nil, into: &step)
        absorb(quality.finish(t: now, lastSeq: max(lastSeq, 0), end: end), into: &step)
        handle(divergences.finish(at: now), into: &step)
        if observer != nil, !(step.verdicts.isEmpty && step.findings.isEmpty) { observer?(step) }
        for (e, seq) in pendingEnd {
            let r = evaluate(e, seq: seq)
            result.expectations.append(r)
        }
        result.expectations.sort { $0.seq < $1.seq }
        result.predictedTimeline = divergences.predictedTimeline
        result.actualTimeline = divergences.actualTimeline
        result.timelineTruncated = divergences.truncated
        result.quality = quality.summary
        result.levelChanges = quality.state.changes
        return result
    }

    /// A session part begun by a recorder restarted after a crash (its header's `session.resumed`): what
    /// lived only in the dead process starts afresh at `record`, the part's header: the quality baseline
    /// and cache, the speaker set, the SDK's route settings, engagement and call session, the audio module
    /// switch, and the pending timers, which are dropped unfired (the process that would have met them is
    /// gone); a call still deferred there is dropped. The checkpoint that begins the part says what the new
    /// SDK knows of its own settings.
    func processRestarted(at record: Record, header: TraceHeader) {
        // The dead process's last records of their ms are replayed first.
        releaseHeld()
        timers.removeAll()
        let outputs = route.processRestarted(at: record, header: header)
        quality.processRestarted()
        disabledWhileSpeakingReported = nil
        if !outputs.isEmpty {
            if let observer {
                var step = ReplayStep(t: record.t, record: nil)
                absorb(outputs, at: record, into: &step)
                observer(step)
            } else {
                absorb(outputs, at: record, into: &idle)
            }
        }
        // The checkpoint that begins the part describes the new process: it is not compared with the
        // state the dead one left, it sets the new SDK's own settings.
        restartedHere = true
    }

    /// The verdict on the call with this seq, if it was replayed.
    public func verdict(for seq: Int) -> Verdict? { verdictIndex[seq].map { result.verdicts[$0] } }

    // MARK: - Timers and outputs

    private func fireTimers(through t: Int64) {
        while let (due, timer) = timers.popDue(through: t) {
            now = max(now, due)
            var step = ReplayStep(t: due, record: nil)
            handle(divergences.advance(to: due), into: &step)
            let before = observer == nil ? nil : snapshot()
            if observer != nil { step.timer = timer }
            switch timer {
            case .route(let kind): absorb(route.fire(RouteTimer(due: due, kind: kind)), at: nil, into: &step)
            case .quality(let kind): absorb(quality.fire(QualityTimer(due: due, kind: kind)), into: &step)
            }
            handle(divergences.predictionChanged(prediction, t: due, seq: nil), into: &step)
            if let observer, let before {
                step.settle(from: before, to: snapshot())
                observer(step)
            }
        }
    }

    /// The route engine's outputs; `record` is the record that produced them (nil for a timer or the end).
    private func absorb(_ outputs: [RouteOutput], at record: Record?, into step: inout ReplayStep) {
        for o in outputs {
            switch o {
            case .verdict(let v): add(v, &step)
            case .finding(let f): add(f, &step)
            case .timer(let t): timers.schedule(.route(t.kind), due: t.due)
            case .recovered(let t):
                result.recoveries += 1
                if observer != nil { step.events.append(.recovered(t: t)) }
            case let .outcome(callSeq, outcome):
                decided(callSeq, outcome)
                if observer != nil { step.events.append(.outcomeDecided(callSeq: callSeq, outcome: outcome)) }
            }
        }
    }

    private func absorb(_ outputs: [QualityOutput], into step: inout ReplayStep) {
        for o in outputs {
            switch o {
            case .verdict(let v): add(v, &step)
            case .finding(let f): add(f, &step)
            case .timer(let t): timers.schedule(.quality(t.kind), due: t.due)
            case .levelChange(let c):
                if observer != nil { step.events.append(.levelChange(previous: c.previous, overall: c.overall)) }
            case .snapshot(let s):
                if observer != nil { step.events.append(.speakers(first: s.prefix(StateSnapshot.listed).map(\.key), count: s.count)) }
            case let .outcome(callSeq, outcome):
                decided(callSeq, outcome)
                if observer != nil { step.events.append(.outcomeDecided(callSeq: callSeq, outcome: outcome)) }
            }
        }
    }

    /// The divergence tracker's outputs.
    private func handle(_ outputs: [DivergenceTracker.Output], into step: inout ReplayStep) {
        for o in outputs {
            switch o {
            case let .counted(d, f):
                if observer != nil { step.events.append(.divergenceCounted(start: d.start)) }
                openDivergenceFinding = add(f, &step)
            case .closed(var d, let final):
                d.finding = openDivergenceFinding
                // The finding as it stands at the end replaces the one raised when it counted (X3).
                if let i = openDivergenceFinding, let final, result.findings[i] != final { result.findings[i] = final }
                openDivergenceFinding = nil
                result.divergenceCount += 1
                if d.unexplained { result.unexplainedDivergenceCount += 1 }
                if d.startStateUnknown && !d.explained { result.unknownStartDivergenceCount += 1 }
                if result.divergences.count < options.maxDivergences { result.divergences.append(d) }
            case let .explainedAfterClosing(d, final):
                // X3: explained by a finding raised after it closed; its finding follows, as at a close. It leaves
                // the count it was closed into (unexplained, or begun while the start state was unknown).
                if d.startStateUnknown { result.unknownStartDivergenceCount -= 1 } else { result.unexplainedDivergenceCount -= 1 }
                if let i = result.divergences.lastIndex(where: { $0.start == d.start }) {
                    result.divergences[i].explainedBy = d.explainedBy
                    result.divergences[i].explainedBySeq = d.explainedBySeq
                    if let f = result.divergences[i].finding { result.findings[f] = final }
                }
            }
        }
    }

    private func add(_ v: Verdict, _ step: inout ReplayStep) {
        result.verdictCount += 1
        if v.call == .switchLayer { result.layerCallCount += 1 }
        if v.didNotTakeEffect { result.notTakingEffectCounts[v.notTakingEffectKey, default: 0] += 1 }
        if v.verdict == .undetermined { result.undeterminedCalls += 1 }
        result.callFates[CallFate(v), default: 0] += 1
        var kept: Int?
        if result.verdicts.count < options.maxVerdicts {
            kept = result.verdicts.count
            verdictIndex[v.seq] = result.verdicts.count
            result.verdicts.append(v)
        } else {
            result.verdictsDropped += 1
        }
        if v.outcome?.kind == .pending { pendingCalls[v.seq] = PendingCall(key: v.notTakingEffectKey, fate: CallFate(v), verdict: kept) }
        if observer != nil { step.verdicts.append(v) }
        if v.verdict == .applied && v.call != .switchLayer { divergences.noteApplied(v) }
    }

    /// Keeps a finding (up to the cap) and links it to the verdict it explains; returns its index
    /// among the kept findings.
    @discardableResult
    func add(_ f: Finding, _ step: inout ReplayStep) -> Int? {
        result.findingCounts[f.code, default: 0] += 1
        var kept: Int?
        if result.findings.count < options.maxFindings {
            kept = result.findings.count
            result.findings.append(f)
            if let call = f.call, let v = verdictIndex[call] { result.verdicts[v].finding = kept }
        } else {
            result.findingsDropped += 1
        }
        if observer != nil { step.findings.append(f) }
        divergences.note(f)
        return kept
    }

    /// Adds a finding raised by the replayer itself (cross-engine checks).
    func raise(_ f: Finding, into step: inout ReplayStep) {
        add(f, &step)
    }
}
