// The quality engine: a pure reducer over trace records (contract.md, "Quality engine",
// "Active speakers", "Simulcast layers"). Time comes only from records' `t` and from timers.
import Contract
import TraceModel

/// Replays quality reports, speaker updates and layer switches through the SDK's documented contract
/// and compares the prediction with the `sdk.*` events the device emitted.
public struct QualityEngine: Sendable {
    /// Tunables of the engine; the defaults are the contract's replay options.
    public struct Options: Equatable, Sendable {
        /// How far apart a derived level change and the SDK's event may be and still match (ms).
        public var matchWindowMs: Int64
        /// More than this many level changes within `flappingWindowMs` is flapping.
        public var flappingChanges: Int
        /// The window the flapping count is taken over (ms).
        public var flappingWindowMs: Int64
        /// How long an accepted `switchLayer` may wait for the server's confirmation (ms, L3).
        public var layerConfirmTimeoutMs: Int64
        /// When set, the summary also models an app-facing "poor network" prompt under hysteresis.
        public var hysteresis: Hysteresis?

        /// Creates options; every default is the contract's.
        public init(matchWindowMs: Int64 = 1000, flappingChanges: Int = 4, flappingWindowMs: Int64 = 30_000,
                    layerConfirmTimeoutMs: Int64 = 3000, hysteresis: Hysteresis? = nil) {
            self.matchWindowMs = matchWindowMs
            self.flappingChanges = flappingChanges
            self.flappingWindowMs = flappingWindowMs
            self.layerConfirmTimeoutMs = layerConfirmTimeoutMs
            self.hysteresis = hysteresis
        }
    }

    /// What `getConnectionQuality()` returns when it is not `nil` (Q1).
    public struct Evaluation: Equatable, Sendable {
        /// The worse of the uplink and downlink levels.
        public var overall: QualityLevel
        /// The smaller of the two MOS values, `nil` when neither side carried one.
        public var mos: Double?
        /// Creates an evaluation.
        public init(overall: QualityLevel, mos: Double? = nil) {
            self.overall = overall
            self.mos = mos
        }
    }

    /// A derived level change, as `didChangeConnectionQuality` should carry it (Q2).
    public struct LevelChange: Equatable, Sendable {
        /// The `srv.qualityReport` that caused it.
        public var seq: Int
        /// When that report arrived.
        public var t: Int64
        /// The baseline before the change.
        public var previous: QualityLevel
        /// The new level.
        public var overall: QualityLevel
        /// The evaluation's MOS.
        public var mos: Double?
        /// The baseline before it came from before the part replayed (unknown): matched by `overall` only.
        public var previousUnknown = false
        /// Creates a level change.
        public init(seq: Int, t: Int64, previous: QualityLevel, overall: QualityLevel, mos: Double? = nil) {
            self.seq = seq
            self.t = t
            self.previous = previous
            self.overall = overall
            self.mos = mos
        }
    }

    /// The engine's current state; every field is a value so tests can assert it whole.
    public internal(set) var state: State
    /// The options the engine was created with.
    public let options: Options
    /// The windows the contract checks and the findings it raises once (S3, L4, T2).
    public internal(set) var obligations = Obligations()

    var tally: QualityTally
    /// The level of every speaker in `state.speakers`, by key: a speaker update finds its entry with
    /// one lookup and a binary search instead of scanning and re-sorting the set (a hostile trace can
    /// add a million speakers). Derived: rebuilt whenever it disagrees with the state in size.
    var speakerLevels: [SpeakerKey: Double] = [:]
    /// The content (S3) of `state.speakers` and its size when it was computed, so that an update that
    /// changes nothing (a million new speakers past the limit) costs no hash of the whole set. Derived:
    /// dropped whenever the set changes, and recomputed when it disagrees with the state in size.
    var speakersContent: (count: Int, content: UInt64)?
    /// Entries of the speaker set moved or visited by updates so far: what an update costs beyond its own
    /// entries, so that a test can hold the cost to the set's size rather than its square (no clock).
    var speakerSetWork = 0

    /// Creates an engine at the start of a trace.
    public init(options: Options = Options()) {
        self.options = options
        self.state = State()
        self.tally = QualityTally(hysteresis: options.hysteresis)
    }

