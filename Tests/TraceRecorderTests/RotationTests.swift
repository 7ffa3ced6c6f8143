import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Replay
import TraceCodec
import TraceModel
@testable import TraceRecorder
import XCTest

/// A 30-minute meeting recorded with rotation every 64 KiB, the app killed (SIGKILL) at minute 12 and
/// restarted 5 s later, continuing the session: every part, read in part order, replays as one trace.
final class RotationTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Runs the simulated device (a child of this test executable); with `killWhenReady` it is killed
    /// with SIGKILL once it says what it recorded is on disk. The status is minus the signal that ended it.
    func runSim(_ args: [String], killWhenReady: Bool) -> (status: Int32, out: String, err: String) {
        let child = SimulatedDevice.start(args)
        var said = ""
        if killWhenReady {
            // The child writes one line once what it recorded is on disk, then blocks on its input.
            said = child.readLine()
            XCTAssertTrue(said.hasPrefix("ready"), "the simulated device did not get ready: \(said)")
            child.kill(SIGKILL)
        }
        let ended = child.wait()
        return (ended.status, said.isEmpty ? ended.out : said + "\n" + ended.out, ended.err)
    }

    func test_meetingRotatedEvery64KiB_killedAndRestarted_replaysAsOneTraceWithItsVerdicts() throws {
        let script = Scenarios.thirtyMinuteMeeting()
        let common = [dir, "meeting30", "--rotate", "65536", "--resume-within", "600"] + ["--compression", Support.compression]
        // First run: the app records until minute 12, and is killed there.
        let first = runSim(common + ["--until", String(Scenarios.meetingKillAt), "--block"], killWhenReady: true)
        XCTAssertEqual(first.status, -SIGKILL, "the first run must die by the kill")
        let afterKill = Support.traceFiles(dir)
        let leftOpen = afterKill.filter { !$0.contains("/") }
        XCTAssertEqual(leftOpen.count, 1, "the killed run leaves its open part at the top: \(afterKill)")
        XCTAssertGreaterThanOrEqual(afterKill.count, 2, "the first 12 minutes already rotated: \(afterKill)")
        let (killedRecords, killedProblems) = try Support.read(dir + "/" + leftOpen[0])
        XCTAssertEqual(killedProblems.map(\.kind), [.notClosed], "a killed writer's part only lacks its end mark")
        // Second run, 5 s later: continues the session.
        let second = runSim(common + ["--from", String(Scenarios.meetingRestartAt)], killWhenReady: false)
        XCTAssertEqual(second.status, 0, second.err)
        XCTAssertTrue(second.err.contains("continuing session sim-session as part"), second.err)
        let files = Support.traceFiles(dir)
        XCTAssertTrue(files.allSatisfy { $0.hasPrefix("outbox/") }, "every part is closed and handed on: \(files)")
        XCTAssertGreaterThanOrEqual(files.count, 4, "30 minutes at 64 KiB a part: \(files)")
        for f in files {
            let (_, problems) = try Support.read(dir + "/" + f)
            XCTAssertEqual(problems, [], "\(f) verifies cleanly once repaired and closed")
            XCTAssertLessThan(try FileManager.default.attributesOfItem(atPath: dir + "/" + f)[.size] as! Int, 65536 + 16384,
                              "a part ends at the first frame past the cap")
        }
        // The parts in part order: one trace, seq and t continuing, every step recorded at its time.
        let (records, headers) = try Support.joinPartsKeepingHeaders(files.map { dir + "/" + $0 })
        Support.assertSameSteps(records, script)
        XCTAssertEqual(records.map(\.t), records.map(\.t).sorted())
        // The continuation's header stands at the restart's wall-clock time since the session began.
        let killedLast = try XCTUnwrap(killedRecords.last)
        let killedPart = killedHeaderPart(killedRecords)
        XCTAssertGreaterThan(killedPart, 1, "the killed run had rotated")
        let resumed = try XCTUnwrap(headers.first { r in
            if case .header(let h) = r.body { return h.session?.part == killedPart + 1 }
            return false
        })
        XCTAssertEqual(resumed.seq, killedLast.seq + 1)
        XCTAssertEqual(resumed.t, Scenarios.meetingRestartAt)
        for h in headers {
            guard case .header(let header) = h.body else { continue }
            XCTAssertEqual(header.session?.id, "sim-session")
            XCTAssertEqual(header.startedAt, "2025-11-29T10:00:00.000Z", "every part names the session's start")
        }
        for h in headers.dropFirst() {
            guard case .header(let header) = h.body else { continue }
            XCTAssertEqual(header.session?.resumed, header.session?.part == killedPart + 1, "only the part after the kill is marked resumed")
        }
        Support.assertIntended((try Replay.run(TraceSession(paths: try Support.partsInOrder(files.map { dir + "/" + $0 })), unopened: .isAProblem)), script)
    }

    private func killedHeaderPart(_ records: [Record]) -> Int {
        if case .header(let h)? = records.first?.body { return h.session?.part ?? 0 }
        return 0
    }
}
