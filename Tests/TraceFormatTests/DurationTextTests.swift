import TraceFixtures
import TraceModel
import XCTest

/// `formatDuration` writes its digits into a buffer; it stays the text its definition below gives (string
/// interpolation, as it was first written), on the edges of every unit and on random spans of every size.
final class DurationTextTests: XCTestCase {
    /// The definition: seconds with three decimals, then minutes and hours, each after a larger unit in two digits.
    private func reference(_ ms: Int64) -> String {
        if ms < 0 { return "-" + reference(ms == .min ? .max : -ms) }
        let h = ms / 3_600_000, m = (ms / 60000) % 60, s = (ms / 1000) % 60, frac = ms % 1000
        let sec = "\(s).\(String(repeating: "0", count: 3 - String(frac).count))\(frac)s"
        if h > 0 { return "\(h)h \(m < 10 ? "0" : "")\(m)m \(s < 10 ? "0" : "")\(sec)" }
        if m > 0 { return "\(m)m \(s < 10 ? "0" : "")\(sec)" }
        return sec
    }

    func test_durationsAreWrittenAsTheirDefinitionGives() {
        XCTAssertEqual(formatDuration(3_723_456), "1h 02m 03.456s")
        XCTAssertEqual(formatDuration(61_005), "1m 01.005s")
        XCTAssertEqual(formatDuration(5), "0.005s")
        var values: [Int64] = [0, 1, 999, 1000, 59_999, 60_000, 3_599_999, 3_600_000, .max, .min, .max - 1, .min + 1]
        for edge in [Int64(1000), 60_000, 3_600_000] { values += [edge - 1, edge, edge + 1, -edge, 10 * edge - 1, 10 * edge] }
        var g = SplitMix64(seed: 31)
        for _ in 0..<20_000 { values.append(Int64(bitPattern: g.next()) >> Int64(g.below(63))) }
        for v in values { XCTAssertEqual(formatDuration(v), reference(v), "\(v)") }
    }
}
