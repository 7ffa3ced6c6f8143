import Foundation
import TestSupport
import XCTest

/// docs/field-examples.md shows what the tool prints: every `$ rtctrace explain …` block is run and
/// compared line by line, and its exit status is the one its summary line stands for.
final class FieldExamplesTests: XCTestCase {
    func test_theExamplesAreWhatTheToolPrintsToday() throws {
        let doc = try String(contentsOfFile: CLI.root + "/docs/field-examples.md", encoding: .utf8)
        let blocks = doc.components(separatedBy: "```text\n$ rtctrace ").dropFirst().map { $0.components(separatedBy: "```")[0] }
        XCTAssertEqual(blocks.count, 2, "the page's examples")
        for block in blocks {
            let command = String(block.prefix { $0 != "\n" })
            let shown = String(block.dropFirst(command.count + 1))
            let args = command.split(separator: " ").map(String.init)
            let r = CLI.run(args, cwd: CLI.root)
            XCTAssertEqual(r.out.split(separator: "\n", omittingEmptySubsequences: false),
                           shown.split(separator: "\n", omittingEmptySubsequences: false), command)
            let verdict = try XCTUnwrap(r.out.split(separator: "\n").first { $0.hasPrefix("  Needs attention") || $0.hasPrefix("  Nothing is wrong") })
            XCTAssertEqual(r.status, verdict.hasPrefix("  Needs attention") ? 1 : 0, "\(command): \(verdict)")
        }
    }
}
