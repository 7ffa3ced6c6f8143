import QualityEngine
import Replay
import TraceModel

/// A measurement of `srv.qualityReport` that the report graphs and the Chrome export counts: the one
/// table of its name, unit and where a sample keeps it.
package enum QualityMetric: String, CaseIterable, Sendable {
    case rtt, loss, jitter, bitrate, mos

    /// The graph's title.
    package var title: String {
        switch self {
        case .rtt: "round-trip time"
        case .loss: "packet loss"
        case .jitter: "jitter"
        case .bitrate: "bitrate"
        case .mos: "MOS"
        }
    }

    /// The unit shown (loss as a percentage of the ratio the trace records); empty for MOS.
    package var unit: String {
        switch self {
        case .rtt, .jitter: "ms"
        case .loss: "%"
        case .bitrate: "kbps"
        case .mos: ""
        }
    }

    /// The name of its counter track in the Chrome export, e.g. `rtt (ms)`.
    package var counterName: String { unit.isEmpty ? rawValue : "\(rawValue) (\(unit))" }

    /// A recorded value in the unit shown.
    package func shown(_ v: Double) -> Double { self == .loss ? v * 100 : v }

    /// The value a sample recorded, if any.
    package func value(_ s: QualitySample) -> Double? {
        switch self {
        case .rtt: s.rtt
        case .loss: s.loss
        case .jitter: s.jitter
        case .bitrate: s.bitrate
        case .mos: s.mos
        }
    }

    /// The range the graph's axis always covers, as recorded: MOS its documented 1.0–4.5, the others
    /// from 0 to a small top (T2: values outside are drawn as recorded, and the axis grows to them).
    var baseRange: (Double, Double) {
        switch self {
        case .rtt: (0, 100)
        case .loss: (0, 0.01)
        case .jitter: (0, 10)
        case .bitrate: (0, 100)
        case .mos: (1, 4.5)
        }
    }
}

extension ReportLanes {
    /// The sides a graph draws, in order.
    static let sides = ["pub", "sub"]

    /// Adds one report's values to the series; the first after the quality was cleared starts a new run.
    func sample(_ pub: QualitySample, _ sub: QualitySample, _ t: Int64, _ seq: Int) {
        let broke = seriesBreak
        seriesBreak = false
        for metric in QualityMetric.allCases {
            var pair = series[metric] ?? [SeriesBuilder(), SeriesBuilder()]
            for (i, s) in [pub, sub].enumerated() {
                guard let v = metric.value(s) else { continue }
                pair[i].append(SeriesPoint(t: t, value: v, seq: seq, breakBefore: broke), cap: maxPoints)
            }
            series[metric] = pair
        }
    }

    /// A metric's graph: its pub and sub series, broken where the trace has no records (QualitySummary.gaps).
    func graph(_ metric: QualityMetric, _ r: ReplayResult) -> Lane {
        let gaps = r.quality?.gaps ?? []
        let pair = series[metric] ?? [SeriesBuilder(), SeriesBuilder()]
        let all = zip(Self.sides, pair).map { side, b in
            LaneSeries(side: side, points: Self.broken(SeriesBuilder.thin(b.points, buckets: maxPoints), at: gaps))
        }
        let title = metric.unit.isEmpty ? metric.title : "\(metric.title) (\(metric.unit))"
        return Lane(id: metric.rawValue, title: title, segments: [], kind: .graph(metric), series: all)
    }

    /// The points with a break before each one that follows a stretch without records.
    static func broken(_ points: [SeriesPoint], at gaps: [QualitySummary.Interval]) -> [SeriesPoint] {
        guard !gaps.isEmpty, points.count > 1 else { return points }
        var out = points
        var g = 0
        for i in 1..<out.count {
            let a = out[i - 1].t, b = out[i].t
            while g < gaps.count, gaps[g].endT < a { g += 1 }
            var k = g
            while k < gaps.count, gaps[k].startT <= b {
                if gaps[k].startT >= a && gaps[k].endT <= b { out[i].breakBefore = true; break }
                k += 1
            }
        }
        return out
    }
}
