@testable import Analysis
import TraceFixtures
import XCTest

/// The explanation's indexes answer as the scans they replace: the last and the first item at or before
/// a time, in the list's own order, whether or not the times are sorted.
final class TimeLookupTests: XCTestCase {
    func test_answersAsTheLinearScansDo() {
        var g = SplitMix64(seed: 12)
        for round in 0..<400 {
            let count = g.below(40)
            var times = (0..<count).map { _ in Int64(g.below(50)) }
            if round % 2 == 0 { times.sort() }  // a replay's times are sorted; a damaged trace's need not be
            let last = LastAtOrBefore(times), first = FirstAtOrBefore(times)
            for t in Int64(-2)...52 {
                XCTAssertEqual(last.index(atOrBefore: t), times.lastIndex { $0 <= t }, "\(times) last at or before \(t)")
                XCTAssertEqual(first.index(atOrBefore: t), times.firstIndex { $0 <= t }, "\(times) first at or before \(t)")
            }
        }
    }
}

/// The system log's window index answers as the filter it replaces, with slacks of any size and times
/// sorted or not.
final class OverlappingSpansTests: XCTestCase {
    func test_answersAsTheLinearFilterDoes() {
        var g = SplitMix64(seed: 31)
        for round in 0..<400 {
            let count = g.below(40)
            var times = (0..<count).map { _ in Int64(g.below(60)) }
            if round % 2 == 0 { times.sort() }
            let slacks = (0..<count).map { _ in round % 3 == 0 ? 0 : Int64(g.below(8)) }
            let index = OverlappingSpans(times: times, slacks: slacks)
            for from in Int64(-10)...65 {
                let to = from + Int64(g.below(12))
                let expected = times.indices.filter { times[$0] + slacks[$0] >= from && times[$0] - slacks[$0] <= to }
                XCTAssertEqual(index.indices(meeting: from, to), expected, "\(times) ± \(slacks) meeting \(from)...\(to)")
            }
        }
    }
}
