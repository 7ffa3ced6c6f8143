@testable import Replay
import TraceFixtures
import TraceModel
import XCTest

/// The record index finds each record by its seq as a dictionary written at every record indexed finds it
/// (a repeated seq: the last indexed), whether the seqs increase, repeat, go back, or jump far apart.
final class RecordIndexTests: XCTestCase {
    func test_recordForSeqIsTheLastIndexedWithThatSeq() {
        // How each next seq is drawn: increasing, repeating or going back, jumping past the table's reach.
        // The n-th seq, from the one before.
        let draws: [(String, (inout SplitMix64, Int, Int) -> Int)] = [
            ("increasing", { g, seq, _ in seq + 1 + Int(g.next() % 3) }),
            ("repeating", { g, seq, _ in seq + Int(g.next() % 3) }),
            ("any order above the first", { g, _, n in n == 0 ? 0 : Int(g.next() % 400) }),
            ("any order", { g, _, _ in Int(g.next() % 400) }),
            ("far apart", { g, seq, _ in g.next() % 5 == 0 ? seq + 1_000_000 : seq + 1 }),
            ("negative", { g, _, _ in Int(g.next() % 400) - 200 }),
        ]
        for (name, draw) in draws {
            var g = SplitMix64(seed: 7)
            var index = RecordIndex()
            var expected: [Int: Int64] = [:]
            var order: [Int] = []
            var seq = 0
            for n in 0..<300 {
                seq = draw(&g, seq, n)
                let t = Int64(n)
                index.set(seq, IndexedRecord(t: t, body: .setDefaultRoute(target: n % 2 == 0 ? .speaker : .earpiece)))
                if expected.updateValue(t, forKey: seq) == nil { order.append(seq) }
                if n % 37 == 0 || n == 299 {
                    for probe in Set(expected.keys).union(-250...450) {
                        XCTAssertEqual(index[probe]?.t, expected[probe], "\(name): seq \(probe) after \(n + 1) records")
                    }
                    XCTAssertEqual(index.count, expected.count, name)
                }
            }
            // Each seq once, with its last record, in the order the seqs were first indexed.
            XCTAssertEqual(index.map(\.key), order, name)
            XCTAssertEqual(index.map(\.value.t), order.map { expected[$0]! }, name)
            XCTAssertEqual(index[seq]?.target, (299 % 2 == 0 ? RouteTarget.speaker : .earpiece), name)
        }
    }
}
