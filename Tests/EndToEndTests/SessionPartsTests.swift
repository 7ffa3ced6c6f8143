import Foundation
import TestSupport
import XCTest

/// Several files of one recorded session are one trace to every reading command, in part order
/// whatever order they are given in; a part alone is replayed with a warning; `trace.dropped` marks
/// what it overlaps as uncertain.
final class SessionPartsTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    static let header = #"{"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc","session":{"id":"run-7","part":1}}"#

    /// A call split in two parts: the headset connects in part 1, the speaker request in part 2 is
    /// ineffective because of it, which only a replay of both parts as one trace can tell.
    func writeParts() throws -> (one: String, two: String) {
        let one = [Self.header,
                   #"{"seq":1,"t":1000,"type":"api.joinChannel","channel":"c"}"#,
                   #"{"seq":2,"t":1100,"type":"os.micPermission","status":"granted"}"#,
                   #"{"seq":3,"t":2000,"type":"os.deviceConnected","id":"bt","kind":"bluetooth","name":"Buds"}"#]
        let two = [#"{"seq":4,"t":3000,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc","session":{"id":"run-7","part":2}}"#,
                   #"{"seq":5,"t":4000,"type":"api.setRoute","target":"speaker"}"#,
                   #"{"seq":6,"t":9000,"type":"api.leaveChannel"}"#]
        let p1 = dir + "/run-7.1.jsonl", p2 = dir + "/run-7.2.jsonl"
        try (one.joined(separator: "\n") + "\n").write(toFile: p1, atomically: true, encoding: .utf8)
        try (two.joined(separator: "\n") + "\n").write(toFile: p2, atomically: true, encoding: .utf8)
        return (p1, p2)
    }

    func test_partsGivenInAnyOrderOrAsAFolderReplayAsOneTrace() throws {
        let (p1, p2) = try writeParts()
        for args in [[p2, p1], [p1, p2], [dir]] {
            let r = CLI.runInProcess(["explain", "--json"] + args)
            XCTAssertEqual(r.status, 1, "\(args): \(r.err)")
            XCTAssertTrue(r.out.contains(#""cause":"externalRouteActive""#), "\(args): \(r.out.prefix(600))")
            XCTAssertFalse(r.err.contains("warning"), "\(args): \(r.err)")
        }
        let cat = CLI.runInProcess(["cat", p2, p1])
        XCTAssertEqual(cat.out.split(separator: "\n").map { String($0.prefix(12)) },
                       (0...6).map { #"{"seq":\#($0),"t""#.prefix(12) }.map(String.init), cat.out)
        XCTAssertEqual(CLI.runInProcess(["verify", p1, p2]).status, 0)
    }

    func test_aPartAloneIsReplayedWithAWarning_andVerifySaysAPartIsMissing() throws {
        let (_, p2) = try writeParts()
        let r = CLI.runInProcess(["explain", p2])
        XCTAssertTrue(r.err.contains("part 2 of session run-7 was replayed without the parts before it and has no checkpoint: the state before it is unknown"), r.err)
        XCTAssertTrue(r.out.contains("Partial: nothing is said of what is missing"), r.out)
        XCTAssertFalse(r.out.contains("Nothing is wrong"), r.out)
        let v = CLI.runInProcess(["verify", p2])
        XCTAssertEqual(v.status, 1)
        XCTAssertTrue(v.out.contains("session run-7: part 1 missing"), v.out)
    }

    /// `verify` takes the parts of a session as the other readers do: a folder, or `@LIST` (it refused
    /// both: "is a directory", and a list file read as a trace).
    func test_verifyTakesASessionsFolderAndList() throws {
        let (p1, p2) = try writeParts()
        let list = dir + "/../parts-\(UUID().uuidString).txt"
        try "\(p2)\r\n\(p1)\r\n".write(toFile: list, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: list) }
        for args in [[dir], ["@" + list]] {
            let v = CLI.runInProcess(["verify"] + args)
            XCTAssertEqual(v.status, 0, "\(args): \(v.out) \(v.err)")
            XCTAssertTrue(v.out.contains("run-7.1.jsonl: OK (4 records") && v.out.contains("run-7.2.jsonl: OK (3 records"), v.out)
        }
        try FileManager.default.removeItem(atPath: p1)
        let v = CLI.runInProcess(["verify", dir])
        XCTAssertEqual(v.status, 1)
        XCTAssertTrue(v.out.contains("session run-7: part 1 missing"), v.out)
    }

    /// Two recordings that share a configured session id but started at different times are two
    /// sessions (they were grouped as one, mixing their parts); each part's `startedAt` may be the
    /// session's start (the recorder) or its own (the session's start + the header's `t`).
    func test_recordingsWithTheSameSessionIdAndDifferentStartsAreDifferentSessions() throws {
        func header(_ seq: Int, _ t: Int, part: Int, startedAt: String) -> String {
            #"{"seq":\#(seq),"t":\#(t),"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc","startedAt":"\#(startedAt)","session":{"id":"call","part":\#(part)}}"#
        }
        func write(_ name: String, _ lines: [String]) throws {
            try (lines.joined(separator: "\n") + "\n").write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
        }
        // Monday's recording (the recorder's convention: the session's start in both headers) sorts
        // between Tuesday's parts by name.
        try write("a-tue.1.jsonl", [header(0, 0, part: 1, startedAt: "2026-11-24T09:00:00Z"), #"{"seq":1,"t":1000,"type":"api.joinChannel","channel":"c"}"#])
        try write("b-mon.1.jsonl", [header(0, 0, part: 1, startedAt: "2026-11-23T09:00:00.000Z"), #"{"seq":1,"t":1000,"type":"api.joinChannel","channel":"c"}"#])
        try write("b-mon.2.jsonl", [header(2, 5000, part: 2, startedAt: "2026-11-23T09:00:00.000Z"), #"{"seq":3,"t":6000,"type":"api.leaveChannel"}"#])
        // Tuesday's part 2 carries its own start (the session's + 40 s), in another zone.
        try write("c-tue.2.jsonl", [header(2, 40000, part: 2, startedAt: "2026-11-24T10:00:40+01:00"), #"{"seq":3,"t":41000,"type":"api.leaveChannel"}"#])
        let rows = CLI.runInProcess(["triage", dir])
        XCTAssertEqual(rows.status, 0, rows.err)
        let lines = rows.out.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, rows.out)
        XCTAssertFalse(rows.out.contains("missing"), rows.out)
        XCTAssertTrue(lines.contains { $0.contains("a-tue.1.jsonl") && $0.contains("c-tue.2.jsonl") && !$0.contains("b-mon") }, rows.out)
        XCTAssertTrue(lines.contains { $0.contains("b-mon.1.jsonl") && $0.contains("b-mon.2.jsonl") && !$0.contains("tue") }, rows.out)
        let explain = CLI.runInProcess(["explain", dir + "/b-mon.2.jsonl", dir + "/b-mon.1.jsonl"])
        XCTAssertFalse(explain.err.contains("warning"), explain.err)
    }

    func test_twoDifferentTracesAreAUsageError() throws {
        let (p1, _) = try writeParts()
        let r = CLI.runInProcess(["explain", p1, CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl"])
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.err.contains("holds 2 traces"), r.err)
    }

    func test_droppedRecordsMarkWhatTheyOverlapAsUncertain() throws {
        let lines = [#"{"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc"}"#,
                     #"{"seq":1,"t":1000,"type":"api.joinChannel","channel":"c"}"#,
                     #"{"seq":2,"t":2000,"type":"os.deviceConnected","id":"bt","kind":"bluetooth"}"#,
                     #"{"seq":3,"t":6000,"type":"trace.dropped","count":42,"fromT":3000,"toT":5000}"#,
                     #"{"seq":4,"t":6100,"type":"api.setRoute","target":"speaker"}"#,
                     #"{"seq":5,"t":4000,"type":"api.setRoute","target":"earpiece"}"#]
        let path = dir + "/dropped.jsonl"
        try (lines.prefix(5).joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        var text = CLI.runInProcess(["explain", path]).out
        XCTAssertTrue(text.contains("damage: the recorder dropped 42 records (3.000s–5.000s)"), text)
        XCTAssertFalse(text.contains("uncertain:"), "the call at 6.1 s is outside the dropped stretch: \(text)")
        // A call inside the stretch is marked.
        let inside = [lines[0], lines[1], lines[2], #"{"seq":3,"t":4000,"type":"api.setRoute","target":"speaker"}"#,
                      #"{"seq":4,"t":6000,"type":"trace.dropped","count":42,"fromT":3000,"toT":5000}"#]
        try (inside.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        text = CLI.runInProcess(["explain", path]).out
        XCTAssertTrue(text.contains("uncertain: the recorder dropped 42 records from 3.000s to 5.000s (seq 4 trace.dropped)"), text)
        XCTAssertTrue(CLI.runInProcess(["explain", "--json", path]).out.contains(#""uncertain":true"#))
    }
}
