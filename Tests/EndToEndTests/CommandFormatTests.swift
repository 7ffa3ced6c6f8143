import CommandLineKit
import Foundation
import Reports
import rtctrace
import TestSupport
import XCTest

/// Each command's formats resolve through the renderer registry: every format's row names a command
/// that exists and an option of it that picks the format, and a format the command line names by its
/// identifier is the registry's.
final class CommandFormatTests: XCTestCase {
    func test_eachCommandsFormatsResolveThroughTheRegistry() throws {
        for f in ReportFormat.allCases {
            let command = try XCTUnwrap(Commands.all.first { $0.spec.name == f.info.command }, "\(f.rawValue): no command \(f.info.command)")
            if let option = f.info.option {
                XCTAssertTrue(command.spec.options.contains { $0.name == option }, "\(f.rawValue): \(f.info.command) has no \(option)")
            }
        }
        // Every command that writes a report has its default format (no option) in the table, and it is
        // one of the registry's.
        for name in ["explain", "report", "replay", "diff", "whatif", "triage", "rules"] {
            XCTAssertFalse(ReportFormat.written(by: name).isEmpty, name)
        }
        XCTAssertEqual(ReportFormat.written(by: "check"), [.junit, .checkJSON])
    }

    /// `export --format` takes the identifiers of the formats `export` writes, and only those.
    func test_exportFormatIsTheRegistrysIdentifier() {
        let bad = CLI.runInProcess(["export", Fixtures.trace("srtc-bluetooth-blocks-speaker.jsonl"), "--format", "html", "-o", "/dev/null"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.err.contains("--format: 'html' is not one of chrome"), bad.err)
        let out = NSTemporaryDirectory() + "/format-\(ProcessInfo.processInfo.processIdentifier).json"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let good = CLI.runInProcess(["export", Fixtures.trace("srtc-bluetooth-blocks-speaker.jsonl"), "--format", ReportFormat.chrome.rawValue, "-o", out])
        XCTAssertEqual(good.status, 0, good.err)
    }
}
