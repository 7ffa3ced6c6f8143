import Foundation
import TestSupport
import TraceModel
@testable import TraceRecorder
import XCTest

/// A thread's two slots, handed between it and the writer (without a lock where the platform has
/// atomics): many threads recording while the writer takes, every record written once and in the order
/// of the calls, drops counted exactly, threads exiting mid-run.
final class HandoffTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func makeRecorder(_ adjust: (inout RecorderConfiguration) -> Void = { _ in }) -> TraceRecorder {
        var c = Support.configuration(dir, sdk: "SRTC 5.1.0", clock: ManualClock())
        c.sessionId = "handoff"
        c.frame = .init(records: 64, milliseconds: 2000)
        adjust(&c)
        return TraceRecorder(c)
    }

    func closedRecords() throws -> [Record] {
        try Support.joinParts(Support.traceFiles(dir).map { dir + "/" + $0 }).dropFirst().map { $0 }
    }

    /// The logs written, as "level:message", and the counts of the `trace.dropped` records.
    func logsAndDrops(_ records: [Record]) -> (logs: [String], dropped: [Int]) {
        var logs: [String] = [], dropped: [Int] = []
        for r in records {
            switch r.body {
            case .sdkLog(let level, let message): logs.append(level + ":" + message)
            case .dropped(let count, _, _): dropped.append(count)
            default: break
            }
        }
        return (logs, dropped)
    }

    /// Flushes (without waiting) until `stop` is signalled, so that the writer takes while threads record.
    func flushing(_ recorder: TraceRecorder, until stop: DispatchSemaphore) -> Thread {
        let t = Thread {
            while stop.wait(timeout: .now()) != .success { recorder.flush() }
        }
        t.start()
        return t
    }

    /// Runs `body` on `n` threads of their own at once (each its own buffer), and waits for them.
    func onThreads(_ n: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let done = DispatchSemaphore(value: 0)
        for i in 0..<n {
            Thread {
                body(i)
                done.signal()
            }.start()
        }
        for _ in 0..<n { done.wait() }
    }

    /// One slot the writer takes while the thread appends to it: the thread goes on in the other; a
    /// buffer with slot locks (no atomics) goes on in the first again, once the writer let it go.
    func test_theWriterTakesTheSlotTheThreadAppendsTo_theThreadGoesOnInTheOther() {
        let buffer = ProducerBuffer(number: 1, realtime: false, state: .accepting, share: (100, 1 << 20), reserve: 4, sequence: CallOrder())
        let offer = Offer(nanos: 5, size: 64, clipped: false, appCall: false)
        XCTAssertTrue(buffer.append(offer, TraceRecorder.Event(.sdkInterrupted).payload).queued)
        XCTAssertEqual(buffer.withSlot(0) { s, spare in
            swap(&s.items, &spare)
            return spare.count
        }, 1, "the first record is in the first slot")
        XCTAssertTrue(buffer.append(offer, TraceRecorder.Event(.sdkRecovered).payload).queued)
        let counts = (buffer.withSlot(0) { s, _ in s.items.count }, buffer.withSlot(1) { s, _ in s.items.count })
        if buffer.handsOff {
            XCTAssertEqual(counts.0, 0)
            XCTAssertEqual(counts.1, 1, "after the writer took the first slot, the thread appends to the second")
        } else {
            XCTAssertEqual(counts.0, 1)
            XCTAssertEqual(counts.1, 0)
        }
        var batch: [PendingRecord] = []
        buffer.drainSpares(into: &batch)
        XCTAssertEqual(batch.map(\.payload), [TraceRecorder.Event(.sdkInterrupted).payload])
        XCTAssertEqual(batch.map(\.nanos), [5])
    }

    /// Four threads record in turn (each call's place is a ticket taken under a lock) while the writer
    /// is made to take again and again: every record is written once, in the order of the calls (all
    /// of one clock reading: by the shared call sequence).
    func test_manyThreadsRecordingWhileTheWriterTakes_everyRecordWrittenOnce_inTheOrderOfTheCalls() throws {
        let recorder = makeRecorder { $0.queue = .init(records: 1 << 20, bytes: 256 << 20) }
        let stop = DispatchSemaphore(value: 0)
        let flusher = flushing(recorder, until: stop)
        let turn = NSLock()
        nonisolated(unsafe) var ticket = 0
        onThreads(4) { thread in
            for _ in 0..<2500 {
                turn.lock()
                recorder.record(.sdkLog(level: "t\(thread)", message: "\(ticket)"))
                ticket += 1
                turn.unlock()
            }
        }
        stop.signal()
        while !flusher.isFinished { usleep(1000) }
        XCTAssertTrue(recorder.close(timeout: 30))
        let (logs, dropped) = logsAndDrops(try closedRecords())
        XCTAssertEqual(logs.map { $0.split(separator: ":")[1] }, (0..<10_000).map { "\($0)"[...] }, "every call once, in the order of the calls")
        XCTAssertEqual(dropped, [])
        XCTAssertEqual(recorder.statistics.accepted, 10_000)
        XCTAssertEqual(recorder.statistics.dropped, 0)
    }

    /// Four threads each record more than the caps hold while the writer is held back: each keeps the
    /// cap's records and drops the rest, every drop counted, all in one `trace.dropped`.
    func test_manyThreadsOverflowingWhileTheWriterIsHeldBack_eachDropIsCountedOnce() throws {
        let recorder = makeRecorder { $0.queue = .init(records: 100, bytes: 1 << 20) }
        XCTAssertTrue(recorder.waitUntilWriterIdle())
        recorder.suspendWriter()
        onThreads(4) { thread in
            for i in 0..<300 { recorder.record(.sdkLog(level: "t\(thread)", message: "\(i)")) }
        }
        XCTAssertEqual(recorder.statistics.accepted, 400)
        XCTAssertEqual(recorder.statistics.dropped, 800)
        recorder.resumeWriter()
        XCTAssertTrue(recorder.close(timeout: 30))
        let (logs, dropped) = logsAndDrops(try closedRecords())
        for t in 0..<4 { XCTAssertEqual(logs.filter { $0.hasPrefix("t\(t):") }, (0..<100).map { "t\(t):\($0)" }, "each thread's first 100") }
        XCTAssertEqual(dropped, [800])
    }

    /// Four threads record far more than a small cap while the writer takes as it can: whatever was
    /// dropped, every record is written or counted as dropped, exactly once, each thread's in its order.
    func test_manyThreadsRecordingPastASmallCapWhileTheWriterTakes_everyRecordWrittenOrCountedDropped() throws {
        let recorder = makeRecorder { $0.queue = .init(records: 64, bytes: 1 << 20) }
        let stop = DispatchSemaphore(value: 0)
        let flusher = flushing(recorder, until: stop)
        onThreads(4) { thread in
            for i in 0..<5000 { recorder.record(.sdkLog(level: "t\(thread)", message: "\(i)")) }
        }
        stop.signal()
        while !flusher.isFinished { usleep(1000) }
        XCTAssertTrue(recorder.close(timeout: 30))
        let s = recorder.statistics
        XCTAssertEqual(s.accepted + s.dropped, 20_000, "\(s)")
        let (logs, dropped) = logsAndDrops(try closedRecords())
        XCTAssertEqual(logs.count, s.accepted)
        XCTAssertEqual(dropped.reduce(0, +), s.dropped)
        for t in 0..<4 {
            let mine = logs.filter { $0.hasPrefix("t\(t):") }.map { Int($0.split(separator: ":")[1])! }
            XCTAssertEqual(mine, mine.sorted(), "thread \(t)'s records in its order")
            XCTAssertEqual(Set(mine).count, mine.count, "thread \(t)'s records once each")
        }
    }

    /// Threads that record a while and exit while another records throughout and the writer takes:
    /// every record written once, in its thread's order, and each exited thread's buffer forgotten once
    /// it is empty.
    func test_threadsExitingMidRun_theirRecordsAreWrittenOnce_andTheirBuffersForgotten() throws {
        let recorder = makeRecorder { $0.queue = .init(records: 1 << 20, bytes: 256 << 20) }
        let stop = DispatchSemaphore(value: 0)
        let flusher = flushing(recorder, until: stop)
        let longDone = DispatchSemaphore(value: 0), longGo = DispatchSemaphore(value: 0), longStarted = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var longCount = 0
        let long = Thread {
            recorder.record(.sdkLog(level: "long", message: "0"))
            longCount = 1
            longStarted.signal()
            while longGo.wait(timeout: .now()) != .success {
                recorder.record(.sdkLog(level: "long", message: "\(longCount)"))
                longCount += 1
            }
            longDone.signal()
            // Kept alive (its buffer registered) until the check below is done.
            longGo.wait()
        }
        long.start()
        longStarted.wait()
        var short: [Thread] = []
        for round in 0..<16 {
            let t = Thread { for i in 0..<200 { recorder.record(.sdkLog(level: "s\(round)", message: "\(i)")) } }
            t.start()
            short.append(t)
        }
        while short.contains(where: { !$0.isFinished }) { usleep(1000) }
        longGo.signal()
        longDone.wait()
        stop.signal()
        while !flusher.isFinished { usleep(1000) }
        // The exited threads' buffers go once a take found them empty (a thread's retirement runs as it
        // exits, after `isFinished` may say so): the long thread's alone remains.
        var remaining = Int.max
        for _ in 0..<2000 where remaining > 1 {
            XCTAssertTrue(recorder.flush(timeout: 20))
            remaining = recorder.core.lock.withLock { recorder.core.producers.count }
            if remaining > 1 { usleep(10_000) }
        }
        XCTAssertEqual(remaining, 1)
        longGo.signal()
        XCTAssertTrue(recorder.close(timeout: 30))
        let (logs, dropped) = logsAndDrops(try closedRecords())
        XCTAssertEqual(dropped, [])
        XCTAssertEqual(logs.filter { $0.hasPrefix("long:") }, (0..<longCount).map { "long:\($0)" })
        for round in 0..<16 { XCTAssertEqual(logs.filter { $0.hasPrefix("s\(round):") }, (0..<200).map { "s\(round):\($0)" }) }
        XCTAssertEqual(logs.count, longCount + 16 * 200)
    }
}
