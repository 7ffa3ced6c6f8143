// The engine's state and the small value types it is made of.
import Contract
import TraceModel

extension QualityEngine {
    /// Everything the engine knows after the records replayed so far.
    @usableFromInline package struct State: Equatable, Sendable {
        /// The product layer, from the header; it decides the words of findings.
        package var layer: Layer = .srtc
        /// The media engine: SFU (`seaStart`) unless a `conn.engine` record says otherwise.
        package var vendor: EngineVendor = .seaStart
        /// The `conn.engine` record that set `vendor`, if any.
        package var vendorSeq: Int?
        /// The signalling transport: `connecting` ("just joined") until a `conn.state` says otherwise.
        package var transport: ConnState = .connecting
        /// The `conn.state` record that set `transport`, if any.
        package var transportSeq: Int?
        /// Whether the transport has been `connected` before in the trace: a later `connected` from any
        /// other state is then a reconnect (Q7).
        package var connectedBefore: Bool = false
        /// What `getConnectionQuality()` returns: `nil` before the first report, after a reconnect, on CDN (Q3–Q5).
        package var latest: Evaluation?
        /// The level-change baseline (Q2).
        package var baseline: QualityLevel = .unknown
        /// Every level change derived so far, in order (for `expect.qualityChanges`).
        package var changes: [LevelChange] = []
        /// The current derived active-speaker snapshot, sorted (S2).
        package var speakers: [Speaker] = []
        /// The `srv.speakers` record that produced `speakers`, if any.
        package var speakersSeq: Int?
        /// The latest `api.subscribe` for each (pubUid, trackId), with its candidate layers (L2).
        package var subscriptions: [TrackKey: Subscription] = [:]
        /// Accepted `switchLayer` calls still waiting for the server's confirmation (L3), oldest first.
        package var pendingSwitches: [PendingSwitch] = []
        /// The most recent `api.switchLayer` record, whatever its verdict.
        package var lastSwitchCall: Int?
        /// Derived level changes whose match window is still open and that no SDK event matched yet.
        package var unmatchedChanges: [LevelChange] = []
        /// Unmatched changes whose window closed before any `sdk.qualityChanged` was seen (judged when one arrives).
        package var heldMissed: [LevelChange] = []
        /// Held changes dropped because `heldMissed` was full.
        package var heldMissedDropped: Int = 0
        /// Which `sdk.*` kinds the trace has contained so far.
        package var seen: SeenKinds = SeenKinds()
        /// The most recent level changes, at most `flappingChanges + 1` of them.
        package var recentChanges: [ChangeMark] = []
        /// The flapping episode in progress, if any.
        package var flapping: FlappingEpisode?
        /// The header says the recorder redacted at the source: the order of equal-level speakers is unknown.
        package var tieOrderUnknown = false
        /// Whether `trace.limitExceeded` was raised for the speaker limit.
        package var speakerLimitReported = false
        /// The baseline comes from before the part (a part replayed without the parts before it): the first
        /// derived level change is compared by its new level only, and not missed if unanswered.
        package var baselineFromBefore = false
        /// The SDK's speaker set comes from before the part: snapshots are not compared until the derived and
        /// the SDK's agree once, or a reconnect clears both.
        package var speakersFromBefore = false
        /// Whether `trace.limitExceeded` was raised for the subscription limit.
        package var subscriptionLimitReported = false
        /// The media engine comes from before the part and no record or checkpoint has said it (a part
        /// replayed without the parts before it and without a checkpoint): L1 cannot be decided on it.
        package var vendorFromBefore = false
        /// The transport's state comes from before the part and no record or checkpoint has said it: L1
        /// cannot be decided on it.
        package var transportFromBefore = false

        /// Creates the state at the start of a trace.
        package init() {}
    }

    /// The engine's bookkeeping beside the SDK's state: what must be answered within a window (S3, L4) and
    /// what is reported once (T2).
    package struct Obligations: Equatable, Sendable {
        /// Derived speaker snapshots (S2) not answered yet by an `sdk.activeSpeakers` (S3), oldest first.
        package var unansweredSnapshots: FIFOQueue<DerivedSnapshot> = []
        /// Unanswered snapshots whose window closed before any `sdk.activeSpeakers` was seen (judged when one arrives).
        package var heldSnapshots: [DerivedSnapshot] = []
        /// Accepted `switchLayer` calls whose send may still fail (L4), oldest first.
        package var sentSwitches: [SentSwitch] = []
        /// The record types and fields a value out of range was reported for (T2: once each).
        package var outOfRangeReported: Set<String> = []
        /// Creates empty bookkeeping.
        package init() {}
    }

