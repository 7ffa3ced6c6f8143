import TraceModel

/// How the log's times became the trace's `t`, and how far off they may be.
package struct Alignment: Sendable, Equatable {
    /// `wall` (the line's UTC time against the trace's `startedAt`) or `anchored` (on activations both hold).
    package var source: SystemLogTimeSource
    /// How far an imported record's `t` may be from the moment its line was logged, in ms.
    package var uncertaintyMs: Int64
    /// The activations the import was anchored on (0 for `wall`).
    package var anchors: Int
    /// What the anchors moved the wall-clock times by, in ms (0 for `wall`).
    package var shiftMs: Int64
    /// The UTC offset the anchors revealed for times written without one, in minutes; nil when the log gave its offsets.
    package var foundOffsetMinutes: Int?
    /// Whether the log was imported on its own: `t` counts from its first line.
    package var onItsOwn = false
    /// In words, for the command's report and `info`.
    package var description: String {
        switch source {
        case .wall where onItsOwn:
            return AlignmentWords.logsOwnClock(uncertaintyMs: uncertaintyMs)
        case .wall:
            return AlignmentWords.wallClock(uncertaintyMs: uncertaintyMs)
        case .anchored:
            return AlignmentWords.anchored(anchors: anchors, shiftMs: shiftMs, foundOffset: foundOffsetMinutes.map(LogClock.offsetText),
                                           uncertaintyMs: uncertaintyMs)
        }
    }
}

/// A part's start: its header's `t` and its `startedAt` in UTC ms, with the precision of that text.
struct PartStart: Sendable {
    var t: Int64
    var startedMs: Int64
    var precisionMs: Int64
}

/// Turns the times of recognised lines into UTC, then into a trace's `t`.
enum TimeAlignment {
    /// Fifteen minutes: the step of every UTC offset in use.
    static let zoneStepMs: Int64 = 15 * 60_000

    /// A recognised line's time in UTC ms, its precision, and whether its UTC offset was unknown.
    struct Instant {
        var utcMs: Int64
        var precisionMs: Int64
        var offsetUnknown: Bool
    }

    /// Why a line's time could not be placed.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The UTC time of each fact, in the order given. A time without a date takes the date of `date`
    /// (`YYYY-MM-DD`, the day in the line's own offset) or of `startedMs` (the trace's start), moving to
    /// the next or previous day where the times of a file cross midnight (each line takes the day that
    /// puts it nearest the line before it). A time without an offset takes its file's first written
    /// offset, else `utcOffset`; with none, it is counted as UTC and marked unknown (an anchor may find it).
    static func instants(_ facts: [LogFact], fileOffsets: [String: Int], date: String?, startedMs: Int64?,
                         utcOffset: Int?) throws -> [Instant] {
        let dayMs = LogClock.dayMs
        let dateMs = try date.map { d -> Int64 in
            guard let ms = LogClock.day(d) else { throw Failure(description: AlignmentWords.notADate(d)) }
            return ms
        }
        var previous: [String: Int64] = [:]
        var out: [Instant] = []
        out.reserveCapacity(facts.count)
        for f in facts {
            let c = f.entry.clock
            let offset = c.offsetMinutes ?? fileOffsets[f.entry.file] ?? utcOffset
            let offsetMs = Int64(offset ?? 0) * 60_000
            var local = c.localMs
            if !c.hasDate {
                let reference: Int64
                if let last = previous[f.entry.file] {
                    reference = last
                } else if let dateMs {
                    reference = dateMs + c.localMs
                } else if let startedMs {
                    reference = startedMs + offsetMs
                } else {
                    throw Failure(description: AlignmentWords.noDate(file: f.entry.file, line: f.entry.line, time: TextCap.clip(f.entry.timeText)))
                }
                let day = reference >= 0 ? reference / dayMs : -((-reference + dayMs - 1) / dayMs)
                local = (-1...1).map { (day + Int64($0)) * dayMs + c.localMs }.min { abs($0 - reference) < abs($1 - reference) }!
            }
            previous[f.entry.file] = local
            out.append(Instant(utcMs: local - offsetMs, precisionMs: c.precisionMs, offsetUnknown: offset == nil))
        }
        return out
    }

