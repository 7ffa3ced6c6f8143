import Foundation
import SystemLayer
import TestSupport
import TraceFixtures
import TraceModel
@testable import TraceRecorder
import XCTest

/// A record's stamp: the processor's counter where it can stand in for the system clock, turned into
/// the clock's time by the writer, or the monotonic clock itself where there is no such counter. Either
/// way `t` is the time of the call (to the millisecond), never goes backwards on one thread, and records
/// are ordered by it and then by the order taken at the call.
final class StampTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    // MARK: The calibration

    func test_calibration_placesAReadingOnTheSegmentBetweenItsAnchors_andExtendsBeyondAtTheLongRunRate() {
        var c = TickCalibration()
        XCTAssertEqual(c.nanoseconds(123), 0, "no anchor: nothing to place it by")
        c.add(ticks: 1000, nanos: 5000)
        c.add(ticks: 2000, nanos: 6000)
        c.add(ticks: 4000, nanos: 10000)
        XCTAssertEqual(c.nanoseconds(1000), 5000)
        XCTAssertEqual(c.nanoseconds(1500), 5500)
        XCTAssertEqual(c.nanoseconds(2000), 6000)
        XCTAssertEqual(c.nanoseconds(3000), 8000, "each segment has its own rate")
        XCTAssertEqual(c.nanoseconds(4000), 10000)
        XCTAssertEqual(c.rate, 5000.0 / 3000.0, accuracy: 1e-12)
        XCTAssertEqual(c.nanoseconds(7000), 10000 + 5000, "after the newest: the rate since the first anchor")
        XCTAssertEqual(c.nanoseconds(400), 5000 - 1000, "before the oldest: the same rate backwards")
        XCTAssertEqual(c.nanoseconds(0), 5000 - 1666)
    }

    func test_calibration_leavesOutAnAnchorThatDoesNotRiseInBoth_andKeepsItsCapacity() {
        var c = TickCalibration(capacity: 3)
        c.add(ticks: 100, nanos: 1000)
        c.add(ticks: 100, nanos: 2000)
        c.add(ticks: 200, nanos: 1000)
        c.add(ticks: 90, nanos: 3000)
        XCTAssertEqual(c.anchors.count, 1)
        for i in 2...6 { c.add(ticks: UInt64(i) * 100, nanos: UInt64(i) * 1000) }
        XCTAssertEqual(c.anchors.map(\.ticks), [400, 500, 600])
        XCTAssertEqual(c.rate, 10, accuracy: 1e-12, "the long-run rate still runs from the first anchor")
    }

    func test_calibration_neverGoesBackwards_andHitsEveryAnchor_whateverTheSegmentsRates() {
        var rng = SplitMix64(seed: 36)
        for _ in 0..<50 {
            var c = TickCalibration(capacity: 8)
            var ticks: UInt64 = UInt64.random(in: 0...1 << 40, using: &rng), nanos: UInt64 = UInt64.random(in: 0...1 << 40, using: &rng)
            var kept: [(UInt64, UInt64)] = []
            for _ in 0..<12 {
                // Rates from far slower to far faster than the clock, as an adjusted clock's never are.
                ticks += UInt64.random(in: 1...5_000_000, using: &rng)
                nanos += UInt64.random(in: 1...5_000_000, using: &rng)
                c.add(ticks: ticks, nanos: nanos)
                kept.append((ticks, nanos))
            }
            for (t, n) in kept.suffix(8) { XCTAssertEqual(c.nanoseconds(t), n) }
            let lo = c.anchors[0].ticks - 1_000_000, hi = c.anchors.last!.ticks + 1_000_000
            let readings = (0..<2000).map { _ in UInt64.random(in: lo...hi, using: &rng) }.sorted()
            let placed = readings.map(c.nanoseconds)
            XCTAssertEqual(placed, placed.sorted(), "a later reading is never placed earlier")
        }
    }

    func test_counterPairsTrackTheMonotonicClock() throws {
        guard TickCounter.isUsable else {
            XCTAssertEqual(StampSource.of(Support.configuration(dir)), .monotonic, "no usable counter: records read the clock")
            return
        }
        var c = TickCalibration()
        c.anchor()
        Clock.sleep(nanoseconds: 20_000_000)
        c.anchor()
        for _ in 0..<20 {
            let before = Clock.monotonicNanoseconds()
            let ticks = TickCounter.now()
            let after = Clock.monotonicNanoseconds()
            Clock.sleep(nanoseconds: 1_000_000)
            let placed = Int64(bitPattern: c.nanoseconds(ticks))
            // Within 50 µs of the clock (the anchors span 20 ms and the extension ~20 ms more).
            XCTAssertGreaterThan(placed, Int64(bitPattern: before) - 50_000)
            XCTAssertLessThan(placed, Int64(bitPattern: after) + 50_000)
        }
    }

    func test_beforeAnyTake_theWriterFindsACounterStampAtItsCallsTime_notExtendedAtAGuessedRate() throws {
        guard TickCounter.isUsable else {
            XCTAssertEqual(StampSource.of(Support.configuration(dir)), .monotonic, "no usable counter: records read the clock")
            return
        }
        // One anchor at the start; a record a while later is what the writer's first scan finds (its
        // frame's deadline is reckoned from it).
        let core = RecorderCore(limits: .init(), frame: .init(), stamps: .counter)
        let buffer = core.lock.withLock { core.registerLocked(realtime: false) }
        Clock.sleep(nanoseconds: 200_000_000)
        let before = Clock.monotonicNanoseconds()
        let offer = Offer(nanos: TickCounter.now() | StampSource.counterMark, size: 100, clipped: false, appCall: false)
        let after = Clock.monotonicNanoseconds()
        XCTAssertTrue(buffer.append(offer, TraceRecorder.Event.sdkLog(level: "debug", message: "x").payload).queued)
        let oldest = try XCTUnwrap(core.lock.withLock { core.scanLocked().oldest })
        XCTAssertGreaterThan(oldest, before - 1_000_000, "\(Int64(bitPattern: oldest &- before)) ns from the call")
        XCTAssertLessThan(oldest, after + 1_000_000, "\(Int64(bitPattern: oldest &- after)) ns from the call")
    }

    // MARK: Recorded

    /// Records from `threads` threads on the system clock, each record's message holding the clock's
    /// readings just before and after its call; returns the records with those readings and the origin.
    func recordTimed(threads: Int, perThread: Int, counter: Bool) throws -> (records: [Record], windows: [String: (UInt64, UInt64)], origin: UInt64, recorder: TraceRecorder) {
        var config = Support.configuration(dir, sdk: "SRTC 5.1.0")
        config.sessionId = "stamps"
        config.counterStamps = counter
        let recorder = TraceRecorder(config)
        XCTAssertEqual(recorder.core.stamps, counter && TickCounter.isUsable ? .counter : .monotonic)
        final class Windows: @unchecked Sendable {
            let lock = NSLock()
            var all: [String: (UInt64, UInt64)] = [:]
        }
        let windows = Windows()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var mine: [String: (UInt64, UInt64)] = [:]
            for i in 0..<perThread {
                let key = "\(thread).\(i)"
                let before = recorder.timestamp()
                recorder.record(.sdkLog(level: "t\(thread)", message: key))
                mine[key] = (before, recorder.timestamp())
                if i % 50 == 0 { Clock.sleep(nanoseconds: 300_000) }
            }
            windows.lock.withLock { windows.all.merge(mine) { a, _ in a } }
        }
        XCTAssertTrue(recorder.close(timeout: 30))
        let records = try Support.joinParts(Support.traceFiles(dir).map { dir + "/" + $0 })
        return (records, windows.all, recorder.writer!.monoOrigin, recorder)
    }

    func assertStampedAtTheCall(_ run: (records: [Record], windows: [String: (UInt64, UInt64)], origin: UInt64, recorder: TraceRecorder),
                                count: Int, file: StaticString = #filePath, line: UInt = #line) {
        var seen = 0
        for r in run.records {
            guard case .sdkLog(_, let key) = r.body, let w = run.windows[key] else { continue }
            seen += 1
            // t is whole milliseconds since the origin; the counter's placement is within tens of
            // nanoseconds, which can cross a millisecond's edge: one millisecond of slack each side.
            let lo = Int64((w.0 - run.origin) / 1_000_000) - 1, hi = Int64((w.1 - run.origin) / 1_000_000) + 1
            XCTAssertTrue((lo...hi).contains(r.t), "\(key) at t \(r.t), called within \(lo + 1)…\(hi - 1)", file: file, line: line)
        }
        XCTAssertEqual(seen, count, "\(run.recorder.statistics)", file: file, line: line)
    }

    func test_oneThread_tIsTheTimeOfTheCall_neverGoesBackwards_noneLate() throws {
        for counter in [true, false] {
            try? FileManager.default.removeItem(atPath: dir)
            let run = try recordTimed(threads: 1, perThread: 2000, counter: counter)
            assertStampedAtTheCall(run, count: 2000)
            let logs = run.records.filter { if case .sdkLog = $0.body { return true }; return false }
            XCTAssertEqual(logs.map(\.t), logs.map(\.t).sorted(), "counter stamps: \(counter)")
            XCTAssertFalse(run.records.contains(where: \.late), "one thread: no record is made before one already written")
            XCTAssertEqual(logs.map { if case .sdkLog(_, let m) = $0.body { return m }; return "" }, (0..<2000).map { "0.\($0)" })
        }
    }

    func test_manyThreads_eachRecordAtTheTimeOfItsCall_eachThreadsInItsOrder() throws {
        for counter in [true, false] {
            try? FileManager.default.removeItem(atPath: dir)
            let run = try recordTimed(threads: 4, perThread: 1000, counter: counter)
            assertStampedAtTheCall(run, count: 4000)
            for thread in 0..<4 {
                let mine = run.records.compactMap { r -> String? in
                    if case .sdkLog("t\(thread)", let m) = r.body { return m }
                    return nil
                }
                XCTAssertEqual(mine, (0..<1000).map { "\(thread).\($0)" }, "counter stamps: \(counter)")
            }
            // Written in time order, except a record marked late (made before one already written).
            var latest = Int64.min
            for r in run.records where !r.late {
                XCTAssertGreaterThanOrEqual(r.t, latest)
                latest = r.t
            }
        }
    }

    func test_counterStampsAndClockStamps_inOneRound_areOrderedByTheTimeOfTheCall() throws {
        var config = Support.configuration(dir, sdk: "SRTC 5.1.0")
        config.sessionId = "mixed"
        let recorder = TraceRecorder(config)
        recorder.suspendWriter()
        let start = recorder.timestamp()
        recorder.record(.sdkLog(level: "a", message: "now"))
        Clock.sleep(nanoseconds: 30_000_000)
        recorder.record(.sdkLog(level: "c", message: "30 ms on"))
        // Decided late (a clock reading, not the counter's): placed among the counter's by its time.
        recorder.record(.sdkLog(level: "b", message: "made 10 ms on"), madeAt: start + 10_000_000)
        recorder.resumeWriter()
        XCTAssertTrue(recorder.close(timeout: 20))
        let logs = try Support.joinParts(Support.traceFiles(dir).map { dir + "/" + $0 }).filter { if case .sdkLog = $0.body { return true }; return false }
        XCTAssertEqual(logs.map { if case .sdkLog(let l, _) = $0.body { return l }; return "" }, ["a", "b", "c"])
        XCTAssertEqual(logs.map(\.late), [false, false, false])
        // b is stamped with its own decision time (start + 10 ms); a was called at start or later, so at
        // most 10 ms (and a millisecond of rounding) lie between them, however long a was descheduled.
        XCTAssertLessThanOrEqual(logs[1].t - logs[0].t, 11)
        XCTAssertGreaterThanOrEqual(logs[2].t - logs[0].t, 30)
    }

    func test_dropsStampedByTheCounter_reachTheTraceAtTheirCallsTimes() throws {
        var config = Support.configuration(dir, sdk: "SRTC 5.1.0")
        config.sessionId = "drops"
        config.queue = .init(records: 10, bytes: 1 << 20)
        let recorder = TraceRecorder(config)
        let origin = recorder.writer!.monoOrigin
        recorder.suspendWriter()
        let before = recorder.timestamp()
        for i in 0..<10 { recorder.record(.sdkLog(level: "debug", message: "kept \(i)")) }
        Clock.sleep(nanoseconds: 5_000_000)
        let dropFrom = recorder.timestamp()
        for i in 0..<6 { recorder.record(.sdkLog(level: "debug", message: "dropped \(i)")) }
        // A late record dropped in the same episode: its clock reading widens the episode back.
        recorder.record(.sdkLog(level: "debug", message: "late, dropped"), madeAt: before)
        let dropTo = recorder.timestamp()
        recorder.resumeWriter()
        XCTAssertTrue(recorder.close(timeout: 20))
        XCTAssertEqual(recorder.statistics.dropped, 7)
        let records = try Support.joinParts(Support.traceFiles(dir).map { dir + "/" + $0 })
        let drops = records.compactMap { r -> (Int, Int64, Int64)? in
            if case .dropped(let n, let from, let to) = r.body { return (n, from, to) }
            return nil
        }
        XCTAssertEqual(drops.count, 1)
        let ms = { (n: UInt64) in Int64((n - origin) / 1_000_000) }
        XCTAssertEqual(drops.first?.0, 7)
        XCTAssertEqual(drops.first?.1, ms(before), "from the late record's time")
        if let to = drops.first?.2 {
            XCTAssertTrue((ms(dropFrom) - 1...ms(dropTo) + 1).contains(to), "to \(to), the counter's drops made within \(ms(dropFrom))…\(ms(dropTo))")
        }
    }
}
