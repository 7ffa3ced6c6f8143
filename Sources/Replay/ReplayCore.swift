import Contract
import QualityEngine
import RouteEngine
import TraceModel

/// A step being described for an observer: built only when someone observes (without one, steps are nil).
final class StepBox {
    var value: ReplayStep
    /// The typed state before the step, taken where the step's changes begin.
    var before: StateSnapshot?
    init(_ value: ReplayStep) { self.value = value }
}

/// The replay's driver: records in replay order (`ReplayOrder`) through the combined engines on a virtual
/// clock, their timers and deadlines delivered at their due time, before any record at or after it; their
/// outputs taken by role into the result (`ResultBuilder`); the route compared with the device's
/// (`DivergenceTracker`). One code path whether or not someone observes: an observer is a place steps go,
/// and without one no step is built.
///
/// A value, mutated in place by its `Replayer`: the engines and everything else it holds are read and
/// written where they are, never copied out of a class per record.
struct ReplayCore {
    typealias Engines = CombinedEngines<RouteEngine, QualityEngine>

    let options: ReplayOptions
    /// The route engine (`first`) and the quality engine (`second`), as one.
    var engines: Engines
    var divergences: DivergenceTracker
    /// Where the divergence tracker writes what each call concluded: reused, emptied as it is handled.
    var tracked: [DivergenceTracker.Output] = []
    var builder: ResultBuilder
    var timers = TimerQueue<Engines.TimerKind>()
    var order = ReplayOrder()
    /// Where the engines write what each record, timer or end produced: reused for every step.
    var sink = OutputSink<Engines.Output>(observed: false)
    /// What the records being replayed refer to, and the replay's strings.
    let arena: ReplayArena
    /// Where steps go, when someone observes the replay.
    var observer: ((ReplayStep) -> Void)? {
        didSet {
            sink.observed = observer != nil
            if observer != nil { arena.keepsWhole = true }
        }
    }

    var now: Int64 = 0
    var lastSeq = -1
    /// The seq of the record before the last one.
    var previousSeq = -1
    /// A loss the reader reported, ended by the next record (X5).
    var pendingLoss: (cause: LossCause, seqs: ClosedRange<Int>?)?
    /// The lost stretches no checkpoint has vouched after yet (X5).
    var lostStretchesOpen: [LostStretch] = []
    var finished = false
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
    /// `"at":"end"` expectations, evaluated when the replay finishes.
    var pendingEnd: [(Expectation, Int)] = []
    /// The route engine's prediction for the divergence tracker, and the revision it was derived at (none
    /// until `predictionDerived`): kept where it is, not in an optional a call would copy it out of.
    var cachedPrediction = DivergenceTracker.Prediction(facts: ExplanationFacts())
    /// `cachedPrediction` was derived from the route engine at least once.
    var predictionDerived = false

    init(file: String, options: ReplayOptions, arena: ReplayArena) {
        self.options = options
        self.arena = arena
        // One match window for both engines (R12 and the quality matching).
        var routeOptions = options.route
        routeOptions.matchWindowMs = options.quality.matchWindowMs
        routeOptions.toleranceMs = options.toleranceMs
        engines = Engines(RouteEngine(options: routeOptions), QualityEngine(options: options.quality))
        // `absorb` reads what each engine wrote where it wrote it.
        engines.outputsInPlace = true
        builder = ResultBuilder(file: file, options: options)
        divergences = DivergenceTracker(toleranceMs: options.toleranceMs, maxSegments: options.maxTimelineSegments,
                                        explainableMs: options.route.recoveryWindowMs.saturatingAdd(1))
    }

    // Inlined, as every small read of this value is: a call that is not would copy the whole driver.
    var observing: Bool {
        @inline(__always) get { observer != nil }
    }

    /// Whether the symbol table's limit was reported.
    var symbolLimitReported = false
    /// Records of the batch being read with a `t` below this may be handed on at once (`handOn`): set per
    /// batch (`begin(_:)`), `Int64.min` where nothing may.
    var handOnBefore = Int64.min
    /// Whether a record was handed on at once since the order last released everything: the order would
    /// still hold one.
    var handedOnSinceEmpty = false
    /// Whether records may be handed on at all (tests compare a replay that hands none on).
    var handsOn = true
    /// Records handed on at once.
    var recordsHandedOn = 0
    /// Whether the arena's buffers held enough to be emptied when last asked (`ReplayArena.needsReset`).
    var arenaNeedsReset = false

    /// Takes one record into replay order, and replays what is due.
    mutating func feed(_ r: ReplayRecord) {
        if arena.symbols.overflowed, !symbolLimitReported { symbolLimitReached(at: r) }
        if r.t < handOnBefore, handOn(r) {
            resetArenaIfDue()
            return
        }
        // An expectation is judged where it was written, and a header begins what follows it: both keep their place.
        let isBarrier: Bool
        if r.kind == .header {
            isBarrier = true
        } else if r.kind == nil, case .expect = arena.full[Int(r.full)].body { isBarrier = true } else { isBarrier = false }
        if isBarrier { handedOnSinceEmpty = false }
        let now = order.take(r, isBarrier: isBarrier)
        releaseDue()
        if now { process(r) }
        resetArenaIfDue()
    }