    /// A derived active-speaker snapshot waiting for the SDK's answer (S3).
    package struct DerivedSnapshot: Equatable, Sendable {
        /// The `srv.speakers` update that derived it.
        package var seq: Int
        /// When.
        package var t: Int64
        /// Its content, as `speakers.mismatch` compares it (uids and track ids in order), hashed.
        package var content: UInt64
        /// How many speakers it lists.
        package var count: Int
        /// Creates a derived snapshot.
        package init(seq: Int, t: Int64, content: UInt64, count: Int) {
            self.seq = seq
            self.t = t
            self.content = content
            self.count = count
        }
    }

    /// An accepted `switchLayer` whose send may still fail within the match window (L4).
    package struct SentSwitch: Equatable, Sendable {
        /// The `api.switchLayer` record.
        package var seq: Int
        /// When it was called.
        package var t: Int64
        /// Creates a sent switch.
        package init(seq: Int, t: Int64) {
            self.seq = seq
            self.t = t
        }
    }

    /// Which kinds of `sdk.*` record the trace has contained so far.
    package struct SeenKinds: Equatable, Sendable {
        /// `sdk.qualityChanged`.
        package var qualityChanged = false
        /// `sdk.activeSpeakers`.
        package var activeSpeakers = false
        /// `sdk.layerSwitched`.
        package var layerSwitched = false
        /// `sdk.error`.
        package var error = false
        /// Creates a record of kinds seen.
        package init(qualityChanged: Bool = false, activeSpeakers: Bool = false, layerSwitched: Bool = false,
                    error: Bool = false) {
            self.qualityChanged = qualityChanged
            self.activeSpeakers = activeSpeakers
            self.layerSwitched = layerSwitched
            self.error = error
        }
    }

    /// A subscribed remote video: publisher uid and the stable subscription handle.
    package struct TrackKey: Hashable, Sendable {
        /// Publisher's uid.
        package var pubUid: String
        /// The stable track handle used when subscribing.
        package var trackId: String
        /// Creates a key.
        package init(pubUid: String, trackId: String) {
            self.pubUid = pubUid
            self.trackId = trackId
        }
    }

    /// The candidate layers an `api.subscribe` declared.
    package struct Subscription: Equatable, Sendable {
        /// The most candidate layers a subscription keeps, and the most bytes of their track ids: the
        /// engine keeps up to `subscriptionLimit` subscriptions, so their lists are capped in size too.
        package static let layerLimit = 64, layerBytesLimit = 4_096
        /// The `api.subscribe` record.
        package var seq: Int
        /// Candidate layer track ids: the first ones declared, within `layerLimit` and `layerBytesLimit`.
        package var layers: [String]
        /// How many candidates the call declared (more than `layers` when some were not kept: L2 then
        /// cannot say a target is outside them).
        package var declared: Int
        /// Creates a subscription, keeping the first candidates within the limits.
        package init(seq: Int, layers: [String]) {
            self.seq = seq
            var kept: [String] = [], bytes = 0
            for l in layers {
                bytes += l.utf8.count
                guard kept.count < Self.layerLimit, bytes <= Self.layerBytesLimit else { break }
                kept.append(l)
            }
            self.layers = kept
            self.declared = layers.count
        }
        /// Whether every declared candidate is kept.
        package var isComplete: Bool { declared == layers.count }
    }

    /// An accepted `switchLayer` call waiting for `srv.layerSwitched` with reason `client` (L3).
    package struct PendingSwitch: Equatable, Sendable {
        /// The `api.switchLayer` record.
        package var seq: Int
        /// When it was called.
        package var t: Int64
        /// Which subscription it switches.
        package var key: TrackKey
        /// The layer asked for.
        package var target: String
        /// The last moment a confirmation still counts (inclusive).
        package var deadline: Int64
        /// Creates a pending switch.
        package init(seq: Int, t: Int64, key: TrackKey, target: String, deadline: Int64) {
            self.seq = seq
            self.t = t
            self.key = key
            self.target = target
            self.deadline = deadline
        }
    }

    /// One derived level change, as the flapping detector remembers it.
    package struct ChangeMark: Equatable, Sendable {
        /// The report that caused it.
        package var seq: Int
        /// When.
        package var t: Int64
        /// The level changed to.
        package var overall: QualityLevel
        /// Creates a mark.
        package init(seq: Int, t: Int64, overall: QualityLevel) {
            self.seq = seq
            self.t = t
            self.overall = overall
        }
    }

    /// A stretch of time in which the level flapped (more than `flappingChanges` changes per window).
    package struct FlappingEpisode: Equatable, Sendable {
        /// The first change counted in the episode.
        package var startSeq: Int
        /// Its time.
        package var startT: Int64
        /// The last change in the episode so far.
        package var endSeq: Int
        /// Its time.
        package var endT: Int64
        /// Level changes in the episode.
        package var changes: Int
        /// Creates an episode.
        package init(startSeq: Int, startT: Int64, endSeq: Int, endT: Int64, changes: Int) {
            self.startSeq = startSeq
            self.startT = startT
            self.endSeq = endSeq
            self.endT = endT
            self.changes = changes
        }
    }
}
