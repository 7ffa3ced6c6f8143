import Foundation
import TestSupport
import TraceFixtures
@testable import TraceRecorder
import XCTest

/// Durable by default: whatever the sync policy, a record is in a written frame no later than the
/// frame interval after it was made, however records arrive, and a queue of large records is drained
/// before it fills.
final class DurabilityTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Plays `gaps` (ms before each record) into a recorder with the default configuration on a manual
    /// clock and checks, at every step, that every record made at least the frame interval ago is in a
    /// written frame.
    func assertEveryRecordFramedWithinTheInterval(_ gaps: [Int64], file: StaticString = #filePath, line: UInt = #line) {
        let clock = ManualClock()
        let config = Support.configuration(dir, clock: clock)
        let interval = config.frame.milliseconds
        let r = TraceRecorder(config)
        XCTAssertTrue(r.waitUntilWriterIdle(), file: file, line: line)
        var madeAt: [Int64] = []   // by seq - 1 (seq 0 is the header)
        var now: Int64 = 0
        func check(_ what: String) {
            XCTAssertTrue(r.waitUntilWriterIdle(), file: file, line: line)
            let framed = r.framedSeq
            for (i, t) in madeAt.enumerated() where now - t >= interval {
                guard i + 1 > framed else { continue }
                XCTFail("\(what): the record made at \(t) ms is not in a frame at \(now) ms (framed through seq \(framed))", file: file, line: line)
                return
            }
        }
        for (i, gap) in gaps.enumerated() {
            // Time passes in small steps, as it does on a device: the writer wakes when it must, not
            // because the test moved the clock past its deadline in one jump.
            var left = gap
            while left > 0 {
                let step = min(left, 100)
                clock.advance(milliseconds: step)
                now += step
                left -= step
                check("step \(i)")
            }
            r.record(.sdkLog(level: "debug", message: "record \(i)"))
            madeAt.append(now)
            check("record \(i)")
        }
        for _ in 0..<Int(interval / 100) + 1 {
            clock.advance(milliseconds: 100)
            now += 100
            check("after the last record")
        }
        XCTAssertEqual(r.framedSeq, gaps.count, "every record written", file: file, line: line)
        XCTAssertTrue(r.close(timeout: 20), file: file, line: line)
        XCTAssertEqual(r.statistics.dropped, 0, file: file, line: line)
    }

    func test_afterAFirstFrame_oneRecordEvery300ms_eachIsFramedWithinTheInterval() {
        // The first record is framed alone; the writer then sleeps towards the 30 s sync deadline with
        // nothing unwritten, and every later record must wake it.
        assertEveryRecordFramedWithinTheInterval([0, 2500] + Array(repeating: 300, count: 40))
    }

    func test_randomGaps_eachRecordIsFramedWithinTheInterval() {
        var g = SplitMix64(seed: 25)
        let gaps: [Int64] = (0..<120).map { _ in
            switch g.below(10) {
            case 0: Int64(2000 + g.below(8000))     // a long pause
            case 1, 2: 0                            // a burst
            default: Int64(g.below(700))
            }
        }
        assertEveryRecordFramedWithinTheInterval(gaps)
    }

    func test_largeRecords_wakeTheWriterByTheirBytes_andAreNotDropped() throws {
        // 16 KB records at 100 a second: the 1 MiB queue holds 64 of them, far fewer than the 256 that
        // wake the writer by count, and fills in under a second, before the 2 s age limit.
        let clock = ManualClock()
        var c = Support.configuration(dir, clock: clock)
        c.records = .init(maxStringBytes: 32 << 10)
        let r = TraceRecorder(c)
        XCTAssertTrue(r.waitUntilWriterIdle())
        let big = String(repeating: "x", count: 16_000)
        for i in 0..<300 {
            r.record(.sdkLog(level: "debug", message: "\(i) " + big))
            XCTAssertTrue(r.waitUntilWriterIdle())
            clock.advance(milliseconds: 10)
        }
        XCTAssertTrue(r.close(timeout: 20))
        let s = r.statistics
        XCTAssertEqual(s.dropped, 0, "\(s)")
        XCTAssertEqual(s.accepted, 300)
        XCTAssertLessThanOrEqual(s.peakQueuedBytes, c.queue.bytes / 4 + 20_000, "taken as soon as a quarter of the byte cap waits")
    }
}