    /// The `t` a UTC time has in a trace whose parts started as `starts` (in part order): the last part
    /// that started at or before it, or the first.
    static func wallT(_ utcMs: Int64, _ starts: [PartStart]) -> (t: Int64, precisionMs: Int64)? {
        guard let first = starts.first else { return nil }
        let part = starts.last { $0.startedMs <= utcMs } ?? first
        return (part.t + (utcMs - part.startedMs), part.precisionMs)
    }

    /// How far apart the pairs of one anchoring may lie around their shift: one event is logged by the
    /// device within milliseconds of the trace recording it, so pairs further apart are other events.
    static let agreementMs: Int64 = 50

    /// Anchors wall-clock times on activations both sides hold. Every activation of the trace and every
    /// activation of the app the log holds within `window` of it (with an unknown UTC offset, up to a
    /// whole number of 15-minute steps) is a candidate pair; the shift most pairs agree on (within
    /// `agreementMs`) wins, each trace activation keeping its pair nearest it. The shift is the median of
    /// those pairs' differences, the uncertainty how far they spread around it, at least the log's
    /// precision. Nil without a pair.
    static func anchor(trace: [Int64], log: [(t: Int64, precisionMs: Int64)], window: Int64, offsetUnknown: Bool)
        -> (shiftMs: Int64, uncertaintyMs: Int64, anchors: Int, zoneMs: Int64?)? {
        func zone(_ raw: Int64) -> Int64 {
            guard offsetUnknown else { return 0 }
            return (raw >= 0 ? (raw + zoneStepMs / 2) / zoneStepMs : -((-raw + zoneStepMs / 2) / zoneStepMs)) * zoneStepMs
        }
        // Every candidate: (trace activation, difference including the zone, the log line's precision).
        var candidates: [(a: Int, d: Int64, p: Int64)] = []
        for (i, a) in trace.enumerated() {
            for l in log {
                let raw = a - l.t
                guard abs(raw - zone(raw)) <= window else { continue }
                candidates.append((i, raw, l.precisionMs))
            }
        }
        guard !candidates.isEmpty else { return nil }
        let agreeing = agreement(candidates.map { ($0.a, $0.d) })
        let best = candidates[candidates.indices.max { i, j in
            (agreeing[i], -abs(candidates[i].d - zone(candidates[i].d))) < (agreeing[j], -abs(candidates[j].d - zone(candidates[j].d)))
        }!].d
        var pairs: [Int: (d: Int64, p: Int64)] = [:]
        for c in candidates where abs(c.d - best) <= agreementMs {
            if let p = pairs[c.a], abs(p.d - best) <= abs(c.d - best) { continue }
            pairs[c.a] = (c.d, c.p)
        }
        let diffs = pairs.values.map(\.d).sorted()
        let shift = diffs[diffs.count / 2]
        let spread = diffs.map { abs($0 - shift) }.max() ?? 0
        let precision = pairs.values.map(\.p).max() ?? 1
        return (shift, max(spread, precision), diffs.count, offsetUnknown ? zone(shift) : nil)
    }

    /// For each candidate pair, how many of the trace's activations have a pair whose difference lies
    /// within `agreementMs` of its own: one pass over the pairs sorted by difference, with a window that
    /// only moves forward, so a log with many activations costs a sort, not pairs times pairs.
    static func agreement(_ candidates: [(a: Int, d: Int64)]) -> [Int] {
        let order = candidates.indices.sorted { candidates[$0].d < candidates[$1].d }
        var counts: [Int: Int] = [:]
        var distinct = 0, lo = 0, hi = 0
        var out = [Int](repeating: 0, count: candidates.count)
        for k in order.indices {
            let d = candidates[order[k]].d
            while hi < order.count, candidates[order[hi]].d <= d + agreementMs {
                counts[candidates[order[hi]].a, default: 0] += 1
                if counts[candidates[order[hi]].a] == 1 { distinct += 1 }
                hi += 1
            }
            while candidates[order[lo]].d < d - agreementMs {
                counts[candidates[order[lo]].a]! -= 1
                if counts[candidates[order[lo]].a] == 0 { distinct -= 1 }
                lo += 1
            }
            out[order[k]] = distinct
        }
        return out
    }
}
