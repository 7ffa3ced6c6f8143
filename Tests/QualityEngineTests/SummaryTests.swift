// QualitySummary: time per level, worst interval, MOS range, prompts with and without hysteresis.
@testable import QualityEngine
import TraceModel
import XCTest

final class SummaryTests: XCTestCase {
    private func run(_ records: [(Int64, RecordBody)], end: Int64,
                     options: QualityEngine.Options = .init()) -> QualityEngine {
        var engine = QualityEngine(options: options)
        _ = engine.apply(Record(seq: 0, t: 0, .header(TraceHeader(layer: .srtc))))
        for (i, (t, body)) in records.enumerated() { _ = engine.apply(Record(seq: i + 1, t: t, body)) }
        _ = engine.finish(t: end, lastSeq: records.count)
        return engine
    }

    func test_summary_timePerLevel_noDataBeforeFirstReportAndAfterReconnect() {
        // Q7: a reconnect needs the transport to have been connected before in the trace (seq 1).
        let engine = run([
            (500, .connState(state: .connected)),                          // seq 1
            (1000, report(.good, .excellent, pubMos: 4.0, subMos: 4.4)),  // seq 2: good 1000–3000
            (3000, report(.poor, .good, pubMos: 2.5, subMos: 3.8)),       // seq 3: poor 3000–4000
            (4000, report(.lost, .lost, pubMos: 1.0, subMos: 1.2)),       // seq 4: lost 4000–5000
            (5000, .connState(state: .reconnecting)),                      // seq 5
            (6000, .connState(state: .connected)),                         // seq 6: no data 6000–7000
            (7000, report(.unknown, .unknown)),                            // seq 7: unknown 7000–9000
        ], end: 9000)
        let s = engine.summary
        XCTAssertEqual(s.time.noData, 2000)
        XCTAssertEqual(s.time.good, 2000)
        XCTAssertEqual(s.time.poor, 1000)
        XCTAssertEqual(s.time.lost, 2000, "lost is held until the reconnect clears it")
        XCTAssertEqual(s.time.unknown, 2000)
        XCTAssertEqual(s.time.total, 9000)
        XCTAssertEqual(s.worst, .init(startSeq: 3, startT: 3000, endSeq: 6, endT: 6000))
        XCTAssertEqual(s.mosMin, 1.0)
        XCTAssertEqual(s.mosMax, 4.0)
        XCTAssertEqual(s.reports, 4)
        XCTAssertEqual(s.levelChanges, 3)
        XCTAssertEqual(s.reconnects, 1)
        XCTAssertEqual(s.rawPromptCount, 1)
        XCTAssertNil(s.hysteresis)
        XCTAssertEqual(s.vendor, .seaStart)
    }

    func test_summary_worstIntervalIsTheLongestBadStretch_openOneEndsAtTraceEnd() {
        let engine = run([
            (0, report(.poor, .good)), (1000, report(.good, .good)),     // 0–1000
            (2000, report(.lost, .good)), (2500, report(.poor, .poor)),  // 2000–… open
        ], end: 6000)
        XCTAssertEqual(engine.summary.worst, .init(startSeq: 3, startT: 2000, endSeq: 4, endT: 6000))
    }

    func test_hysteresis_raisesOnKofN_clearsOnlyAfterTheHold() {
        let model = Hysteresis(k: 3, n: 5, holdMs: 10_000)
        // One report per second: bad, good, bad, bad (3 of 4 → raise at seq 4), then flapping good/bad around it.
        let pattern: [QualityLevel] = [.poor, .good, .poor, .lost, .good, .poor, .good, .good, .good, .good,
                                       .good, .good, .good, .good, .good, .good, .good, .good, .good, .good]
        let records = pattern.enumerated().map { (Int64($0.offset) * 1000, report($0.element, .good)) }
        let engine = run(records, end: 30_000, options: .init(hysteresis: model))
        let h = engine.summary.hysteresis!
        // Condition: ≥3 bad in the last 5. Raised at t=3000 (seq 4); still true at t=6000 (seqs 3–7 hold
        // poor, lost, good, poor, good); false from t=7000 (seq 8), so it clears 10 s later, at 17000.
        XCTAssertEqual(h.episodes, [.init(startSeq: 4, startT: 3000, endSeq: 8, endT: 17_000)])
        XCTAssertEqual(h.episodeCount, 1)
        XCTAssertEqual(h.shownMs, 14_000)
        // The raw contract would have prompted on every change into poor/lost: 3 times here.
        XCTAssertEqual(engine.summary.rawPromptCount, 3)
    }

