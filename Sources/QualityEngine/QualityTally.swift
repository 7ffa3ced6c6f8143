// The running totals behind QualitySummary: constant memory whatever the trace's length.
import TraceModel

/// Accumulates time per level, the worst bad stretch, MOS range, attribution and prompt models.
struct QualityTally: Sendable {
    typealias Interval = QualitySummary.Interval
    static let listCap = QualitySummary.listCap

    struct Mark: Equatable, Sendable {
        var seq: Int
        var t: Int64
    }

    // The step function held since the last record: overall level (nil = no data) and each side's badness.
    var lastT: Int64?
    var lastSeq = 0
    var level: QualityLevel?
    var pubBad = false
    var subBad = false

    var reports = 0
    /// Level changes derived, all of them (`State.changes` keeps the first `maxKeptChanges`).
    var levelChanges = 0
    var time = QualitySummary.LevelDurations()
    var attribution = QualitySummary.Attribution()
    var mosMin: Double?
    var mosMax: Double?
    var badStart: Mark?
    var worst: Interval?
    var reconnects = 0
    var rawPromptCount = 0
    var flappingEpisodes: [QualityEngine.FlappingEpisode] = []
    var flappingEpisodeCount = 0
    var gapTracker = GapTracker()
    var reconnectMoments: [QualitySummary.Moment] = []

    // The hysteresis prompt model: the last n reports' badness as bits, newest lowest.
    let model: Hysteresis?
    var ring: UInt64 = 0
    var shownSince: Mark?
    var calmSince: Mark?
    var promptEpisodes: [Interval] = []
    var promptCount = 0
    var shownMs: Int64 = 0

    init(hysteresis: Hysteresis?) {
        self.model = hysteresis
    }

    /// Moves the clock to `t`, crediting the time since the last record to the level held meanwhile.
    mutating func advance(to t: Int64, seq: Int? = nil) {
        let previousSeq = lastSeq
        if let seq { lastSeq = seq }
        guard let last = lastT else {
            lastT = t
            return
        }
        guard t > last else { return }  // a non-monotonic `t` adds no time
        hidePromptIfCalm(upTo: t)
        let dt = t - last
        gapTracker.passed(Interval(startSeq: previousSeq, startT: last, endSeq: lastSeq, endT: t), level: level,
                          pubBad: pubBad, subBad: subBad)
        time[level] += dt
        if pubBad { attribution.pubBadMs += dt }
        if subBad { attribution.subBadMs += dt }
        if pubBad && subBad { attribution.bothBadMs += dt }
        lastT = t
    }

    mutating func report(seq: Int, t: Int64, pub: QualitySample, sub: QualitySample,
                         evaluation: QualityEngine.Evaluation) {
        reports += 1
        gapTracker.report(at: t)
        level = evaluation.overall
        pubBad = pub.level.isBad
        subBad = sub.level.isBad
        // The summary's MOS range leaves out a side whose level is unknown (nothing was published):
        // its MOS says nothing about the call. Q1's evaluation.mos is unchanged.
        let a = pub.level != .unknown ? pub.mos : nil, b = sub.level != .unknown ? sub.mos : nil
        if let mos = a.map({ x in b.map { min(x, $0) } ?? x }) ?? b {
            mosMin = min(mosMin ?? mos, mos)
            mosMax = max(mosMax ?? mos, mos)
        }
        let bad = evaluation.overall.isBad
        if bad {
            if badStart == nil { badStart = Mark(seq: seq, t: t) }
        } else {
            closeBadStretch(seq: seq, t: t)
        }
        pushPrompt(bad: bad, seq: seq, t: t)
    }

    /// Reconnect (Q4) or CDN (Q5): no data until the next report.
    mutating func noData(t: Int64, seq: Int) {
        level = nil
        pubBad = false
        subBad = false
        closeBadStretch(seq: seq, t: t)
        ring = 0
        if shownSince != nil, calmSince == nil { calmSince = Mark(seq: seq, t: t) }
    }

    mutating func reconnected(t: Int64, seq: Int) {
        reconnects += 1
        if reconnectMoments.count < Self.listCap { reconnectMoments.append(QualitySummary.Moment(seq: seq, t: t)) }
        noData(t: t, seq: seq)
    }

