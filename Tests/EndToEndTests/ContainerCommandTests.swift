import Foundation
import TestSupport
import XCTest

/// record, append, cat, info, verify as a user runs them.
final class ContainerCommandTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    let lines = [
        #"{"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc","sdk":"SRTC 5.1","device":{"model":"iPhone14,5","os":"iOS 17.2"}}"#,
        #"{"seq":1,"t":100,"type":"api.joinChannel","channel":"c-1","recorderExtra":{"keep":true}}"#,
        #"{"seq":2,"t":150,"type":"obs.routeChanged","route":"receiver","previousRoute":"speaker","reason":"categoryChange"}"#,
        #"{"seq":3,"t":900,"type":"os.deviceConnected","id":"bt","kind":"bluetooth","name":"Buds"}"#,
        #"{"seq":4,"t":1000,"type":"api.setRoute","target":"speaker","api":"setAudioRoute(.speaker)"}"#,
        #"{"seq":5,"t":1200,"type":"future.event","x":1}"#,
        #"{"seq":6,"t":1300,"type":"api.leaveChannel"}"#,
    ]

    func write(_ name: String, _ content: [String]) throws -> String {
        let p = dir + "/" + name
        try (content.joined(separator: "\n") + "\n").write(toFile: p, atomically: true, encoding: .utf8)
        return p
    }

    func test_helpForEveryCommand() {
        let top = CLI.runInProcess(["--help"])
        XCTAssertEqual(top.status, 0)
        for cmd in ["record", "append", "cat", "info", "verify", "replay", "explain", "check", "accept", "reject"] {
            XCTAssertTrue(top.out.contains("  " + cmd), cmd)
            let r = CLI.runInProcess([cmd, "--help"])
            XCTAssertEqual(r.status, 0, cmd)
            XCTAssertTrue(r.out.hasPrefix("OVERVIEW: ") && r.out.contains("USAGE: rtctrace \(cmd)"), r.out)
        }
        let bad = CLI.runInProcess(["cat", "--bogus"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertEqual(bad.err.split(separator: "\n").first, "Error: unknown option '--bogus'")
        XCTAssertEqual(CLI.runInProcess(["frobnicate"]).status, 64)
    }

    func test_recordCatVerifyRoundTripKeepsLinesByteForByte() throws {
        let input = try write("in.jsonl", lines)
        let trace = dir + "/t.trace.zst"
        let rec = CLI.runInProcess(["record", input, "-o", trace, "--frame-records", "2"])
        XCTAssertEqual(rec.status, 0, rec.err)
        XCTAssertEqual(CLI.runInProcess(["cat", trace]).out, lines.joined(separator: "\n") + "\n")
        let zcat = CLI.run(["-dc", trace], exe: "/usr/bin/zstd")
        XCTAssertEqual(zcat.out, lines.joined(separator: "\n") + "\n")
        XCTAssertEqual(CLI.run(["-t", "-q", trace], exe: "/usr/bin/zstd").status, 0)
        XCTAssertEqual(CLI.runInProcess(["cat", trace, "--type", "api.", "--from", "200"]).out, lines[4] + "\n" + lines[6] + "\n")
        let v = CLI.runInProcess(["verify", trace])
        XCTAssertEqual(v.status, 0)
        XCTAssertTrue(v.out.contains("OK (7 records, 4 frames)"), v.out)
        let info = CLI.runInProcess(["info", trace])
        XCTAssertTrue(info.out.contains("unknown   future.event ×1"), info.out)
        XCTAssertTrue(info.out.contains("closed    yes"), info.out)
        let json = try JSONSerialization.jsonObject(with: Data(CLI.runInProcess(["info", trace, "--json"]).out.utf8)) as? [String: Any]
        XCTAssertEqual(json?["records"] as? Int, 7)
        XCTAssertEqual(json?["frames"] as? Int, 4)
        XCTAssertEqual(CLI.runInProcess(["record", input, "-o", trace]).status, 64, "refuses to overwrite without --force")
    }

    func test_recordRejectsBadInputNamingSeqAndField() throws {
        var bad = lines
        bad[4] = #"{"seq":4,"t":1000,"type":"api.setRoute","target":"bluetooth"}"#
        let r = CLI.runInProcess(["record", try write("bad.jsonl", bad), "-o", dir + "/x.trace.zst"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("seq 4") && r.err.contains("field 'target'") && r.err.contains("\"bluetooth\""), r.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/x.trace.zst"), "nothing half-written")
        var gap = lines
        gap[3] = gap[3].replacingOccurrences(of: #""seq":3"#, with: #""seq":9"#)
        let g = CLI.runInProcess(["record", try write("gap.jsonl", gap), "-o", dir + "/g.trace.zst"])
        XCTAssertEqual(g.status, 1)
        XCTAssertTrue(g.err.contains("seq 9"), g.err)
        let renumbered = CLI.runInProcess(["record", dir + "/gap.jsonl", "-o", dir + "/g.trace.zst", "--renumber"])
        XCTAssertEqual(renumbered.status, 0, renumbered.err)
        XCTAssertTrue(CLI.runInProcess(["cat", dir + "/g.trace.zst"]).out.contains(#""seq":3,"t":900"#))
    }

    func test_appendContinuesSeqFromStdin() throws {
        let trace = dir + "/a.trace.zst"
        XCTAssertEqual(CLI.runInProcess(["record", try write("in.jsonl", Array(lines.prefix(4))), "-o", trace]).status, 0)
        let more = lines.suffix(3).joined(separator: "\n") + "\n"
        let r = CLI.runInProcess(["append", trace, "-"], stdin: Data(more.utf8))
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(CLI.runInProcess(["cat", trace]).out, lines.joined(separator: "\n") + "\n")
        let wrong = CLI.runInProcess(["append", trace], stdin: Data(#"{"seq":3,"t":2000,"type":"api.leaveChannel"}"#.utf8))
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(wrong.err.contains("expected 7"), wrong.err)
        XCTAssertEqual(CLI.runInProcess(["append", trace, "--renumber"], stdin: Data(#"{"seq":3,"t":2000,"type":"api.leaveChannel"}"#.utf8)).status, 0)
        XCTAssertEqual(CLI.runInProcess(["verify", trace]).status, 0)
    }

    func test_cutTracesNeverFailCatAndAlwaysFailVerify() throws {
        let input = try write("in.jsonl", lines)
        let trace = dir + "/t.trace.zst"
        XCTAssertEqual(CLI.runInProcess(["record", input, "-o", trace, "--frame-records", "2"]).status, 0)
        let full = try Data(contentsOf: URL(fileURLWithPath: trace))
        let expected = lines.joined(separator: "\n") + "\n"
        let cut = dir + "/cut.trace.zst"
        for n in stride(from: 0, to: full.count, by: 13) {
            try full.prefix(n).write(to: URL(fileURLWithPath: cut))
            let c = CLI.runInProcess(["cat", cut])
            XCTAssertEqual(c.status, 0, "cut \(n)")
            XCTAssertTrue(expected.hasPrefix(c.out), "cut \(n): not a prefix")
            XCTAssertEqual(CLI.runInProcess(["verify", cut]).status, 1, "cut \(n)")
            XCTAssertEqual(CLI.runInProcess(["cat", cut, "--strict"]).status, 1, "cut \(n)")
        }
    }

    func test_explainExitCodesAndLayerWords() throws {
        let srtc = CLI.runInProcess(["explain", CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl"])
        XCTAssertEqual(srtc.status, 1, "an ineffective call is a warning")
        XCTAssertTrue(srtc.out.contains("externalRouteActive"), srtc.out)
        for word in ["meeting", "Meeting", " room", " enter", " exit"] { XCTAssertFalse(srtc.out.contains(word), word) }
        let meeting = CLI.runInProcess(["explain", CLI.root + "/traces/smeeting-bluetooth-blocks-speaker.jsonl"])
        XCTAssertTrue(meeting.out.contains("SMeeting trace"))
        for word in ["channel", "Channel", " join", " leave"] {
            let prose = meeting.out.replacingOccurrences(of: "joinChannel", with: "").replacingOccurrences(of: "leaveChannel", with: "")
            XCTAssertFalse(prose.contains(word), "\(word) in SMeeting explain")
        }
        let clean = try write("clean.jsonl", [lines[0], lines[1], lines[2],
            #"{"seq":3,"t":300,"type":"obs.sessionActivated","ok":true,"category":"playAndRecord","mode":"voiceChat","options":["allowBluetooth"]}"#])
        let ok = CLI.runInProcess(["explain", clean])
        XCTAssertEqual(ok.status, 0, ok.out)
        XCTAssertTrue(ok.out.contains("Nothing is wrong"), ok.out)
        let a = CLI.runInProcess(["explain", "--json", CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl"]).out
        let b = CLI.runInProcess(["explain", "--json", CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl"]).out
        XCTAssertEqual(a, b, "deterministic")
        let obj = try JSONSerialization.jsonObject(with: Data(a.utf8)) as? [String: Any]
        let verdicts = obj?["verdicts"] as? [[String: Any]] ?? []
        XCTAssertTrue(verdicts.contains { $0["verdict"] as? String == "ineffective" && $0["cause"] as? String == "externalRouteActive" })
        for key in ["seq", "t", "call", "verdict", "cause"] { XCTAssertTrue(verdicts.allSatisfy { $0.keys.contains(key) }, key) }
    }
}
