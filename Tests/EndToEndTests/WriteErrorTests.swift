import Foundation
import TestSupport
import XCTest

/// A write that fails (here: /dev/full, "No space left on device") ends the command with an error,
/// never with exit 0 and the output silently lost.
final class WriteErrorTests: XCTestCase {
    /// Runs rtctrace outside CI mode with standard output on `/dev/full`.
    func runIntoFullDevice(_ args: [String]) throws -> (status: Int32, err: String) {
        guard let r = try CLI.runIntoFullDevice(args) else { throw XCTSkip("no /dev/full on this system") }
        return (r.status, r.err)
    }

    func test_catIntoAFullDeviceFailsWithAClearMessage() throws {
        let trace = CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl"
        let r = try runIntoFullDevice(["cat", trace])
        XCTAssertEqual(r.status, 74, r.err)
        XCTAssertEqual(r.err, "Error: standard output: write failed: No space left on device\n")
    }

    /// A run of lines `cat` writes in one go (more than its 64 KiB buffer) fails the same way.
    func test_catOfALongRunIntoAFullDeviceFailsWithAClearMessage() throws {
        let trace = CLI.tempDir() + "/long.jsonl"
        var text = #"{"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc"}"# + "\n"
        for i in 1...2_000 { text += #"{"seq":\#(i),"t":\#(i),"type":"sdk.log","level":"info","message":"a line long enough to fill the buffer"}"# + "\n" }
        try text.write(toFile: trace, atomically: true, encoding: .utf8)
        let r = try runIntoFullDevice(["cat", trace])
        XCTAssertEqual(r.status, 74, r.err)
        XCTAssertEqual(r.err, "Error: standard output: write failed: No space left on device\n")
    }

    /// Every command that prints ends with 74 when its output is lost: never 0, and never the 1 that
    /// means "the answer is no" (a retry policy must tell the two apart).
    func test_everyPrintingCommandReportsAFailedWrite() throws {
        let trace = CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl"
        for args in [["info", trace], ["info", trace, "--json"], ["verify", trace], ["replay", trace], ["explain", trace, "--json"],
                     ["explain", trace], ["check", trace], ["cat", "--help"], ["triage", trace], ["rules"], ["version"],
                     ["diff", trace, trace], ["triage", "--list-tags"]] {
            let r = try runIntoFullDevice(args)
            XCTAssertEqual(r.status, 74, "\(args): \(r.err)")
            XCTAssertTrue(r.err.contains("standard output: write failed: No space left on device"), "\(args): \(r.err)")
        }
    }
}
