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
            let arena = ReplayArena()
            var reference: [Speaker] = []
            let limit = 1 + Int(g.next() % 12)
            for _ in 0..<40 {
                let speaking = (0..<Int(g.next() % 4)).map { _ in
                    Speaker(uid: "u\(g.next() % 6)", trackId: "t\(g.next() % 2)", level: Double(g.next() % 4) / 4)
                }
                let stopped = (0..<Int(g.next() % 3)).map { _ in SpeakerKey(uid: "u\(g.next() % 6)", trackId: "t\(g.next() % 2)") }
                let ignoredIndexed = engine.mergeIndexed(speaking: speaking, stopped: stopped, limit: limit, in: arena)
                let ignoredReference = QualityEngine.merge(into: &reference, speaking: speaking, stopped: stopped, limit: limit)
                XCTAssertEqual(engine.state.speakers, reference, "round \(round)")
                XCTAssertEqual(ignoredIndexed, ignoredReference, "round \(round)")
                // S3's content of the snapshot, kept up to date entry by entry, is the content of the whole.
                XCTAssertEqual(engine.speakersContent?.content, QualityEngine.content(reference, symbols: arena.symbols, tieOrderUnknown: false), "round \(round)")
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

    /// Updates large enough to be merged in one pass (more than `entryByEntryLimit` entries: repeated keys,
    /// keys both speaking and stopped, new speakers past the limit) give what merging entry by entry and
    /// re-sorting gives, and the content the entry-by-entry path keeps.
    func test_S1_S2_largeUpdatesMergedInOnePassEqualAFullMergeAndSort() {
        var g = SplitMix64(seed: 7)
        for round in 0..<60 {
            var engine = QualityEngine()
            let arena = ReplayArena()
            var reference: [Speaker] = []
            let limit = 20 + Int(g.next() % 200)
            for _ in 0..<12 {
                let large = g.next() % 3 != 0
                let speaking = (0..<Int(g.next() % (large ? 300 : 5))).map { _ in
                    Speaker(uid: "u\(g.next() % 250)", trackId: "t\(g.next() % 2)", level: Double(g.next() % 8) / 8)
                }
                let stopped = (0..<Int(g.next() % (large ? 60 : 3))).map { _ in SpeakerKey(uid: "u\(g.next() % 250)", trackId: "t\(g.next() % 2)") }
                let ignoredIndexed = engine.mergeIndexed(speaking: speaking, stopped: stopped, limit: limit, in: arena)
                let ignoredReference = QualityEngine.merge(into: &reference, speaking: speaking, stopped: stopped, limit: limit)
                XCTAssertEqual(engine.state.speakers, reference, "round \(round)")
                XCTAssertEqual(ignoredIndexed, ignoredReference, "round \(round)")
                XCTAssertEqual(engine.speakerIDs.count, reference.count, "round \(round)")
                XCTAssertEqual(engine.speakerLevels.count, reference.count > QualityEngine.scannedSetLimit ? reference.count : 0, "round \(round)")
                XCTAssertEqual(engine.speakersContent?.content, QualityEngine.content(reference, symbols: arena.symbols, tieOrderUnknown: false), "round \(round)")
            }
        }
    }

    /// An update of every speaker of a large set (each moving across the order) costs a pass over the set,
    /// not a move of the set per entry: 30 updates of 4,000 speakers move at most a few times 30 × 4,000
    /// entries (entry by entry they moved about 30 × 4,000 × 2,000). Counted, not timed; `make bench`
    /// gives the time ratio against 100 times fewer speakers.
    func test_S1_anUpdateOfTheWholeSetCostsAPassOverTheSetNotItsSquare() {
        var engine = QualityEngine()
        let arena = ReplayArena()
        let n = 4_000, updates = 30
        for u in 0..<updates {
            let speaking = (0..<n).map { i in Speaker(uid: "u\(i)", trackId: "mic", level: Double((i * 7_919 + u * 104_729) % 1_000) / 1_000) }
            _ = engine.mergeIndexed(speaking: speaking, stopped: [], in: arena)
        }
        XCTAssertEqual(engine.state.speakers.count, n)
        XCTAssertTrue(zip(engine.state.speakers, engine.state.speakers.dropFirst()).allSatisfy { QualityEngine.speakerOrder($0, $1) })
        XCTAssertLessThanOrEqual(engine.speakerSetWork, 4 * updates * n, "moves: \(engine.speakerSetWork)")
    }
}

extension QualityEngine {
    /// An update of strings, taken into `arena` as the replay takes a record, merged into the indexed set.
    mutating func mergeIndexed(speaking: [Speaker], stopped: [SpeakerKey], limit: Int = speakerLimit, in arena: ReplayArena) -> Bool {
        arena.reset()
        let r = arena.take(Record(seq: 0, t: 0, .speakers(speaking: speaking, stopped: stopped)))
        return mergeIndexed(arena, speaking: r.speaking, stopped: r.stopped, limit: limit)
    }
}
