// Stretches with no records at all: the app suspended, the recorder stopped. Time there is "no data".
import TraceModel

/// Finds the gaps in a trace: stretches with no records longer than three report periods (the median
/// spacing of `srv.qualityReport`), or 10 s in a trace without (enough) reports to tell the period. Constant memory: report
/// spacings go into a small histogram and only the longest candidate gaps are kept.
struct GapTracker: Sendable {
    /// A stretch between two consecutive records, with what the quality was held at meanwhile.
    struct Gap: Equatable, Sendable {
        var interval: QualitySummary.Interval
        var level: QualityLevel?
        var pubBad: Bool
        var subBad: Bool
    }

    /// Gaps shorter than this are never gaps (three periods of the fastest report rate seen in practice).
    static let minimumMs: Int64 = 1000
    /// Without reports, a gap is longer than this.
    static let defaultThresholdMs: Int64 = 10_000
    /// Candidates kept; beyond this the shortest are forgotten (they cannot outrank the longest).
    static let candidateCap = 1000
    /// Report spacing is bucketed to this many ms for the median.
    static let bucketMs: Int64 = 10

    /// Spacings of fewer buckets than this are counted in `nearSpacing`, by index: a report costs no hash.
    static let nearBuckets: Int64 = 1024
    /// The most distinct buckets counted; a spacing in a new bucket past it is left out.
    static let bucketCap = 10_000

    var candidates: [Gap] = []
    /// Reports per bucket of spacing, for buckets below `nearBuckets` (empty until the first such spacing).
    private var nearSpacing: [Int] = []
    /// Reports per bucket of spacing, for the longer ones.
    private var spacing: [Int64: Int] = [:]
    /// Distinct buckets counted, in either table.
    private var buckets = 0
    private var spacings = 0
    private var lastReportT: Int64?

    /// Notes the stretch since the previous record.
    mutating func passed(_ interval: QualitySummary.Interval, level: QualityLevel?, pubBad: Bool, subBad: Bool) {
        guard interval.durationMs > Self.minimumMs else { return }
        candidates.append(Gap(interval: interval, level: level, pubBad: pubBad, subBad: subBad))
        if candidates.count > 2 * Self.candidateCap {
            candidates.sort { $0.interval.durationMs > $1.interval.durationMs }
            candidates.removeLast(candidates.count - Self.candidateCap)
            candidates.sort { $0.interval.startT < $1.interval.startT }
        }
    }

    /// Notes a quality report, for the report period.
    mutating func report(at t: Int64) {
        defer { lastReportT = t }
        guard let last = lastReportT, t > last else { return }
        let bucket = (t - last) / Self.bucketMs
        if bucket < Self.nearBuckets {
            if nearSpacing.isEmpty { nearSpacing = Array(repeating: 0, count: Int(Self.nearBuckets)) }
            let i = Int(bucket)
            if nearSpacing[i] == 0 {
                guard buckets < Self.bucketCap else { return }
                buckets += 1
            }
            nearSpacing[i] += 1
        } else {
            if spacing[bucket] == nil {
                guard buckets < Self.bucketCap else { return }
                buckets += 1
            }
            spacing[bucket, default: 0] += 1
        }
        spacings += 1
    }

    /// Spacings needed before the median is trusted as the report period.
    static let minimumSpacings = 4

    /// Three report periods, or the default with too few reports to tell the period.
    var thresholdMs: Int64 {
        guard spacings >= Self.minimumSpacings else { return Self.defaultThresholdMs }
        var seen = 0
        // The near buckets in order come before every longer one.
        for (bucket, n) in nearSpacing.enumerated() where n > 0 {
            seen += n
            if 2 * seen >= spacings { return max(Self.minimumMs, 3 * Int64(bucket) * Self.bucketMs) }
        }
        for bucket in spacing.keys.sorted() {
            seen += spacing[bucket]!
            if 2 * seen >= spacings { return max(Self.minimumMs, 3 * bucket * Self.bucketMs) }
        }
        return Self.defaultThresholdMs
    }

    /// The gaps longer than the threshold, in time order.
    var gaps: [Gap] {
        let threshold = thresholdMs
        return candidates.filter { $0.interval.durationMs > threshold }
    }
}

/// Finds the gaps of a trace record by record, for readers that do not replay it (`rtctrace info`).
package struct RecordGaps: Sendable {
    private var tracker = GapTracker()
    private var last: (seq: Int, t: Int64)?

    /// Creates an empty finder.
    package init() {}

    /// Notes one record.
    package mutating func observe(_ r: Record) {
        // Expectations are the golden trace's, not the device's, and the system log's records were imported
        // from another log: neither says anything about recording.
        if case .expect = r.body { return }
        if case .system = r.body { return }
        if let last, r.t > last.t {
            tracker.passed(QualitySummary.Interval(startSeq: last.seq, startT: last.t, endSeq: r.seq, endT: r.t),
                           level: nil, pubBad: false, subBad: false)
        }
        if case .qualityReport = r.body { tracker.report(at: r.t) }
        if r.t >= (last?.t ?? r.t) { last = (r.seq, r.t) }
    }

    /// The gaps found (longer than `thresholdMs`), in time order.
    package var gaps: [QualitySummary.Interval] { tracker.gaps.map(\.interval) }

    /// Three report periods, or 10 s without reports.
    package var thresholdMs: Int64 { tracker.thresholdMs }
}
