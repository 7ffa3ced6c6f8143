import Foundation
import TestSupport
@testable import TraceCodec
@testable import TraceRecorder
import XCTest

/// Frames: a frame every N records or when its oldest record is about to be T ms old, app calls written
/// through, `flush()`; the fsync policies.
final class FramingTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func recorder(_ clock: ManualClock, frame: RecorderConfiguration.FramePolicy, sync: RecorderConfiguration.SyncPolicy = .never) -> TraceRecorder {
        var c = Support.configuration(dir, clock: clock)
        c.frame = frame
        c.sync = sync
        return TraceRecorder(c)
    }

    /// The number of lines in each data frame of the only file, in order.
    func framesOfFile() throws -> [Int] {
        let path = dir + "/" + Support.traceFiles(dir)[0]
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func le32(_ i: Int) -> UInt32 { UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24 }
        var counts: [Int] = []
        var offset = 0
        var out = [UInt8](repeating: 0, count: 1 << 16)
        while offset + 8 <= bytes.count {
            if le32(offset) & 0xFFFF_FFF0 == 0x184D_2A50 {
                offset += 8 + Int(le32(offset + 4))
                continue
            }
            let z = try ZstdDecompressor(maxWindowLog: 27)
            var lines = 0, ended = false
            while !ended && offset < bytes.count {
                let step = try bytes[offset...].withUnsafeBytes { input in
                    try out.withUnsafeMutableBytes { try z.decompress(input, into: $0) }
                }
                lines += out[0..<step.produced].filter { $0 == 0x0A }.count
                offset += step.consumed
                ended = step.frameEnded
            }
            counts.append(lines)
        }
        return counts
    }

    func test_framesAreCutByRecordCountAndByTheAgeOfTheirOldestRecord() throws {
        let clock = ManualClock()
        let r = recorder(clock, frame: .init(records: 4, milliseconds: 1000))
        // One batch, so that the writer's timing plays no part: t 0, 500, 999 | 1000, 1500 | 2600, 2601,
        // 2602, 2603 | 2604 (close). The header is a frame of its own, written when the part was created.
        r.suspendWriter()
        for (i, dt) in [0, 500, 499, 1, 500, 1100, 1, 1, 1, 1].enumerated() {
            clock.advance(milliseconds: Int64(dt))
            r.record(.sdkLog(level: "debug", message: "\(i)"))
        }
        r.resumeWriter()
        XCTAssertTrue(r.close(timeout: 20))
        XCTAssertEqual(try framesOfFile(), [1, 3, 2, 4, 1])
    }

    func test_aFrameIsWrittenBeforeItsOldestRecordReachesTheAgeLimit_withoutMoreRecords() throws {
        let clock = ManualClock()
        let r = recorder(clock, frame: .init(records: 256, milliseconds: 1000))
        XCTAssertTrue(r.waitUntilWriterIdle())
        r.record(.sdkLog(level: "debug", message: "alone"))
        XCTAssertTrue(r.waitUntilWriterIdle())
        clock.advance(milliseconds: 949)
        XCTAssertTrue(r.waitUntilWriterIdle())
        XCTAssertEqual(r.statistics.frames, 1, "only the header's frame: the record is 949 ms old")
        clock.advance(milliseconds: 1)
        XCTAssertTrue(r.waitUntilWriterIdle())
        XCTAssertEqual(r.statistics.frames, 2, "the writer acts a slack of 50 ms before the limit: \(r.statistics)")
        XCTAssertEqual(r.framedSeq, 1)
        XCTAssertTrue(r.close(timeout: 20))
    }

    func test_appCallsAreWrittenThroughAtOnce_withWhatWaitsBeforeThem() throws {
        let clock = ManualClock()
        let r = recorder(clock, frame: .init(records: 256, milliseconds: 60_000))
        r.record(.sdkLog(level: "debug", message: "before"))
        clock.advance(milliseconds: 10)
        r.record(.setRoute(target: .speaker, api: "setSpeakerOutputEnabled(true)"))
        XCTAssertTrue(Support.eventually { r.framedSeq == 2 }, "the app call and the log before it are in a frame at once")
        r.record(.sdkLog(level: "debug", message: "after"))
        XCTAssertTrue(r.waitUntilWriterIdle())
        XCTAssertEqual(r.framedSeq, 2, "a log line waits for its frame")
        XCTAssertTrue(r.close(timeout: 20))
        XCTAssertEqual(try framesOfFile(), [1, 2, 1])

        try? FileManager.default.removeItem(atPath: dir)
        let off = recorder(clock, frame: .init(records: 256, milliseconds: 60_000, writeThroughAppCalls: false))
        off.record(.setRoute(target: .speaker))
        XCTAssertTrue(off.waitUntilWriterIdle())
        XCTAssertEqual(off.framedSeq, 0, "without write-through an app call waits like any record")
        XCTAssertTrue(off.close(timeout: 20))
    }

    func test_flushWritesAFrameNow() throws {
        let clock = ManualClock()
        let r = recorder(clock, frame: .init(records: 256, milliseconds: 60_000))
        r.record(.sdkLog(level: "debug", message: "x"))
        XCTAssertTrue(r.flush(timeout: 20))
        XCTAssertEqual(r.statistics.frames, 2)
        XCTAssertEqual(try Support.read(dir + "/" + Support.traceFiles(dir)[0]).records.count, 2, "readable before close")
        XCTAssertTrue(r.close(timeout: 20))
    }

    func test_syncPolicies() throws {
        func run(_ policy: RecorderConfiguration.SyncPolicy) -> RecorderStatistics {
            try? FileManager.default.removeItem(atPath: dir)
            let clock = ManualClock()
            let r = recorder(clock, frame: .init(records: 10, milliseconds: 60_000), sync: policy)
            // One batch, so that the writer's own timing plays no part: t 0, 100, … 9900.
            r.suspendWriter()
            for _ in 0..<100 {
                r.record(.sdkLog(level: "debug", message: "x"))
                clock.advance(milliseconds: 100)
            }
            r.resumeWriter()
            XCTAssertTrue(r.flush(timeout: 20))
            let s = r.statistics
            XCTAssertTrue(r.close(timeout: 20))
            XCTAssertEqual(s.frames, 11, "the header's frame, and 100 records 10 to a frame")
            return s
        }
        XCTAssertEqual(run(.everyFrame).syncs, 11, "a sync when the part is created and after every frame")
        XCTAssertEqual(run(.never).syncs, 0)
        // Frames end at t 900, 1900, … 9900: a sync once 3 s of records have been framed since the last
        // one (at 3900, 6900, 9900), and one when the part was created.
        XCTAssertEqual(run(.interval(seconds: 3)).syncs, 4)
    }
}
