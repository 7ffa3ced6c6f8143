import Contract
@testable import Replay
import TraceFixtures
import TraceModel
import XCTest

/// The builder finds a kept verdict by its call's seq as a dictionary written at every kept verdict finds it
/// (a repeated seq: the last kept), while the seqs increase and after they stop increasing.
final class VerdictLookupTests: XCTestCase {
    func test_verdictForSeqIsTheLastKeptWithThatSeq() {
        // nil: the seqs only increase; otherwise the verdict at which they stop increasing.
        for outOfOrderFrom in [nil, 0, 1, 57, 299] as [Int?] {
            var g = SplitMix64(seed: 5)
            var builder = ResultBuilder(file: "calls", options: ReplayOptions())
            var expected: [Int: Int64] = [:]
            var seq = 0
            for n in 0..<300 {
                if let from = outOfOrderFrom, n >= from {
                    seq = Int(g.next() % 400)
                } else {
                    seq += 1 + Int(g.next() % 3)
                }
                let t = Int64(n)
                builder.add(Verdict(seq: seq, t: t, call: .setRoute, verdict: .applied, rule: .V1))
                expected[seq] = t
                if n % 37 == 0 || n == 299 {
                    for probe in -1...1_000 {
                        XCTAssertEqual(builder.verdict(for: probe)?.t, expected[probe], "seq \(probe) after \(n + 1) verdicts")
                    }
                }
            }
            XCTAssertEqual(builder.result.verdicts.count, 300)
        }
    }
}
