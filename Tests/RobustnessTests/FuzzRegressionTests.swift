import Analysis
import CommandLineKit
import Foundation
import Replay
import Reports
import TestSupport
import TraceCodec
import TraceModel
import Workflows
import XCTest

/// Replays every input in fuzz/regressions (each one crashed or hung a fuzz target once) through
/// the same paths as the three fuzz targets, built normally: `swift test` keeps them fixed.
final class FuzzRegressionTests: XCTestCase {
    static let fuzzLimits = ReaderLimits(maxWindowLog: 20, maxLineBytes: 64 << 10, holdBytes: 64 << 10)

    /// Every renderer that takes a replay result (what the replay fuzz target runs).
    static func renderAll(_ result: ReplayResult, path: String) {
        var n = ExplainText.render(result).count + ExplainText.render(result, colour: true).count
        n += ExplainJSON.render(result).count + ExplainJSON.render(result, golden: true, pretty: true).count
        n += TimelineReport.divergences(result).count
        if let q = result.quality { n += QualityText.oneLine(q).count + QualityText.block(q, findings: result.findingCounts).count }
        n += JUnitXML.render([GoldenCheck.check(TraceSession(path: path))]).count
        XCTAssertGreaterThan(n, 0)
    }

    func test_everyFuzzRegressionInputIsHandled() throws {
        let dir = Support.root + "/fuzz/regressions"
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).filter { !$0.hasPrefix(".") }.sorted()
        XCTAssertFalse(names.isEmpty)
        let decoder = RecordDecoder()
        for name in names {
            let path = dir + "/" + name
            // Frames target.
            for limits in [Self.fuzzLimits, .standard] {
                let reader = try TraceReader(path: path, limits: limits)
                while reader.next() != nil {}
            }
            // Decoder target: every line, and a decoded record re-encodes to itself.
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            for (i, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
                guard let r = try? decoder.decode(Array(line), lineNumber: i + 1) else { continue }
                var w = JSONWriter()
                r.encode(into: &w)
                if case .unknown = r.body { continue }
                XCTAssertEqual(try decoder.decode(w.bytes), r, "\(name) line \(i + 1)")
            }
            // Replay target.
            var steps = 0
            let result = try Replay.run(TraceSession(path: path), limits: Self.fuzzLimits, observer: { step in
                steps += TimelineReport.line(step).count + TimelineReport.json(step).count
            })
            Self.renderAll(result, path: path)
        }
    }
}
