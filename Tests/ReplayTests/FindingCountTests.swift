// The result's count of findings by code: counted by the code's place in the catalogue during the replay,
// written into the result's dictionary once, as counting into it finding by finding would have written it.
import Contract
@testable import Replay
import TestSupport
import TraceCodec
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

    /// The errors a replay counts as it raises findings are those of the findings it keeps, whether it
    /// builds them or only counts them, with the cap or without reaching it: for every code but
    /// `route.divergence`, a finding is an error exactly when its code's catalogue entry says so.
    func test_theErrorsCountedAreThoseOfTheKeptFindingsBuiltOrNot() throws {
        var errors = 0
        for name in Fixtures.goldenTraceNames() {
            for cap in [2000, 3] {
                let built = try Replay.run(TraceSession(paths: [Fixtures.trace(name)]), options: ReplayOptions(maxFindings: cap))
                for f in built.findings where f.code != .routeDivergence {
                    XCTAssertEqual(f.severity == .error, f.code.severity == .error, "\(name): \(f.code)")
                }
                let kept = built.findings.filter { $0.severity == .error && $0.code != .routeDivergence }.count
                XCTAssertEqual(built.keptErrorFindings, kept, name)
                var options = ReplayOptions(maxFindings: cap)
                options.buildsFindings = false
                let counted = try Replay.run(TraceSession(paths: [Fixtures.trace(name)]), options: options)
                XCTAssertEqual(counted.findings.count, 0, name)
                XCTAssertEqual(counted.keptErrorFindings, kept, name)
                XCTAssertEqual(counted.findingCounts, built.findingCounts, name)
                XCTAssertEqual(counted.verdictCount, built.verdictCount, name)
                XCTAssertEqual(counted.unexplainedDivergenceCount, built.unexplainedDivergenceCount, name)
                if cap == 2000 { errors += kept }
            }
        }
        XCTAssertGreaterThan(errors, 10, "the golden corpus raises errors")
    }
}