    /// Empties the arena's buffers when they hold enough, once no record refers to them. They only grow
    /// until they are emptied: once they hold enough (`arenaNeedsReset`), they are not asked again until then.
    @inline(__always)
    private mutating func resetArenaIfDue() {
        if arenaNeedsReset || arena.needsReset {
            arenaNeedsReset = true
            // The records held refer to the arena's buffers; past a bound they are replayed first, so that
            // memory stays bounded (a late record after them is then replayed where it was written).
            if arena.mustReset { releaseHeld() }
            // Nothing refers to the arena's buffers any more: once full enough, they are emptied for the next records.
            // (Nor to a record handed on at once, which the order would still hold: the buffers are emptied
            // where they would have been without handing on, so that memory forces the same releases.)
            if order.isEmpty, !handedOnSinceEmpty {
                arena.reset()
                arenaNeedsReset = false
            }
        }
    }

    /// Replays the records `order` has made due.
    mutating func releaseDue() {
        while let h = order.nextDue() { process(h) }
    }

    /// Replays every record held (a restart replays the dead process's last records of their ms first).
    mutating func releaseHeld() {
        order.releaseAll()
        handedOnSinceEmpty = false
        releaseDue()
    }

    /// Replays one record in replay order: due timers first, then the record through both engines, then
    /// expectations.
    mutating func process(_ r: ReplayRecord) {
        guard r.hasFull else {
            // Nearly every record has no whole `Record` (`hasFull`): it takes a path that never looks into
            // one, so that it builds, copies and destroys no absent record.
            begin(r)
            if awaitingStart != nil, r.kind != .header { partStarts(at: r, nil) }
            startedHere = false
            restartedHere = false
            index(r)
            replay(r)
            return
        }
        process(r, whole: arena.full[Int(r.full)])
    }

    /// The clock and the counts move on to `r`: timers due at or before it fire first.
    @inline(__always)
    private mutating func begin(_ r: ReplayRecord) {
        fireTimers(through: r.t)
        if pendingLoss != nil { lossEnds(at: r) }
        now = max(now, r.t)
        previousSeq = lastSeq
        lastSeq = r.seq
        previousT = builder.result.lastT
        builder.update { result in
            result.records += 1
            if result.firstT == nil { result.firstT = r.t }
            result.lastT = r.t
        }
    }

    /// Replays a record the arena keeps whole (`whole`, as the record model has it).
    private mutating func process(_ r: ReplayRecord, whole record: Record) {
        if case .header(let h) = record.body, h.session?.resumed == true, builder.result.header != nil {
            // The timers of the process that died are dropped unfired, whenever they were due: it may
            // have died before any of them.
            dropTimers()
        }
        begin(r)
        if case .header(let h) = record.body, sessionHeader(h, record) {
            // A later part's header continues the trace: read, not replayed (it would reset what the first
            // header set). A part a restarted process began starts what lived only in the dead one afresh.
            if h.session?.resumed == true { processRestarted(at: record, header: h) }
            index(r)
            return
        }
        if awaitingStart != nil, r.kind != .header { partStarts(at: r, record) }
        if case .checkpoint(let cp) = record.body {
            // X5: a checkpoint that vouches for the state after lost records starts the route engine from it.
            let vouched = vouches(cp, r)
            if !startedHere, engines.first.state.startStateUnknown || (vouched && !restartedHere) {
                startsFromCheckpoint(cp, record)
            } else if restartedHere {
                // RS1: what survives the restart is compared, what starts afresh is taken. A checkpoint the
                // restarted recorder says it derived itself (`source` `recorder`) knows only what the new
                // process wrote, nothing of what iOS kept, so only what starts afresh is taken from it.
                if cp.source != .recorder { checkpointCompared(cp, record, restart: true) }
                engines.first.restartCheckpoint(cp, seq: record.seq)
            } else if !startedHere {
                checkpointCompared(cp, record)
            }
        }
        startedHere = false
        restartedHere = false
        if case let .dropped(count, fromT, toT) = record.body {
            open(LostStretch(cause: .dropped, fromSeq: r.seq, toSeq: r.seq, fromT: min(fromT, toT), toT: max(fromT, toT)))
            builder.update { result in
                result.droppedRecords += count
                if result.dropped.count < 100 { result.dropped.append(DroppedRange(count: count, fromT: fromT, toT: toT, seq: r.seq)) }
            }
        }
        if case let .report(id, note) = record.body {
            builder.update { result in
                if result.reports.count < ReportMark.kept {
                    result.reports.append(ReportMark(id: TextCap.clip(id), note: note.map { TextCap.clip($0) }, t: r.t, seq: r.seq))
                }
            }
        }
        // A pause is lost like a drop (nothing recorded there), of records nobody counted.
        if case let .paused(fromT, toT, reason) = record.body {
            open(LostStretch(cause: .paused, fromSeq: r.seq, toSeq: r.seq, fromT: min(fromT, toT), toT: max(fromT, toT)))
            builder.update { result in
                result.pausedStretches += 1
                if result.dropped.count < 100 {
                    result.dropped.append(DroppedRange(count: 0, fromT: fromT, toT: toT, seq: r.seq, pause: reason))
                }
            }
        }
        index(r)
        if case .expect(let e) = record.body {
            if case .damage(let lost) = e.kind { builder.update { $0.declaredDamage = ($0.declaredDamage ?? []) + lost } }
            let step = newStep(t: record.t)
            divergences.advance(to: record.t, into: &tracked)
            handleTracked(into: step)
            if let step, !step.value.findings.isEmpty { observer?(step.value) }
            if !e.atEnd {
                let result = evaluate(e, seq: record.seq)
                builder.update { $0.expectations.append(result) }
                observer?(ReplayStep(t: record.t, record: record, expectation: result))
            } else {
                pendingEnd.append((e, record.seq))
            }
            return
        }
        replay(r)
    }

