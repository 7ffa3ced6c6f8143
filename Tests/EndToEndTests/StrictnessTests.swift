import Foundation
import TestSupport
import XCTest

/// What strict JSON parsers reject is rejected when a trace is read or written, and a failed append
/// says what it kept.
final class StrictnessTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    let header = #"{"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc"}"#

    func write(_ name: String, _ bytes: [UInt8]) -> String {
        let path = dir + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    func test_verifyAndRecordRejectInvalidUTF8InKeysAndUnknownValues_andLeadingZeros() {
        let lines: [[UInt8]] = [
            Array(#"{"seq":1,"t":5,"type":"os.micPermission","status":"granted","x"#.utf8) + [0xFF] + Array(#"":1}"#.utf8),
            Array(#"{"seq":1,"t":5,"type":"os.micPermission","status":"granted","note":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8),
            Array(#"{"seq":1,"t":05,"type":"os.micPermission","status":"granted"}"#.utf8),
            Array(#"{"seq":1,"t":5,"type":"os.micPermission","status":"granted","n":-012}"#.utf8),
        ]
        for (i, line) in lines.enumerated() {
            let path = write("bad\(i).jsonl", Array((header + "\n").utf8) + line + [0x0A])
            let verify = CLI.runInProcess(["verify", path])
            XCTAssertEqual(verify.status, 1, "line \(i): \(verify.out)")
            let record = CLI.runInProcess(["record", path, "-o", dir + "/out\(i).trace.zst"])
            XCTAssertNotEqual(record.status, 0, "line \(i) was stored: \(record.err)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/out\(i).trace.zst"), "line \(i)")
        }
    }

    func test_appendThatFailsMidwaySaysHowManyRecordsItKept() throws {
        let trace = dir + "/t.trace.zst"
        XCTAssertEqual(CLI.runInProcess(["record", write("h.jsonl", Array((header + "\n").utf8)), "-o", trace]).status, 0)
        let more = (1...3).map { #"{"seq":\#($0),"t":\#($0 * 10),"type":"os.appState","state":"foreground"}"# }
            + [#"{"seq":4,"t":40,"type":"obs.overrideOutput","port":"sideways"}"#]
        let r = CLI.runInProcess(["append", trace, write("more.jsonl", Array((more.joined(separator: "\n") + "\n").utf8))])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("appended the 3 records before it"), r.err)
        XCTAssertTrue(r.err.contains("next seq 4"), r.err)
        XCTAssertEqual(CLI.runInProcess(["cat", trace]).out.split(separator: "\n").count, 4)
    }

    func test_appendRefusesATraceWhoseHeaderIsMissing() throws {
        let headless = write("headless.jsonl", Array(#"{"seq":5,"t":50,"type":"os.appState","state":"foreground"}"#.utf8) + [0x0A])
        // A trace whose header frame was torn away: the frames after it, as stock zstd writes them.
        let trace = dir + "/headless.trace.zst"
        let zstd = Process()
        zstd.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        zstd.arguments = ["zstd", "-q", headless, "-o", trace]
        try zstd.run()
        zstd.waitUntilExit()
        XCTAssertEqual(zstd.terminationStatus, 0)
        let input = write("in.jsonl", Array(#"{"seq":0,"t":60,"type":"os.appState","state":"background"}"#.utf8) + [0x0A])
        let r = CLI.runInProcess(["append", trace, input, "--renumber"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("not a trace.header"), r.err)
    }

    /// `--renumber` assigns seqs, so input lines need none (as the help says).
    func test_recordAndAppendRenumberAcceptLinesWithoutSeq() {
        let input = write("noseq.jsonl", Array((#"{"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc"}"# + "\n"
            + #"{"t":5,"type":"os.micPermission","status":"granted"}"# + "\n").utf8))
        let trace = dir + "/t.trace.zst"
        let rec = CLI.runInProcess(["record", input, "-o", trace, "--renumber"])
        XCTAssertEqual(rec.status, 0, rec.err)
        let more = write("more.jsonl", Array((#"{"t":9,"type":"os.appState","state":"background"}"# + "\n").utf8))
        let app = CLI.runInProcess(["append", trace, more, "--renumber"])
        XCTAssertEqual(app.status, 0, app.err)
        XCTAssertEqual(CLI.runInProcess(["cat", trace]).out.split(separator: "\n").map { $0.prefix(15) },
                       [#"{"seq":0,"t":0,"#, #"{"seq":1,"t":5,"#, #"{"seq":2,"t":9,"#])
        XCTAssertEqual(CLI.runInProcess(["verify", trace]).status, 0)
    }
}
