import Foundation
import TestSupport
@testable import TraceRecorder
import XCTest

/// The real-time rule: a real-time producer never waits and never makes its storage grow; what it cannot
/// queue at once is dropped and counted, and reaches the trace as `trace.dropped`.
final class RealtimeTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func records() throws -> [Record] { try Support.joinParts(Support.traceFiles(dir).map { dir + "/" + $0 }) }

    /// A custom event whose values had to be left out counts as clipped from a real-time thread too.
    func test_aClippedCustomEventIsCounted() throws {
        let r = TraceRecorder(Support.configuration(dir, clock: ManualClock()))
        let rt = r.makeRealtimeProducer()
        let many: [(String, TraceRecorder.CustomValue)] = (0..<40).map { ("v\($0)", .int($0)) }
        XCTAssertTrue(rt.record(TraceRecorder.Event(payload: .custom(TraceRecorder.CustomEvent(name: "underruns", values: many)))))
        XCTAssertTrue(r.close(timeout: 20))
        XCTAssertEqual(r.statistics.clipped, 1)
    }

    func test_aSlotTheWriterHolds_isPassedOver_theProducerNeverWaits() throws {
        let clock = ManualClock()
        let r = TraceRecorder(Support.configuration(dir, clock: clock))
        let rt = r.makeRealtimeProducer()
        XCTAssertTrue(rt.record(.sdkInterrupted))
        // The writer holds one slot for a swap: the record goes into the other one, at once.
        rt.buffer.holdSlot(0)
        clock.advance(milliseconds: 100)
        XCTAssertTrue(rt.record(.sdkLog(level: "debug", message: "underrun")))
        rt.buffer.releaseSlot(0)
        XCTAssertTrue(r.close(timeout: 20))
        XCTAssertEqual(try records().dropFirst().map(\.body), [.sdkInterrupted, .sdkLog(level: "debug", message: "underrun")])
        XCTAssertEqual(r.statistics.dropped, 0)
    }

    func test_bothSlotsTaken_dropsAndCounts_neverWaits_andTheDropsReachTheTrace() throws {
        let clock = ManualClock()
        let r = TraceRecorder(Support.configuration(dir, clock: clock))
        let rt = r.makeRealtimeProducer()
        XCTAssertTrue(rt.record(.sdkInterrupted))
        // Both slots taken (only when two threads share one producer, against its rules): the producer
        // returns at once, twice, and counts both.
        rt.buffer.holdSlot(0)
        rt.buffer.holdSlot(1)
        clock.advance(milliseconds: 100)
        XCTAssertFalse(rt.record(.sdkLog(level: "debug", message: "underrun")))
        clock.advance(milliseconds: 50)
        XCTAssertFalse(rt.record(.sdkLog(level: "debug", message: "underrun")))
        rt.buffer.releaseSlot(1)
        rt.buffer.releaseSlot(0)
        clock.advance(milliseconds: 50)
        XCTAssertTrue(rt.record(.sdkRecovered), "the next record gets through, and hands the count on")
        XCTAssertTrue(r.close(timeout: 20))
        let written = try records().dropFirst()
        XCTAssertEqual(written.map(\.body), [.sdkInterrupted, .sdkRecovered, .dropped(count: 2, fromT: 100, toT: 150)])
        let s = r.statistics
        XCTAssertEqual(s.dropped, 2)
        XCTAssertEqual(s.droppedBusy, 2)
    }

    func test_dropsAProducerCouldNotHandOn_reachTheTraceWhenItIsReleased() throws {
        let clock = ManualClock()
        let r = TraceRecorder(Support.configuration(dir, clock: clock))
        var rt: TraceRecorder.RealtimeProducer? = r.makeRealtimeProducer()
        let buffer = rt!.buffer
        buffer.holdSlot(0)
        buffer.holdSlot(1)
        XCTAssertFalse(rt!.record(.sdkInterrupted))
        buffer.releaseSlot(1)
        buffer.releaseSlot(0)
        rt = nil
        XCTAssertTrue(r.close(timeout: 20))
        XCTAssertEqual(try records().dropFirst().map(\.body), [.dropped(count: 1, fromT: 0, toT: 0)])
    }

    func test_aFullBuffer_orOneAtItsAllocatedCapacity_dropsRatherThanGrow() throws {
        let clock = ManualClock()
        var c = Support.configuration(dir, clock: clock)
        c.queue = .init(records: 4096, bytes: 64 << 20)
        let r = TraceRecorder(c)
        XCTAssertTrue(r.waitUntilWriterIdle())
        r.suspendWriter()
        let rt = r.makeRealtimeProducer()
        let capacity = rt.buffer.withSlot(0) { s, _ in s.items.capacity }
        var accepted = 0
        for _ in 0..<(capacity + 10) where rt.record(.sdkInterrupted) { accepted += 1 }
        XCTAssertEqual(accepted, capacity, "the buffer's storage never grows on a real-time thread")
        XCTAssertEqual(rt.buffer.withSlot(0) { s, _ in s.items.capacity }, capacity)
        XCTAssertFalse(rt.record(.sdkLog(level: "debug", message: String(repeating: "x", count: 9000))), "a string over the cap is dropped, not clipped")
        r.resumeWriter()
        XCTAssertTrue(r.close(timeout: 20))
        XCTAssertEqual(r.statistics.dropped, 11)
    }

    func test_manyRealtimeProducersAndOrdinaryCallers_atOnce_everyRecordWrittenOrCounted() throws {
        var c = Support.configuration(dir)
        // A queue the ordinary callers never fill: whatever is dropped, the real-time producers dropped.
        c.queue = .init(records: 1 << 16, bytes: 1 << 30)
        let r = TraceRecorder(c)
        DispatchQueue.concurrentPerform(iterations: 6) { i in
            if i < 3 {
                let rt = r.makeRealtimeProducer()
                for _ in 0..<2000 { rt.record(.sdkInterrupted) }
            } else {
                for _ in 0..<2000 { r.record(.sdkRecovered) }
            }
        }
        XCTAssertTrue(r.close(timeout: 30))
        let written = try records().dropFirst()
        let dropped = written.reduce(0) { n, rec in
            if case .dropped(let c, _, _) = rec.body { return n + c }
            return n
        }
        XCTAssertEqual(written.filter { $0.body == .sdkRecovered }.count, 6000, "ordinary callers lose nothing")
        XCTAssertEqual(written.filter { $0.body == .sdkInterrupted }.count + dropped, 6000, "every real-time record written or counted")
        XCTAssertEqual(r.statistics.dropped, dropped)
    }
}
