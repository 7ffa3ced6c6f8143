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
