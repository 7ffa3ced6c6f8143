// Findings past the kept cap are counted without being built: the counts, the kept findings and what they
// explain are those of a replay that builds every finding.
import Contract
import Replay
import TraceFixtures
import TraceModel
import XCTest

final class FindingCapTests: XCTestCase {
    func records(_ kind: BenchSession.Kind, _ n: Int) -> [Record] {
        var g = BenchSession(kind)
        return (0..<n).map { _ in g.nextRecord() }
    }

    func test_findingsPastTheCapAreCountedAsIfBuilt() {
        let trace = records(.stress, 20_000)
        var capped = ReplayOptions()
        capped.maxFindings = 40
        let all = Replay.run(records: trace, options: ReplayOptions(maxFindings: 1_000_000))
        let few = Replay.run(records: trace, options: capped)
        XCTAssertGreaterThan(all.findings.count, 1000, "the stress session raises findings at a high rate")
        XCTAssertEqual(few.findingCounts, all.findingCounts)
        XCTAssertEqual(few.findings, Array(all.findings.prefix(40)))
        XCTAssertEqual(few.findingsDropped, all.findings.count - 40)
        XCTAssertEqual(few.divergenceCount, all.divergenceCount)
        XCTAssertEqual(few.unexplainedDivergenceCount, all.unexplainedDivergenceCount)
        XCTAssertEqual(few.divergences.map(\.explainedBy), all.divergences.map(\.explainedBy))
        // An observer sees every finding of the steps built, past the cap too (a checkpoint's comparison is
        // no step of its own).
        var observed = 0
        let watched = Replay.run(records: trace, options: capped) { step in observed += step.findings.count }
        XCTAssertEqual(observed + (all.findingCounts[.traceCheckpointMismatch] ?? 0), all.findings.count)
        XCTAssertEqual(watched.findingCounts, all.findingCounts)
        XCTAssertEqual(watched.findings, few.findings)
    }
}

/// The replay's table of distinct strings is bounded: past its limit new strings count as one, and the
/// result says so once, at the record that found no room.
final class SymbolLimitTests: XCTestCase {
    func test_pastTheLimitOfDistinctStringsTheResultSaysSo() {
        var records = [Record(seq: 0, t: 0, .header(TraceHeader(layer: .srtc)))]
        for i in 1...40 {
            records.append(Record(seq: i, t: Int64(i * 10), .speakers(speaking: [Speaker(uid: "u\(i)", trackId: "mic", level: 0.5)], stopped: [])))
        }
        var options = ReplayOptions()
        options.maxDistinctStrings = 10
        let small = Replay.run(records: records, options: options)
        let limits = small.findings.filter { $0.code == .traceLimitExceeded }
        XCTAssertEqual(limits.count, 1)
        XCTAssertTrue(limits[0].message.contains("10 distinct strings"), limits[0].message)
        // Within the limit nothing is said.
        XCTAssertFalse(Replay.run(records: records).findings.contains { $0.code == .traceLimitExceeded })
    }
}
