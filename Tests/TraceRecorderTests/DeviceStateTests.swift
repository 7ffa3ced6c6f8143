import Analysis
import Foundation
import Replay
import TraceCodec
@_spi(FaultInjection) import SystemLayer
import TestSupport
import TraceModel
@testable import TraceRecorder
import XCTest

/// Recording that survives the device's states: a locked volume, a full disk and low free space pause
/// it (simulated with the system layer's fault hook); it resumes when a write succeeds, and the trace
/// says what it lacks (`trace.paused`, then the provider's checkpoint). The SDK can switch it off and on.
final class DeviceStateTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() {
        SystemFaults.injector = nil
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// A simulated device: writes fail with `error` while `failing`; `free` bytes are free.
    final class Device: @unchecked Sendable {
        private let lock = NSLock()
        private var _failing: Errno?
        private var _free: Int64 = 1 << 40
        var failing: Errno? {
            get { lock.withLock { _failing } }
            set { lock.withLock { _failing = newValue } }
        }
        var free: Int64 {
            get { lock.withLock { _free } }
            set { lock.withLock { _free = newValue } }
        }
        var injector: FaultInjector {
            FaultInjector(write: { [self] _ in failing.map { .fail($0) } }, available: { [self] _ in free })
        }
    }

    let known = TraceCheckpoint(defaultRoute: .speaker, engaged: true, micPermission: .granted, currentRoute: .speaker)

    func makeRecorder(_ clock: ManualClock, _ logs: LogSink, _ adjust: (inout RecorderConfiguration) -> Void = { _ in }) -> TraceRecorder {
        var c = Support.configuration(dir, layer: .smeeting, clock: clock)
        c.sessionId = "device"
        c.log = logs.add
        let known = known
        c.checkpoint = { known }
        adjust(&c)
        return TraceRecorder(c)
    }

    func pauses(_ records: [Record]) -> [PauseReason] {
        records.compactMap { r -> PauseReason? in
            if case .paused(_, _, let why) = r.body { return why }
            return nil
        }
    }

    func records() throws -> [Record] {
        try Support.joinParts(Support.traceFiles(dir).map { dir + "/" + $0 })
    }

    /// Records a call: a record every 100 ms from `from` to `to` (ms on the clock since `start`).
    func call(_ r: TraceRecorder, _ clock: ManualClock, _ label: String, count: Int) {
        for i in 0..<count {
            r.record(.sdkLog(level: "debug", message: "\(label) \(i)"))
            clock.advance(milliseconds: 100)
        }
    }

    /// Advances the clock a second at a time, letting the writer take each step, until a retry resumes the
    /// recording (at most `seconds`). The writer may have retried once more while the fault still stood
    /// (the test's thread can be descheduled between the clock's last step and the fault's end), and each
    /// failed retry doubles the wait before the next, so no single step of the clock is always enough.
    func advanceUntilRecording(_ r: TraceRecorder, _ clock: ManualClock, seconds: Int = 8) -> Bool {
        for _ in 0..<seconds {
            clock.advance(milliseconds: 1000)
            guard r.waitUntilWriterIdle() else { return false }
            if r.isRecording { return true }
        }
        return Support.eventually { r.isRecording }
    }