    func test_hysteresis_stillShowingAtTheEndIsClosedByIt() {
        let records: [(Int64, RecordBody)] = (0..<4).map { (Int64($0) * 1000, report(.lost, .lost)) }
        let engine = run(records, end: 5000, options: .init(hysteresis: Hysteresis()))
        XCTAssertEqual(engine.summary.hysteresis?.episodes, [.init(startSeq: 3, startT: 2000, endSeq: 4, endT: 5000)])
    }

    func test_summary_listsAreCapped() {
        var records: [(Int64, RecordBody)] = []
        // 150 flapping episodes: 6 fast changes (good, poor, …, poor), then a calm 100 s.
        for episode in 0..<150 {
            let base = Int64(episode) * 100_000
            for i in 0..<6 { records.append((base + Int64(i) * 100, report(i % 2 == 0 ? .good : .poor, .good))) }
        }
        let engine = run(records, end: 15_100_000)
        XCTAssertEqual(engine.summary.flappingEpisodeCount, 150)
        XCTAssertEqual(engine.summary.flappingEpisodes.count, QualitySummary.listCap)
    }

    /// A stretch with no records (the app suspended without background audio) is no data, not the
    /// level held before it: three report periods (2 s here) is the threshold.
    func test_summary_aGapLongerThanThreeReportPeriodsIsNoData() {
        var records: [(Int64, RecordBody)] = (0..<10).map { (Int64(1000 + 2000 * $0), report(.good, .good)) }  // 1 s – 19 s
        records += (0..<5).map { (Int64(83_000 + 2000 * $0), report(.good, .good)) }                          // 83 s – 91 s
        let s = run(records, end: 91_000).summary
        XCTAssertEqual(s.gapThresholdMs, 6000, "three times the median spacing")
        XCTAssertEqual(s.gapCount, 1)
        XCTAssertEqual(s.gaps, [.init(startSeq: 10, startT: 19_000, endSeq: 11, endT: 83_000)])
        XCTAssertEqual(s.time.good, 90_000 - 64_000)
        XCTAssertEqual(s.time.noData, 1000 + 64_000)
    }

    /// Without reports a gap is longer than 10 s; shorter silences are not gaps.
    func test_summary_withoutReportsTheGapThresholdIs10s() {
        let s = run([(1000, .connState(state: .connected)), (9000, .appState(state: .background)),
                     (30_000, .appState(state: .foreground))], end: 30_000).summary
        XCTAssertEqual(s.gapThresholdMs, 10_000)
        XCTAssertEqual(s.gaps.map(\.durationMs), [21_000])
    }

    /// The summary's MOS range leaves out a side that published nothing (level unknown); Q1's
    /// evaluation still takes the smaller MOS of both sides.
    func test_summary_mosRangeLeavesOutAnUnknownSide() {
        let engine = run([(1000, report(.unknown, .good, pubMos: 1.0, subMos: 4.0)),
                          (3000, report(.good, .good, pubMos: 3.5, subMos: 4.2))], end: 5000)
        XCTAssertEqual(engine.summary.mosMin, 3.5)
        XCTAssertEqual(engine.summary.mosMax, 4.0)
        XCTAssertEqual(QualityEngine.evaluate(pub: sample(.unknown, mos: 1.0), sub: sample(.good, mos: 4.0)).mos, 1.0)
    }
}
