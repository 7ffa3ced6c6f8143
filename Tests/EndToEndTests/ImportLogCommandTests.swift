import Foundation
import TestSupport
import TraceCodec
import TraceModel
import XCTest

/// `rtctrace import-log` end to end: what a support engineer runs on a customer's console log and trace.
final class ImportLogCommandTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    static let recorded = Fixtures.trace("smeeting-other-component-category-change.jsonl")

    /// The device's log of that meeting: the app activates (the anchor), WebKit's GPU process activates its
    /// session 342 ms before the category change at 21 s, the media server logs the app's Category, the app
    /// posts the route change.
    static let lines: [(level: String, time: String, process: String, path: String, pid: Int, message: String)] = [
        ("Default", "11:00:01.050000+0100", "mediaserverd", "/usr/sbin/mediaserverd", 55,
         #"AudioSessionServerImp.mm:1283 { "action":"activate", "session":{"ID":"0x3535e","name":"Meet(412)"}, "details":{"controlling_PID":412} }"#),
        ("Default", "11:00:01.052341+0100", "Meet", "/private/var/containers/Bundle/Application/1F2E8C1A/Meet.app/Meet", 412,
         "AVAudioSession_iOS.mm:996   Activated session 0x3535e"),
        ("Default", "11:00:05.000000+0100", "locationd", "/usr/libexec/locationd", 80, "Client com.example.meet authorization status 4"),
        ("Default", "11:00:20.650000+0100", "mediaserverd", "/usr/sbin/mediaserverd", 55,
         #"AudioSessionServerImp.mm:1283 { "action":"activate", "session":{"ID":"0x41a2c","name":"com.apple.WebKit.GPU(733)"}, "details":{"controlling_PID":733} }"#),
        ("Default", "11:00:20.700000+0100", "mediaserverd", "/usr/sbin/mediaserverd", 55,
         #"AudioSessionServerImp.mm:2036 { "action":"property_change", "session":{"ID":"0x3535e","name":"Meet(412)"}, "details":{"property":"Category","value":"Playback"} }"#),
        ("Default", "11:00:20.990000+0100", "Meet", "/private/var/containers/Bundle/Application/1F2E8C1A/Meet.app/Meet", 412,
         "SessionCore_iOS_NotificationHandlers.mm:475   Session 0x3535e posting AVAudioSessionRouteChangeNotification. Reason: AVAudioSessionRouteChangeReasonCategoryChange"),
    ]

    func ndjson() throws -> String {
        let path = dir + "/meeting.ndjson"
        var text = ""
        for l in Self.lines {
            var w = JSONWriter()
            w.beginObject()
            w.key("timestamp"); w.string("2026-11-29 " + l.time)
            w.key("processImagePath"); w.string(l.path)
            w.key("processID"); w.int(l.pid)
            w.key("subsystem"); w.string("com.apple.coreaudio")
            w.key("eventMessage"); w.string(l.message)
            w.key("messageType"); w.string(l.level)
            w.endObject()
            text += w.string + "\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The same lines copied from Console, its rows in the order they were selected.
    func console() throws -> String {
        let path = dir + "/meeting-console.txt"
        let order = [0, 5, 1, 2, 4, 3]
        try order.map { i in let l = Self.lines[i]; return "Par défaut\t\(l.time)\t\(l.process)\t\(l.message)" }.joined(separator: "\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func records(_ path: String) throws -> [Record] { try Fixtures.readAll(path).records }

    func test_aConsoleCopyAndAnNdjsonExport_giveTheSameRecords_apartFromWall() throws {
        let a = dir + "/a.trace.zst", b = dir + "/b.trace.zst"
        let ra = CLI.runInProcess(["import-log", try ndjson(), "--into", Self.recorded, "-o", a])
        XCTAssertEqual(ra.status, 0, ra.err)
        XCTAssertTrue(ra.out.contains("log show --style ndjson, 6 entries"), ra.out)
        XCTAssertTrue(ra.out.contains("imported 5 records"), ra.out)
        XCTAssertTrue(ra.out.contains("time: anchored on 1 activation"), ra.out)
        let rb = CLI.runInProcess(["import-log", try console(), "--into", Self.recorded, "-o", b])
        XCTAssertEqual(rb.status, 0, rb.err)
        XCTAssertTrue(rb.out.contains("a copy from Console, 6 entries"), rb.out)
        func withoutWall(_ r: Record) -> String {
            guard case .system(var s) = r.body else { return r.jsonLine }
            s.wall = ""
            return Record(seq: r.seq, t: r.t, .system(s)).jsonLine
        }
        let left = try records(a).map(withoutWall), right = try records(b).map(withoutWall)
        XCTAssertEqual(left, right)
        XCTAssertEqual(left.filter { $0.contains("\"type\":\"sys.") }.count, 5)
    }

    /// E1 end to end: explain names WebKit's GPU process as the component, and the verdicts, outcomes,
    /// divergences and findings are exactly the recorded trace's (seqs shift by the records merged in).
    func test_importInto_namesTheOtherProcess_andChangesNoConclusion() throws {
        let out = dir + "/merged.trace.zst"
        XCTAssertEqual(CLI.runInProcess(["import-log", try ndjson(), "--into", Self.recorded, "-o", out]).status, 0)
        let explain = CLI.runInProcess(["explain", out])
        XCTAssertEqual(explain.status, 1, "findings: the answer is no")
        XCTAssertTrue(explain.out.contains("from the system log: the component is com.apple.WebKit.GPU (pid 733), which activated its audio session 342 ms before the change"),
                      explain.out)
        func conclusions(_ path: String) throws -> [String] {
            let json = CLI.runInProcess(["explain", path, "--json"])
            let d = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as! [String: Any]
            // Seqs move by the records merged in before them; times, kinds and causes may not.
            func strip(_ v: Any) -> Any {
                if let o = v as? [String: Any] {
                    return o.filter { !$0.key.lowercased().contains("seq") && $0.key != "systemLog" && $0.key != "message" && $0.key != "advice" }
                        .mapValues(strip)
                }
                if let a = v as? [Any] { return a.map(strip) }
                return v
            }
            return try ["verdicts", "divergences", "findings", "findingCounts", "summary", "quality"].map { key in
                String(decoding: try JSONSerialization.data(withJSONObject: strip(d[key] ?? "none"), options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
            }
        }
        let alone = try conclusions(Self.recorded), merged = try conclusions(out)
        XCTAssertEqual(alone[0], merged[0], "verdicts and outcomes")
        XCTAssertEqual(alone[1], merged[1], "divergences")
        XCTAssertEqual(alone[2], merged[2], "findings")
        XCTAssertEqual(alone[3], merged[3], "finding counts")
        XCTAssertEqual(alone[5], merged[5], "quality")
        XCTAssertNotEqual(Self.recorded, out)
        XCTAssertEqual(try records(Self.recorded).count, 61, "the input is never changed")
    }

    /// An interruption the recorder logged with cause `unknown`, and CommCenter's activation 161 ms before it in
    /// the imported log: a system call, from the system log.
    func test_anUnknownInterruptionAfterACommCenterActivation_isExplainedAsASystemCall() throws {
        let explain = CLI.runInProcess(["explain", Fixtures.trace("srtc-e1-commcenter-interruption.jsonl")])
        XCTAssertEqual(explain.status, 0, explain.out)
        XCTAssertTrue(explain.out.contains("interruption at 20.040s (seq 12), recorded with no known cause"), explain.out)
        XCTAssertTrue(explain.out.contains("from the system log: a system call: CommCenter (pid 98) activated its audio session 161 ms before the interruption"),
                      explain.out)
        let info = CLI.runInProcess(["info", Fixtures.trace("srtc-e1-commcenter-interruption.jsonl")])
        XCTAssertTrue(info.out.contains("syslog    4 records imported about 2 processes (3 the app's); 4 anchored on an activation the trace also holds, ±1 ms"),
                      info.out)
    }

    func test_refusals_nameWhatIsWrong() throws {
        let log = try ndjson()
        // The output over an input: the log, or the trace imported into.
        var r = CLI.runInProcess(["import-log", log, "-o", log])
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.err.contains("refusing to overwrite an input"), r.err)
        let copy = dir + "/recorded.jsonl"
        try FileManager.default.copyItem(atPath: Self.recorded, toPath: copy)
        r = CLI.runInProcess(["import-log", log, "--into", copy, "-o", copy, "--force"])
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.err.contains("is the --into TRACE"), r.err)
        r = CLI.runInProcess(["import-log", log, "--process", "Meet", "--pid", "412", "-o", dir + "/x.trace.zst"])
        XCTAssertEqual(r.status, 64)
        // A Console copy alone has no date.
        r = CLI.runInProcess(["import-log", try console(), "-o", dir + "/x.trace.zst"])
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.err.contains("has no date") && r.err.contains("--date"), r.err)
        // A file that is no log export.
        let notALog = dir + "/notes.txt"
        try "dear support,\nthe speaker does not work\n".write(toFile: notALog, atomically: true, encoding: .utf8)
        r = CLI.runInProcess(["import-log", notALog, "-o", dir + "/x.trace.zst"])
        XCTAssertEqual(r.status, 65)
        XCTAssertTrue(r.err.contains("no entry of a device log export found"), r.err)
        // A damaged trace: its copy could not tell what it lost.
        let damaged = dir + "/damaged.jsonl"
        let lines = try String(contentsOfFile: Self.recorded, encoding: .utf8).split(separator: "\n")
        try (lines.prefix(10) + lines.dropFirst(12)).joined(separator: "\n").write(toFile: damaged, atomically: true, encoding: .utf8)
        r = CLI.runInProcess(["import-log", log, "--into", damaged, "-o", dir + "/x.trace.zst"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("seq") && r.err.contains("verify"), r.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/x.trace.zst"), "nothing is written")
    }

    /// `--redact` tokenises the names of other processes, Bluetooth addresses and paths, and keeps iOS's own words.
    func test_redact_tokenisesPersonalValues_andKeepsTheSystemsWords() throws {
        let path = dir + "/personal.ndjson"
        let messages = [
            #"AudioSessionServerImp.mm:1 { "action":"activate", "session":{"ID":"0x1","name":"Meet(412)"}, "details":{"controlling_PID":412} }"#,
            #"AudioSessionServerImp.mm:1 { "action":"activate", "session":{"ID":"0x2","name":"JanesBankingApp(733)"}, "details":{"controlling_PID":733} }"#,
            #"AudioSessionServerImp.mm:1 { "action":"set_property", "session":{"ID":"0x1","name":"Meet(412)"}, "details":{"property":"PreferredInput","value":"a4:83:e7:12:34:56"} }"#,
            #"AudioSessionServerImp.mm:1 { "action":"activate", "session":{"ID":"0x3","name":"CommCenter(98)"}, "details":{"controlling_PID":98} }"#,
        ]
        try messages.enumerated().map { i, m in
            "{\"timestamp\":\"2026-11-29 10:00:0\(i).000000+0000\",\"processImagePath\":\"/usr/sbin/mediaserverd\",\"processID\":55,\"eventMessage\":\(jsonString(m))}"
        }.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let out = dir + "/red.trace.zst"
        let r = CLI.runInProcess(["import-log", path, "-o", out, "--redact", "--salt", "case-key", "--process", "Meet"])
        XCTAssertEqual(r.status, 0, r.err)
        let cat = CLI.runInProcess(["cat", out]).out
        XCTAssertFalse(cat.contains("JanesBankingApp"), cat)
        XCTAssertFalse(cat.contains("a4:83:e7"), cat)
        XCTAssertTrue(cat.contains("\"process\":\"proc-"), cat)
        XCTAssertTrue(cat.contains("\"value\":\"bt-"), cat)
        XCTAssertTrue(cat.contains("\"process\":\"CommCenter\"") && cat.contains("\"key\":\"PreferredInput\""), cat)
        XCTAssertTrue(cat.contains("\"redacted\":\"redact\""), cat)
    }

    func test_verbose_listsTheShapesOfSkippedLines() throws {
        let r = CLI.runInProcess(["import-log", try ndjson(), "-o", dir + "/v.trace.zst", "--verbose", "--process", "Meet"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("skipped 1 line of other shapes\n  1× locationd: Client com.example.meet authorization status #"), r.out)
        XCTAssertTrue(r.out.contains("the app: meet (pid 412), from --process Meet"), r.out)
    }

    /// `--into` the folder of a session's parts: each line is placed on the part it falls in (a line 10 s into
    /// part 3 is at that part's header t plus 10 s), anchored on activations of two parts, and the copy holds
    /// every part's records in order.
    func test_importIntoTheParts_ofASession_placesEachLineOnItsPart() throws {
        let path = dir + "/weekly.ndjson"
        func activation(_ time: String, _ owner: String, _ pid: Int, _ session: String) -> String {
            let m = #"AudioSessionServerImp.mm:1283 { "action":"activate", "session":{"ID":"\#(session)","name":"\#(owner)(\#(pid))"}, "details":{"controlling_PID":\#(pid)} }"#
            return "{\"timestamp\":\"2026-11-30 \(time)+0100\",\"processImagePath\":\"/usr/sbin/mediaserverd\",\"processID\":55,\"eventMessage\":\(jsonString(m))}"
        }
        try [activation("10:00:01.100000", "Meet", 412, "0x3535e"), activation("10:00:56.000000", "Meet", 412, "0x3535e"),
             activation("10:01:30.000000", "com.apple.WebKit.GPU", 733, "0x41a2c")]
            .joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let out = dir + "/weekly.trace.zst"
        let r = CLI.runInProcess(["import-log", path, "--into", CLI.root + "/traces/smeeting-session-weekly", "-o", out])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("(3 parts)") && r.out.contains("time: anchored on 2 activations"), r.out)
        let records = try records(out)
        XCTAssertEqual(records.filter { $0.type == "trace.header" }.map(\.t), [0, 40_000, 80_000])
        let webkit = records.first { if case .system(let s) = $0.body { s.process == "com.apple.WebKit.GPU" } else { false } }
        XCTAssertEqual(webkit?.t, 90_000)
        XCTAssertEqual(records.map(\.seq), Array(0..<records.count))
        let info = CLI.runInProcess(["info", out])
        XCTAssertTrue(info.out.contains("syslog    3 records imported about 2 processes (2 the app's); 3 anchored"), info.out)
    }

    func jsonString(_ s: String) -> String {
        var w = JSONWriter()
        w.string(s)
        return w.string
    }
}
