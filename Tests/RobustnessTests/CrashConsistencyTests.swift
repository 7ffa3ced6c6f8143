import Foundation
@_spi(FaultInjection) import SystemLayer
import TestSupport
@testable import TraceCodec
import XCTest

/// A writer killed at any point, or failing at any write, leaves a trace that recovers to a
/// prefix of what was appended, holding every record that was flushed.
final class CrashConsistencyTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Checks the trace holds exactly records 0..<n of the harness sequence, n > `mustHave`.
    func assertPrefix(_ path: String, mustHave: Int, allowed: Set<TraceProblem.Kind>,
                      file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let (records, problems) = try Support.readAll(path)
        for (i, r) in records.enumerated() where r != Support.harnessRecord(i) {
            XCTFail("record \(i) is \(r), not what was appended", file: file, line: line)
            break
        }
        XCTAssertGreaterThan(records.count, mustHave, "a record flushed before the kill is missing", file: file, line: line)
        for p in problems where !allowed.contains(p.kind) {
            XCTFail("unexpected problem: \(p)", file: file, line: line)
        }
        return records.count
    }

    /// One harness run: where it stops (nil: it runs to a clean close) and what it appends.
    struct Run {
        var stop: String?
        var count = 12
        var flushEvery = 5
    }

    /// The stop points of one trace's life, in order, each run continuing the trace the previous
    /// kill left. With 12 records flushed every 5, a run writes three frames (5, 5 and 2 records).
    static let lifeOfATrace: [Run] = {
        var runs: [Run] = []
        // Inside the start mark, from before its first byte to after its last: a new trace each
        // time, since every cut start mark is repaired by writing it again.
        for bytes in ["0", "1", "half", "last", "all"] { runs.append(Run(stop: "open:" + bytes)) }
        // Inside each frame write: before it, at its first byte, half way, one byte short, and
        // complete but before the flush returned (mid-flush: the side file still names the frame before).
        for frame in 1...3 {
            for bytes in ["0", "1", "half", "last", "all"] { runs.append(Run(stop: "frame:\(frame):" + bytes)) }
        }
        // Between frames, and with records appended but not yet flushed.
        runs += [Run(stop: "flushed:1"), Run(stop: "flushed:2"), Run(stop: "appended:1"), Run(stop: "appended:7")]
        // Inside the end mark, then a run that closes cleanly.
        for bytes in ["0", "1", "half", "last", "all"] { runs.append(Run(stop: "close:" + bytes)) }
        runs.append(Run(stop: nil))
        return runs
    }()

    /// A writer process is stopped at a point the test chose (inside the start mark, inside each
    /// frame write, mid-flush, between frames, with records buffered, inside the end mark) and
    /// killed there with SIGKILL; each kill's trace is continued by the next writer, so repairing on
    /// open is itself killed. After every kill the trace reads as a prefix of what was appended,
    /// holding every record the side file says was flushed, and with only the damage that point
    /// can leave. Where a kill lands never depends on timing: the harness blocks at the stop point
    /// until it is killed.
    func test_writerKilledAtChosenPointsRecoversToFlushedPrefix() throws {
        var runs = 0
        for (k, flushEvery) in [5, 1, 12].enumerated() {
            let path = dir + "/kill-\(k).trace.zst"
            for var run in Self.lifeOfATrace {
                run.flushEvery = flushEvery
                // With one frame per run (flushEvery 12) frames 2 and 3 do not exist.
                if flushEvery == 12, let stop = run.stop, stop.hasPrefix("frame:2") || stop.hasPrefix("frame:3") || stop == "flushed:2" {
                    continue
                }
                try killAndCheck(path, run)
                runs += 1
            }
            try assertReopensClean(path)
        }
        // 79 runs: 76 kills, each where it was meant to land, and three clean closes.
        XCTAssertEqual(runs, 3 * Self.lifeOfATrace.count - 11)
    }

    /// A torn frame whose first blocks are complete: readers keep its complete lines, the next
    /// writer rewrites them as a new frame, and a writer killed in the middle of that rewrite
    /// leaves a trace that still recovers (to the records before the torn frame, at least).
    func test_writerKilledWhileRewritingRescuedLinesRecovers() throws {
        let path = dir + "/rescue.trace.zst"
        // One frame of 3000 records spans several zstd blocks, so a cut near its end keeps lines.
        try killAndCheck(path, Run(stop: "frame:1:last", count: 3000, flushEvery: 3000))
        let torn = try Support.readAll(path)
        XCTAssertGreaterThan(torn.records.count, 1000, "readers keep the complete lines of the torn frame")
        // The next writer cuts the torn frame and rewrites those lines; it is killed half way.
        try killAndCheck(path, Run(stop: "open:half", count: 10, flushEvery: 5))
        try killAndCheck(path, Run(stop: nil, count: 10, flushEvery: 5))
        try assertReopensClean(path)
    }

    /// Runs the harness to `run.stop`, kills it there and checks what the trace holds.
    func killAndCheck(_ path: String, _ run: Run, file: StaticString = #filePath, line: UInt = #line) throws {
        let side = path + ".flushed"
        let flushedBefore = Support.flushedSeq(side)
        let existed = FileManager.default.fileExists(atPath: path)
        let result = Support.appendAndKill(path, side: side, count: run.count, flushEvery: run.flushEvery, stop: run.stop)
        let flushed = Support.flushedSeq(side)
        let stop = run.stop ?? "clean close"
        guard let point = run.stop else {
            XCTAssertEqual(result.status, 0, "harness failed: \(result.err)", file: file, line: line)
            let n = try assertPrefix(path, mustHave: flushed, allowed: [], file: file, line: line)
            XCTAssertEqual(n, flushed + 1, "a clean close keeps exactly what was flushed", file: file, line: line)
            return
        }
        XCTAssertTrue(result.line.hasPrefix("stopped \(point)"),
                      "\(stop): the harness did not stop there: '\(result.line)' \(result.err)", file: file, line: line)
        XCTAssertEqual(result.status, -Signal.kill.rawValue, "\(stop): the kill must land at the stop point", file: file, line: line)
        XCTAssertGreaterThanOrEqual(flushed, flushedBefore, stop, file: file, line: line)
        guard FileManager.default.fileExists(atPath: path) else {
            return XCTFail("\(stop): the trace was not even created", file: file, line: line)
        }
        let problems = try Support.readAll(path).problems
        let kinds = Set(problems.map(\.kind))
        // Only the damage a kill can leave: a torn last frame or start mark, a missing end mark.
        let n = try assertPrefix(path, mustHave: flushed, allowed: [.tornFrame, .notClosed, .empty],
                                 file: file, line: line)
        let lastAppended = Int(result.line.split(separator: " ").last ?? "") ?? -1
        // A trace cut at a frame boundary: it only lacks the end mark (or holds nothing yet).
        let cutAtABoundary: Set<TraceProblem.Kind> = n == 0 ? [.empty] : [.notClosed]
        switch point.split(separator: ":").first {
        case "flushed", "appended":
            // Nothing was being written: the trace ends with the last flushed frame, intact.
            XCTAssertEqual(n, flushed + 1, "\(stop): unflushed records cannot be in the file", file: file, line: line)
            XCTAssertEqual(kinds, cutAtABoundary, "\(stop): \(problems)", file: file, line: line)
            if point.hasPrefix("appended") { XCTAssertGreaterThan(lastAppended, flushed, stop, file: file, line: line) }
        case "frame" where point.hasSuffix(":all"):
            // The frame is complete on disk though the flush had not returned: its records are there.
            XCTAssertEqual(n, lastAppended + 1, "\(stop): the completely written frame is kept", file: file, line: line)
            XCTAssertGreaterThan(n, flushed + 1, stop, file: file, line: line)
            XCTAssertEqual(kinds, cutAtABoundary, "\(stop): \(problems)", file: file, line: line)
        case "frame" where point.hasSuffix(":0"):
            // Before the frame's first byte: the trace ends with the last flushed frame, intact.
            XCTAssertEqual(n, flushed + 1, stop, file: file, line: line)
            XCTAssertEqual(kinds, cutAtABoundary, "\(stop): \(problems)", file: file, line: line)
        case "close":
            // Inside the end mark: every record was flushed before it.
            XCTAssertEqual(n, flushed + 1, stop, file: file, line: line)
            XCTAssertEqual(n, lastAppended + 1, stop, file: file, line: line)
        case "frame":
            // Part of a frame: readers say the last frame is torn.
            XCTAssertTrue(kinds.contains(.tornFrame), "\(stop): \(problems)", file: file, line: line)
        default:
            // Opening: inside the start mark, or inside the rewrite of rescued lines.
            if !existed { XCTAssertEqual(n, 0, stop, file: file, line: line) }
        }
    }

    /// Reopened and closed cleanly, the trace verifies with no problem at all.
    func assertReopensClean(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let w = try TraceWriter(path: path)
        let before = w.nextSeq
        try w.append(Support.harnessRecord(w.nextSeq))
        try w.close()
        let (records, problems) = try Support.readAll(path)
        XCTAssertEqual(problems, [], path, file: file, line: line)
        XCTAssertEqual(records.count, before + 1, path, file: file, line: line)
    }

    let writerOptions = TraceWriter.Options(frameRecords: 3, frameBytes: 1 << 20, level: 3)

    /// The disk fills at every byte of the trace (so at every write, whole or partial): the
    /// writer throws a clear error and the file still ends with a complete frame.
    func test_diskFullAtEveryByteReportsErrorAndLeavesRecoverableFile() throws {
        let total = 40
        // How many bytes a clean run writes: failure points cover all of them.
        let probe = FaultInjector()
        let probePath = dir + "/probe.trace.zst"
        try SystemFaults.with(probe) {
            let w = try TraceWriter(path: probePath, options: writerOptions)
            for i in 0..<total { try w.append(Support.harnessRecord(i)) }
            try w.close()
        }
        let size = Int(try FileManager.default.attributesOfItem(atPath: probePath)[.size] as! UInt64)
        XCTAssertGreaterThan(probe.writeCount, 10)
        var failures = 0
        for budget in 0...size {
            let path = dir + "/full-\(budget).trace.zst"
            var flushedThrough = -1
            var thrown: Error?
            do {
                // The writer is released inside the block, so its deinit meets the full disk too.
                try SystemFaults.with(.diskFull(after: budget)) {
                    let w = try TraceWriter(path: path, options: writerOptions)
                    for i in 0..<total {
                        try w.append(Support.harnessRecord(i))
                        if w.unflushedRecords == 0 { flushedThrough = i }
                    }
                    try w.close()
                }
            } catch { thrown = error }
            if budget < size {
                guard let e = thrown as? FileError else { XCTFail("budget \(budget): no error reported (\(String(describing: thrown)))"); continue }
                XCTAssertTrue(e.message.contains("No space left on device"), e.description)
                failures += 1
            } else {
                XCTAssertNil(thrown)
            }
            // Readable right away: a prefix with every flushed record, no torn or bad frame.
            let (records, problems) = try Support.readAll(path)
            for (i, r) in records.enumerated() { XCTAssertEqual(r, Support.harnessRecord(i), "budget \(budget)") }
            XCTAssertGreaterThan(records.count, flushedThrough, "budget \(budget): a flushed record is missing")
            for p in problems where ![.notClosed, .empty].contains(p.kind) { XCTFail("budget \(budget): \(p)") }
            // And appendable once space is back: the next writer continues and closes cleanly.
            let w = try TraceWriter(path: path)
            XCTAssertEqual(w.openReport.truncatedBytes, 0, "budget \(budget): the failed writer left partial bytes")
            try w.append(Support.harnessRecord(w.nextSeq))
            try w.close()
            let after = try Support.readAll(path)
            XCTAssertEqual(after.problems, [], "budget \(budget)")
            XCTAssertEqual(after.records.count, records.count + 1)
        }
        XCTAssertEqual(failures, size)
    }

    /// A transient write error (EIO once) is reported; the records stay buffered and the next
    /// flush writes them, so nothing is lost and nothing is written twice.
    func test_transientWriteErrorIsReportedAndFlushRetries() throws {
        for failAt in 1...8 {
            let path = dir + "/eio-\(failAt).trace.zst"
            let o = TraceWriter.Options(frameRecords: 1 << 20, frameBytes: 1 << 20, level: 3)
            // The write numbered failAt fails with EIO; short writes too: half of every other write.
            let faults = FaultInjector(write: { attempt in
                attempt.number == failAt ? .fail(.ioError) : attempt.number % 2 == 0 ? .shortWrite(max(1, attempt.count / 2)) : nil
            })
            var errors = 0
            let opened = try SystemFaults.with(faults) { () throws -> Bool in
                let w: TraceWriter
                do { w = try TraceWriter(path: path, options: o) } catch {
                    XCTAssertTrue("\(error)".contains("Input/output error"), "\(error)")
                    return false
                }
                for i in 0..<10 {
                    try w.append(Support.harnessRecord(i))
                    do { try w.flush() } catch {
                        errors += 1
                        XCTAssertTrue("\(error)".contains("Input/output error"), "\(error)")
                        XCTAssertEqual(w.unflushedRecords, 1)
                    }
                }
                try w.close()
                return true
            }
            guard opened else { continue }
            let (records, problems) = try Support.readAll(path)
            XCTAssertEqual(problems, [])
            XCTAssertEqual(records, (0..<10).map { Support.harnessRecord($0) })
            XCTAssertLessThanOrEqual(errors, 1)
        }
    }

    /// A creator killed inside the start mark (a 1–19 byte file) must not make the trace unusable.
    func test_tornStartMarkIsRepairedOnOpen() throws {
        let mark = TraceMark.start.frame
        for cut in 1..<mark.count {
            let path = dir + "/start-\(cut).trace.zst"
            _ = FileManager.default.createFile(atPath: path, contents: Data(mark[0..<cut]))
            let w = try TraceWriter(path: path)
            XCTAssertEqual(w.openReport.truncatedBytes, cut)
            try w.append(Support.harnessRecord(0))
            try w.close()
            let reader = try TraceReader(path: path)
            var records = 0
            while let e = reader.next() {
                if case .record = e { records += 1 } else { XCTFail("cut \(cut): \(e)") }
            }
            XCTAssertEqual(records, 1)
            XCTAssertTrue(reader.stats.hasStartMark, "cut \(cut): the start mark was not rewritten")
        }
    }
}
