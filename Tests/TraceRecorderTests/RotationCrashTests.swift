import Foundation
import Replay
@_spi(FaultInjection) import SystemLayer
import TestSupport
import TraceCodec
import TraceModel
@testable import TraceRecorder
import XCTest

/// The recorder killed at every step of its writing, rotation included: a child records a session
/// in parts of 1 KiB and kills itself (SIGKILL) right after its Nth change on the disk (a write, the
/// rename that publishes a new part or hands a closed one on, a removal), for every N up to the last; a second recorder then continues the session in the same folder. Whatever the
/// step, the folder holds one session that replays: no part breaks it, the seqs run on from part to
/// part, and every record the first process framed before the kill is there.
final class RotationCrashTests: XCTestCase {
    static let role = TestChildRole(name: "rotate-and-die", entry: "TraceRecorderTests.RotationCrashTests/test_killedAfterEveryWrite_theSessionAlwaysReplays",
                                    run: runChild)
    static let session = "crash-during-rotation"
    static let startWall: Int64 = 1_764_410_400_000

    static func configuration(_ dir: String, _ clock: ManualClock) -> RecorderConfiguration {
        var c = Support.configuration(dir, layer: .smeeting, sdk: "SMeeting 3.2.1", clock: clock)
        c.sessionId = session
        c.frame = .init(records: 6, milliseconds: 60_000)
        c.files.maxFileBytes = 1024
        c.sync = .everyFrame
        c.resume = .leftOpen(withinSeconds: 600)
        return c
    }

    /// The child: DIR N [torn]. Records 90 log lines, killing itself after its Nth change on the disk (never,
    /// when there are fewer), or with `torn` in the middle of its Nth write (half of its bytes written).
    /// Prints the number of renames, writes and changes it made when it was not killed.
    static func runChild(_ args: [String]) -> Int32 {
        guard args.count >= 2, let n = Int(args[1]) else { return 64 }
        final class Renames: @unchecked Sendable { var count = 0 }
        let renames = Renames()
        if args.count == 3 && args[2] == "torn" {
            SystemFaults.injector = FaultInjector(write: { $0.number == n ? .shortWrite($0.count / 2) : nil },
                                                  written: { attempt, _ in if attempt.number == n { kill(getpid(), SIGKILL) } })
        } else {
            SystemFaults.injector = FaultInjector(step: { number, step in
                if step == .renamed { renames.count += 1 }
                if number >= n { kill(getpid(), SIGKILL) }
            })
        }
        let clock = ManualClock(wallMilliseconds: startWall)
        let recorder = TraceRecorder(configuration(args[0], clock))
        for i in 0..<90 {
            clock.advance(milliseconds: 100)
            recorder.record(.sdkLog(level: "debug", message: "before the crash \(i) " + String(repeating: "x", count: i % 40)))
            if i % 6 == 5 { _ = recorder.waitUntilWriterIdle() }
        }
        _ = recorder.close(timeout: 30)
        let faults = SystemFaults.injector
        FileHandle.standardOutput.write(Data("renames \(renames.count) writes \(faults?.writeCount ?? 0) steps \(faults?.stepCount ?? 0)\n".utf8))
        return 0
    }

    func test_killedAfterEveryWrite_theSessionAlwaysReplays() throws {
        if TestChild.runIfAsked([Self.role]) { return }
        // How many changes a whole run makes on the disk: every step up to it is a kill point.
        let probeDir = Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: probeDir) }
        let whole = TestChild.start(Self.role, [probeDir, String(Int.max)]).wait()
        XCTAssertEqual(whole.status, 0, whole.err)
        let words = whole.out.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        func count(_ key: String) throws -> Int {
            try XCTUnwrap(words.firstIndex(of: key).flatMap { $0 + 1 < words.count ? Int(words[$0 + 1]) : nil }, whole.out)
        }
        let steps = try count("steps"), renames = try count("renames"), writes = try count("writes")
        XCTAssertGreaterThan(steps, 20, "the run rotated through several parts: \(whole.out)")
        XCTAssertGreaterThan(renames, 2, "kill points include the renames of rotation: \(whole.out)")
        let dir = Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Killed after each change, then in the middle of each write.
        for (n, torn) in (1...steps).map({ ($0, false) }) + (1...writes).map({ ($0, true) }) {
            try? FileManager.default.removeItem(atPath: dir)
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let killed = TestChild.start(Self.role, [dir, String(n)] + (torn ? ["torn"] : [])).wait()
            XCTAssertEqual(killed.status, -SIGKILL, "step \(n)\(torn ? " (torn)" : ""): the child dies there")
            // The app starts again 30 s after the session began and continues it.
            let clock = ManualClock(wallMilliseconds: Self.startWall + 30_000)
            let again = TraceRecorder(Self.configuration(dir, clock))
            again.record(.enterMeeting(room: "again"))
            clock.advance(milliseconds: 500)
            again.record(.exitMeeting)
            XCTAssertTrue(again.close(timeout: 30), "step \(n)")
            try assertOneSessionReplays(dir, step: n)
        }
    }

    /// The folder's parts form one session (parts holding no record aside), read without damage once
    /// repaired, their seqs running on from part to part, and the replay reads every record.
    func assertOneSessionReplays(_ dir: String, step n: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        var list = PathList()
        for f in Support.traceFiles(dir) { list.append(dir + "/" + f) }
        let traces = TraceSession.group(list, jobs: 1).all.filter { !($0.id == nil && $0.paths.count == 1 && TraceSession.holdsNoRecord($0.paths[0])) }
        XCTAssertEqual(traces.count, 1, "step \(n): one session in \(Support.traceFiles(dir))", file: file, line: line)
        guard let trace = traces.first else { return }
        XCTAssertEqual(trace.id, Self.session, "step \(n)", file: file, line: line)
        var seqs: [Int] = []
        for p in trace.paths {
            let (records, problems) = try Support.read(p)
            XCTAssertEqual(problems, [], "step \(n): \(p) reads without damage once repaired and closed", file: file, line: line)
            seqs += records.map(\.seq)
        }
        XCTAssertTrue(zip(seqs, seqs.dropFirst()).allSatisfy { $1 == $0 + 1 }, "step \(n): the seqs run on from part to part: \(seqs)",
                      file: file, line: line)
        let replay = try Replay.run(TraceSession(paths: trace.paths), unopened: .isAProblem)
        XCTAssertEqual(replay.records, seqs.count, "step \(n): the replay reads every record", file: file, line: line)
        XCTAssertEqual(replay.problems.filter { $0.kind != .seqGap }, [], "step \(n)", file: file, line: line)
    }
}
