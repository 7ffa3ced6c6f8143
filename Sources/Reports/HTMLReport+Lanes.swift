import Contract
import QualityEngine
import Replay
import TraceModel

/// One stretch of a lane: a state that held from `start` to `end`.
package struct LaneSegment: Equatable, Sendable {
    /// Start, ms since the trace started.
    package var start: Int64
    /// End, ms since the trace started.
    package var end: Int64
    /// The state in words (trace text included, unescaped: renderers escape it).
    package var value: String
    /// A fixed style name (`speaker`, `q-poor`, `on`, `quiet`, `merged`, …: a `Palette` tone), never trace text.
    package var tone: String
    /// The record that started it, when known.
    package var seq: Int?
    /// How many changes a merged segment stands for (1 for an ordinary segment).
    package var merged: Int = 1

    /// Whether this is the lane's resting state (drawn faint, without a label).
    package var quiet: Bool { tone == "quiet" }
}

/// A moment on a lane: a record the contract reads that has no duration (a session activation, a
/// CallKit event, a media-services reset, an SDK callback, a level change) or a finding that marks one
/// (an override flush).
package struct LaneMark: Equatable, Sendable {
    /// When, ms since the trace started.
    package var t: Int64
    /// The record (for a finding, its deciding record), when known.
    package var seq: Int?
    /// The record type or finding code (`obs.sessionActivated`, `route.overrideFlushed`), never trace text.
    package var what: String
    /// What it says, in words (trace text included, unescaped: renderers escape it).
    package var value: String
    /// A fixed style name (a `Palette` tone: `activated`, `failed`, …), never trace text.
    package var tone: String
    /// How many moments a merged mark stands for (1 for an ordinary mark).
    package var merged: Int = 1
}

/// One value of a numeric series: a quality report's measurement.
package struct SeriesPoint: Equatable, Sendable {
    /// The report's time.
    package var t: Int64
    /// The value as recorded (loss as the 0–1 ratio the trace carries).
    package var value: Double
    /// The report's seq.
    package var seq: Int
    /// Whether the line breaks before this point: the quality was cleared (a reconnect, a leave) or
    /// the trace has no records in between.
    package var breakBefore: Bool
}

/// One side's values of one metric over time.
package struct LaneSeries: Equatable, Sendable {
    /// `pub` or `sub` (a `Palette` tone).
    package var side: String
    /// The points in time order; runs of many are thinned to each bucket's lowest and highest.
    package var points: [SeriesPoint]
}

/// One horizontal row of the report: a state lane of the timeline, or a graph of a quality metric.
package struct Lane: Equatable, Sendable {
    /// What a lane draws.
    package enum Kind: Equatable, Sendable {
        /// States over time (segments) and moments (marks).
        case state
        /// Moments only.
        case marks
        /// A numeric series per side (pub, sub).
        case graph(QualityMetric)
    }

    /// Stable id, e.g. `predicted`, `qualityPub`, `rtt`.
    package var id: String
    /// Title in the trace layer's words.
    package var title: String
    /// The stretches, in time order, not overlapping.
    package var segments: [LaneSegment]
    /// The moments, in time order.
    package var marks: [LaneMark] = []
    /// What it draws.
    package var kind: Kind = .state
    /// A graph's series (pub, then sub); empty for other lanes.
    package var series: [LaneSeries] = []
}

