import Foundation
import TestSupport
import XCTest

/// Output grows with what a trace says, not with how often a hostile trace repeats a long string.
final class AmplificationTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func compressed(_ lines: [String], _ name: String) throws -> String {
        let plain = dir + "/" + name + ".jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: plain, atomically: true, encoding: .utf8)
        let out = dir + "/" + name + ".trace.zst"
        XCTAssertEqual(CLI.runInProcess(["record", plain, "-o", out]).status, 0)
        try FileManager.default.removeItem(atPath: plain)
        return out
    }

    /// A 1 MB device name and 100 ineffective calls: the report, the export and explain each stay small.
    func test_aMegabyteDeviceNameIsClippedInEveryRenderedReport() throws {
        let name = String(repeating: "N", count: 1_000_000)
        var lines = [#"{"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc"}"#,
                     #"{"seq":1,"t":1,"type":"api.joinChannel","channel":"c"}"#,
                     #"{"seq":2,"t":2,"type":"os.deviceConnected","id":"d1","kind":"bluetooth","name":"\#(name)"}"#]
        for i in 0..<100 { lines.append(#"{"seq":\#(3 + i),"t":\#(10 + i),"type":"api.setRoute","target":"\#(i % 2 == 0 ? "speaker" : "earpiece")"}"#) }
        let trace = try compressed(lines, "big-name")
        XCTAssertEqual(CLI.runInProcess(["report", trace, "-o", dir + "/r.html"]).status, 0)
        XCTAssertEqual(CLI.runInProcess(["export", trace, "-o", dir + "/r.json"]).status, 0)
        let explain = CLI.runInProcess(["explain", trace])
        let limit = 4_000_000  // the name once or twice, never once per call
        for file in ["/r.html", "/r.json"] {
            let size = (try FileManager.default.attributesOfItem(atPath: dir + file)[.size] as? Int) ?? 0
            XCTAssertLessThan(size, limit, file)
        }
        XCTAssertLessThan(explain.out.utf8.count, 200_000)
        XCTAssertTrue(explain.out.contains("… (1000000 bytes)"), String(explain.out.prefix(2000)))
    }

    /// One bad record repeated: the first warnings, then a count.
    func test_warningsStopAfterTheFirstHundred_thenSayHowManyMore() throws {
        var lines = [#"{"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc"}"#]
        for i in 1...5000 { lines.append(#"{"seq":\#(i),"t":\#(i),"type":"api.setRoute","target":"maybe"}"#) }
        let path = dir + "/bad.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        // `cat` passes a structurally sound line through without reading its values (docs/performance.md);
        // the commands that decode every record say what is wrong, capped.
        let explain = CLI.runInProcess(["explain", path])
        XCTAssertEqual(explain.err.split(separator: "\n").filter { $0.contains("unknown value \"maybe\"") }.count, 100, String(explain.err.suffix(300)))
        XCTAssertTrue(explain.err.contains("4900 more problems not shown (5000 in all"), String(explain.err.suffix(300)))
        let strict = CLI.runInProcess(["cat", "--strict", path])
        XCTAssertEqual(strict.status, 1)
        XCTAssertTrue(strict.err.contains("unknown value \"maybe\""), strict.err)
        // Lines whose structure is broken are reported by `cat` too, capped the same way.
        var broken = [lines[0]]
        for i in 1...5000 { broken.append(#"{"seq":\#(i),"t":\#(i),"type":"api.setRoute","target":"speaker""#) }
        try (broken.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let r = CLI.runInProcess(["cat", path])
        XCTAssertEqual(r.err.split(separator: "\n").count, 101, String(r.err.suffix(300)))
        XCTAssertTrue(r.err.contains("4900 more problems not shown (5000 in all"), String(r.err.suffix(300)))
    }
}
