import Foundation
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
    func record(_ script: Script, in dir: String, _ adjust: (inout RecorderConfiguration) -> Void = { _ in }) throws -> ([Record], RecorderStatistics, ReplayResult) {
        let recorded = try Support.record(script, in: dir, adjust)
        XCTAssertTrue(recorded.files.allSatisfy { $0.hasPrefix("outbox/") }, "closed parts go to outbox/: \(recorded.files)")
        return (recorded.records, recorded.statistics, recorded.replay)
    }

    func test_recordedScenariosReplayWithTheirIntendedVerdictsAndFindings() throws {
        for (i, script) in Scenarios.all.enumerated() {
            let (records, stats, replay) = try record(script, in: dir + "/\(i)")
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
            Support.assertIntended(replay, script)
        }
    }

    /// The app is killed in the middle of a meeting and restarted: the new process's SDK starts with an
    /// unknown quality baseline and an empty speaker set, and says so in its callbacks. The part it
    /// begins is marked resumed and starts with a checkpoint; the session replays with no finding the
    /// restart causes (without the mark, the dead process's speaker set would give false warnings).
    func test_aMeetingKilledAndRestarted_replaysWithNoFindingCausedByTheRestart() throws {
        let script = Scenarios.thirtyMinuteMeeting()
        let recorded = try Support.record(script, in: dir) { $0.files.maxFileBytes = 64 << 10 }
        XCTAssertEqual(recorded.statistics.dropped, 0, "\(recorded.statistics)")
        Support.assertSameSteps(recorded.records, script)
        Support.assertIntended(recorded.replay, script)
        let parts = try Support.partsInOrder(recorded.files.map { dir + "/" + $0 })
        let headers = try parts.map { try Support.read($0).records.prefix(2) }
        let resumed = headers.filter { if case .header(let h) = $0.first?.body { return h.session?.resumed == true }; return false }
        XCTAssertEqual(resumed.count, 1, "exactly the part the restarted process began is marked")
        XCTAssertEqual(resumed.first?.first?.t, Scenarios.meetingRestartAt)
        for h in headers.dropFirst() {
            guard case .checkpoint = h.last?.body else { return XCTFail("every later part begins with a checkpoint: \(h)") }
        }
        // The control: the same records replayed as if the process had lived on. (The quality baseline the
        // new process starts with is also explained by its transport connecting anew, Q7.)
        let asIfOneProcess = Replay.run(records: recorded.records)
        XCTAssertTrue(asIfOneProcess.findings.contains { $0.code == .speakersMismatch }, "\(Set(asIfOneProcess.findings.map(\.code)))")
    }
}
