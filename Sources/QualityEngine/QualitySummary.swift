// What a trace looked like from the quality point of view: O(1) memory, lists capped.
import Contract
import TraceModel

/// Time, worst stretch, MOS range, attribution (Q6), flapping and prompts of one replayed trace.
package struct QualitySummary: Equatable, Sendable {
    /// The product layer, for wording.
    package var layer: Layer
    /// The media engine at the end of the trace.
    package var vendor: EngineVendor
    /// `srv.qualityReport` records evaluated (CDN reports are not).
    package var reports: Int
    /// Milliseconds spent at each overall level, and with no data.
    package var time: LevelDurations
    /// The longest contiguous stretch at `poor` or `lost`, if any.
    package var worst: Interval?
    /// The smallest evaluation MOS seen.
    package var mosMin: Double?
    /// The largest evaluation MOS seen.
    package var mosMax: Double?
    /// Q6: whose side was bad, and for how long.
    package var attribution: Attribution
    /// Level changes derived (Q2).
    package var levelChanges: Int
    /// Flapping episodes, the first `QualitySummary.listCap` of them.
    package var flappingEpisodes: [QualityEngine.FlappingEpisode]
    /// All flapping episodes, including those not listed.
    package var flappingEpisodeCount: Int
    /// Reconnects (`connected` after `reconnecting`, Q4).
    package var reconnects: Int
    /// How many times an app that prompts on every change into `poor`/`lost` would have shown its prompt.
    package var rawPromptCount: Int
    /// The prompt under `Options.hysteresis`, when that option is set.
    package var hysteresis: HysteresisSummary?
    /// The reconnects (Q4), the first `listCap`: findings of the kinds a reconnect resets name the one before them.
    package var reconnectMoments: [Moment] = []
    /// Stretches with no records longer than `gapThresholdMs` (the first `listCap`); their time counts
    /// as no data.
    package var gaps: [Interval] = []
    /// All such gaps.
    package var gapCount = 0
    /// Three report periods (the median spacing of the quality reports), or 10 s without reports.
    package var gapThresholdMs: Int64 = 10_000

    /// Lists in a summary keep at most this many entries.
    package static let listCap = 100

    /// Creates a summary.
    package init(layer: Layer, vendor: EngineVendor, reports: Int, time: LevelDurations, worst: Interval?,
                mosMin: Double?, mosMax: Double?, attribution: Attribution, levelChanges: Int,
                flappingEpisodes: [QualityEngine.FlappingEpisode], flappingEpisodeCount: Int, reconnects: Int,
                rawPromptCount: Int, hysteresis: HysteresisSummary?) {
        self.layer = layer
        self.vendor = vendor
        self.reports = reports
        self.time = time
        self.worst = worst
        self.mosMin = mosMin
        self.mosMax = mosMax
        self.attribution = attribution
        self.levelChanges = levelChanges
        self.flappingEpisodes = flappingEpisodes
        self.flappingEpisodeCount = flappingEpisodeCount
        self.reconnects = reconnects
        self.rawPromptCount = rawPromptCount
        self.hysteresis = hysteresis
    }

    /// Milliseconds per overall level; "no data" is before the first report, after a reconnect and on CDN.
    package struct LevelDurations: Equatable, Sendable {
        /// At `unknown` (a report was received, its level is unknown).
        package var unknown: Int64 = 0
        /// At `excellent`.
        package var excellent: Int64 = 0
        /// At `good`.
        package var good: Int64 = 0
        /// At `poor`.
        package var poor: Int64 = 0
        /// At `lost`.
        package var lost: Int64 = 0
        /// With no evaluation (`getConnectionQuality()` is `nil`).
        package var noData: Int64 = 0
        /// Creates empty durations.
        package init() {}

        /// The time at one level (`nil`: no data).
        package subscript(level: QualityLevel?) -> Int64 {
            get {
                switch level {
                case .unknown: unknown
                case .excellent: excellent
                case .good: good
                case .poor: poor
                case .lost: lost
                case nil: noData
                }
            }
            set {
                switch level {
                case .unknown: unknown = newValue
                case .excellent: excellent = newValue
                case .good: good = newValue
                case .poor: poor = newValue
                case .lost: lost = newValue
                case nil: noData = newValue
                }
            }
        }

        /// All the time accounted for.
        package var total: Int64 { unknown + excellent + good + poor + lost + noData }
    }

    /// A record's place in the trace.
    package struct Moment: Equatable, Sendable {
        /// The record.
        package var seq: Int
        /// Its time.
        package var t: Int64
        /// Creates a moment.
        package init(seq: Int, t: Int64) {
            self.seq = seq
            self.t = t
        }
    }

    /// A stretch of trace time between two records.
    package struct Interval: Equatable, Sendable {
        /// The record that started it.
        package var startSeq: Int
        /// Its time.
        package var startT: Int64
        /// The record that ended it (the last record when the trace ended first).
        package var endSeq: Int
        /// Its time.
        package var endT: Int64
        /// Creates an interval.
        package init(startSeq: Int, startT: Int64, endSeq: Int, endT: Int64) {
            self.startSeq = startSeq
            self.startT = startT
            self.endSeq = endSeq
            self.endT = endT
        }
        /// Its length in ms.
        package var durationMs: Int64 { endT - startT }
    }

    /// Q6: a poor or lost `pub` is the user's own uplink; a poor or lost `sub` is the downlink or the remote side.
    package struct Attribution: Equatable, Sendable {
        /// Milliseconds during which `pub` was poor or lost (including when `sub` was too).
        package var pubBadMs: Int64 = 0
        /// Milliseconds during which `sub` was poor or lost (including when `pub` was too).
        package var subBadMs: Int64 = 0
        /// Milliseconds during which both were.
        package var bothBadMs: Int64 = 0
        /// Creates an attribution.
        package init(pubBadMs: Int64 = 0, subBadMs: Int64 = 0, bothBadMs: Int64 = 0) {
            self.pubBadMs = pubBadMs
            self.subBadMs = subBadMs
            self.bothBadMs = bothBadMs
        }

        /// The dominant side: one side alone, or at least twice as long as the other (decided); else both.
        package var side: Side {
            switch (pubBadMs > 0, subBadMs > 0) {
            case (false, false): .none
            case (true, false): .uplink
            case (false, true): .downlinkOrRemote
            case (true, true):
                pubBadMs >= subBadMs.saturatingMultiply(2) ? .uplink : subBadMs >= pubBadMs.saturatingMultiply(2) ? .downlinkOrRemote : .both
            }
        }
    }

    /// Whose network the bad time is attributed to.
    package enum Side: String, Sendable, CaseIterable {
        /// No poor or lost time.
        case none
        /// The user's own uplink (`pub`).
        case uplink
        /// The downlink or the remote side's uplink (`sub`).
        case downlinkOrRemote
        /// Both sides.
        case both
    }
}

