// The quality engine: a pure reducer over trace records (contract.md, "Quality engine",
// "Active speakers", "Simulcast layers"). Time comes only from records' `t` and from timers.
import Contract
import TraceModel

/// Replays quality reports, speaker updates and layer switches through the SDK's documented contract
/// and compares the prediction with the `sdk.*` events the device emitted.
@usableFromInline
package struct QualityEngine: Sendable {
    /// Tunables of the engine; the defaults are the contract's replay options.
    package struct Options: Equatable, Sendable {
        /// How far apart a derived level change and the SDK's event may be and still match (ms).
        package var matchWindowMs: Int64
        /// More than this many level changes within `flappingWindowMs` is flapping.
        package var flappingChanges: Int
        /// The window the flapping count is taken over (ms).
        package var flappingWindowMs: Int64
        /// How long an accepted `switchLayer` may wait for the server's confirmation (ms, L3).
        package var layerConfirmTimeoutMs: Int64
        /// When set, the summary also models an app-facing "poor network" prompt under hysteresis.
        package var hysteresis: Hysteresis?

        /// Creates options; every default is the contract's.
        package init(matchWindowMs: Int64 = 1000, flappingChanges: Int = 4, flappingWindowMs: Int64 = 30_000,
                    layerConfirmTimeoutMs: Int64 = 3000, hysteresis: Hysteresis? = nil) {
            self.matchWindowMs = matchWindowMs
            self.flappingChanges = flappingChanges
            self.flappingWindowMs = flappingWindowMs
            self.layerConfirmTimeoutMs = layerConfirmTimeoutMs
            self.hysteresis = hysteresis
        }
    }

    /// What `getConnectionQuality()` returns when it is not `nil` (Q1).
    package struct Evaluation: Equatable, Sendable {
        /// The worse of the uplink and downlink levels.
        package var overall: QualityLevel
        /// The smaller of the two MOS values, `nil` when neither side carried one.
        package var mos: Double?
        /// Creates an evaluation.
        package init(overall: QualityLevel, mos: Double? = nil) {
            self.overall = overall
            self.mos = mos
        }
    }

    /// A derived level change, as `didChangeConnectionQuality` should carry it (Q2).
    @usableFromInline package struct LevelChange: Equatable, Sendable {
        /// The `srv.qualityReport` that caused it.
        package var seq: Int
        /// When that report arrived.
        package var t: Int64
        /// The baseline before the change.
        package var previous: QualityLevel
        /// The new level.
        package var overall: QualityLevel
        /// The evaluation's MOS.
        package var mos: Double?
        /// The baseline before it came from before the part replayed (unknown): matched by `overall` only.
        package var previousUnknown = false
        /// Creates a level change.
        package init(seq: Int, t: Int64, previous: QualityLevel, overall: QualityLevel, mos: Double? = nil) {
            self.seq = seq
            self.t = t
            self.previous = previous
            self.overall = overall
            self.mos = mos
        }
    }

    /// The engine's current state; every field is a value so tests can assert it whole.
    @usableFromInline package internal(set) var state: State
    /// The options the engine was created with.
    package let options: Options
    /// The windows the contract checks and the findings it raises once (S3, L4, T2).
    package internal(set) var obligations = Obligations()

    var tally: QualityTally
    /// The level of every speaker in `state.speakers`, by the symbols of its key: a speaker update finds its
    /// entry with one lookup and a binary search instead of scanning and re-sorting the set (a hostile trace
    /// can add a million speakers). Derived: rebuilt whenever it disagrees with the state in size.
    var speakerLevels: [SpeakerID: Double] = [:]
    /// The symbols of the keys of `state.speakers`, in its order. Derived, like `speakerLevels`.
    var speakerIDs: [SpeakerID] = []
    /// Whether `speakerLevels` holds every speaker (a set larger than `scannedSetLimit`).
    var levelsIndexed = false
    /// The content (S3) of `state.speakers` and its size when it was computed, so that an update that
    /// changes nothing (a million new speakers past the limit) costs no hash of the whole set. Derived:
    /// dropped whenever the set changes, and recomputed when it disagrees with the state in size.
    var speakersContent: (count: Int, content: UInt64)?
    /// The deadlines of its windows of fixed length (S3's snapshot windows, Q2's match windows, L3's
    /// confirmations), which its driver closes as its clock passes them (`closeDeadline`); with a sink that
    /// takes deadlines as timers they are written as timers instead (`OutputSink.deadlinesAsTimers`).
    @usableFromInline package private(set) var deadlines = Deadlines<QualityTimerKind>()
    /// Whether the unanswered snapshots are in increasing order of seq (a trace whose seqs go forward),
    /// so that the one a deadline closes is found by halving.
    var unansweredInSeqOrder = true
    /// Entries of the speaker set moved or visited by updates so far: what an update costs beyond its own
    /// entries, so that a test can hold the cost to the set's size rather than its square (no clock).
    var speakerSetWork = 0

    /// Creates an engine at the start of a trace.
    package init(options: Options = Options()) {
        self.options = options
        self.state = State()
        self.tally = QualityTally(hysteresis: options.hysteresis)
    }

    /// Replays one record of any type, writing what it caused into `out`; unrelated records and `expect.*`
    /// give nothing. The high-rate types are read from their fields (`arena` holds their lists), the others
    /// from the whole record.
    @usableFromInline package mutating func apply(_ r: ReplayRecord, in arena: ReplayArena, into out: inout QualitySink) {
        guard let kind = r.kind else {
            tally.advance(to: r.t, seq: r.seq)
            return applyWhole(arena.record(r), into: &out)
        }
        switch kind {
        case .sysSessionActivated, .sysRouteChanged, .sysPropertySet, .sysPlaying, .sysAppState:
            // E1: the system log is no record of the recording: it neither moves the clock of the quality's
            // time nor closes a stretch without records. (Told by the kind, not its family: one jump, per record.)
            return
        case .header, .dropped, .checkpoint, .qualityReport, .speakers, .sdkActiveSpeakers, .sdkQualityChanged, .sdkLog,
             .routeChanged, .routeSnapshot, .setRoute, .clearRouteOverride, .deviceConnected, .deviceDisconnected, .report,
             .paused, .joinChannel, .leaveChannel, .enterMeeting, .exitMeeting, .setDefaultRoute, .setAudioModuleEnabled,
             .subscribe, .switchLayer, .micPermission, .interruptionBegan, .interruptionEnded, .callState, .appState,
             .mediaServicesReset, .callKit, .sessionActivated, .sessionDeactivated, .overrideOutput, .sdkInterrupted,
             .sdkRecovered, .sdkCallStateChanged, .sdkLayerSwitched, .sdkError, .connEngine, .connState, .srvLayerSwitched:
            tally.advance(to: r.t, seq: r.seq)
        }
        switch kind {
        case .qualityReport:
            reportReceived(pub: arena.samples[r.samplesAt], sub: arena.samples[r.samplesAt + 1], seq: r.seq, t: r.t, into: &out)
        case .speakers:
            speakersUpdated(arena, speaking: r.speaking, stopped: r.stopped, seq: r.seq, t: r.t, into: &out)
        case .sdkActiveSpeakers:
            sdkSpeakersObserved(arena, r.speakers, seq: r.seq, t: r.t, into: &out)
        case .sdkQualityChanged:
            sdkChangeObserved(previous: r.previousLevel, overall: r.overall, mos: r.mos, seq: r.seq, t: r.t, into: &out)
        case .sdkLog, .routeChanged, .routeSnapshot, .setRoute, .clearRouteOverride, .deviceConnected, .deviceDisconnected, .report, .paused:
            // Not the quality engine's: the route engine or the recorder reads them.
            break
        case .header, .dropped, .checkpoint, .joinChannel, .leaveChannel, .enterMeeting, .exitMeeting, .setDefaultRoute,
             .setAudioModuleEnabled, .subscribe, .switchLayer, .micPermission, .interruptionBegan, .interruptionEnded, .callState,
             .appState, .mediaServicesReset, .callKit, .sessionActivated, .sessionDeactivated, .overrideOutput, .sdkInterrupted,
             .sdkRecovered, .sdkCallStateChanged, .sdkLayerSwitched, .sdkError, .connEngine, .connState, .srvLayerSwitched:
            applyWhole(arena.record(r), into: &out)
        case .sysSessionActivated, .sysRouteChanged, .sysPropertySet, .sysPlaying, .sysAppState:
            // E1: passed by before the clock moves, above.
            break
        }
    }

    /// A record of a type whose fields only the whole record carries.
    private mutating func applyWhole(_ record: Record, into out: inout QualitySink) {
        let (seq, t) = (record.seq, record.t)
        switch record.body {
        case .header(let header):
            state.layer = header.layer
            state.tieOrderUnknown = header.redactedAtSource
            speakersContent = nil
        case .connEngine(let vendor):
            engineSelected(vendor, seq: seq, t: t)
        case .connState(let transport):
            transportChanged(transport, seq: seq, t: t)
        case .subscribe(let pubUid, let trackId, let layers):
            subscribed(TrackKey(pubUid: pubUid, trackId: trackId), Subscription(seq: seq, layers: layers), t: t, into: &out)
        case .switchLayer(let pubUid, let trackId, let target):
            switchRequested(TrackKey(pubUid: pubUid, trackId: trackId), target: target, seq: seq, t: t, into: &out)
        case .srvLayerSwitched(let info):
            serverSwitched(info)
        case .sdkLayerSwitched:
            state.seen.layerSwitched = true
        case let .sdkError(api, error):
            sdkErrorObserved(api: api, error: error, seq: seq, t: t, into: &out)
        case .dropped, .checkpoint, .report, .paused, .joinChannel, .leaveChannel, .enterMeeting, .exitMeeting, .setDefaultRoute, .setRoute,
             .clearRouteOverride, .setAudioModuleEnabled, .deviceConnected, .deviceDisconnected, .micPermission,
             .interruptionBegan, .interruptionEnded, .callState, .appState, .mediaServicesReset, .callKit, .routeChanged,
             .routeSnapshot, .sessionActivated, .sessionDeactivated, .overrideOutput, .sdkInterrupted, .sdkRecovered,
             .sdkCallStateChanged, .sdkLog, .expect, .unknown:
            // Not the quality engine's: the route engine, the recorder or the replay reads them.
            break
        case .system:
            // E1: evidence for the explanation only (passed by before the clock moves, in `apply`).
            break
        case .qualityReport, .sdkQualityChanged, .speakers, .sdkActiveSpeakers:
            // Read from their fields (`apply`).
            preconditionFailure("a \(record.type) record is read from its fields")
        }
    }

    /// Delivers a timer the engine asked for, once the virtual clock has reached its due time.
    @usableFromInline package mutating func fire(_ timer: QualityTimer, into out: inout QualitySink) {
        switch timer.kind {
        case .matchWindow(let changeSeq):
            matchWindowClosed(changeSeq: changeSeq, t: timer.due, into: &out)
        case .layerConfirm(let callSeq):
            confirmationTimedOut(callSeq: callSeq, t: timer.due, into: &out)
        case .snapshotWindow(let snapshotSeq):
            snapshotWindowClosed(snapshotSeq: snapshotSeq, t: timer.due, into: &out)
        }
    }

    /// When the next deadline falls due, and its order among the driver's timers.
    @inlinable
    package var nextDeadline: (due: Int64, order: Int)? { deadlines.next }
    /// When the next deadline falls due; `Int64.max` when none waits.
    @inlinable
    package var nextDeadlineDue: Int64 { deadlines.nextDue }

    /// Closes the next deadline if it falls due at or before `t`, as the timer it stands for would fire;
    /// returns that timer (nil: none due).
    @usableFromInline package mutating func closeDeadline(through t: Int64, into out: inout QualitySink) -> QualityTimer? {
        guard let e = deadlines.popDue(through: t) else { return nil }
        let timer = QualityTimer(due: e.due, kind: e.kind)
        fire(timer, into: &out)
        return timer
    }

    /// Drops every deadline unclosed (what they waited for is gone: a part begun without the one before
    /// it, a restarted process).
    @usableFromInline package mutating func dropDeadlines() {
        deadlines.removeAll()
    }

    /// Sets the deadline of a window of fixed length: kept, or written as a timer (`deadlinesAsTimers`).
    mutating func setDeadline(_ kind: QualityTimerKind, due: Int64, into out: inout QualitySink) {
        if out.deadlinesAsTimers {
            out.append(.timer(QualityTimer(due: due, kind: kind)))
        } else {
            deadlines.add(kind, due: due, order: out.nextOrder())
        }
    }

    /// Ends the trace at `t`: closes every open window and interval and writes the last findings.
    @usableFromInline package mutating func finish(t: Int64, lastSeq: Int, end: TraceEnd = .end, into out: inout QualitySink) {
        tally.advance(to: t, seq: lastSeq)
        closeMatchWindowsAtEnd(t: t, into: &out)
        // Snapshots whose whole window passed are judged; windows the trace ended inside are not.
        for s in obligations.unansweredSnapshots where t > s.t.saturatingAdd(options.matchWindowMs) { judgeUnanswered(s, t: t, into: &out) }
        obligations.unansweredSnapshots = []
        obligations.heldSnapshots = []
        // A confirmation window the trace ended inside is not judged (the confirmation may come later).
        for pending in state.pendingSwitches where t > pending.deadline {
            confirmationTimedOut(callSeq: pending.seq, t: t, into: &out)
        }
        state.pendingSwitches = []
        if let episode = state.flapping {
            tally.record(flapping: episode)
            state.flapping = nil
        }
        tally.finish(t: t, seq: lastSeq)
    }

    /// Level changes kept in `State.changes`; beyond this they are counted only.
    package static let maxKeptChanges = 10_000

    /// Level changes derived so far, including those past `maxKeptChanges`.
    package var levelChangeCount: Int { tally.levelChanges }

    /// What the trace looked like from the quality point of view, so far (complete after `finish`).
    package var summary: QualitySummary {
        var episodes = tally.flappingEpisodes
        var count = tally.flappingEpisodeCount
        if let open = state.flapping {
            count += 1
            if episodes.count < QualityTally.listCap { episodes.append(open) }
        }
        let (time, attribution, gaps, gapCount, gapThreshold) = tally.timeWithoutGaps
        var summary = QualitySummary(
            layer: state.layer, vendor: state.vendor, reports: tally.reports, time: time,
            worst: tally.worstWithOpen, mosMin: tally.mosMin, mosMax: tally.mosMax,
            attribution: attribution, levelChanges: tally.levelChanges,
            flappingEpisodes: episodes, flappingEpisodeCount: count, reconnects: tally.reconnects,
            rawPromptCount: tally.rawPromptCount, hysteresis: tally.hysteresisSummary)
        summary.gaps = gaps
        summary.reconnectMoments = tally.reconnectMoments
        summary.gapCount = gapCount
        summary.gapThresholdMs = gapThreshold
        return summary
    }
}