    mutating func levelChanged(_ change: QualityEngine.LevelChange) {
        levelChanges += 1
        if change.overall.isBad && !change.previous.isBad { rawPromptCount += 1 }
    }

    mutating func record(flapping episode: QualityEngine.FlappingEpisode) {
        flappingEpisodeCount += 1
        if flappingEpisodes.count < Self.listCap { flappingEpisodes.append(episode) }
    }

    mutating func finish(t: Int64, seq: Int) {
        closeBadStretch(seq: seq, t: t)
        if let start = shownSince { closePrompt(Interval(startSeq: start.seq, startT: start.t, endSeq: seq, endT: t)) }
    }

    mutating func closeBadStretch(seq: Int, t: Int64) {
        guard let start = badStart else { return }
        badStart = nil
        let stretch = Interval(startSeq: start.seq, startT: start.t, endSeq: seq, endT: t)
        if worst == nil || stretch.durationMs > worst!.durationMs { worst = stretch }
    }

    /// The worst stretch, counting one still open at the last record.
    var worstWithOpen: Interval? {
        guard let start = badStart, let now = lastT else { return worst }
        let open = Interval(startSeq: start.seq, startT: start.t, endSeq: lastSeq, endT: now)
        if let worst, worst.durationMs >= open.durationMs { return worst }
        return open
    }

    // MARK: Hysteresis

    mutating func pushPrompt(bad: Bool, seq: Int, t: Int64) {
        guard let model else { return }
        let n = min(max(model.n, 1), 64)
        let mask: UInt64 = n == 64 ? ~0 : (1 << UInt64(n)) - 1
        ring = ((ring << 1) | (bad ? 1 : 0)) & mask
        let raised = ring.nonzeroBitCount >= max(model.k, 1)
        if shownSince == nil {
            if raised {
                shownSince = Mark(seq: seq, t: t)
                calmSince = nil
            }
        } else if raised {
            calmSince = nil
        } else if calmSince == nil {
            calmSince = Mark(seq: seq, t: t)
        }
    }

    mutating func hidePromptIfCalm(upTo t: Int64) {
        guard let model, let start = shownSince, let calm = calmSince, calm.t.saturatingAdd(model.holdMs) <= t else { return }
        closePrompt(Interval(startSeq: start.seq, startT: start.t, endSeq: calm.seq, endT: calm.t.saturatingAdd(model.holdMs)))
    }

    mutating func closePrompt(_ episode: Interval) {
        shownSince = nil
        calmSince = nil
        promptCount += 1
        shownMs += episode.durationMs
        if promptEpisodes.count < Self.listCap { promptEpisodes.append(episode) }
    }

    /// Time per level and attribution with the gaps' time moved to "no data": nothing was recorded
    /// there, so it was neither good nor bad.
    var timeWithoutGaps: (QualitySummary.LevelDurations, QualitySummary.Attribution, [QualityTally.Interval], Int, Int64) {
        var time = self.time, attribution = self.attribution
        let gaps = gapTracker.gaps
        for g in gaps where g.level != nil {
            let dt = g.interval.durationMs
            time[g.level] -= dt
            time.noData += dt
            if g.pubBad { attribution.pubBadMs -= dt }
            if g.subBad { attribution.subBadMs -= dt }
            if g.pubBad && g.subBad { attribution.bothBadMs -= dt }
        }
        return (time, attribution, Array(gaps.prefix(Self.listCap).map(\.interval)), gaps.count, gapTracker.thresholdMs)
    }

    var hysteresisSummary: HysteresisSummary? {
        guard let model else { return nil }
        var episodes = promptEpisodes, count = promptCount, shown = shownMs
        if let start = shownSince, let now = lastT {
            let open = Interval(startSeq: start.seq, startT: start.t, endSeq: lastSeq, endT: now)
            count += 1
            shown += open.durationMs
            if episodes.count < Self.listCap { episodes.append(open) }
        }
        return HysteresisSummary(model: model, episodes: episodes, episodeCount: count, shownMs: shown)
    }
}
