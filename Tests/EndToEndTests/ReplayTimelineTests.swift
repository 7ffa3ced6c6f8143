import Foundation
import TestSupport
import XCTest

/// The `replay` timeline: typed state changes, output that grows with the change rather than with the
/// set, and every state a user needs to see.
final class ReplayTimelineTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func write(_ lines: [String]) throws -> String {
        let path = dir + "/t.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    let header = #"{"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc"}"#

    /// 900 new devices used to print the whole device list at every step (quadratic output).
    func test_replayJSONOfManyNewDevicesGrowsWithTheChangeNotTheSet() throws {
        var lines = [header, #"{"seq":1,"t":1,"type":"api.joinChannel","channel":"c"}"#]
        for i in 0..<900 {
            lines.append(#"{"seq":\#(lines.count),"t":\#(10 + i),"type":"os.deviceConnected","id":"dev-\#(i)","kind":"headset"}"#)
        }
        let r = CLI.runInProcess(["replay", "--json", try write(lines)])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertLessThan(r.out.utf8.count, 900 * 1500, "bytes per step stay bounded")
        let step = r.out.split(separator: "\n").first { $0.contains(#""seq":800,"#) }.map(String.init) ?? ""
        XCTAssertTrue(step.contains(#""devicesAdded":["dev-798"]"#), step)
        XCTAssertTrue(step.contains("more)"), step)
    }

    /// `--changes-only` keeps the end of an interruption: recovery pending is a state of its own.
    func test_changesOnlyShowsThatRecoveryIsPending() throws {
        let path = try write([header,
            #"{"seq":1,"t":1000,"type":"api.joinChannel","channel":"c"}"#,
            #"{"seq":2,"t":2000,"type":"os.callState","state":"incoming"}"#,
            #"{"seq":3,"t":2010,"type":"os.interruptionBegan","cause":"systemCall"}"#,
            #"{"seq":4,"t":3000,"type":"os.callState","state":"connected"}"#,
            #"{"seq":5,"t":9000,"type":"os.interruptionEnded","shouldResume":true}"#])
        let r = CLI.runInProcess(["replay", "--changes-only", path])
        XCTAssertTrue(r.out.contains("os.interruptionEnded  recoveryPending: false → true"), r.out)
    }

    /// `replay` picks steps like `cat` picks records (`--type`, `--from`, `--to`), and by state field (`--lane`).
    func test_replayFiltersByTypeTimeAndLane() {
        let trace = CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl"
        let lanes = CLI.runInProcess(["replay", trace, "--lane", "devices"])
        XCTAssertEqual(lanes.out.split(separator: "\n").filter { $0.contains("seq ") }.map { String($0.split(separator: " ").last ?? "") }.count, 2, lanes.out)
        XCTAssertTrue(lanes.out.contains("seq 13    os.deviceConnected") && lanes.out.contains("seq 30    os.deviceDisconnected"), lanes.out)
        let calls = CLI.runInProcess(["replay", trace, "--type", "api.", "--from", "2000"])
        let steps = calls.out.split(separator: "\n").filter { $0.first?.isNumber == true }
        XCTAssertFalse(steps.isEmpty)
        XCTAssertTrue(steps.allSatisfy { $0.contains("api.") }, calls.out)
        XCTAssertTrue(calls.out.contains("seq 20    api.setRoute") && !calls.out.contains("api.joinChannel"), calls.out)
        XCTAssertEqual(CLI.runInProcess(["replay", trace, "--lane", "nonsense"]).status, 64)
    }
}
