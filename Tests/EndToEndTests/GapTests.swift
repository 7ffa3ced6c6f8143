import Foundation
import TestSupport
import XCTest

/// A stretch with no records is visible: `info` and `explain` name it, and quality counts it as no data.
final class GapTests: XCTestCase {
    func test_infoAndExplainNameA64SecondStretchWithoutRecords() throws {
        let dir = CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var lines = [#"{"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"smeeting"}"#,
                     #"{"seq":1,"t":500,"type":"api.enterMeeting","room":"r"}"#]
        var t: Int64 = 1000
        func report() {
            lines.append(#"{"seq":\#(lines.count),"t":\#(t),"type":"srv.qualityReport","pub":{"level":"good","score":80,"mos":4.0,"loss":0.01,"rtt":80,"jitter":10,"bitrate":800},"sub":{"level":"good","score":80,"mos":4.0,"loss":0.01,"rtt":80,"jitter":10,"bitrate":800}}"#)
        }
        for _ in 0..<30 { report(); t += 2000 }   // 1 s – 59 s
        t += 62_000                               // suspended: 64 s with no records
        for _ in 0..<30 { report(); t += 2000 }
        let path = dir + "/suspended.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let info = CLI.runInProcess(["info", path])
        XCTAssertTrue(info.out.contains("no data   1m 04.000s from 59.000s (seq 31–32)"), info.out)
        let explain = CLI.runInProcess(["explain", path])
        XCTAssertTrue(explain.out.contains("no records: 1 stretch longer than 6.000s"), explain.out)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(CLI.runInProcess(["explain", "--json", path]).out.utf8)) as? [String: Any])
        let quality = try XCTUnwrap(json["quality"] as? [String: Any])
        let time = try XCTUnwrap(quality["timeMs"] as? [String: Any])
        XCTAssertEqual(time["noData"] as? Int, 1000 + 64_000)
        XCTAssertEqual(quality["gapCount"] as? Int, 1)
        // The report draws it hatched over every lane, not as a solid bar.
        XCTAssertEqual(CLI.runInProcess(["report", path, "-o", dir + "/r.html"]).status, 0)
        let html = try String(contentsOfFile: dir + "/r.html", encoding: .utf8)
        XCTAssertTrue(html.contains("<rect class=\"nodata\"") && html.contains("no records for 1m 04.000s from 59.000s"), "hatched gap")
    }
}
