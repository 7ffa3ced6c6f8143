import Contract
import Replay
import TraceModel

/// One stretch of a lane: a state that held from `start` to `end`.
public struct LaneSegment: Equatable, Sendable {
    /// Start, ms since the trace started.
    public var start: Int64
    /// End, ms since the trace started.
    public var end: Int64
    /// The state in words (trace text included, unescaped: renderers escape it).
    public var value: String
    /// A fixed style name (`speaker`, `poor`, `on`, `quiet`, `merged`, …), never trace text.
    public var tone: String
    /// The record that started it, when known.
    public var seq: Int?
    /// How many changes a merged segment stands for (1 for an ordinary segment).
    public var merged: Int = 1

    /// Whether this is the lane's resting state (drawn faint, without a label).
    public var quiet: Bool { tone == "quiet" }
}

/// One horizontal lane of the report's timeline.
public struct Lane: Equatable, Sendable {
    /// Stable id, e.g. `predicted`, `qualityPub`.
    public var id: String
    /// Title in the trace layer's words.
    public var title: String
    /// The stretches, in time order, not overlapping.
    public var segments: [LaneSegment]
}

/// Collects the state lanes of a replay (engagement, interruptions, call state, app, audio module,
/// devices, quality per side, active speakers) from its observer, in bounded memory: when a lane has
/// too many segments, runs of short ones are merged into one segment that counts its changes.
public final class ReportLanes {
    /// Lane ids in display order (the route lanes come from the result's timelines).
    public static let order = ["predicted", "actual", "engagement", "interruption", "callState", "app", "mic",
                               "audioModule", "devices", "transport", "qualityPub", "qualitySub", "speakers"]
    static let resting: [String: String] = [
        "engagement": "false", "interruption": "false", "callState": "idle", "app": "foreground", "mic": "undetermined",
        "audioModule": "enabled", "devices": "", "transport": "connecting", "qualityPub": "", "qualitySub": "", "speakers": "",
    ]

    private let maxSegments: Int
    private var builders: [String: LaneBuilder] = [:]
    private var deviceNames: [String: String] = [:]
    private var started = false

    /// Creates a collector keeping at most about `maxSegments` segments per lane.
    public init(maxSegments: Int = 1000) {
        self.maxSegments = max(8, maxSegments)
    }

    /// Feeds one replay step (pass this as the replay's observer).
    public func observe(_ step: ReplayStep) {
        if !started {
            started = true
            for (id, v) in Self.resting { builders[id] = LaneBuilder(start: step.t, raw: v, seq: nil) }
        }
        let seq = step.record?.seq
        if let r = step.record {
            if case .deviceConnected(let id, _, let name?, _) = r.body { deviceNames[id] = name }
            if case .qualityReport(let pub, let sub) = r.body {
                set("qualityPub", pub.level.rawValue, step.t, seq)
                set("qualitySub", sub.level.rawValue, step.t, seq)
            }
        }
        guard let state = step.state else { return }
        for field in step.changes {
            switch field {
            case .engaged: set("engagement", "\(state.engaged)", step.t, seq)
            case .interrupted: set("interruption", "\(state.interrupted)", step.t, seq)
            case .callState: set("callState", state.callState.rawValue, step.t, seq)
            case .mic: set("mic", state.mic.rawValue, step.t, seq)
            case .transport: set("transport", state.transport.rawValue, step.t, seq)
            case .app: set("app", state.foreground ? "foreground" : "background", step.t, seq)
            case .audioModule: set("audioModule", state.audioModuleEnabled ? "enabled" : "disabled", step.t, seq)
            case .devices: set("devices", deviceLabel(state), step.t, seq)
            case .quality where state.quality == nil:
                set("qualityPub", "", step.t, seq)
                set("qualitySub", "", step.t, seq)
            case .speakers where state.speakerCount == 0: set("speakers", "", step.t, seq)
            default: break
            }
        }
        for case let .speakers(first, count) in step.events {
            set("speakers", first.map { "\($0.uid)/\($0.trackId)" }.joined(separator: ", ")
                    + (count > first.count ? " (+\(count - first.count) more)" : ""), step.t, seq)
        }
    }

    private func set(_ id: String, _ raw: String, _ t: Int64, _ seq: Int?) {
        builders[id]?.set(raw, at: t, seq: seq, cap: maxSegments)
    }

    /// The active (last connected) device, by name when known, and how many others are connected.
    private func deviceLabel(_ state: StateSnapshot) -> String {
        guard let active = state.activeDevice else { return "" }
        let more = state.deviceCount - 1
        let name = (active.name ?? deviceNames[active.id]).map { "\"\($0)\"" } ?? active.id
        return "\(active.kind.rawValue) \(name)" + (more > 0 ? " (+\(more) more connected)" : "")
    }

