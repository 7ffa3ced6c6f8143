@testable import Reports
import TraceFixtures
import XCTest

/// `LabelLayout` without a browser: on random crowds of labels (seeded), the boxes drawn in each row never
/// overlap and stay inside the plot, and every label is drawn or counted by exactly one drawn label.
final class LabelLayoutTests: XCTestCase {
    func test_randomCrowds_noOverlap_insideThePlot_everyLabelDrawnOrCounted() {
        var rng = SplitMix64(seed: 0x1abe1)
        for round in 0..<500 {
            let n = Int.random(in: 1...80, using: &rng)
            let (lo, hi) = (132.0, 988.0)
            // Clustered x: many labels at nearly the same place, some spread out.
            let centres = (0..<3).map { _ in Double.random(in: lo...hi, using: &rng) }
            let items = (0..<n).map { _ in
                LabelLayout.Item(x: Bool.random(using: &rng) ? centres.randomElement(using: &rng)! + Double.random(in: 0...2, using: &rng)
                                     : Double.random(in: lo...hi, using: &rng),
                                 width: Double.random(in: 20...300, using: &rng))
            }.sorted { $0.x < $1.x }
            for side in [LabelLayout.Side.beside, .centred] {
                let rows = Int.random(in: 1...3, using: &rng), reserve = Double.random(in: 0...20, using: &rng)
                let spots = LabelLayout.place(items, rows: rows, from: lo, to: hi, side: side, reserve: reserve)
                var boxes: [[(Double, Double)]] = Array(repeating: [], count: rows)
                var counted = 0
                for (i, spot) in spots.enumerated() {
                    guard let spot else { continue }
                    let w = items[i].width + reserve
                    let left = spot.end ? spot.x - w : spot.x
                    XCTAssertGreaterThanOrEqual(left, lo - 1e-9, "round \(round)")
                    XCTAssertLessThanOrEqual(left + w, hi + 1e-9, "round \(round)")
                    for b in boxes[spot.row] { XCTAssertTrue(left >= b.1 + LabelLayout.gap - 1e-9 || left + w + LabelLayout.gap <= b.0 + 1e-9, "round \(round): overlap") }
                    boxes[spot.row].append((left, left + w))
                    counted += 1 + spot.more.count
                    for j in spot.more { XCTAssertNil(spots[j], "round \(round): a counted label is not drawn") }
                }
                XCTAssertEqual(counted, n, "round \(round): every label drawn or counted once")
                XCTAssertNotNil(spots.first { $0 != nil } ?? nil, "round \(round): the first label that fits is drawn")
            }
        }
    }

    /// A label reads after its x, before it in the last quarter of the plot; a centred one is centred.
    func test_sides() {
        let after = LabelLayout.place([.init(x: 200, width: 100)], rows: 1, from: 132, to: 988, side: .beside, reserve: 0)
        XCTAssertEqual(after, [LabelLayout.Spot(row: 0, x: 203, end: false)])
        let before = LabelLayout.place([.init(x: 900, width: 100)], rows: 1, from: 132, to: 988, side: .beside, reserve: 0)
        XCTAssertEqual(before, [LabelLayout.Spot(row: 0, x: 897, end: true)])
        let centred = LabelLayout.place([.init(x: 500, width: 100), .init(x: 501, width: 100)], rows: 1, from: 132, to: 988, side: .centred, reserve: 0)
        XCTAssertEqual(centred, [LabelLayout.Spot(row: 0, x: 450, end: false, more: [1]), nil])
    }
}