/// Collects the report's lanes from a replay's observer: the state lanes (engagement, session,
/// CallKit, interruptions, call state, app, audio module, devices, quality per side, active speakers),
/// the moments the contract reads (activations, CallKit events, resets, SDK callbacks, level changes,
/// override flushes) and the quality series the graphs draw, all in bounded memory: when a lane has
/// too many segments or marks, runs of short ones are merged into one that counts its changes, and
/// series are thinned to each time bucket's lowest and highest value.
package final class ReportLanes {
    /// Timeline lane ids in display order (the route lanes come from the result's timelines).
    package static let order = ["predicted", "actual", "override", "engagement", "session", "callKit", "interruption", "resets",
                               "callState", "app", "mic", "audioModule", "devices", "transport", "qualityPub", "qualitySub",
                               "qualityChanges", "speakers", "sdk"]
    /// Lanes that only have moments.
    static let marksOnly: Set<String> = ["resets", "qualityChanges", "sdk", systemLane]
    /// The lane of what the device's system log said (`sys.*`), drawn after the audio session's only when
    /// the trace holds imported records: other processes' activations and route notifications beside the app's own.
    package static let systemLane = "systemLog"
    static let resting: [String: String] = [
        "override": "", "engagement": "false", "session": "", "callKit": "", "interruption": "false", "callState": "idle",
        "app": "foreground", "mic": "undetermined", "audioModule": "enabled", "devices": "", "transport": "connecting",
        "qualityPub": "", "qualitySub": "", "speakers": "",
    ]

    let maxSegments: Int
    let maxPoints: Int
    var builders: [String: LaneBuilder] = [:]
    var markBuilders: [String: MarkBuilder] = [:]
    var series: [QualityMetric: [SeriesBuilder]] = [:]
    var seriesBreak = false
    var deviceNames: [String: String] = [:]
    private var started = false

    /// Creates a collector keeping at most about `maxSegments` segments and marks per lane and about
    /// `maxPoints` points per series (each time bucket's lowest and highest).
    package init(maxSegments: Int = 1000, maxPoints: Int = 1000) {
        self.maxSegments = max(8, maxSegments)
        self.maxPoints = max(8, maxPoints)
    }

    /// Feeds one replay step (pass this as the replay's observer).
    package func observe(_ step: ReplayStep) {
        if !started {
            started = true
            for (id, v) in Self.resting { builders[id] = LaneBuilder(start: step.t, raw: v, seq: nil) }
        }
        let seq = step.record?.seq
        if let r = step.record { record(r, step) }
        for case let .levelChange(previous, overall) in step.events {
            mark("qualityChanges", LaneMark(t: step.t, seq: seq, what: "level change", value: "\(previous.rawValue) → \(overall.rawValue)",
                                            tone: "levelChange"))
        }
        guard let state = step.state else { return }
        for field in step.changes {
            switch field {
            case .override: set("override", state.override?.rawValue ?? "", step.t, seq)
            case .engaged: set("engagement", "\(state.engaged)", step.t, seq)
            case .interrupted: set("interruption", state.interrupted ? Self.interruptionWords(step.record) : "false", step.t, seq)
            case .callState: set("callState", state.callState.rawValue, step.t, seq)
            case .mic: set("mic", state.mic.rawValue, step.t, seq)
            case .transport: set("transport", state.transport.rawValue, step.t, seq)
            case .app: set("app", state.foreground ? "foreground" : "background", step.t, seq)
            case .audioModule: set("audioModule", state.audioModuleEnabled ? "enabled" : "disabled", step.t, seq)
            case .devices: setDevices(state, step.t, seq)
            case .quality where state.quality == nil:
                set("qualityPub", "", step.t, seq)
                set("qualitySub", "", step.t, seq)
                seriesBreak = true
            case .speakers where state.speakerCount == 0: set("speakers", "", step.t, seq)
            case .predictedRoute, .actualRoute, .effectiveTarget, .defaultTarget, .recoveryPending, .quality, .speakers: break
            }
        }
        for case let .speakers(first, count) in step.events {
            set("speakers", first.map { "\(TextCap.identifier($0.uid))/\(TextCap.identifier($0.trackId))" }.joined(separator: ", ")
                    + (count > first.count ? " (+\(count - first.count) more)" : ""), step.t, seq)
        }
    }

    func set(_ id: String, _ raw: String, _ t: Int64, _ seq: Int?, tone: String = "") {
        builders[id]?.set(raw, tone: tone, at: t, seq: seq, cap: maxSegments)
    }

    func mark(_ id: String, _ m: LaneMark) {
        markBuilders[id, default: MarkBuilder()].append(m, cap: maxSegments)
    }

    /// The active (last connected) device, by name when known, and how many others are connected; its kind's tone.
    private func setDevices(_ state: StateSnapshot, _ t: Int64, _ seq: Int?) {
        guard let active = state.activeDevice else { return set("devices", "", t, seq) }
        let more = state.deviceCount - 1
        let name = (active.name ?? deviceNames[active.id]).map { "\"\($0)\"" } ?? active.id
        let tone = switch active.kind {
        case .bluetooth: "bluetooth"
        case .headset: "headset"
        case .airplay: "airplay"
        case .carAudio: "carAudio"
        case .unlisted: "unknown"
        }
        set("devices", "\(active.kind.rawValue) \(name)" + (more > 0 ? " (+\(more) more connected)" : ""), t, seq, tone: tone)
    }

    /// Every lane, in display order (timeline lanes, then one graph per quality metric), closed at the
    /// end of the trace, each bounded to `maxSegments` segments and marks.
    package func lanes(for r: ReplayResult, maxSegments cap: Int? = nil) -> [Lane] {
        let w = r.words
        let end = max(r.lastT ?? 0, r.firstT ?? 0)
        let limit = cap ?? maxSegments
        var out: [Lane] = []
        for id in Self.order {
            var segs: [LaneSegment]
            switch id {
            case "predicted": segs = Self.routeSegments(r.predictedTimeline, end: end, predicted: true)
            case "actual": segs = Self.routeSegments(r.actualTimeline, end: end, predicted: false)
            case _ where Self.marksOnly.contains(id): segs = []
            default:
                var b = builders[id] ?? LaneBuilder(start: r.firstT ?? 0, raw: Self.resting[id] ?? "", seq: nil)
                b.close(at: end)
                segs = b.segments.map { Self.style(id, $0, w) }
            }
            segs = LaneBuilder.bound(segs, max: limit)
            let marks = MarkBuilder.bound(Self.sorted(markBuilders[id]?.marks ?? [], plus: extraMarks(id, r)), max: limit)
            out.append(Lane(id: id, title: Self.title(id, w), segments: segs, marks: marks,
                            kind: Self.marksOnly.contains(id) ? .marks : .state))
            if id == "session", let system = markBuilders[Self.systemLane], !system.marks.isEmpty {
                out.append(Lane(id: Self.systemLane, title: Self.title(Self.systemLane, w), segments: [],
                                marks: MarkBuilder.bound(system.marks, max: limit), kind: .marks))
            }
        }
        for metric in QualityMetric.allCases { out.append(graph(metric, r)) }
        return out
    }

    /// Marks that come from the result rather than the steps: override flushes (route.overrideFlushed)
    /// on the override lane, the reconnects (Q7) on the level-change lane.
    private func extraMarks(_ id: String, _ r: ReplayResult) -> [LaneMark] {
        switch id {
        case "override":
            return r.findings.filter { $0.code == .routeOverrideFlushed }.map {
                LaneMark(t: $0.t, seq: $0.seqs.first, what: $0.code.rawValue, value: "override flushed (\($0.code.rawValue))", tone: "flush")
            }
        case "qualityChanges":
            return (r.quality?.reconnectMoments ?? []).map { LaneMark(t: $0.t, seq: $0.seq, what: "conn.state", value: "reconnect", tone: "reconnect") }
        default:
            return []
        }
    }

    static func sorted(_ a: [LaneMark], plus b: [LaneMark]) -> [LaneMark] {
        b.isEmpty ? a : (a + b).enumerated().sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }.map(\.element)
    }

    static func title(_ id: String, _ w: LayerWords) -> String {
        switch id {
        case "predicted": "predicted route"
        case "actual": "actual route"
        case "override": "route override"
        case "engagement": w.session
        case "session": "audio session"
        case "callKit": "CallKit"
        case "interruption": "interruption"
        case "resets": "media services"
        case "callState": "system call"
        case "mic": "microphone"
        case "transport": "transport"
        case "app": "app"
        case "audioModule": "audio module"
        case "devices": "devices"
        case "qualityPub": "quality (pub)"
        case "qualitySub": "quality (sub)"
        case "qualityChanges": "level changes"
        case "speakers": "active speakers"
        case "sdk": "SDK callbacks"
        case systemLane: "system log"
        default: id
        }
    }

    static func routeSegments(_ timeline: [RouteSegment], end: Int64, predicted: Bool) -> [LaneSegment] {
        var out: [LaneSegment] = []
        for (i, s) in timeline.enumerated() {
            let stop = i + 1 < timeline.count ? timeline[i + 1].t : max(end, s.t)
            let value = s.route?.rawValue ?? (predicted ? "no prediction" : "not known")
            out.append(LaneSegment(start: s.t, end: stop, value: value, tone: s.route?.rawValue ?? "quiet", seq: s.seq))
        }
        return out
    }

    /// Turns a raw lane value into words and a style (a segment whose tone was set when it started keeps it).
    static func style(_ id: String, _ s: LaneSegment, _ w: LayerWords) -> LaneSegment {
        var s = s
        if s.merged > 1 || !s.tone.isEmpty { return s }
        let raw = s.value
        switch id {
        case "override":
            (s.value, s.tone) = raw.isEmpty ? ("none", "quiet") : (raw, raw == "speaker" ? "speaker" : "receiver")
        case "engagement":
            (s.value, s.tone) = raw == "true" ? (w.joined, "on") : ("not \(w.joined)", "quiet")
        case "session":
            if raw.isEmpty { (s.value, s.tone) = ("not active", "quiet") } else { s.tone = "on" }
        case "callKit":
            if raw.isEmpty { (s.value, s.tone) = (ReportPageWords.noCallkitCall, "quiet") } else { s.tone = raw == "held" || raw == "audio deactivated" ? "alert" : "on" }
        case "interruption":
            (s.value, s.tone) = raw == "false" ? ("not interrupted", "quiet") : (raw, "alert")
        case "callState":
            s.tone = raw == "idle" || raw == "disconnected" ? "quiet" : "alert"
        case "app":
            s.tone = raw == "foreground" ? "quiet" : "alert"
        case "audioModule":
            s.tone = raw == "enabled" ? "quiet" : "alert"
        case "mic":
            s.tone = raw == "granted" ? "on" : raw == "denied" ? "alert" : "quiet"
        case "transport":
            // A reconnect shows as a stretch of reconnecting between two connected ones.
            s.tone = raw == "connected" ? "on" : raw == "reconnecting" ? "alert" : "quiet"
        case "devices":
            (s.value, s.tone) = ("none", "quiet")
        case "qualityPub", "qualitySub":
            if raw.isEmpty { (s.value, s.tone) = ("no data", "quiet") } else {
                let level = QualityLevel(rawValue: raw) ?? .unknown
                s.tone = level == .unknown ? "unknown" : "q-" + level.rawValue
            }
        case "speakers":
            if raw.isEmpty { (s.value, s.tone) = ("nobody", "quiet") } else { s.tone = "on" }
        default: s.tone = "quiet"
        }
        return s
    }
}
