import Foundation
import RecorderSimulation
import Replay
import TestSupport
import TraceModel
@testable import TraceRecorder
import XCTest

/// A simulated device records realistic sessions from several threads; the files, read back and
/// replayed, give exactly the verdicts and findings each script intends.
final class ScenarioTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// The scripts themselves, replayed as an ideal recorder would write them, give what they intend.
    func test_scriptsReplayedDirectlyGiveTheirIntendedVerdicts() {
        for script in Scenarios.all + [Scenarios.thirtyMinuteMeeting()] {
            let r = Replay.run(records: script.records())
            Support.assertIntended(r, script)
        }
    }

    /// Records a script with a recorder driven by a manual clock from four threads; returns the folder's
    /// closed parts joined, and the recorder's statistics.
    func record(_ script: Script, in dir: String, _ adjust: (inout RecorderConfiguration) -> Void = { _ in }) throws -> ([Record], RecorderStatistics) {
        let recorded = try Support.record(script, in: dir, adjust)
        XCTAssertTrue(recorded.files.allSatisfy { $0.hasPrefix("outbox/") }, "closed parts go to outbox/: \(recorded.files)")
        return (recorded.records, recorded.statistics)
    }

    func test_recordedScenariosReplayWithTheirIntendedVerdictsAndFindings() throws {
        for (i, script) in Scenarios.all.enumerated() {
            let (records, stats) = try record(script, in: dir + "/\(i)")
            XCTAssertEqual(stats.dropped, 0)
            XCTAssertEqual(stats.accepted, script.steps.count)
            Support.assertSameSteps(records, script)
            XCTAssertEqual(records.map(\.seq), Array(0..<records.count), "seq is assigned in writing order")
            XCTAssertEqual(records.map(\.t), records.map(\.t).sorted(), "t never goes backwards")
            guard case .header(let h) = records[0].body else { return XCTFail("no header") }
            XCTAssertEqual(h.layer, script.layer)
            XCTAssertEqual(h.session?.part, 1)
            XCTAssertEqual(h.startedAt, "2025-11-29T10:00:00.000Z")
            XCTAssertNil(h.redacted)
            Support.assertIntended(Replay.run(records: records), script)
        }
    }
}
