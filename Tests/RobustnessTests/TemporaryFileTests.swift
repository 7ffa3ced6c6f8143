import Analysis
import Foundation
@_spi(FaultInjection) import SystemLayer
import TestSupport
@testable import TraceCodec
import XCTest

/// (g) An output written through a temporary sibling that fails (here: the disk fills) reports
/// the file asked for, never the temporary that was just removed, and leaves nothing behind.
final class TemporaryFileTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() {
        SystemFaults.injector = nil
        try? FileManager.default.removeItem(atPath: dir)
    }

    func assertNamesTargetOnly(_ error: Error?, _ target: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let error else { return XCTFail("\(what): no error", file: file, line: line) }
        let text = "\(error)"
        XCTAssertTrue(text.contains(target), "\(what): \(text)", file: file, line: line)
        XCTAssertFalse(text.contains(".tmp-"), "\(what) names a temporary file: \(text)", file: file, line: line)
        XCTAssertTrue(text.contains("No space left on device"), "\(what): \(text)", file: file, line: line)
    }

    func test_failedReplacementNamesTheTargetNotTheRemovedTemporary() throws {
        let records = (0..<200).map { Support.harnessRecord($0) }
        let input = dir + "/in.trace.zst"
        try TraceFiles.write(records, to: input)
        let out = dir + "/out.trace.zst"
        // At several points: inside the start mark, a frame, the end mark.
        let size = Int(try FileSystem.status(input).size)
        for budget in [5, size / 2, size - 3] {
            var thrown: Error?
            do { try SystemFaults.with(.diskFull(after: budget)) { try TraceFiles.write(records, to: out) } } catch { thrown = error }
            assertNamesTargetOnly(thrown, out, "TraceFiles.write, \(budget) bytes free")
            thrown = nil
            do {
                try SystemFaults.with(.diskFull(after: budget)) { _ = try Redaction.run(input: input, output: out, salt: "s") }
            } catch { thrown = error }
            assertNamesTargetOnly(thrown, out, "Redaction.run, \(budget) bytes free")
            thrown = nil
            do { try SystemFaults.with(.diskFull(after: budget)) { try AtomicFile.write(String(repeating: "x", count: 5000), to: out) } } catch {
                thrown = error
            }
            assertNamesTargetOnly(thrown, out, "AtomicFile.write, \(budget) bytes free")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["in.trace.zst"], "a temporary was left behind")
        // A record the writer refuses names the target too.
        XCTAssertThrowsError(try TraceFiles.write([records[0], records[2]], to: out)) { e in
            XCTAssertFalse("\(e)".contains(".tmp-"), "\(e)")
            XCTAssertTrue("\(e)".hasPrefix(out + ": seq 2"), "\(e)")
        }
    }
}

/// Temporary names fit any legal output name, and the temporaries a killed run left behind are
/// removed by the next run that writes in that folder.
final class TemporaryNameTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// A 245-byte output name (and the longest, 255 bytes, and one of multi-byte characters) is
    /// written: the temporary was 27 bytes longer than the name, past NAME_MAX.
    func test_aLegalLongOutputNameIsWritten() throws {
        let names = [String(repeating: "a", count: 236) + ".trace.zst", String(repeating: "b", count: 255),
                     String(repeating: "é", count: 120) + ".json"]
        for name in names {
            XCTAssertLessThanOrEqual(name.utf8.count, 255)
            let tmp = AtomicFile.temporarySibling(of: dir + "/" + name)
            let tmpName = String(tmp.dropFirst(dir.count + 1))
            XCTAssertLessThanOrEqual(tmpName.utf8.count, 255, tmpName)
            XCTAssertNotNil(AtomicFile.temporaryOwner(tmpName), "a cut name is still recognised as a temporary: \(tmpName)")
            try AtomicFile.write("x", to: dir + "/" + name)
            XCTAssertEqual(try String(contentsOfFile: dir + "/" + name, encoding: .utf8), "x")
        }
        // End to end, through record's replacement.
        let out = dir + "/" + String(repeating: "c", count: 235) + ".trace.zst"
        let r = CLI.run(["record", Support.root + "/traces/srtc-cdn-wangsu.jsonl", "-o", out])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out))
    }

    func make(_ name: String, ageSeconds: Int) throws -> String {
        let path = dir + "/" + name
        try Data(repeating: 7, count: 100).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -Double(ageSeconds))], ofItemAtPath: path)
        return path
    }

    /// Temporaries of killed runs (`.NAME.tmp-PID-RANDOM`, the process gone, unchanged for 10 minutes;
    /// or unchanged for a day) go when the next output is written in that folder; nothing else does.
    func test_temporariesLeftByKilledRunsAreRemovedByTheNextRun() throws {
        let gone: Int32 = 99_999_999   // above any pid_max: no such process
        let stale = try make(".t.trace.zst.tmp-\(gone)-3k9x", ageSeconds: 3600)
        let abandoned = try make(".r.html.tmp-1-zz", ageSeconds: 25 * 3600)           // pid 1 runs, but a day old
        let fresh = try make(".t.trace.zst.tmp-\(gone)-abc", ageSeconds: 60)           // maybe another host's, still writing
        let running = try make(".u.json.tmp-1-abc", ageSeconds: 3600)                   // its process runs
        let others = try [".t.trace.zst.tmp-\(gone)-ABC", "t.trace.zst.tmp-\(gone)-abc", ".notes.tmp", ".x.tmp-\(gone)-"]
            .map { try make($0, ageSeconds: 3 * 24 * 3600) }
        let r = CLI.run(["record", Support.root + "/traces/srtc-cdn-wangsu.jsonl", "-o", dir + "/new.trace.zst"])
        XCTAssertEqual(r.status, 0, r.err)
        let fm = FileManager.default
        XCTAssertFalse(fm.fileExists(atPath: stale))
        XCTAssertFalse(fm.fileExists(atPath: abandoned))
        for kept in [fresh, running] + others { XCTAssertTrue(fm.fileExists(atPath: kept), kept) }
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".new.") }, [], "record's own temporary is gone too")
    }
}
