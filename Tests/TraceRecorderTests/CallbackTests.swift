import Foundation
import TestSupport
import TraceModel
@testable import TraceRecorder
import XCTest

/// The configuration's callbacks run on the writer thread, as docs/recorder.md's threads table says: the
/// checkpoint provider after every drop (and at a restart), `onOutbox` for every closed part; a wait for
/// the writer from one of them returns at once. And what a close leaves.
final class CallbackTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func records() throws -> [Record] { try Support.joinParts(Support.traceFiles(dir).map { dir + "/" + $0 }) }

    /// Sees where and how often a callback ran. It keeps each thread's identity, not the thread: the
    /// writer's thread holds the writer, whose configuration holds this (a cycle LeakSanitizer reports).
    final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var threads: [ObjectIdentifier] = []
        private var results: [Bool] = []
        func note(_ thread: Thread) { lock.withLock { threads.append(ObjectIdentifier(thread)) } }
        func note(result: Bool) { lock.withLock { results.append(result) } }
        var seen: [ObjectIdentifier] { lock.withLock { threads } }
        var answers: [Bool] { lock.withLock { results } }
    }

    func test_theProviderRunsOnTheWriterThread_andItsCheckpointFollowsEveryDrop() throws {
        let clock = ManualClock()
        let calls = Calls()
        let known = TraceCheckpoint(defaultRoute: .speaker, engaged: true)
        var c = Support.configuration(dir, clock: clock)
        c.queue = .init(records: 10, bytes: 1 << 20)
        c.checkpoint = {
            calls.note(Thread.current)
            return known
        }
        c.onOutbox = { _ in calls.note(Thread.current) }
        let r = TraceRecorder(c)
        XCTAssertTrue(r.waitUntilWriterIdle())
        XCTAssertTrue(calls.seen.isEmpty, "a new session asks nothing of the provider")
        r.suspendWriter()
        for i in 0..<15 { r.record(.sdkLog(level: "debug", message: "\(i)")) }
        r.resumeWriter()
        XCTAssertTrue(r.close(timeout: 20))
        // Once for the drop, then onOutbox for the closed part: both on the writer's thread, not the caller's.
        let seen = calls.seen
        XCTAssertEqual(seen.count, 2)
        XCTAssertTrue(seen[0] == seen[1] && seen[0] != ObjectIdentifier(Thread.current), "\(seen)")
        let written = try records()
        let i = try XCTUnwrap(written.firstIndex { if case .dropped = $0.body { true } else { false } })
        XCTAssertEqual(written[i].body, .dropped(count: 5, fromT: 0, toT: 0))
        var fromSDK = known
        fromSDK.source = .sdk
        XCTAssertEqual(written[i + 1].body, .checkpoint(fromSDK), "the next record after a drop: the SDK's own state")
    }

    func test_aProviderThatDoesNotAnswer_leavesTheDropAlone() throws {
        var c = Support.configuration(dir, clock: ManualClock())
        c.queue = .init(records: 10, bytes: 1 << 20)
        c.checkpoint = { nil }
        let r = TraceRecorder(c)
        XCTAssertTrue(r.waitUntilWriterIdle())
        r.suspendWriter()
        for i in 0..<12 { r.record(.sdkLog(level: "debug", message: "\(i)")) }
        r.resumeWriter()
        XCTAssertTrue(r.close(timeout: 20))
        XCTAssertEqual(try records().last?.body, .dropped(count: 2, fromT: 0, toT: 0))
    }

    func test_flushWithATimeout_insideOnOutbox_returnsFalseAtOnce() throws {
        final class Box: @unchecked Sendable { var recorder: TraceRecorder? }
        let box = Box()
        let calls = Calls()
        var c = Support.configuration(dir, clock: ManualClock())
        c.onOutbox = { _ in
            // Waiting here would wait for the writer, which is this thread: the whole ten minutes.
            calls.note(result: box.recorder?.flush(timeout: 600) ?? true)
            calls.note(result: box.recorder?.close(timeout: 600) ?? true)
        }
        let r = TraceRecorder(c)
        box.recorder = r
        r.record(.joinChannel(channel: "c"))
        XCTAssertTrue(r.close(timeout: 20), "the writer was not held up by its own callback")
        XCTAssertEqual(calls.answers, [false, false])
        box.recorder = nil
    }

    func test_aRotationJustBeforeClose_leavesNoPartWithOnlyItsHeaderAndCheckpoint() throws {
        let c = Support.configuration(dir, clock: ManualClock())
        let r = TraceRecorder(c)
        r.record(.joinChannel(channel: "c"))
        r.rotateNow()
        XCTAssertTrue(r.waitUntilWriterIdle())
        XCTAssertEqual(Support.traceFiles(dir).count, 2, "the closed part and the next one")
        XCTAssertTrue(r.close(timeout: 20))
        let files = Support.traceFiles(dir)
        XCTAssertEqual(files.count, 1, "the part that held nothing but its header and checkpoint is gone: \(files)")
        XCTAssertEqual(try records().map(\.type), ["trace.header", "api.joinChannel"])
        // A later part with a record after its checkpoint is kept.
        let dir2 = dir + "/kept"
        let r2 = TraceRecorder(Support.configuration(dir2, clock: ManualClock()))
        r2.record(.joinChannel(channel: "c"))
        r2.rotateNow()
        XCTAssertTrue(r2.waitUntilWriterIdle())
        r2.record(.leaveChannel)
        XCTAssertTrue(r2.close(timeout: 20))
        XCTAssertEqual(Support.traceFiles(dir2).count, 2)
    }
}
