import Analysis
import Foundation
import Replay
import Reports
import TestSupport
import TraceModel
import XCTest

/// Every golden trace shifted to the top of the valid time range (2^53 ms) replays to the same
/// verdicts, findings and divergences, and every renderer survives it: no deadline, duration or
/// time axis overflows.
final class TimeShiftTests: XCTestCase {
    static let top: Int64 = 1 << 53

    func test_everyGoldenTraceShiftedToTheTopOfTheTimeRangeReplaysTheSame() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.root + "/traces")
            .filter { $0.hasSuffix(".jsonl") || $0.hasSuffix(".zst") }.sorted()
        XCTAssertGreaterThan(names.count, 20)
        for name in names {
            let records = try TraceFiles.load(Fixtures.trace(name))
            let last = records.map(\.t).max() ?? 0
            let shift = Self.top - last
            let shifted = records.map { Record(seq: $0.seq, t: $0.t + shift, $0.body) }
            let before = Replay.run(records: records), after = Replay.run(records: shifted)
            XCTAssertEqual(before.verdicts.map { "\($0.seq) \($0.verdict) \($0.cause.map(\.rawValue) ?? "-")" },
                           after.verdicts.map { "\($0.seq) \($0.verdict) \($0.cause.map(\.rawValue) ?? "-")" }, name)
            XCTAssertEqual(before.findingCounts, after.findingCounts, name)
            XCTAssertEqual(before.findings.map(\.seqs), after.findings.map(\.seqs), name)
            XCTAssertEqual(before.divergences.count, after.divergences.count, name)
            XCTAssertEqual(before.divergences.map(\.explainedBy), after.divergences.map(\.explainedBy), name)
            XCTAssertEqual(before.failedExpectations.map(\.seq), after.failedExpectations.map(\.seq), name)
            // Every renderer, at the top of the range.
            let lanes = ReportLanes(), recorder = ChromeTraceObserver()
            let observed = Replay.run(records: shifted, observer: { lanes.observe($0); recorder.observe($0) })
            XCTAssertFalse(HTMLReport.render(observed, lanes: lanes.lanes(for: observed)).isEmpty, name)
            XCTAssertFalse(ChromeTrace.render(observed, observer: recorder).isEmpty, name)
            XCTAssertFalse(ExplainText.render(observed, colour: false).isEmpty, name)
            XCTAssertFalse(ExplainJSON.render(observed).isEmpty, name)
        }
    }
}
