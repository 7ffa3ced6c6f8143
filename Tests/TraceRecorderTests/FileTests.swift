import Foundation
import TestSupport
import TraceCodec
import TraceModel
@testable import TraceRecorder
import XCTest

/// The recorder's folder: rotation, caps (never the open file), outbox and kept traces, traces left
/// open by a crash (repaired and handed on, or continued), and sampling.
final class FileTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    let day: Int64 = 86_400_000

    func config(_ clock: ManualClock, session: String = "files", _ adjust: (inout RecorderConfiguration) -> Void = { _ in }) -> RecorderConfiguration {
        var c = RecorderConfiguration(directory: dir, layer: .smeeting, sdk: "SMeeting 3.2.1")
        c.clock = clock
        c.sessionId = session
        c.frame = .init(records: 20, milliseconds: 2000)
        adjust(&c)
        return c
    }

    /// Records `count` log lines of ~200 bytes each, 10 ms apart.
    func fill(_ recorder: TraceRecorder, _ clock: ManualClock, count: Int, seed: Int = 0) {
        var x = UInt64(seed + 1)
        for i in 0..<count {
            x = x &* 6364136223846793005 &+ 1442695040888963407
            recorder.record(.sdkLog(level: "debug", message: "line \(i) \(String(x, radix: 36)) " + String(repeating: String(x % 97, radix: 36), count: 150)))
            clock.advance(milliseconds: 10)
        }
    }

    func size(_ rel: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: dir + "/" + rel)[.size] as? Int) ?? 0 }

    func test_rotationKeepsTheFolderWithinItsCap_deletingTheOldestClosedPartsFirst() throws {
        let clock = ManualClock()
        let recorder = TraceRecorder(config(clock) { $0.files = .init(maxFileBytes: 4096, maxDirectoryBytes: 16_384) })
        fill(recorder, clock, count: 1500)
        XCTAssertTrue(recorder.close(timeout: 30))
        let stats = recorder.statistics
        XCTAssertGreaterThan(stats.files, 8, "4 KiB parts")
        let files = Support.traceFiles(dir)
        let parts = files.compactMap { TraceFileName(fileName: String($0.split(separator: "/").last!))?.part }
        XCTAssertEqual(parts, Array((stats.files - parts.count + 1)...stats.files), "the newest parts are kept: \(files)")
        XCTAssertLessThanOrEqual(files.reduce(0) { $0 + size($1) }, 16_384)
        XCTAssertGreaterThan(files.reduce(0) { $0 + size($1) } + 4096 + 2048, 16_384, "only as many parts as needed were deleted")
    }

    func test_capsNeverDeleteTheOpenFile() throws {
        let clock = ManualClock()
        let recorder = TraceRecorder(config(clock) { $0.files = .init(maxFileBytes: 2048, maxDirectoryBytes: 0) })
        fill(recorder, clock, count: 400)
        XCTAssertTrue(recorder.flush(timeout: 20))
        let files = Support.traceFiles(dir)
        XCTAssertEqual(files.count, 1, "every closed part is over the cap and deleted: \(files)")
        XCTAssertFalse(files[0].contains("/"), "the open part stays: \(files)")
        XCTAssertGreaterThan(recorder.statistics.files, 3)
        fill(recorder, clock, count: 10)
        XCTAssertTrue(recorder.isRecording)
        XCTAssertTrue(recorder.close(timeout: 20))
    }

    func test_closedFilesOlderThanTheAgeCapAreDeletedAtStart() throws {
        let clock = ManualClock()
        let old = TraceRecorder(config(clock, session: "old"))
        fill(old, clock, count: 50)
        XCTAssertTrue(old.close(timeout: 20))
        clock.advance(milliseconds: 2 * day)
        let recent = TraceRecorder(config(clock, session: "recent"))
        fill(recent, clock, count: 50)
        XCTAssertTrue(recent.close(timeout: 20))
        XCTAssertEqual(Support.traceFiles(dir).count, 2)
        // Six days later the first is 8 days old, the second 6.
        clock.advance(milliseconds: 6 * day)
        let now = TraceRecorder(config(clock, session: "now"))
        XCTAssertTrue(now.flush(timeout: 20))
        let files = Support.traceFiles(dir)
        XCTAssertEqual(files.count, 2, "\(files)")
        XCTAssertTrue(files.contains { $0.hasPrefix("outbox/") && $0.contains("-recent-") }, "\(files)")
        XCTAssertTrue(files.contains { !$0.contains("/") && $0.contains("-now-") }, "\(files)")
        XCTAssertTrue(now.close(timeout: 20))
    }

    func test_onDemandKeepsClosedTracesLocalUntilPromoted() throws {
        let clock = ManualClock()
        let first = TraceRecorder(config(clock, session: "kept") { $0.upload = .onDemand })
        fill(first, clock, count: 30)
        XCTAssertTrue(first.close(timeout: 20))
        XCTAssertEqual(Support.traceFiles(dir).map { $0.split(separator: "/").first! }, ["local"])
        XCTAssertEqual(TraceRecorder.outbox(in: dir), [])
        let logs = LogSink()
        let second = TraceRecorder(config(clock, session: "asked") { $0.upload = .onDemand; $0.files.maxFileBytes = 2048; $0.log = logs.add })
        fill(second, clock, count: 20)
        XCTAssertTrue(second.flush(timeout: 20))
        second.promoteKeptTraces()
        fill(second, clock, count: 100)   // rotates: later parts of a promoted session go to outbox/
        XCTAssertTrue(second.close(timeout: 20))
        let files = Support.traceFiles(dir)
        XCTAssertTrue(files.allSatisfy { $0.hasPrefix("outbox/") }, "\(files) \(logs.messages)")
        XCTAssertEqual(TraceRecorder.outbox(in: dir).count, files.count)
        XCTAssertTrue(files.contains { $0.contains("-kept-") })
    }

    /// A trace as a killed process leaves it: frames written, no end mark, optionally a torn last frame.
    func leaveOpenTrace(session: String, part: Int, records: Int, startWall: Int64, tornBytes: Int = 0) throws -> (path: String, lastT: Int64) {
        let name = TraceFileName(stamp: WallTime.stamp(startWall), session: session, part: part)
        let path = dir + "/" + name.fileName
        let w = try TraceWriter(path: path, options: .init(frameRecords: 8))
        try w.append(t: 0, .header(TraceHeader(layer: .smeeting, startedAt: WallTime.iso(startWall), session: .init(id: session, part: part))))
        for i in 1..<records { try w.append(t: Int64(i) * 100, .sdkLog(level: "debug", message: "before the crash \(i)")) }
        try w.close()
        // Cut the end mark (28 bytes) and `tornBytes` more: what SIGKILL mid-write leaves.
        let h = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let size = try h.seekToEnd()
        try h.truncate(atOffset: size - 28 - UInt64(tornBytes))
        try h.close()
        return (path, Int64(records - 1) * 100)
    }

    func test_traceLeftOpenByACrashIsRepairedAndHandedOn_newSessionBegins() throws {
        let clock = ManualClock()
        let left = try leaveOpenTrace(session: "crashed", part: 1, records: 40, startWall: clock.wallMilliseconds() - 60_000, tornBytes: 3)
        let logs = LogSink()
        let recorder = TraceRecorder(config(clock, session: "fresh") { $0.log = logs.add })
        recorder.record(.leaveChannel)
        XCTAssertTrue(recorder.close(timeout: 20))
        XCTAssertFalse(FileManager.default.fileExists(atPath: left.path))
        let files = Support.traceFiles(dir)
        XCTAssertEqual(files.count, 2)
        let crashed = try Support.read(dir + "/" + files.first { $0.contains("-crashed-") }!)
        XCTAssertEqual(crashed.problems, [], "repaired: torn tail cut, end mark written")
        XCTAssertEqual(crashed.records.count, 40, "the torn frame lost only its checksum: its lines are rescued")
        XCTAssertTrue(logs.messages.isEmpty, "\(logs.messages)")
        let fresh = try Support.joinParts([dir + "/" + files.first { $0.contains("-fresh-") }!])
        guard case .header(let h) = fresh[0].body else { return XCTFail() }
        XCTAssertEqual(h.session, .init(id: "fresh", part: 1))
    }

    func test_resumeContinuesARecentCrashedSessionAsItsNextPart() throws {
        let clock = ManualClock()
        let start = clock.wallMilliseconds() - 10_000
        let left = try leaveOpenTrace(session: "call-42", part: 3, records: 40, startWall: start)
        // The app restarts 10 s after the session began (its last record was at t = 3.9 s).
        let logs = LogSink()
        let recorder = TraceRecorder(config(clock, session: "ignored") { $0.resume = .leftOpen(withinSeconds: 120); $0.log = logs.add })
        recorder.record(.enterMeeting(room: "again"))
        clock.advance(milliseconds: 250)
        recorder.record(.exitMeeting)
        XCTAssertTrue(recorder.close(timeout: 20))
        XCTAssertEqual(recorder.sessionId, "call-42")
        let files = Support.traceFiles(dir)
        XCTAssertEqual(files.count, 2, "\(files)")
        let part3 = try Support.read(dir + "/outbox/" + URL(fileURLWithPath: left.path).lastPathComponent)
        XCTAssertEqual(part3.problems, [])
        let part4 = try Support.read(dir + "/" + files.first { $0.hasSuffix("p0004.trace.zst") }!)
        XCTAssertEqual(part4.problems, [], "a continuation part starts at its seq without complaint")
        guard case .header(let h) = part4.records[0].body else { return XCTFail() }
        XCTAssertEqual(h.session, .init(id: "call-42", part: 4))
        XCTAssertEqual(h.startedAt, WallTime.iso(start))
        XCTAssertEqual(part4.records.map(\.seq), [40, 41, 42])
        XCTAssertEqual(part4.records.map(\.t), [10_000, 10_000, 10_250], "t continues from the wall-clock time since the session began")
        XCTAssertTrue(logs.messages.contains { $0.contains("continuing session call-42 as part 4") }, "\(logs.messages)")
    }

    func test_resumeNeverGoesBelowTheLastTWritten() throws {
        // The wall clock was set back: the time since the session began is less than the last t.
        let clock = ManualClock()
        _ = try leaveOpenTrace(session: "skewed", part: 1, records: 40, startWall: clock.wallMilliseconds() - 1000)
        let recorder = TraceRecorder(config(clock) { $0.resume = .leftOpen(withinSeconds: 120) })
        recorder.record(.exitMeeting)
        XCTAssertTrue(recorder.close(timeout: 20))
        let part2 = try Support.read(dir + "/" + Support.traceFiles(dir).first { $0.hasSuffix("p0002.trace.zst") }!)
        XCTAssertEqual(part2.records.map(\.t), [3900, 3900])
    }

    func test_resumeStartsANewSessionWhenTheCrashedOneIsTooOld() throws {
        let clock = ManualClock()
        _ = try leaveOpenTrace(session: "stale", part: 1, records: 10, startWall: clock.wallMilliseconds() - 3_600_000)
        let recorder = TraceRecorder(config(clock, session: "new") { $0.resume = .leftOpen(withinSeconds: 120) })
        recorder.record(.exitMeeting)
        XCTAssertTrue(recorder.close(timeout: 20))
        XCTAssertEqual(recorder.sessionId, "new")
        let files = Support.traceFiles(dir)
        XCTAssertEqual(files.count, 2)
        XCTAssertTrue(files.allSatisfy { $0.hasSuffix("p0001.trace.zst") && $0.hasPrefix("outbox/") }, "\(files)")
    }

    func test_sampling_isDecidedBySessionId_andASessionNotSampledWritesNothing() throws {
        let ids = (0..<200).map { "s\($0)" }
        let sampled = ids.filter { TraceRecorder.isSampled(sessionId: $0, rate: 0.25) }
        XCTAssertEqual(Double(sampled.count) / 200, 0.25, accuracy: 0.08)
        XCTAssertEqual(sampled, ids.filter { TraceRecorder.isSampled(sessionId: $0, rate: 0.25) }, "the same decision every time")
        XCTAssertTrue(ids.allSatisfy { TraceRecorder.isSampled(sessionId: $0, rate: 1) })
        XCTAssertFalse(ids.contains { TraceRecorder.isSampled(sessionId: $0, rate: 0) })
        let out = ids.first { !TraceRecorder.isSampled(sessionId: $0, rate: 0.25) }!
        let clock = ManualClock()
        let recorder = TraceRecorder(config(clock, session: out) { $0.sampleRate = 0.25 })
        XCTAssertFalse(recorder.isRecording)
        recorder.record(.leaveChannel)
        XCTAssertEqual(recorder.statistics.ignored, 1)
        XCTAssertTrue(recorder.close(timeout: 20))
        XCTAssertEqual(Support.traceFiles(dir), [])
        let kept = TraceRecorder(config(clock, session: sampled[0]) { $0.sampleRate = 0.25 })
        XCTAssertTrue(kept.isRecording)
        XCTAssertTrue(kept.close(timeout: 20))
        XCTAssertEqual(Support.traceFiles(dir).count, 1)
    }
}

/// Collects log messages from the writer thread.
final class LogSink: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [RecorderLog] = []
    var add: @Sendable (RecorderLog) -> Void { { [self] m in lock.lock(); list.append(m); lock.unlock() } }
    var messages: [String] { lock.lock(); defer { lock.unlock() }; return list.map(\.message) }
    var entries: [RecorderLog] { lock.lock(); defer { lock.unlock() }; return list }
}
