import XCTest
@testable import Contract
import TraceFixtures

/// The halving the engines' ordered queues and the result's verdicts share (`partitionPoint`), and the
/// queue's removal by key built on it, against a scan.
final class OrderedQueueTests: XCTestCase {
    func test_thePartitionPointIsTheFirstElementNotBeforeTheOneSought_inEveryRange() {
        var g = SplitMix64(seed: 31)
        for _ in 0..<300 {
            let values = (0..<Int.random(in: 0...40, using: &g)).map { _ in Int.random(in: 0...20, using: &g) }.sorted()
            let low = Int.random(in: 0...values.count, using: &g), high = Int.random(in: low...values.count, using: &g)
            for sought in -1...21 {
                let scanned = values[low..<high].firstIndex { $0 >= sought } ?? high
                XCTAssertEqual(values.partitionPoint(in: low..<high) { $0 < sought }, scanned, "\(values) \(low)..<\(high) \(sought)")
            }
        }
    }

    func test_removingByKeyTakesTheElementWithThatKey_orNothing() {
        var g = SplitMix64(seed: 36)
        for _ in 0..<200 {
            // Distinct increasing keys, some of the oldest already removed.
            var keys = Array(Set((0..<Int.random(in: 0...30, using: &g)).map { _ in Int.random(in: 0...60, using: &g) })).sorted()
            var q = FIFOQueue<Int>()
            for k in keys { q.append(k) }
            for _ in 0..<Int.random(in: 0...keys.count, using: &g) { _ = q.removeFirst(); keys.removeFirst() }
            for _ in 0..<10 {
                let sought = Int.random(in: -1...61, using: &g)
                let expected = keys.firstIndex(of: sought)
                XCTAssertEqual(q.remove(key: { $0 }, equalTo: sought), expected.map { keys[$0] })
                if let expected { keys.remove(at: expected) }
                XCTAssertEqual(q.count, keys.count)
            }
        }
    }
}
