// The result's count of findings by code: counted by the code's place in the catalogue during the replay,
// written into the result's dictionary once, as counting into it finding by finding would have written it.
import Contract
@testable import Replay
import TraceFixtures
import TraceModel
import XCTest

final class FindingCountTests: XCTestCase {
    func test_eachCodeCountsAtItsPlaceInTheCatalogue() {
        for (i, code) in FindingCode.allCases.enumerated() {
            XCTAssertEqual(ResultBuilder.place(code), i, "\(code)")
        }
    }

    func test_theCountsAreThoseOfCountingEachFindingInTurn() {
        var g = BenchSession(.stress)
        let trace = (0..<20_000).map { _ in g.nextRecord() }
        let replayer = Replayer(file: "<memory>", options: ReplayOptions(maxFindings: 1_000_000))
        for r in trace { replayer.feed(r) }
        let all = replayer.finish()
        var counted: [FindingCode: Int] = [:]
        var firstSeen: [FindingCode] = []
        for f in all.findings {
            counted[f.code, default: 0] += 1
            if !firstSeen.contains(f.code) { firstSeen.append(f.code) }
        }
        XCTAssertGreaterThan(counted.count, 3, "the stress session raises findings of several codes")
        XCTAssertEqual(all.findingCounts, counted)
        // The dictionary is written in the order each code was first counted (every finding kept here, in the
        // order it was raised): with deterministic hashing it is laid out, and walked, as counting into it
        // finding by finding laid it out.
        XCTAssertEqual(replayer.core.builder.codesCounted, firstSeen)
    }
}
