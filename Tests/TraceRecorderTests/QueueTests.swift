import Foundation
import TestSupport
import TraceModel
@testable import TraceRecorder
import XCTest

/// The queue between callers and the writer: bounded in records and bytes; a full queue drops and
/// counts, and each overflow episode becomes exactly one `trace.dropped`.
final class QueueTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func makeRecorder(_ clock: ManualClock, _ adjust: (inout RecorderConfiguration) -> Void = { _ in }) -> TraceRecorder {
        var c = Support.configuration(dir, sdk: "SRTC 5.1.0", clock: clock)
        c.sessionId = "queue"
        adjust(&c)
        return TraceRecorder(c)
    }

    func closedRecords() throws -> [Record] {
        try Support.joinParts(Support.traceFiles(dir).map { dir + "/" + $0 })
    }

    func test_fullQueueDropsAndCounts_oneTraceDroppedPerOverflowEpisode() throws {
        let clock = ManualClock()
        let recorder = makeRecorder(clock) { $0.queue = .init(records: 100, bytes: 1 << 20) }
        // Episode 1: the writer is held back; 100 records fit, the next 7 (made at t 1000…1006) are dropped.
        recorder.suspendWriter()
        for i in 0..<107 {
            if i == 100 { clock.advance(milliseconds: 1000 - 99) } else if i > 0 { clock.advance(milliseconds: 1) }
            recorder.record(.sdkLog(level: "debug", message: "line \(i)"))
        }
        XCTAssertEqual(recorder.statistics.dropped, 7)
        recorder.resumeWriter()
        XCTAssertTrue(recorder.flush(timeout: 20))
        // Between episodes, records flow normally.
        clock.advance(milliseconds: 500)
        for i in 0..<10 { recorder.record(.sdkLog(level: "debug", message: "calm \(i)")) }
        XCTAssertTrue(recorder.flush(timeout: 20))
        // Episode 2: three dropped at t 2000.
        recorder.suspendWriter()
        clock.advance(milliseconds: 2000 - 1506)
        for i in 0..<103 { recorder.record(.sdkLog(level: "debug", message: "burst \(i)")) }
        recorder.resumeWriter()
        XCTAssertTrue(recorder.close(timeout: 20))
        let s = recorder.statistics
        XCTAssertEqual(s.dropped, 10)
        XCTAssertEqual(s.accepted, 100 + 10 + 100)
        let records = try closedRecords()
        let dropped = records.filter { if case .dropped = $0.body { return true }; return false }
        XCTAssertEqual(dropped.map(\.body), [.dropped(count: 7, fromT: 1000, toT: 1006), .dropped(count: 3, fromT: 2000, toT: 2000)])
        // Each comes after the records that were queued before the overflow, and seq has no gap.
        XCTAssertEqual(records.map(\.seq), Array(0..<records.count))
        XCTAssertEqual(records.count, 1 + 210 + 2)
        let firstDrop = records.firstIndex { $0.body == dropped[0].body }!
        XCTAssertEqual(records[firstDrop - 1].body, .sdkLog(level: "debug", message: "line 99"))
        XCTAssertEqual(records.map(\.t), records.map(\.t).sorted(), "t never goes backwards")
    }

    func test_queueIsBoundedInBytes_aRecordThatWouldExceedItIsDropped() throws {
        let clock = ManualClock()
        let recorder = makeRecorder(clock) {
            $0.queue = .init(records: 10_000, bytes: 64 << 10)
            $0.records = .init(maxStringBytes: 32 << 10)
        }
        recorder.suspendWriter()
        let big = String(repeating: "x", count: 10_000)
        for _ in 0..<10 { recorder.record(.sdkLog(level: "debug", message: big)) }
        let s = recorder.statistics
        XCTAssertEqual(s.accepted, 6, "six 10 kB lines fit in 64 KiB, not seven")
        XCTAssertEqual(s.dropped, 4)
        recorder.resumeWriter()
        XCTAssertTrue(recorder.close(timeout: 20))
        let records = try closedRecords()
        XCTAssertEqual(records.last?.body, .dropped(count: 4, fromT: 0, toT: 0))
    }

    func test_aRoundIsWrittenInTheOrderOfTheCalls_anEarlierRecordAfterItIsLate() throws {
        let clock = ManualClock()
        let recorder = makeRecorder(clock)
        recorder.suspendWriter()
        let start = recorder.timestamp()
        recorder.record(.sdkLog(level: "a", message: "made at 0"))
        clock.advance(milliseconds: 50)
        recorder.record(.sdkLog(level: "b", message: "made at 50"))
        // Decided late, recorded with the time it was made: within the round it takes its place.
        recorder.record(.sdkLog(level: "c", message: "made at 10"), madeAt: start + 10_000_000)
        recorder.resumeWriter()
        XCTAssertTrue(recorder.flush(timeout: 20))
        // After t 50 is written, a record made at 20 keeps its t and says it is late; one made more than
        // the match window before the latest t is written at the window's edge.
        clock.advance(milliseconds: 1950)
        recorder.record(.sdkLog(level: "d", message: "made at 2000"))
        XCTAssertTrue(recorder.flush(timeout: 20))
        recorder.record(.sdkLog(level: "e", message: "made at 1500"), madeAt: start + 1_500_000_000)
        recorder.record(.sdkLog(level: "f", message: "made at 20"), madeAt: start + 20_000_000)
        XCTAssertTrue(recorder.close(timeout: 20))
        let records = try closedRecords().dropFirst()
        XCTAssertEqual(records.map(\.t), [0, 10, 50, 2000, 1000, 1500])
        XCTAssertEqual(records.map(\.late), [false, false, false, false, true, true])
        XCTAssertEqual(records.map { if case .sdkLog(let l, _) = $0.body { return l }; return "" }, ["a", "c", "b", "d", "f", "e"])
        XCTAssertTrue(records.allSatisfy { !$0.jsonLine.isEmpty })
        XCTAssertTrue(try Support.read(dir + "/" + Support.traceFiles(dir)[0]).problems.isEmpty, "late records within the window read cleanly")
    }

    func test_manyThreadsRecordingAtOnce_everyRecordWrittenOnce() throws {
        let clock = ManualClock()
        let recorder = makeRecorder(clock) { $0.frame = .init(records: 64, milliseconds: 2000) }
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for i in 0..<500 { recorder.record(.sdkLog(level: "t\(thread)", message: "\(i)")) }
        }
        XCTAssertTrue(recorder.close(timeout: 30))
        let records = try closedRecords().dropFirst()
        XCTAssertEqual(records.count, 4000, "\(recorder.statistics)")
        var perThread: [String: [String]] = [:]
        for r in records { if case .sdkLog(let level, let message) = r.body { perThread[level, default: []].append(message) } }
        for t in 0..<8 { XCTAssertEqual(perThread["t\(t)"], (0..<500).map(String.init), "one thread's records keep their order") }
        XCTAssertGreaterThanOrEqual(recorder.statistics.frames, 4000 / 64)
    }

    /// Threads that record and exit, one after another (a new thread's object is found anew, never the
    /// one an exited thread had): every record written once, each thread's in its order.
    func test_threadsThatRecordAndExit_oneAfterAnother_everyRecordWrittenOnce() throws {
        let clock = ManualClock()
        let recorder = makeRecorder(clock) { $0.frame = .init(records: 64, milliseconds: 2000) }
        for round in 0..<24 {
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                for i in 0..<50 { recorder.record(.sdkLog(level: "r\(round)", message: "\(i)")) }
                done.signal()
            }
            thread.start()
            done.wait()
        }
        XCTAssertTrue(recorder.close(timeout: 30))
        let records = try closedRecords().dropFirst()
        XCTAssertEqual(records.count, 24 * 50, "\(recorder.statistics)")
        var perThread: [String: [String]] = [:]
        for r in records { if case .sdkLog(let level, let message) = r.body { perThread[level, default: []].append(message) } }
        for t in 0..<24 { XCTAssertEqual(perThread["r\(t)"], (0..<50).map(String.init), "one thread's records, once each, in their order") }
    }

    /// One thread recording into two recorders in turn, then into a third after one closed: each trace
    /// holds its own records only, each once, in their order.
    func test_oneThreadRecordingIntoSeveralRecorders_eachTraceHoldsItsOwnRecords() throws {
        let dirs = (0..<3).map { _ in Support.tempDir() }
        defer { for d in dirs { try? FileManager.default.removeItem(atPath: d) } }
        let recorders = dirs.map { d -> TraceRecorder in
            var c = Support.configuration(d, sdk: "SRTC 5.1.0", clock: ManualClock())
            c.sessionId = "queue"
            return TraceRecorder(c)
        }
        for i in 0..<200 { recorders[i % 2].record(.sdkLog(level: "r\(i % 2)", message: "\(i)")) }
        XCTAssertTrue(recorders[0].close(timeout: 30))
        for i in 200..<400 { recorders[1 + i % 2].record(.sdkLog(level: "r\(1 + i % 2)", message: "\(i)")) }
        XCTAssertTrue(recorders[1].close(timeout: 30))
        XCTAssertTrue(recorders[2].close(timeout: 30))
        let expected = [Array(stride(from: 0, to: 200, by: 2)), Array(stride(from: 1, to: 200, by: 2)) + Array(stride(from: 200, to: 400, by: 2)),
                        Array(stride(from: 201, to: 400, by: 2))]
        for (n, d) in dirs.enumerated() {
            let records = try Support.joinParts(Support.traceFiles(d).map { d + "/" + $0 }).dropFirst()
            XCTAssertEqual(records.map { r -> String in if case .sdkLog(let level, let message) = r.body { return level + ":" + message }; return "" },
                           expected[n].map { "r\(n):\($0)" }, "recorder \(n)")
        }
    }

    func test_estimateCountsHeapStrings() {
        let short = RecordBody.sdkLog(level: "debug", message: "short").queuedBytes
        let long = RecordBody.sdkLog(level: "debug", message: String(repeating: "y", count: 1000)).queuedBytes
        XCTAssertEqual(long - short, 1000 + 32)
    }
}
