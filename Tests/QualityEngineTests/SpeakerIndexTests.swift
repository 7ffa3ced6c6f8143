@testable import QualityEngine
import TraceFixtures
import TraceModel
import XCTest

/// The indexed speaker set gives exactly what merging and re-sorting the whole set gives (S1, S2),
/// and a million new speakers cost a lookup each once the set is full.
final class SpeakerIndexTests: XCTestCase {
    func test_S1_S2_indexedMergeEqualsAFullMergeAndSort() {
        var g = SplitMix64(seed: 42)
        for round in 0..<200 {
            var engine = QualityEngine()
            var reference: [Speaker] = []
            let limit = 1 + Int(g.next() % 12)
            for _ in 0..<40 {
                let speaking = (0..<Int(g.next() % 4)).map { _ in
                    Speaker(uid: "u\(g.next() % 6)", trackId: "t\(g.next() % 2)", level: Double(g.next() % 4) / 4)
                }
                let stopped = (0..<Int(g.next() % 3)).map { _ in SpeakerKey(uid: "u\(g.next() % 6)", trackId: "t\(g.next() % 2)") }
                let ignoredIndexed = engine.mergeIndexed(speaking: speaking, stopped: stopped, limit: limit)
                let ignoredReference = QualityEngine.merge(into: &reference, speaking: speaking, stopped: stopped, limit: limit)
                XCTAssertEqual(engine.state.speakers, reference, "round \(round)")
                XCTAssertEqual(ignoredIndexed, ignoredReference, "round \(round)")
                // S3's content of the snapshot, kept up to date entry by entry, is the content of the whole.
                XCTAssertEqual(engine.speakersContent?.content, QualityEngine.content(reference, tieOrderUnknown: false), "round \(round)")
            }
        }
    }

    /// Many distinct speakers: the set stops at its limit, the limit is reported once, and each
    /// further update is a lookup (this runs 200,000 of them; `make bench` times 100,000 against
    /// 1,000,000 for the ratio).
    func test_limit_manyNewSpeakersStopAtTheLimitAndAreReportedOnce() {
        var engine = QualityEngine()
        var limitFindings = 0
        for i in 0..<200_000 {
            let out = engine.apply(Record(seq: i + 1, t: Int64(i), .speakers(
                speaking: [Speaker(uid: "u\(i)", trackId: "mic", level: Double(i % 100) / 100)], stopped: [])))
            for case .finding(let f) in out where f.code == .traceLimitExceeded { limitFindings += 1 }
        }
        XCTAssertEqual(engine.state.speakers.count, QualityEngine.speakerLimit)
        XCTAssertEqual(limitFindings, 1)
        XCTAssertTrue(zip(engine.state.speakers, engine.state.speakers.dropFirst()).allSatisfy { QualityEngine.speakerOrder($0, $1) })
    }
}
