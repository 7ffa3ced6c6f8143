@testable import QualityEngine
import TraceModel
import XCTest

/// T2: the check every quality report makes (`anyOutOfRange`) finds a value out of range exactly where the
/// documented ranges (`sampleRanges`) find one, for every field, on either side, at and past every bound.
final class SampleRangeTests: XCTestCase {
    func test_T2_anyOutOfRangeAgreesWithTheDocumentedRanges() {
        let values: [Double?] = [nil, -.infinity, -1, -0.5, -0.0, 0, 0.5, 0.99, 1, 1.5, 4.5, 4.51, 100, 100.5, 1e9, .infinity]
        let fields: [WritableKeyPath<QualitySample, Double?>] = [\.score, \.mos, \.loss, \.rtt, \.jitter, \.bitrate]
        var outOfRange = 0
        for field in fields {
            for value in values {
                for onSub in [false, true] {
                    // The other values in range: only this one decides.
                    var pub = QualitySample(level: .good, score: 50, mos: 3, loss: 0.1, rtt: 40, jitter: 5, bitrate: 500)
                    var sub = pub
                    if onSub { sub[keyPath: field] = value } else { pub[keyPath: field] = value }
                    let documented = QualityEngine.sampleRanges.contains { _, read, range in
                        [read(pub), read(sub)].contains { $0.map { !range.contains($0) } ?? false }
                    }
                    if documented { outOfRange += 1 }
                    XCTAssertEqual(QualityEngine.anyOutOfRange(pub, sub), documented, "\(field) = \(String(describing: value)), sub: \(onSub)")
                }
            }
        }
        // The grid reaches past the bounds of every field.
        XCTAssertGreaterThan(outOfRange, 6 * 2 * 2)
    }
}
