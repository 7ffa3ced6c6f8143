import Foundation
import TestSupport
import XCTest

/// One trace whose replay traps never loses the other traces' results or the JUnit file: `check`
/// replays each trace in a child process.
final class CheckIsolationTests: XCTestCase {
    func test_aReplayThatTrapsFailsThatTraceAlone_andTheJUnitFileIsWritten() throws {
        let dir = CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (name, source) in [("a.jsonl", "srtc-bluetooth-blocks-speaker"), ("bad.jsonl", "srtc-setroute-before-join"),
                               ("c.jsonl", "smeeting-bluetooth-blocks-speaker")] {
            try FileManager.default.copyItem(atPath: CLI.root + "/traces/\(source).jsonl", toPath: dir + "/" + name)
            try FileManager.default.copyItem(atPath: CLI.root + "/traces/\(source).golden.json",
                                             toPath: dir + "/" + name.replacingOccurrences(of: ".jsonl", with: ".golden.json"))
        }
        let junit = dir + "/out/junit.xml"
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        let r = CLI.run(["check", dir, "--junit", junit], env: ["RTCTRACE_FAULT_TRAP_REPLAY": "bad.jsonl"])
        XCTAssertEqual(r.status, 1, r.out + r.err)
        XCTAssertTrue(r.out.contains("PASS \(dir)/a.jsonl"), r.out)
        XCTAssertTrue(r.out.contains("PASS \(dir)/c.jsonl"), r.out)
        XCTAssertTrue(r.out.contains("FAIL \(dir)/bad.jsonl"), r.out)
        XCTAssertTrue(r.out.contains("the replay crashed (signal"), r.out)
        XCTAssertTrue(r.out.contains("2 passed, 1 failed"), r.out)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        XCTAssertEqual(xml.components(separatedBy: "<testcase").count - 1, 3)
        XCTAssertTrue(xml.contains("the replay crashed"), xml)
    }

    /// Without the fault hook the same folder passes: the isolation changes no result.
    func test_isolatedChecksGiveTheSameResults() throws {
        let r = CLI.run(["check", CLI.root + "/traces", "--quiet"])
        XCTAssertEqual(r.status, 0, r.out)
    }
}

/// Timestamps near the integer limit: once `explain`, `replay`, `report`, `export` and `check` trapped
/// on `t + window`. Outside 0…2^53 ms a record is undecodable; inside, every deadline saturates.
final class HostileTimeTests: XCTestCase {
    func test_timestampsNearTheIntegerLimitNeverCrashACommand() throws {
        let dir = CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (name, base) in [("over.jsonl", Int64.max - 1000), ("top.jsonl", (Int64(1) << 53) - 10)] {
            let lines = [#"{"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc"}"#,
                         #"{"seq":1,"t":\#(base),"type":"api.joinChannel","channel":"c"}"#,
                         #"{"seq":2,"t":\#(base + 1),"type":"os.interruptionBegan","cause":"systemCall"}"#,
                         #"{"seq":3,"t":\#(base + 2),"type":"os.callState","state":"disconnected"}"#,
                         #"{"seq":4,"t":\#(base + 3),"type":"os.interruptionEnded"}"#,
                         #"{"seq":5,"t":\#(base + 4),"type":"api.setRoute","target":"speaker"}"#]
            let path = dir + "/" + name
            try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            for args in [["explain", path], ["replay", "--json", path], ["report", path, "-o", dir + "/r-\(name).html"],
                         ["export", path, "-o", dir + "/e-\(name).json"], ["check", path, "--junit", dir + "/j-\(name).xml"]] {
                let r = CLI.run(args)
                XCTAssertTrue([0, 1, 65].contains(r.status), "\(args): status \(r.status) \(r.err)")
            }
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/j-\(name).xml"), name)
        }
        let verify = CLI.run(["verify", dir + "/over.jsonl"])
        XCTAssertTrue(verify.out.contains("must be an integer from 0 to 2^53 ms"), verify.out + verify.err)
    }
}

/// Workers check traces in batches: a trap in the middle of a batch keeps the outcomes before it,
/// fails that trace, and checks every trace after it in a new worker.
final class CheckBatchIsolationTests: XCTestCase {
    func test_aTrapMidBatchLosesNoOtherTrace() throws {
        let dir = CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let names = (0..<40).map { String(format: "t%02d.jsonl", $0) }
        for name in names {
            try FileManager.default.copyItem(atPath: CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl", toPath: dir + "/" + name)
        }
        // 40 traces on one thread: three batches of up to 14, so t07 is in the middle of the first.
        for trap in ["t00.jsonl", "t07.jsonl", "t39.jsonl"] {
            let r = CLI.run(["check", dir, "--jobs", "1", "--json"], env: ["RTCTRACE_FAULT_TRAP_REPLAY": trap])
            XCTAssertEqual(r.status, 1, r.out + r.err)
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
            XCTAssertEqual(json["passed"] as? Int, 39, trap)
            XCTAssertEqual(json["failed"] as? Int, 1, trap)
            let traces = try XCTUnwrap(json["traces"] as? [[String: Any]])
            XCTAssertEqual(traces.map { ($0["file"] as? String ?? "").split(separator: "/").last.map(String.init) ?? "" }, names)
            for t in traces {
                let failed = (t["file"] as? String)?.hasSuffix("/" + trap) == true
                XCTAssertEqual(t["passed"] as? Bool, !failed, "\(trap): \(t)")
                if failed { XCTAssertTrue("\(t["failures"] ?? "")".contains("the replay crashed"), "\(t)") }
            }
        }
    }
}
