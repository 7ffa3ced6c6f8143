import TraceModel

/// Heap bytes of label text one lane keeps at most before it merges runs of short segments or marks
/// (counts alone bound nothing when every label is long); a label is `TextCap.characters` at most.
let laneLabelBudget = 1 << 20

/// The heap bytes a label holds (a string of 15 UTF-8 bytes or fewer is stored inline).
@inline(__always) func labelBytes(_ s: String) -> Int { s.utf8.count > 15 ? s.utf8.count : 0 }

/// Builds one lane's segments, merging runs of short segments when there are too many, or when their
/// labels hold more than `laneLabelBudget` bytes.
struct LaneBuilder {
    var segments: [LaneSegment] = []
    private var current: LaneSegment
    /// Label bytes held by `segments`.
    private var bytes = 0

    init(start: Int64, raw: String, seq: Int?) {
        current = LaneSegment(start: start, end: start, value: raw, tone: "", seq: seq)
    }

    /// The raw value now.
    var currentValue: String { current.value }

    /// Starts a new segment at `t` unless the value stays the same; `tone` empty: styled at the end.
    mutating func set(_ raw: String, tone: String = "", at t: Int64, seq: Int?, cap: Int) {
        let raw = TextCap.clip(raw)
        guard raw != current.value else { return }
        current.end = t
        if current.end > current.start || segments.isEmpty {
            segments.append(current)
            bytes += labelBytes(current.value)
        } else {
            segments[segments.count - 1].end = t
        }
        current = LaneSegment(start: t, end: t, value: raw, tone: tone, seq: seq)
        if segments.count > 2 * cap || bytes > laneLabelBudget {
            segments = Self.bound(segments, max: bytes > laneLabelBudget ? Swift.max(8, Swift.min(cap, segments.count / 2)) : cap)
            bytes = segments.reduce(0) { $0 + labelBytes($1.value) }
        }
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

/// Keeps one lane's marks, merging runs of close ones when there are too many, or when their labels
/// hold more than `laneLabelBudget` bytes.
struct MarkBuilder {
    var marks: [LaneMark] = []
    /// Label bytes held by `marks`.
    private var bytes = 0

    mutating func append(_ m: LaneMark, cap: Int) {
        var m = m
        m.value = TextCap.clip(m.value)
        marks.append(m)
        bytes += labelBytes(m.value)
        if marks.count > 2 * cap || bytes > laneLabelBudget {
            marks = Self.bound(marks, max: bytes > laneLabelBudget ? Swift.max(8, Swift.min(cap, marks.count / 2)) : cap)
            bytes = marks.reduce(0) { $0 + labelBytes($1.value) }
        }
    }

    /// Merges runs of marks closer than a gap, doubling the gap, until at most `max` remain. A merged mark
    /// keeps its members' tone when they share one, and counts them.
    static func bound(_ input: [LaneMark], max: Int) -> [LaneMark] {
        guard input.count > max, let first = input.first, let last = input.last else { return input }
        var marks = input
        var gap = Swift.max(1, (last.t - first.t) / Int64(max))
        while marks.count > max {
            var out: [LaneMark] = []
            var run: [LaneMark] = []
            func flush() {
                if run.count == 1 { out.append(run[0]) } else if let a = run.first {
                    let n = run.reduce(0) { $0 + $1.merged }
                    let tone = run.allSatisfy { $0.tone == a.tone } ? a.tone : "merged"
                    out.append(LaneMark(t: a.t, seq: a.seq, what: run.allSatisfy { $0.what == a.what } ? a.what : "",
                                        value: ReportPageWords.momentsFirst(n, a.value), tone: tone, merged: n))
                }
                run.removeAll(keepingCapacity: true)
            }
            for m in marks {
                if let a = run.first, m.t - a.t >= gap { flush() }
                run.append(m)
            }
            flush()
            marks = out
            gap *= 2
        }
        return marks
    }
}

/// One series' points, thinned in bounded memory: beyond `4 × cap` points they are cut into `cap`
/// time buckets, and each bucket keeps its lowest and its highest value (so a spike is never lost),
/// never joining points across a break.
struct SeriesBuilder {
    var points: [SeriesPoint] = []

    mutating func append(_ p: SeriesPoint, cap: Int) {
        points.append(p)
        if points.count > 4 * cap { points = Self.thin(points, buckets: cap) }
    }

    /// Each bucket's (and run's) lowest and highest point, in time order; nothing changes at or below `2 × buckets`.
    static func thin(_ input: [SeriesPoint], buckets: Int) -> [SeriesPoint] {
        guard input.count > 2 * buckets, let first = input.first, let last = input.last else { return input }
        let width = Swift.max(1, (last.t - first.t + Int64(buckets) - 1) / Int64(buckets))
        var out: [SeriesPoint] = []
        out.reserveCapacity(2 * buckets + 16)
        var lo = first, hi = first, bucket = Int64(0), breakBefore = first.breakBefore, open = false
        func flush() {
            guard open else { return }
            var pair = lo.seq == hi.seq ? [lo] : (lo.t, lo.seq) < (hi.t, hi.seq) ? [lo, hi] : [hi, lo]
            for i in pair.indices { pair[i].breakBefore = i == 0 && breakBefore }
            out += pair
            open = false
        }
        for p in input {
            let k = (p.t - first.t) / width
            if !open || k != bucket || p.breakBefore {
                flush()
                (lo, hi, bucket, breakBefore, open) = (p, p, k, p.breakBefore, true)
                continue
            }
            if p.value < lo.value { lo = p }
            if p.value > hi.value { hi = p }
        }
        flush()
        return out
    }
}