/// An app-facing "poor network" prompt with hysteresis: raise on k of the last n reports, clear after a hold.
package struct Hysteresis: Equatable, Sendable {
    /// Reports that must be poor or lost among the last `n` to show the prompt.
    package var k: Int
    /// The window of reports looked at (at most 64).
    package var n: Int
    /// How long the raise condition must stay false before the prompt hides (ms).
    package var holdMs: Int64
    /// Creates a model; the defaults are 3 of 5, held 10 s.
    package init(k: Int = 3, n: Int = 5, holdMs: Int64 = 10_000) {
        self.k = k
        self.n = n
        self.holdMs = holdMs
    }
}

/// What the hysteresis prompt model did over the trace.
package struct HysteresisSummary: Equatable, Sendable {
    /// The model's parameters.
    package var model: Hysteresis
    /// Prompt episodes, the first `QualitySummary.listCap` of them; an episode still showing ends at the trace's end.
    package var episodes: [QualitySummary.Interval]
    /// All prompt episodes.
    package var episodeCount: Int
    /// Total time the prompt was showing (ms).
    package var shownMs: Int64
    /// Creates a summary.
    package init(model: Hysteresis, episodes: [QualitySummary.Interval], episodeCount: Int, shownMs: Int64) {
        self.model = model
        self.episodes = episodes
        self.episodeCount = episodeCount
        self.shownMs = shownMs
    }
}