    /// The pause in the middle of a call: records before it written, those during it left out and
    /// counted, `trace.paused` with the reason and the stretch, then the provider's checkpoint, then the
    /// records after it; the replay marks the stretch lost and gives no all-clear.
    func assertPausesAndResumes(_ failure: Errno, reason: PauseReason, failedRetries: Int = 0,
                                file: StaticString = #filePath, line: UInt = #line) throws {
        let device = Device()
        SystemFaults.injector = device.injector
        let clock = ManualClock()
        let logs = LogSink()
        let r = makeRecorder(clock, logs)
        r.record(.enterMeeting(room: "r"))
        call(r, clock, "before", count: 10)
        XCTAssertTrue(r.flush(timeout: 20), file: file, line: line)
        device.failing = failure
        call(r, clock, "buffered", count: 5)
        _ = r.flush(timeout: 20)
        XCTAssertTrue(Support.eventually { !r.isRecording }, "recording pauses", file: file, line: line)
        call(r, clock, "during", count: 10)
        XCTAssertTrue(r.isEnabled, "the SDK did not switch it off", file: file, line: line)
        for _ in 0..<failedRetries {
            // The writer's retry, due at this step of the clock, fails while the fault stands.
            XCTAssertTrue(r.waitUntilWriterIdle(), file: file, line: line)
            XCTAssertFalse(r.isRecording, file: file, line: line)
        }
        device.failing = nil
        XCTAssertTrue(advanceUntilRecording(r, clock), "recording resumes once a write succeeds", file: file, line: line)
        call(r, clock, "after", count: 5)
        XCTAssertTrue(r.close(timeout: 20), file: file, line: line)

        let written = try records()
        let logLines = written.compactMap { r -> String? in if case .sdkLog(_, let m) = r.body { m } else { nil } }
        XCTAssertEqual(logLines.filter { $0.hasPrefix("before") }.count, 10, file: file, line: line)
        XCTAssertEqual(logLines.filter { $0.hasPrefix("buffered") }.count, 5, "the frame that failed is kept, and written on resuming", file: file, line: line)
        XCTAssertEqual(logLines.filter { $0.hasPrefix("during") }, [], "nothing is written while paused", file: file, line: line)
        XCTAssertEqual(logLines.filter { $0.hasPrefix("after") }.count, 5, file: file, line: line)
        guard let i = written.firstIndex(where: { if case .paused = $0.body { true } else { false } }),
              case let .paused(fromT, toT, why) = written[i].body else { return XCTFail("no trace.paused: \(written.map(\.type))", file: file, line: line) }
        XCTAssertEqual(why, reason, file: file, line: line)
        // The stretch begins where the write failed (after the buffered records) and ends where recording resumed.
        XCTAssertEqual(fromT, 1500, file: file, line: line)
        XCTAssertGreaterThanOrEqual(toT, 3000, file: file, line: line)
        var fromSDK = known
        fromSDK.source = .sdk
        XCTAssertEqual(written[i + 1].body, .checkpoint(fromSDK), "the provider's checkpoint follows", file: file, line: line)
        XCTAssertTrue(written[(i + 2)...].contains { if case .sdkLog(_, let m) = $0.body { m == "after 0" } else { false } }, file: file, line: line)
        let s = r.statistics
        XCTAssertEqual(s.pauses, 1, file: file, line: line)
        XCTAssertGreaterThanOrEqual(s.paused, 10, "\(s)", file: file, line: line)
        XCTAssertTrue(logs.messages.contains { $0.hasPrefix("recording paused") }, "\(logs.messages)", file: file, line: line)
        XCTAssertTrue(logs.messages.contains { $0.hasPrefix("recording resumed") }, "\(logs.messages)", file: file, line: line)
        XCTAssertFalse(logs.entries.contains { $0.level == .error }, "\(logs.messages)", file: file, line: line)
        // The replay: the stretch is lost, items there uncertain, and no all-clear.
        let replay = (try Replay.run(TraceSession(paths: try Support.partsInOrder(Support.traceFiles(dir).map { dir + "/" + $0 })), unopened: .isAProblem))
        XCTAssertEqual(replay.problems, [], file: file, line: line)
        XCTAssertEqual(replay.dropped.map(\.pause), [reason], file: file, line: line)
        XCTAssertTrue(replay.unread.contains(.recorderPaused(stretches: 1)), file: file, line: line)
        let e = Explanation(replay)
        XCTAssertTrue(e.needsAttention, file: file, line: line)
        XCTAssertFalse(e.summary.contains { $0.text.hasPrefix("Nothing is wrong") }, "\(e.summary.map(\.text))", file: file, line: line)
    }

    func test_aLockedVolumeMidCall_pausesRecording_resumesWhenAWriteSucceeds_theTraceSaysWhatWasLost() throws {
        try assertPausesAndResumes(.notPermitted, reason: .volumeLocked)
    }

    func test_aRetryThatFailsWhileTheVolumeIsStillLocked_waitsLonger_andRecordingStillResumes() throws {
        // The failed retry doubles the wait: the next is due two seconds later, not one.
        try assertPausesAndResumes(.notPermitted, reason: .volumeLocked, failedRetries: 1)
    }

    func test_aFullDiskMidCall_pausesRecording_resumesWhenAWriteSucceeds_theTraceSaysWhatWasLost() throws {
        try assertPausesAndResumes(.noSpace, reason: .diskFull)
    }

