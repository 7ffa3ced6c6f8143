import Foundation
import TestSupport
import XCTest

/// An input with nothing to judge by never gets "Nothing is wrong": it is named and exits 65.
final class NoAllClearTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func inputs() throws -> [String: Data] {
        let trace = try Data(contentsOf: URL(fileURLWithPath: CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl"))
        let header = String(decoding: trace, as: UTF8.self).split(separator: "\n")[0] + "\n"
        return [
            "empty.jsonl": Data(),
            "notes.txt": Data("call notes: speaker did not work\n".utf8),
            "trace.jsonl.gz": Data([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 3]) + trace.prefix(64),
            "header-only.jsonl": Data(header.utf8),
        ]
    }

    func test_explainReplayReportAndExportRefuseInputsWithNothingToJudge() throws {
        for (name, bytes) in try inputs() {
            let path = dir + "/" + name
            try bytes.write(to: URL(fileURLWithPath: path))
            let explain = CLI.run(["explain", path])
            XCTAssertEqual(explain.status, 65, "\(name): \(explain.err)")
            XCTAssertFalse(explain.out.contains("Nothing is wrong"), name)
            if name != "header-only.jsonl" {
                // Without a header the layer is unknown: the title names no product.
                XCTAssertTrue(explain.out.hasPrefix("Trace: "), "\(name): \(explain.out)")
            }
            XCTAssertTrue(explain.err.contains("cannot be explained"), "\(name): \(explain.err)")
            let json = CLI.run(["explain", "--json", path])
            XCTAssertEqual(json.status, 65, name)
            let summary = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])?["summary"] as? [String: Any])
            XCTAssertEqual(summary["ok"] as? Bool, false, name)
            XCTAssertNotNil(summary["unexplainable"], name)
            XCTAssertEqual(CLI.run(["replay", path]).status, 65, name)
            XCTAssertEqual(CLI.run(["report", path, "-o", dir + "/r.html"]).status, 65, name)
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/r.html"), "\(name): no report of nothing")
            XCTAssertEqual(CLI.run(["export", path, "-o", dir + "/r.json"]).status, 65, name)
        }
    }

    func test_gzipInputSaysToGunzipFirst() throws {
        let path = dir + "/trace.jsonl.gz"
        try (try inputs())["trace.jsonl.gz"]!.write(to: URL(fileURLWithPath: path))
        XCTAssertTrue(CLI.run(["explain", path]).err.contains("gunzip it first"))
    }

    func test_checkFailsAGoldenTraceThatChecksNothing() throws {
        let path = dir + "/no-expectations.jsonl"
        let trace = try String(contentsOfFile: CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl", encoding: .utf8)
        try trace.split(separator: "\n").filter { !$0.contains("\"type\":\"expect.") }.joined(separator: "\n")
            .appending("\n").write(toFile: path, atomically: true, encoding: .utf8)
        let r = CLI.run(["check", path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue((r.out + r.err).contains("no-expectations.jsonl: checks nothing"), r.out + r.err)
    }
}
