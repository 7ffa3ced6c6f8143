import Foundation
import TestSupport
import TraceCodec
import TraceModel
import XCTest

/// The writer harness runs as a child of this test executable (`TestChild`): started with only this
/// test selected and a role named in its environment, the test runs that role and ends the process.
/// Run as a test, it checks the child mechanism the crash, race and memory tests stand on.
final class WriterHarnessTests: XCTestCase {
    func test_writerHarnessRoles() throws {
        if TestChild.runIfAsked(WriterHarness.roles) { return }
        let dir = Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }

        // Arguments reach the child as given (spaces, a newline, non-ASCII), and its streams hold
        // only what the role wrote: none of XCTest's lines from before the role started.
        let path = dir + "/harness.trace.zst"
        let writerID = "b c\nd é"
        let race = Support.harness(["race", path, writerID, "3"]).wait()
        XCTAssertEqual(race.status, 0, race.err)
        XCTAssertEqual(race.out, "")
        XCTAssertEqual(race.err, "")
        let (records, problems) = try Support.readAll(path)
        XCTAssertEqual(problems, [])
        XCTAssertEqual(records, (0..<3).map { Support.harnessRecord($0, writer: writerID) })

        // A role's output is its own, line for line, and its status is the child's.
        let read = Support.harness(["read", path]).wait()
        XCTAssertEqual(read.status, 0, read.err)
        let fields = read.out.split(separator: " ")
        XCTAssertEqual(fields.prefix(6), ["records", "3", "problems", "0", "kinds", "-"], read.out)
        XCTAssertEqual(Support.readInChild(path).records, 3)
        let usage = Support.harness(["race", path]).wait()
        XCTAssertEqual(usage.status, 64)
        XCTAssertEqual(usage.err, "Error: usage: race TRACE WRITER_ID COUNT [--wait]\n")

        // A role the entry does not run is refused by name, not run as a test.
        let unknown = TestChild.start(TestChildRole(name: "nope", entry: WriterHarness.entry) { _ in 0 }, []).wait()
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.err.hasPrefix("Error: no test child role 'nope'"), unknown.err)
        XCTAssertEqual(unknown.out, "")
    }
}
