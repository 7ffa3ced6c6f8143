import Foundation
import TestSupport
import TraceCodec
import TraceModel
import XCTest

/// An input with nothing to judge by never gets "Nothing is wrong": it is named and exits 65. Nor does
/// one the reader could not read well enough: a lost frame, most records undecodable, missing seqs
/// (the summary says what could not be read; exit 1).
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
            let explain = CLI.runInProcess(["explain", path])
            XCTAssertEqual(explain.status, 65, "\(name): \(explain.err)")
            XCTAssertFalse(explain.out.contains("Nothing is wrong"), name)
            if name != "header-only.jsonl" {
                // Without a header the layer is unknown: the title names no product.
                XCTAssertTrue(explain.out.hasPrefix("Trace: "), "\(name): \(explain.out)")
            }
            XCTAssertTrue(explain.err.contains("cannot be explained"), "\(name): \(explain.err)")
            let json = CLI.runInProcess(["explain", "--json", path])
            XCTAssertEqual(json.status, 65, name)
            let summary = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])?["summary"] as? [String: Any])
            XCTAssertEqual(summary["ok"] as? Bool, false, name)
            XCTAssertNotNil(summary["unexplainable"], name)
            XCTAssertEqual(CLI.runInProcess(["replay", path]).status, 65, name)
            XCTAssertEqual(CLI.runInProcess(["report", path, "-o", dir + "/r.html"]).status, 65, name)
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/r.html"), "\(name): no report of nothing")
            XCTAssertEqual(CLI.runInProcess(["export", path, "-o", dir + "/r.json"]).status, 65, name)
        }
    }

    func test_gzipInputSaysToGunzipFirst() throws {
        let path = dir + "/trace.jsonl.gz"
        try (try inputs())["trace.jsonl.gz"]!.write(to: URL(fileURLWithPath: path))
        XCTAssertTrue(CLI.runInProcess(["explain", path]).err.contains("gunzip it first"))
    }

    func test_checkFailsAGoldenTraceThatChecksNothing() throws {
        let path = dir + "/no-expectations.jsonl"
        let trace = try String(contentsOfFile: CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl", encoding: .utf8)
        try trace.split(separator: "\n").filter { !$0.contains("\"type\":\"expect.") }.joined(separator: "\n")
            .appending("\n").write(toFile: path, atomically: true, encoding: .utf8)
        let r = CLI.runInProcess(["check", path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue((r.out + r.err).contains("no-expectations.jsonl: checks nothing"), r.out + r.err)
    }

    /// A call that takes effect: join, the session, the route call applied, leave; one record a frame when written.
    func callTrace() throws -> [Record] {
        let path = dir + "/call.jsonl"
        try """
        {"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc","sdk":"SRTC 4.6.2","device":{"model":"iPhone14,5","os":"iOS 17.5","simulator":false}}
        {"seq":1,"t":1000,"type":"api.joinChannel","channel":"daily-sync"}
        {"seq":2,"t":1010,"type":"obs.sessionActivated","ok":true,"category":"playAndRecord","mode":"voiceChat","options":["allowBluetooth"]}
        {"seq":3,"t":1030,"type":"obs.routeChanged","route":"receiver","previousRoute":"speaker","reason":"categoryChange"}
        {"seq":4,"t":2000,"type":"api.setRoute","target":"speaker","api":"setAudioRoute(.speaker)"}
        {"seq":5,"t":2020,"type":"obs.overrideOutput","port":"speaker"}
        {"seq":6,"t":2030,"type":"obs.routeChanged","route":"speaker","previousRoute":"receiver","reason":"override"}
        {"seq":7,"t":8000,"type":"api.leaveChannel"}
        {"seq":8,"t":8020,"type":"obs.sessionDeactivated","notifyOthers":true}

        """.write(toFile: path, atomically: true, encoding: .utf8)
        let read = try Fixtures.readAll(path)
        XCTAssertEqual(read.problems, [])
        return read.records
    }

    /// Explain (text and JSON) and report of `path`: never an all-clear, exit 1, and `says` in the summary.
    func assertNoAllClear(_ path: String, says: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let explain = CLI.runInProcess(["explain", path])
        XCTAssertEqual(explain.status, 1, explain.out + explain.err, file: file, line: line)
        XCTAssertFalse(explain.out.contains("Nothing is wrong"), explain.out, file: file, line: line)
        XCTAssertTrue(explain.out.contains("Not all of it could be read: "), explain.out, file: file, line: line)
        XCTAssertTrue(explain.out.contains(says), explain.out, file: file, line: line)
        let json = CLI.runInProcess(["explain", "--json", path])
        XCTAssertEqual(json.status, 1, file: file, line: line)
        let summary = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])?["summary"] as? [String: Any])
        XCTAssertEqual(summary["ok"] as? Bool, false, file: file, line: line)
        XCTAssertTrue(((summary["unread"] as? [String]) ?? []).contains { $0.contains(says) }, "\(summary)", file: file, line: line)
        let html = dir + "/r.html"
        let report = CLI.runInProcess(["report", path, "-o", html])
        XCTAssertEqual(report.status, 1, report.err, file: file, line: line)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        XCTAssertFalse(page.contains("Nothing is wrong"), file: file, line: line)
        XCTAssertTrue(page.contains("class=\"status attention\">Not all of it could be read: "), file: file, line: line)
    }

    func test_aLostFrameHoldingTheOnlyCallGivesNoAllClear() throws {
        let path = dir + "/lost.trace.zst"
        try Fixtures.write(try callTrace(), path, options: TraceWriter.Options(frameRecords: 1))
        let whole = CLI.runInProcess(["explain", path])
        XCTAssertEqual(whole.status, 0, whole.out + whole.err)
        XCTAssertTrue(whole.out.contains("Nothing is wrong"), whole.out)
        // The zstd frames, one per record in order; a byte in the middle of the call's (seq 4).
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let magic: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]
        let starts = (0...(bytes.count - 4)).filter { i in (0..<4).allSatisfy { bytes[i + $0] == magic[$0] } }
        XCTAssertEqual(starts.count, 9)
        bytes[(starts[4] + starts[5]) / 2] ^= 0x5A
        try bytes.write(to: URL(fileURLWithPath: path))
        try assertNoAllClear(path, says: "1 frame could not be read")
    }

    /// A recorder that stopped while writing its last frame: the records in it (here the only call) are lost.
    /// Cut at a frame's end instead, nothing is lost and the all-clear stands, with the damage note.
    func test_aTornLastFrameGivesNoAllClear() throws {
        let path = dir + "/torn.trace.zst"
        try Fixtures.write(try callTrace(), path, options: TraceWriter.Options(frameRecords: 1))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let magic: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]
        let starts = (0...(bytes.count - 4)).filter { i in (0..<4).allSatisfy { bytes[i + $0] == magic[$0] } }
        XCTAssertEqual(starts.count, 9)
        // Cut inside the frame of the call (seq 4): it and what follows are lost.
        try bytes.prefix((starts[4] + starts[5]) / 2).write(to: URL(fileURLWithPath: path))
        try assertNoAllClear(path, says: "the last frame is torn")
        // Cut where a frame ends: the records before are whole and say everything that was written.
        let clean = dir + "/cut.trace.zst"
        try bytes.prefix(starts[4]).write(to: URL(fileURLWithPath: clean))
        let explain = CLI.runInProcess(["explain", clean])
        XCTAssertTrue(explain.out.contains("damage: "), explain.out)
        XCTAssertFalse(explain.out.contains("Not all of it could be read"), explain.out)
    }

    func test_mostRecordsUndecodableGivesNoAllClear() throws {
        let path = dir + "/bogus.jsonl"
        var lines = TraceBuilder().records.map(\.jsonLine)
        lines.append(#"{"seq":1,"t":5,"type":"sdk.log","level":"info","message":"hi"}"#)
        for i in 0..<98 { lines.append(#"{"seq":\#(i + 2),"t":\#(10 + i),"type":"api.setRoute","target":"bogus"}"#) }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try assertNoAllClear(path, says: "98 of 100 records (98%) could not be decoded")
    }

    func test_oneUndecodableRecordInManyStillGetsAnAllClear() throws {
        let path = dir + "/one-bad.jsonl"
        var b = TraceBuilder()
        for i in 0..<200 { b.add(Int64(10 * i + 10), .sdkLog(level: "info", message: "line \(i)")) }
        var lines = b.records.map(\.jsonLine)
        lines[100] = #"{"seq":100,"t":1000,"type":"api.setRoute","target":"bogus"}"#
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let explain = CLI.runInProcess(["explain", path])
        XCTAssertEqual(explain.status, 0, explain.out + explain.err)
        XCTAssertTrue(explain.out.contains("damage: 1 record could not be decoded"), explain.out)
        XCTAssertTrue(explain.out.contains("Nothing is wrong"), explain.out)
    }

    func test_missingSeqsGiveNoAllClear() throws {
        let path = dir + "/gap.jsonl"
        var records = try callTrace()
        records.remove(at: 4)  // the call
        try (records.map(\.jsonLine).joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try assertNoAllClear(path, says: "seqs are missing in 1 place")
    }
}