    func test_freeSpaceUnderTheFloor_pausesAsLowSpace_untilThereIsRoomAgain() throws {
        let device = Device()
        SystemFaults.injector = device.injector
        let clock = ManualClock()
        let logs = LogSink()
        let r = makeRecorder(clock, logs) { $0.files.minimumFreeBytes = 50 << 20 }
        call(r, clock, "before", count: 10)
        XCTAssertTrue(r.flush(timeout: 20))
        device.free = 10 << 20
        clock.advance(milliseconds: 1000)
        call(r, clock, "buffered", count: 3)
        _ = r.flush(timeout: 20)
        XCTAssertTrue(Support.eventually { !r.isRecording }, "recording pauses under the floor")
        call(r, clock, "during", count: 10)
        // Still short of the floor at the first retry: the pause goes on.
        clock.advance(milliseconds: 1000)
        XCTAssertTrue(r.waitUntilWriterIdle())
        XCTAssertFalse(r.isRecording)
        device.free = 200 << 20
        XCTAssertTrue(advanceUntilRecording(r, clock), "recording resumes once there is room")
        call(r, clock, "after", count: 3)
        XCTAssertTrue(r.close(timeout: 20))
        let written = try records()
        XCTAssertEqual(pauses(written), [.lowSpace])
        XCTAssertTrue(logs.messages.contains { $0.contains("under the floor of 51200 KiB") }, "\(logs.messages)")
    }

    func test_aRotationWhileTheVolumeIsLocked_pauses_andTheNextPartBeginsWhenItUnlocks() throws {
        let device = Device()
        SystemFaults.injector = device.injector
        let clock = ManualClock()
        let logs = LogSink()
        let r = makeRecorder(clock, logs) { $0.files.maxFileBytes = 1024 }
        call(r, clock, "before", count: 5)
        XCTAssertTrue(r.flush(timeout: 20))
        device.failing = .notPermitted
        r.rotateNow()
        XCTAssertTrue(Support.eventually { !r.isRecording })
        call(r, clock, "during", count: 5)
        device.failing = nil
        XCTAssertTrue(advanceUntilRecording(r, clock), "recording resumes once the volume unlocks")
        call(r, clock, "after", count: 5)
        XCTAssertTrue(r.close(timeout: 20))
        let written = try records()
        XCTAssertEqual(pauses(written), [.volumeLocked])
        XCTAssertFalse(written.contains { if case .sdkLog(_, let m) = $0.body { m.hasPrefix("during") } else { false } })
        for f in Support.traceFiles(dir) { XCTAssertEqual(try Support.read(dir + "/" + f).problems, [], f) }
    }

    func test_isEnabled_switchedOffAndOnAtRunTime_pausesAsDisabled() throws {
        let clock = ManualClock()
        let logs = LogSink()
        let r = makeRecorder(clock, logs)
        call(r, clock, "before", count: 5)
        r.isEnabled = false
        XCTAssertFalse(r.isEnabled)
        XCTAssertFalse(r.isRecording)
        call(r, clock, "off", count: 5)
        r.isEnabled = true
        XCTAssertTrue(r.isRecording, "switched on, records are taken at once")
        call(r, clock, "on", count: 5)
        XCTAssertTrue(r.close(timeout: 20))
        let written = try records().dropFirst()
        var fromSDK = known
        fromSDK.source = .sdk
        XCTAssertEqual(written.map(\.body), (0..<5).map { .sdkLog(level: "debug", message: "before \($0)") }
            + [.paused(fromT: 500, toT: 1000, reason: .disabled), .checkpoint(fromSDK)]
            + (0..<5).map { .sdkLog(level: "debug", message: "on \($0)") })
        XCTAssertEqual(r.statistics.paused, 5)
        XCTAssertEqual(logs.entries.filter { $0.level != .info }, [], "switching recording off is no failure")
    }

    func test_theDefaultFileProtection_letsALockedScreenCallBeRecorded() {
        let c = RecorderConfiguration(directory: dir, layer: .srtc)
        XCTAssertEqual(c.fileProtection, .completeUntilFirstUserAuthentication)
        XCTAssertEqual(c.fileProtection.rawValue, "NSFileProtectionCompleteUntilFirstUserAuthentication")
        XCTAssertEqual(c.files.minimumFreeBytes, 50 << 20)
    }
}
