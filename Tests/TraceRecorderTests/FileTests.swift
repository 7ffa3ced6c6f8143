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
        var c = Support.configuration(dir, layer: .smeeting, sdk: "SMeeting 3.2.1", clock: clock)
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
        // The newest parts are kept, in a run; the last one started is missing only when it held nothing but
        // its header and checkpoint at the close (removed then, never handed on).
        let newest = try XCTUnwrap(parts.last)
        XCTAssertEqual(parts, Array((newest - parts.count + 1)...newest), "the newest parts are kept: \(files)")
        XCTAssertTrue(newest == stats.files || newest == stats.files - 1, "the newest parts are kept: \(files), \(stats.files) started")
        XCTAssertLessThanOrEqual(files.reduce(0) { $0 + size($1) }, 16_384)
        // A part ends at the first frame past its cap: a compressed frame of 20 lines is under 2 KiB, a
        // stored one holds the lines as they are (about 250 bytes each here).
        let frameBytes = Support.compression == "stored" ? 20 * 300 : 2048
        XCTAssertGreaterThan(files.reduce(0) { $0 + size($1) } + 4096 + frameBytes, 16_384, "only as many parts as needed were deleted")
    }

    func test_capsNeverDeleteTheOpenFile() throws {
        let clock = ManualClock()
        let recorder = TraceRecorder(config(clock) { $0.files = .init(maxFileBytes: 2048, maxDirectoryBytes: 0) })
        fill(recorder, clock, count: 400)
        XCTAssertTrue(recorder.flush(timeout: 20))
        let files = Support.traceFiles(dir)
        XCTAssertEqual(files.filter { $0.contains("/") }, [], "every closed part handed on is over the cap and deleted: \(files)")
        // The open part stays, and so does the part closed at its cap while the open one holds no record.
        XCTAssertTrue(files.count == 1 || files.count == 2, "the open part stays: \(files)")
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

    /// A part as a killed process leaves it: a recorder of session `session` writes `records` records
    /// (the header at t 0, then one every 100 ms), its frames of 8 are on disk, and it dies; the last
    /// `tornBytes` bytes of the file are then cut, as a write a crash interrupted leaves them.
    func leaveOpenPart(session: String, startWall: Int64, records: Int, tornBytes: Int = 0,
                       _ adjust: (inout RecorderConfiguration) -> Void = { _ in }) throws -> (path: String, lastT: Int64, framed: Int) {
        let clock = ManualClock(wallMilliseconds: startWall)
        var c = config(clock, session: session)
        c.frame = .init(records: 8, milliseconds: 60_000)
        adjust(&c)
        let r = TraceRecorder(c)
        for i in 1..<records {
            clock.advance(milliseconds: 100)
            r.record(.sdkLog(level: "debug", message: "before the crash \(i)"))
        }
        XCTAssertTrue(r.waitUntilWriterIdle())
        let framed = r.framedSeq
        r.simulateCrash()
        // At the top: the open part, and before it the part closed at its cap when the open one holds no
        // record yet (it waits there until then, so that a close removing the open one leaves it to continue from).
        let open = Support.traceFiles(dir).filter { !$0.contains("/") }
        XCTAssertTrue(open.count == 1 || (open.count == 2 && open.allSatisfy { $0.contains("-\(session)-") }),
                      "the killed run leaves its open part at the top: \(open)")
        let path = dir + "/" + open.last!
        if tornBytes > 0 {
            let h = try FileHandle(forUpdating: URL(fileURLWithPath: path))
            let size = try h.seekToEnd()
            try h.truncate(atOffset: size - UInt64(tornBytes))
            try h.close()
        }
        return (path, Int64(records - 1) * 100, framed)
    }

    func test_partLeftOpenByACrashIsRepairedAndHandedOn_newSessionBegins() throws {
        let clock = ManualClock()
        // 40 records: frames of 8 written through seq 39 (the header, then 4 frames of 8, the rest lost
        // with the process); the last frame's write was then cut short.
        let left = try leaveOpenPart(session: "crashed", startWall: clock.wallMilliseconds() - 60_000, records: 41, tornBytes: 3)
        XCTAssertEqual(left.framed, 40)
        let logs = LogSink()
        let recorder = TraceRecorder(config(clock, session: "fresh") { $0.log = logs.add })
        recorder.record(.leaveChannel)
        XCTAssertTrue(recorder.close(timeout: 20))
        XCTAssertFalse(FileManager.default.fileExists(atPath: left.path))
        let files = Support.traceFiles(dir)
        XCTAssertEqual(files.count, 2)
        let crashed = try Support.read(dir + "/" + files.first { $0.contains("-crashed-") }!)
        XCTAssertEqual(crashed.problems, [], "repaired: torn frame cut, end mark written")
        XCTAssertEqual(crashed.records.map(\.seq), Array(0...32), "the frame the cut tore is gone; every whole one stays")
        XCTAssertTrue(logs.messages.contains { $0.contains("bytes a crash left unfinished off the end; it ends at seq 32") }, "\(logs.messages)")
        let fresh = try Support.joinParts([dir + "/" + files.first { $0.contains("-fresh-") }!])
        guard case .header(let h) = fresh[0].body else { return XCTFail() }
        XCTAssertEqual(h.session, .init(id: "fresh", part: 1))
    }

    func test_resumeContinuesARecentCrashedSessionAsItsNextPart_markedResumed_withACheckpoint() throws {
        let clock = ManualClock()
        let start = clock.wallMilliseconds() - 10_000
        let left = try leaveOpenPart(session: "call-42", startWall: start, records: 40) { $0.files.maxFileBytes = 1024 }
        XCTAssertGreaterThan(Support.traceFiles(dir).count, 1, "the killed run had rotated")
        let part = TraceFileName(fileName: URL(fileURLWithPath: left.path).lastPathComponent)!.part
        // The app restarts 10 s after the session began (its last record was at t = 3.9 s).
        let logs = LogSink()
        let known = TraceCheckpoint(defaultRoute: .speaker, engaged: false, micPermission: .granted)
        let recorder = TraceRecorder(config(clock, session: "ignored") {
            $0.resume = .leftOpen(withinSeconds: 120)
            $0.log = logs.add
            $0.checkpoint = { known }
        })
        recorder.record(.enterMeeting(room: "again"))
        clock.advance(milliseconds: 250)
        recorder.record(.exitMeeting)
        XCTAssertTrue(recorder.close(timeout: 20))
        XCTAssertEqual(recorder.sessionId, "call-42")
        let crashed = try Support.read(dir + "/outbox/" + URL(fileURLWithPath: left.path).lastPathComponent)
        XCTAssertEqual(crashed.problems, [])
        let next = try Support.read(dir + "/" + Support.traceFiles(dir).first { $0.hasSuffix(String(format: "p%04d.trace.zst", part + 1)) }!)
        XCTAssertEqual(next.problems, [], "a continuation part starts at its seq without complaint")
        guard case .header(let h) = next.records[0].body else { return XCTFail() }
        XCTAssertEqual(h.session, .init(id: "call-42", part: part + 1, resumed: true))
        XCTAssertEqual(h.startedAt, WallTime.iso(start))
        var fromSDK = known
        fromSDK.source = .sdk
        XCTAssertEqual(next.records[1].body, .checkpoint(fromSDK), "after a restart, what the SDK says it knows (source sdk)")
        let last = try XCTUnwrap(crashed.records.last)
        XCTAssertEqual(next.records.map(\.seq), Array((last.seq + 1)...(last.seq + 4)))
        XCTAssertEqual(next.records.map(\.t), [10_000, 10_000, 10_000, 10_250], "t continues from the wall-clock time since the session began")
        XCTAssertTrue(logs.messages.contains { $0.contains("continuing session call-42 as part \(part + 1)") }, "\(logs.messages)")
    }

    func test_resumeWithoutACheckpointProvider_beginsWithWhatThisProcessKnows() throws {
        let clock = ManualClock()
        _ = try leaveOpenPart(session: "s", startWall: clock.wallMilliseconds() - 5000, records: 10)
        let recorder = TraceRecorder(config(clock) {
            $0.resume = .leftOpen(withinSeconds: 120)
            $0.initialDefaultRoute = .speaker
        })
        recorder.record(.appState(.foreground))
        XCTAssertTrue(recorder.close(timeout: 20))
        let part2 = try Support.read(dir + "/" + Support.traceFiles(dir).first { $0.hasSuffix("p0002.trace.zst") }!)
        XCTAssertEqual(part2.records.map(\.body).dropFirst().first, .checkpoint(TraceCheckpoint(defaultRoute: .speaker, source: .recorder)),
                       "the dead process's state is gone: only the persistent default is known, and the checkpoint says it is the recorder's own")
    }

    func test_resumeNeverGoesBelowTheLastTWritten() throws {
        // The wall clock was set back: the time since the session began is less than the last t.
        let clock = ManualClock()
        _ = try leaveOpenPart(session: "skewed", startWall: clock.wallMilliseconds() - 1000, records: 40)
        let recorder = TraceRecorder(config(clock) { $0.resume = .leftOpen(withinSeconds: 120) })
        recorder.record(.exitMeeting)
        XCTAssertTrue(recorder.close(timeout: 20))
        let part2 = try Support.read(dir + "/" + Support.traceFiles(dir).first { $0.hasSuffix("p0002.trace.zst") }!)
        XCTAssertEqual(part2.records.map(\.t), [3200, 3200, 3200], "the last framed record of the crashed part was at 3.2 s")
    }

    func test_resumeStartsANewSessionWhenTheCrashedOneIsTooOld() throws {
        let clock = ManualClock()
        _ = try leaveOpenPart(session: "stale", startWall: clock.wallMilliseconds() - 3_600_000, records: 10)
        let recorder = TraceRecorder(config(clock, session: "new") { $0.resume = .leftOpen(withinSeconds: 120) })
        recorder.record(.exitMeeting)
        XCTAssertTrue(recorder.close(timeout: 20))
        XCTAssertEqual(recorder.sessionId, "new")
        let files = Support.traceFiles(dir)
        XCTAssertEqual(files.count, 2)
        XCTAssertTrue(files.allSatisfy { $0.hasSuffix("p0001.trace.zst") && $0.hasPrefix("outbox/") }, "\(files)")
    }

    /// What a crash while a part was being created can leave: its hidden temporary, or (written by an
    /// earlier recorder) a part with no header. Neither is left to break the session.
    func test_aPartWithNoHeader_orItsTemporary_isRemoved_andTheSessionStillReadsAsOne() throws {
        let clock = ManualClock()
        let first = TraceRecorder(config(clock, session: "sess") { $0.files.maxFileBytes = 1024 })
        fill(first, clock, count: 60)
        XCTAssertTrue(first.close(timeout: 20))
        let parts = Support.traceFiles(dir)
        XCTAssertGreaterThan(parts.count, 1)
        // A 20-byte file of the next part: the start mark, and nothing after it.
        let next = TraceFileName(stamp: WallTime.stamp(clock.wallMilliseconds()), session: "sess", part: parts.count + 1)
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/" + next.fileName, contents: Data(TraceMark.start.frame)))
        let temporary = dir + "/" + PartFile.temporaryName(TraceFileName(stamp: next.stamp, session: "other", part: 1).fileName)
        XCTAssertTrue(FileManager.default.createFile(atPath: temporary, contents: Data(TraceMark.start.frame + [1, 2, 3])))
        let logs = LogSink()
        let second = TraceRecorder(config(clock, session: "after") { $0.log = logs.add })
        XCTAssertTrue(second.close(timeout: 20))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/" + next.fileName), "\(logs.messages)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: temporary))
        XCTAssertEqual(Support.traceFiles(dir).filter { $0.contains("-sess-") }, parts, "the session's parts, and only they")
        let records = try Support.joinParts(parts.map { dir + "/" + $0 })
        XCTAssertEqual(records.filter { if case .checkpoint = $0.body { return false }; return true }.count, 61)
    }

    /// A part with no record that reached an uploader anyway (written by an earlier recorder): the
    /// commands that read a session skip it with a warning instead of refusing the session.
    func test_aPartWithNoRecord_amongASessionsParts_isSkippedWithAWarningByTheReader() throws {
        let clock = ManualClock()
        let r = TraceRecorder(config(clock, session: "sess") { $0.files.maxFileBytes = 1024 })
        fill(r, clock, count: 60)
        XCTAssertTrue(r.close(timeout: 20))
        let parts = Support.traceFiles(dir)
        XCTAssertGreaterThan(parts.count, 1)
        let stray = TraceFileName(stamp: WallTime.stamp(clock.wallMilliseconds()), session: "sess", part: parts.count + 1)
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/outbox/" + stray.fileName, contents: Data(TraceMark.start.frame)))
        let out = runProcess(Executables.built("rtctrace"), ["info", dir + "/outbox"])
        let err = String(decoding: out.err, as: UTF8.self)
        XCTAssertEqual(out.status, 0, err)
        XCTAssertTrue(err.contains("holds no record (a recorder part whose header never reached the disk); skipped"), err)
        XCTAssertEqual(String(decoding: out.out, as: UTF8.self).components(separatedBy: "session   sess, part").count - 1, parts.count)
    }

    /// A part written before parts carried index marks (by the codec's writer, as earlier recorders did):
    /// cut back to its last whole frame and handed on, never continued.
    func test_aLegacyPartLeftOpen_isCutToItsLastWholeFrame_andHandedOn() throws {
        let clock = ManualClock()
        let name = TraceFileName(stamp: WallTime.stamp(clock.wallMilliseconds() - 5000), session: "old", part: 1)
        let path = dir + "/" + name.fileName
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let w = try TraceWriter(path: path, options: .init(frameRecords: 8))
        try w.append(t: 0, .header(TraceHeader(layer: .smeeting, startedAt: WallTime.iso(clock.wallMilliseconds() - 5000), session: .init(id: "old", part: 1))))
        for i in 1..<20 { try w.append(t: Int64(i) * 100, .sdkLog(level: "debug", message: "legacy \(i)")) }
        try w.close()
        let h = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try h.truncate(atOffset: try h.seekToEnd() - 28 - 5)   // the end mark and 5 bytes of the last frame
        try h.close()
        let logs = LogSink()
        let recorder = TraceRecorder(config(clock, session: "new") { $0.resume = .leftOpen(withinSeconds: 120); $0.log = logs.add })
        XCTAssertTrue(recorder.close(timeout: 20))
        XCTAssertEqual(recorder.sessionId, "new", "a legacy part does not say where its session stands: not continued")
        let old = try Support.read(dir + "/outbox/" + name.fileName)
        XCTAssertEqual(old.records.map(\.seq), Array(0...15), "two whole frames of 8")
        XCTAssertEqual(old.problems.map(\.kind), [.notClosed], "its last seq is not known without a decoder: no end mark")
        XCTAssertTrue(logs.messages.contains { $0.contains("written by an earlier version of the recorder") }, "\(logs.messages)")
    }

    /// Two processes recording into one folder (an app and its extension): a part another live recorder
    /// holds is never repaired or moved.
    func test_aPartAnotherLiveRecorderHolds_isLeftAlone() throws {
        let clock = ManualClock()
        let live = TraceRecorder(config(clock, session: "live"))
        live.record(.leaveChannel)
        XCTAssertTrue(live.flush(timeout: 20))
        let logs = LogSink()
        let other = TraceRecorder(config(clock, session: "other") { $0.log = logs.add })
        XCTAssertTrue(other.close(timeout: 20))
        XCTAssertTrue(logs.messages.contains { $0.contains("another live recorder holds it") }, "\(logs.messages)")
        XCTAssertTrue(live.isRecording)
        live.record(.leaveChannel)
        XCTAssertTrue(live.close(timeout: 20))
        let files = Support.traceFiles(dir)
        let mine = try Support.read(dir + "/" + files.first { $0.contains("-live-") }!)
        XCTAssertEqual(mine.problems, [])
        XCTAssertEqual(mine.records.count, 3)
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