    /// Replays `r` through both engines and the divergence tracker. What only a record kept whole has (a
    /// header, an observer's step) is read from the arena where it is needed, so that the path of a record
    /// without one neither builds nor copies an absent record or header.
    @inline(__always)
    private mutating func replay(_ r: ReplayRecord) {
        // A divergence that has lasted longer than the tolerance by now counts before this record's own
        // effects, exactly as it would at an expectation placed here: expectations change no output.
        if divergences.mayCount(at: r.t) {
            let step = newStep(t: r.t)
            divergences.advance(to: r.t, into: &tracked)
            handleTracked(into: step)
            if let step, !step.value.findings.isEmpty { observer?(step.value) }
        }
        // The state before is kept in the step: without an observer there is no step, and no snapshot to test.
        let step = observing ? StepBox(ReplayStep(t: r.t, record: r.hasFull ? arena.full[Int(r.full)] : nil)) : nil
        step?.before = snapshot()
        prepareSink()
        engines.apply(r, in: arena, into: &sink)
        if unknownStateOpen, !engines.first.state.startStateUnknown { stateKnownAgain(at: r) }
        absorb(into: step)
        if r.kind == .setAudioModuleEnabled || r.kind == .speakers { crossEngineChecks(r, into: step) }
        if r.kind == .header, r.hasFull, case .header(let h) = arena.full[Int(r.full)].body {
            divergences.record(r, layer: h.layer, into: &tracked)
        } else {
            divergences.record(r, layer: nil, into: &tracked)
        }
        handleTracked(into: step)
        if divergences.predictionMayMatter(revision: engines.first.revision) {
            notePrediction(t: r.t, seq: r.seq)
            handleTracked(into: step)
        }
        guard let observer, let step, let before = step.before, r.hasFull else { return }
        let record = arena.full[Int(r.full)]
        if case .deviceConnected(let id, _, _, _) = record.body { step.value.events.append(.devicesChanged(added: [id], removed: [])) }
        if case .deviceDisconnected(let id) = record.body { step.value.events.append(.devicesChanged(added: [], removed: [id])) }
        step.value.settle(from: before, to: snapshot())
        observer(step.value)
    }

    /// A step being described, when someone observes; nil (nothing built) otherwise. A step of a record
    /// is made by `replay`, which reads the record from the arena only when someone observes.
    @inline(__always)
    func newStep(t: Int64) -> StepBox? {
        observing ? StepBox(ReplayStep(t: t, record: nil)) : nil
    }

    /// Runs end-of-trace diagnostics and `"at":"end"` expectations; returns the result. `end` says whether
    /// the trace ended at its last record or at a crash (its last frame torn, or never closed).
    mutating func finish(end: TraceEnd) -> ReplayResult {
        guard !finished else { return builder.result }
        releaseHeld()
        finished = true
        // Timers due after the last record are not fired: the trace does not cover that time.
        fireTimers(through: now)
        let step = newStep(t: now)
        builder.update { $0.end = end }
        prepareSink()
        engines.finish(t: now, lastSeq: max(lastSeq, 0), end: end, into: &sink)
        absorb(into: step)
        divergences.finish(at: now, into: &tracked)
        handleTracked(into: step)
        if let step, !(step.value.verdicts.isEmpty && step.value.findings.isEmpty) { observer?(step.value) }
        for (e, seq) in pendingEnd {
            let r = evaluate(e, seq: seq)
            builder.update { $0.expectations.append(r) }
        }
        let summary = engines.second.summary, changes = engines.second.state.changes
        let (predicted, actual, truncated) = (divergences.predictedTimeline, divergences.actualTimeline, divergences.truncated)
        builder.settleFindingCounts()
        builder.update { result in
            result.expectations.sort { $0.seq < $1.seq }
            result.predictedTimeline = predicted
            result.actualTimeline = actual
            result.timelineTruncated = truncated
            result.quality = summary
            result.levelChanges = changes
        }
        return builder.result
    }
}
