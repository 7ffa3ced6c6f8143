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
        let all = Replay.run(records: trace, options: ReplayOptions(maxFindings: 1_000_000))
        var counted: [FindingCode: Int] = [:]
        for f in all.findings { counted[f.code, default: 0] += 1 }
        XCTAssertGreaterThan(counted.count, 3, "the stress session raises findings of several codes")
        XCTAssertEqual(all.findingCounts, counted)
        // Written in the order each code was first counted: laid out, and so walked, as that dictionary is.
        XCTAssertEqual(Array(all.findingCounts.keys), Array(counted.keys))
        XCTAssertEqual(Array(all.findingCounts.values), Array(counted.values))
    }
}
