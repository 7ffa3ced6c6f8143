import Foundation
import SystemLayer
import XCTest
@testable import TraceFormat

/// Issue 8, point 2: a writer killed at any moment, or failing at any write, leaves a trace that
/// recovers to a prefix of what was appended, holding every record that was flushed.
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

    /// SIGKILL at random moments while a writer process appends (and while it opens, repairs,
    /// flushes and closes): 300 kills over 12 traces, each continued by the next writer.
    func test_writerKilledAtRandomPointsRecoversToFlushedPrefix() throws {
        var rng = SystemRandomNumberGenerator()
        var killedMidRun = 0, repaired = 0
        let kills = 300
        // Kills land within the time the shortest run takes on this machine (the median of five
        // clean runs): a fixed 0–25 ms window let most of them miss a writer that runs faster,
        // and the shortest runs still cover every phase up to the close.
        var probes: [UInt64] = []
        for i in 0..<5 {
            let probe = dir + "/probe-\(i).trace.zst"
            let start = Clock.monotonicNanoseconds()
            Support.Child(Support.harness, ["append", probe, probe + ".flushed", "20", "4"]).wait()
            probes.append(Clock.monotonicNanoseconds() - start)
        }
        let window = max(1_000_000, probes.sorted()[2])
        for round in 0..<kills {
            let path = dir + "/kill-\(round / 25).trace.zst"
            let side = path + ".flushed"
            let flushedBefore = (try? String(contentsOfFile: side, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? -1
            let count = Int.random(in: 20...150, using: &rng)
            let every = Int.random(in: 1...8, using: &rng)
            let child = Support.Child(Support.harness, ["append", path, side, String(count), String(every)])
            Clock.sleep(nanoseconds: UInt64.random(in: 0...window, using: &rng))
            try? Signal.kill.send(to: child.pid)
            let result = child.wait()
            if result.status == -Signal.kill.rawValue { killedMidRun += 1 } else {
                XCTAssertEqual(result.status, 0, "harness failed: \(result.err)")
            }
            let flushed = (try? String(contentsOfFile: side, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? -1
            XCTAssertGreaterThanOrEqual(flushed, flushedBefore)
            // Killed before it created the file: nothing can have been flushed.
            guard FileManager.default.fileExists(atPath: path) else { XCTAssertEqual(flushed, -1); continue }
            // Only the damage a kill can leave: a torn last frame or a missing end mark.
            let n = try assertPrefix(path, mustHave: flushed, allowed: [.tornFrame, .notClosed, .empty])
            if n > flushed + 1 { repaired += 1 }
        }
        // The kills must really land mid-write, not only after the writer finished.
        XCTAssertGreaterThan(killedMidRun, kills / 2, "too few kills landed while the writer ran")
        // Every trace, reopened and closed cleanly, verifies with no problem at all.
        for k in 0..<(kills / 25) {
            let path = dir + "/kill-\(k).trace.zst"
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let w = try TraceWriter(path: path)
            let before = w.nextSeq
            try w.append(Support.harnessRecord(w.nextSeq))
            try w.close()
            let (records, problems) = try Support.readAll(path)
            XCTAssertEqual(problems, [], "trace \(k) after repair")
            XCTAssertEqual(records.count, before + 1)
        }
        print("kills: \(kills), landed mid-run: \(killedMidRun), unflushed records that survived: \(repaired) times")
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
