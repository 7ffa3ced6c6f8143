import Analysis
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
        for name in ["explain", "report", "replay", "diff", "whatif", "triage", "rules", "check", "info", "verify", "import-log", "redact", "reduce"] {
            XCTAssertFalse(ReportFormat.written(by: name).isEmpty, name)
        }
        XCTAssertEqual(ReportFormat.written(by: "check"), [.checkText, .junit, .checkJSON])
        XCTAssertEqual(ReportFormat.written(by: "info"), [.infoText, .infoJSON])
        XCTAssertEqual(ReportFormat.written(by: "verify"), [.verifyText, .verifyJSON])
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

    /// `info` and `verify` write what their renderers make of the trace's summary, byte for byte, in text
    /// and JSON: the command only reads and picks the format.
    func test_infoAndVerifyWriteTheirRenderersOutput() throws {
        let path = Fixtures.trace("srtc-bluetooth-blocks-speaker.jsonl")
        let s = try TraceSummary.read(path)
        for (args, expected) in [
            (["info", path], Renderers.traceSummary(.infoText)!.render([s])),
            (["info", path, "--json"], Renderers.traceSummary(.infoJSON)!.render([s])),
            (["verify", path], Renderers.verification(.verifyText)!.render([.trace(s)])),
            (["verify", path, "--json"], Renderers.verification(.verifyJSON)!.render([.trace(s)])),
        ] {
            let run = CLI.runInProcess(args)
            XCTAssertEqual(run.status, 0, run.err)
            XCTAssertEqual(run.out, expected, args.joined(separator: " "))
        }
        let missing = CLI.runInProcess(["verify", Fixtures.trace("smeeting-session-weekly/part-1.jsonl"), Fixtures.trace("smeeting-session-weekly/part-3.jsonl")])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.out.hasSuffix(Renderers.verification(.verifyText)!.item(
            .missingParts(session: "6c1f0d3a-weekly-sync", missing: [2], of: 3), at: 2)), missing.out)
    }
}
