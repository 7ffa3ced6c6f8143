import Analysis
import Foundation
@_spi(FaultInjection) import SystemLayer
import TestSupport
import TraceCodec
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