    /// Replays one record of any type and returns what it caused; unrelated records and `expect.*` give nothing.
    public mutating func apply(_ record: Record) -> [QualityOutput] {
        // E1: the system log is no record of the recording: it neither moves the clock of the quality's time
        // nor closes a stretch without records.
        if case .system = record.body { return [] }
        tally.advance(to: record.t, seq: record.seq)
        let (seq, t) = (record.seq, record.t)
        switch record.body {
        case .header(let header):
            state.layer = header.layer
            state.tieOrderUnknown = header.redactedAtSource
            speakersContent = nil
            return []
        case .connEngine(let vendor):
            return engineSelected(vendor, seq: seq, t: t)
        case .connState(let transport):
            return transportChanged(transport, seq: seq, t: t)
        case .qualityReport(let pub, let sub):
            return reportReceived(pub: pub, sub: sub, seq: seq, t: t)
        case let .sdkQualityChanged(overall, previous, mos):
            return sdkChangeObserved(previous: previous, overall: overall, mos: mos, seq: seq, t: t)
        case .speakers(let speaking, let stopped):
            return speakersUpdated(speaking: speaking, stopped: stopped, seq: seq, t: t)
        case .sdkActiveSpeakers(let speakers):
            return sdkSpeakersObserved(speakers, seq: seq, t: t)
        case .subscribe(let pubUid, let trackId, let layers):
            return subscribed(TrackKey(pubUid: pubUid, trackId: trackId), Subscription(seq: seq, layers: layers), t: t)
        case .switchLayer(let pubUid, let trackId, let target):
            return switchRequested(TrackKey(pubUid: pubUid, trackId: trackId), target: target, seq: seq, t: t)
        case .srvLayerSwitched(let info):
            return serverSwitched(info)
        case .sdkLayerSwitched:
            state.seen.layerSwitched = true
            return []
        case let .sdkError(api, error):
            return sdkErrorObserved(api: api, error: error, seq: seq, t: t)
        case .dropped, .checkpoint, .joinChannel, .leaveChannel, .enterMeeting, .exitMeeting, .setDefaultRoute, .setRoute,
             .clearRouteOverride, .setAudioModuleEnabled, .deviceConnected, .deviceDisconnected, .micPermission,
             .interruptionBegan, .interruptionEnded, .callState, .appState, .mediaServicesReset, .callKit, .routeChanged,
             .routeSnapshot, .sessionActivated, .sessionDeactivated, .overrideOutput, .sdkInterrupted, .sdkRecovered,
             .sdkCallStateChanged, .sdkLog, .expect, .unknown:
            // Not the quality engine's: the route engine, the recorder or the replay reads them.
            return []
        case .system:
            // E1: evidence for the explanation only (returned before the clock moves, above).
            return []
        }
    }

    /// Delivers a timer the engine asked for, once the virtual clock has reached its due time.
    public mutating func fire(_ timer: QualityTimer) -> [QualityOutput] {
        switch timer.kind {
        case .matchWindow(let changeSeq):
            return matchWindowClosed(changeSeq: changeSeq, t: timer.due)
        case .layerConfirm(let callSeq):
            return confirmationTimedOut(callSeq: callSeq, t: timer.due)
        case .snapshotWindow(let snapshotSeq):
            return snapshotWindowClosed(snapshotSeq: snapshotSeq, t: timer.due)
        }
    }

    /// Ends the trace at `t`: closes every open window and interval and returns the last findings.
    public mutating func finish(t: Int64, lastSeq: Int, end: TraceEnd = .end) -> [QualityOutput] {
        tally.advance(to: t, seq: lastSeq)
        var out = closeMatchWindowsAtEnd(t: t)
        // Snapshots whose whole window passed are judged; windows the trace ended inside are not.
        for s in obligations.unansweredSnapshots where t > s.t.saturatingAdd(options.matchWindowMs) { out += judgeUnanswered(s, t: t) }
        obligations.unansweredSnapshots = []
        obligations.heldSnapshots = []
        // A confirmation window the trace ended inside is not judged (the confirmation may come later).
        for pending in state.pendingSwitches where t > pending.deadline {
            out += confirmationTimedOut(callSeq: pending.seq, t: t)
        }
        state.pendingSwitches = []
        if let episode = state.flapping {
            tally.record(flapping: episode)
            state.flapping = nil
        }
        tally.finish(t: t, seq: lastSeq)
        return out
    }

    /// Level changes kept in `State.changes`; beyond this they are counted only.
    public static let maxKeptChanges = 10_000

    /// Level changes derived so far, including those past `maxKeptChanges`.
    public var levelChangeCount: Int { tally.levelChanges }

    /// What the trace looked like from the quality point of view, so far (complete after `finish`).
    public var summary: QualitySummary {
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