    /// Every lane, in display order, closed at the end of the trace, each bounded to `maxSegments`.
    public func lanes(for r: ReplayResult, maxSegments cap: Int? = nil) -> [Lane] {
        let w = r.words
        let end = max(r.lastT ?? 0, r.firstT ?? 0)
        let limit = cap ?? maxSegments
        var out: [Lane] = []
        for id in Self.order {
            var segs: [LaneSegment]
            switch id {
            case "predicted": segs = Self.routeSegments(r.predictedTimeline, end: end, predicted: true)
            case "actual": segs = Self.routeSegments(r.actualTimeline, end: end, predicted: false)
            default:
                var b = builders[id] ?? LaneBuilder(start: r.firstT ?? 0, raw: Self.resting[id] ?? "", seq: nil)
                b.close(at: end)
                segs = b.segments.map { Self.style(id, $0, w) }
            }
            segs = LaneBuilder.bound(segs, max: limit)
            out.append(Lane(id: id, title: Self.title(id, w), segments: segs))
        }
        return out
    }

    static func title(_ id: String, _ w: LayerWords) -> String {
        switch id {
        case "predicted": "predicted route"
        case "actual": "actual route"
        case "engagement": w.session
        case "interruption": "interruption"
        case "callState": "system call"
        case "mic": "microphone"
        case "transport": "transport"
        case "app": "app"
        case "audioModule": "audio module"
        case "devices": "devices"
        case "qualityPub": "quality (pub)"
        case "qualitySub": "quality (sub)"
        case "speakers": "active speakers"
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

    /// Turns a raw lane value into words and a style.
    static func style(_ id: String, _ s: LaneSegment, _ w: LayerWords) -> LaneSegment {
        var s = s
        if s.merged > 1 { return s }
        let raw = s.value
        switch id {
        case "engagement":
            (s.value, s.tone) = raw == "true" ? (w.joined, "on") : ("not \(w.joined)", "quiet")
        case "interruption":
            (s.value, s.tone) = raw == "true" ? ("interrupted", "alert") : ("not interrupted", "quiet")
        case "callState":
            s.tone = raw == "idle" ? "quiet" : (raw == "disconnected" ? "off" : "alert")
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
            if raw.isEmpty { (s.value, s.tone) = ("none", "quiet") } else { s.tone = raw.hasPrefix("headset") ? "headset" : "bluetooth" }
        case "qualityPub", "qualitySub":
            if raw.isEmpty { (s.value, s.tone) = ("no data", "quiet") } else { s.tone = "q-" + (QualityLevel(rawValue: raw)?.rawValue ?? "unknown") }
        case "speakers":
            if raw.isEmpty { (s.value, s.tone) = ("nobody", "quiet") } else { s.tone = "on" }
        default: break
        }
        return s
    }
}

/// Builds one lane's segments, merging runs of short segments when there are too many.
struct LaneBuilder {
    var segments: [LaneSegment] = []
    private var current: LaneSegment

    init(start: Int64, raw: String, seq: Int?) {
        current = LaneSegment(start: start, end: start, value: raw, tone: "", seq: seq)
    }

    mutating func set(_ raw: String, at t: Int64, seq: Int?, cap: Int) {
        guard raw != current.value else { return }
        current.end = t
        if current.end > current.start || segments.isEmpty { segments.append(current) } else { segments[segments.count - 1].end = t }
        current = LaneSegment(start: t, end: t, value: raw, tone: "", seq: seq)
        if segments.count > 2 * cap { segments = Self.bound(segments, max: cap) }
    }

    mutating func close(at end: Int64) {
        current.end = max(end, current.start)
        segments.append(current)
        current.start = current.end
    }

    /// Merges runs of short segments, doubling what counts as short, until at most `max` remain.
    static func bound(_ input: [LaneSegment], max: Int) -> [LaneSegment] {
        guard input.count > max, let first = input.first, let last = input.last else { return input }
        var segs = input
        var minDuration = Swift.max(1, (last.end - first.start) / Int64(max))
        while segs.count > max {
            segs = compact(segs, minDuration: minDuration)
            minDuration *= 2
        }
        return segs
    }

    /// Merges each run of two or more consecutive segments shorter than `minDuration` into one.
    static func compact(_ segs: [LaneSegment], minDuration: Int64) -> [LaneSegment] {
        var out: [LaneSegment] = []
        out.reserveCapacity(segs.count)
        var run: [LaneSegment] = []
        func flush() {
            if run.count == 1 { out.append(run[0]) } else if let a = run.first, let b = run.last {
                let n = run.reduce(0) { $0 + $1.merged }
                out.append(LaneSegment(start: a.start, end: b.end, value: "\(n) changes", tone: "merged", seq: a.seq, merged: n))
            }
            run.removeAll(keepingCapacity: true)
        }
        for s in segs {
            if s.end - s.start < minDuration { run.append(s) } else { flush(); out.append(s) }
        }
        flush()
        return out
    }
}
