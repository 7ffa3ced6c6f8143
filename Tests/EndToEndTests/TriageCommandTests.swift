import Foundation
import TestSupport
import XCTest

/// `rtctrace triage` as a support lead and a CI job run it: rows, damage, sessions, shards, thresholds.
final class TriageCommandTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    static let goldens = ["srtc-bluetooth-blocks-speaker.jsonl", "smeeting-default-speaker-before-enter.jsonl",
                          "srtc-interruption-not-recovered.jsonl", "smeeting-quality-flapping.jsonl.zst",
                          "srtc-layer-switch-not-confirmed.trace.zst"]

    /// A folder with golden traces and three bad inputs: a trace cut inside its second frame, a gzip
    /// archive with a trace's name, and an empty file.
    func folder() throws -> String {
        let fm = FileManager.default
        let d = dir + "/fleet"
        try fm.createDirectory(atPath: d + "/nested", withIntermediateDirectories: true)
        for (i, g) in Self.goldens.enumerated() {
            try fm.copyItem(atPath: CLI.root + "/traces/" + g, toPath: d + (i % 2 == 0 ? "/" : "/nested/") + g)
        }
        let long = try Data(contentsOf: URL(fileURLWithPath: CLI.root + "/traces/srtc-long-call-20min.jsonl.zst"))
        try long.prefix(long.count - 500).write(to: URL(fileURLWithPath: d + "/truncated.jsonl.zst"))
        let plain = try Data(contentsOf: URL(fileURLWithPath: CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl"))
        try (Data([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 3]) + plain.prefix(200)).write(to: URL(fileURLWithPath: d + "/archived.trace.zst"))
        try Data().write(to: URL(fileURLWithPath: d + "/empty.jsonl"))
        try Data("not a trace\n".utf8).write(to: URL(fileURLWithPath: d + "/notes.txt"))
        return d
    }

    func rows(_ out: String) throws -> [[String: Any]] {
        try out.split(separator: "\n").map { try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    func row(_ rows: [[String: Any]], _ name: String) throws -> [String: Any] {
        try XCTUnwrap(rows.first { ($0["path"] as? String)?.hasSuffix("/" + name) == true }, name)
    }

    func tags(_ row: [String: Any]) -> [String] { row["tags"] as? [String] ?? [] }

    func test_everyTraceGetsARowAndTheBadOnesSayWhy() throws {
        let d = try folder()
        let r = CLI.runInProcess(["triage", d])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(r.err, "note: no key given (--salt, --salt-file or RTCTRACE_SALT): the channel, room and uid columns are null; "
                       + "give the fleet's one key for keyed tokens (docs/triage.md)\n",
                       "nothing but rows when not on a terminal, and once how to get keyed tokens")
        let rows = try rows(r.out)
        XCTAssertEqual(rows.count, Self.goldens.count + 3, "notes.txt is not searched for; every trace file gets a row")
        XCTAssertEqual(rows.map { $0["path"] as! String }, rows.map { $0["path"] as! String }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        for g in Self.goldens {
            let row = try row(rows, g)
            XCTAssertEqual(row["schema"] as? String, "rtctrace.triage/2")
            XCTAssertTrue(row["unexplainable"] is NSNull, g)
            XCTAssertFalse(tags(row).contains("damaged-trace"), g)
            XCTAssertGreaterThan(row["records"] as? Int ?? 0, 10, g)
        }
        XCTAssertTrue(tags(try row(rows, "srtc-bluetooth-blocks-speaker.jsonl")).contains("speaker-blocked-by-external-device"))
        XCTAssertTrue(tags(try row(rows, "smeeting-default-speaker-before-enter.jsonl")).contains("unexplained-divergence"))
        XCTAssertTrue(tags(try row(rows, "srtc-interruption-not-recovered.jsonl")).contains("interruption-not-recovered"))
        XCTAssertTrue(tags(try row(rows, "smeeting-quality-flapping.jsonl.zst")).contains("quality-flapping"))

        let cut = try row(rows, "truncated.jsonl.zst")
        XCTAssertEqual(tags(cut).first, "damaged-trace", "\(cut)")
        XCTAssertGreaterThan(cut["records"] as? Int ?? 0, 100, "the first frame's records are still judged")
        let damage = try XCTUnwrap(cut["damage"] as? [String: Any])
        XCTAssertNotNil((damage["byKind"] as? [String: Int])?["tornFrame"], "\(damage)")
        XCTAssertTrue((damage["first"] as? String)?.contains("cut short") == true, "\(damage)")

        let gz = try row(rows, "archived.trace.zst")
        XCTAssertEqual(tags(gz), ["not-a-trace"])
        XCTAssertTrue((gz["unexplainable"] as? String)?.contains("gzip archive") == true, "\(gz)")
        let empty = try row(rows, "empty.jsonl")
        XCTAssertEqual(tags(empty), ["not-a-trace"])
        XCTAssertTrue((empty["unexplainable"] as? String)?.contains("no records") == true, "\(empty)")
    }

    func test_rowsAreTheSameWhateverTheJobs() throws {
        let d = try folder()
        let one = CLI.runInProcess(["triage", d, CLI.root + "/traces", "--jobs", "1"])
        let two = CLI.runInProcess(["triage", d, CLI.root + "/traces", "--jobs", "2"])
        let four = CLI.runInProcess(["triage", d, CLI.root + "/traces", "--jobs", "4"])
        XCTAssertEqual(one.status, 0, one.err)
        XCTAssertGreaterThan(one.out.split(separator: "\n").count, 50)
        XCTAssertEqual(one.out, two.out)
        XCTAssertEqual(one.out, four.out)
        // The same rows through -o, compressed: what zstd -dc prints.
        let out = dir + "/rows.jsonl.zst"
        let written = CLI.runInProcess(["triage", d, CLI.root + "/traces", "--jobs", "2", "-o", out])
        XCTAssertEqual(written.status, 0, written.err)
        XCTAssertEqual(CLI.run(["-dc", out], exe: "/usr/bin/zstd").out, one.out)
        XCTAssertEqual(written.out, "", "rows go to the file")
    }

    /// The rows never replace a trace the run reads, however it was named: found by the folder walk,
    /// listed in @LIST, or a hard link to one.
    func test_rowsNeverReplaceATraceTheyRead() throws {
        let d = try folder()
        let victim = d + "/srtc-bluetooth-blocks-speaker.jsonl"
        let before = try Data(contentsOf: URL(fileURLWithPath: victim))
        let list = dir + "/list.txt"
        try Data((victim + "\n").utf8).write(to: URL(fileURLWithPath: list))
        let link = dir + "/hard-link.jsonl"
        try FileManager.default.linkItem(atPath: victim, toPath: link)
        for (args, out) in [([d], victim), (["@" + list], victim), ([d], link)] {
            let r = CLI.runInProcess(["triage"] + args + ["-o", out])
            XCTAssertEqual(r.status, 64, "\(args) -o \(out): \(r.err)")
            XCTAssertTrue(r.err.contains("refusing to overwrite an input"), r.err)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: victim)), before, "\(args) -o \(out) changed the trace")
        }
    }

    func test_shardsPartitionTheTracesAndKeepSessionsWhole() throws {
        let d = try folder()
        try writeSession(in: d)
        let whole = try rows(CLI.runInProcess(["triage", d, CLI.root + "/traces"]).out).map { $0["path"] as! String }
        var seen: [String] = []
        for i in 0..<3 {
            let r = CLI.runInProcess(["triage", d, CLI.root + "/traces", "--shard", "\(i)/3", "--jobs", "2"])
            XCTAssertEqual(r.status, 0, r.err)
            let paths = try rows(r.out).map { $0["path"] as! String }
            XCTAssertFalse(paths.isEmpty, "shard \(i) of 3 is not empty for ~60 traces")
            XCTAssertTrue(Set(paths).isDisjoint(with: seen), "shard \(i) overlaps")
            seen += paths
        }
        XCTAssertEqual(seen.sorted(), whole.sorted(), "the union of the shards is the whole set")
        XCTAssertEqual(Set(whole).count, whole.count)
        for bad in ["3/3", "-1/3", "1", "a/b", "0/0"] {
            XCTAssertEqual(CLI.runInProcess(["triage", d, "--shard", bad]).status, 64, bad)
        }
    }

    static let header = #"{"seq":%d,"t":%d,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc","sdk":"SRTC 4.6.2","device":{"model":"iPhone15,2","os":"iOS 17.4"},"startedAt":"2026-11-30T09:00:00Z","session":{"id":"s1","part":%d}}"#

    /// A session in two files, named so that part 2 sorts first: a bluetooth headset connects in
    /// part 1, and the speaker request in part 2 is ineffective because of it.
    @discardableResult
    func writeSession(in d: String) throws -> (String, String) {
        let part1 = [String(format: Self.header, 0, 0, 1),
                     #"{"seq":1,"t":100,"type":"api.joinChannel","channel":"c"}"#,
                     #"{"seq":2,"t":150,"type":"obs.routeChanged","route":"receiver","previousRoute":"speaker","reason":"categoryChange"}"#,
                     #"{"seq":3,"t":900,"type":"os.deviceConnected","id":"bt","kind":"bluetooth","name":"Buds"}"#,
                     #"{"seq":4,"t":950,"type":"obs.routeChanged","route":"bluetooth","previousRoute":"receiver","reason":"newDeviceAvailable"}"#]
        let part2 = [String(format: Self.header, 5, 5000, 2),
                     #"{"seq":6,"t":5100,"type":"api.setRoute","target":"speaker","api":"setAudioRoute(.speaker)"}"#,
                     #"{"seq":7,"t":6000,"type":"api.leaveChannel"}"#]
        let p1 = d + "/z-run.part1.jsonl", p2 = d + "/a-run.part2.jsonl"
        try (part1.joined(separator: "\n") + "\n").write(toFile: p1, atomically: true, encoding: .utf8)
        try (part2.joined(separator: "\n") + "\n").write(toFile: p2, atomically: true, encoding: .utf8)
        return (p1, p2)
    }

    func test_theParts_ofOneSessionAreOneTrace() throws {
        let (p1, p2) = try writeSession(in: dir)
        let r = CLI.runInProcess(["triage", dir])
        XCTAssertEqual(r.status, 0, r.err)
        let rows = try rows(r.out)
        XCTAssertEqual(rows.count, 1, r.out)
        let row = rows[0]
        XCTAssertEqual(row["path"] as? String, p1, "the first part names the trace")
        XCTAssertEqual(row["parts"] as? [String], [p1, p2])
        XCTAssertEqual(row["session"] as? String, "s1")
        XCTAssertEqual(row["records"] as? Int, 8)
        XCTAssertEqual(row["durationMs"] as? Int, 6000)
        XCTAssertEqual((row["damage"] as? [String: Any])?["problems"] as? Int, 0, "\(row)")
        XCTAssertTrue(row["incompleteSession"] is NSNull)
        XCTAssertEqual(tags(row), ["route-call-not-taking-effect", "speaker-blocked-by-external-device"],
                       "the device connected in part 1 still has the route in part 2")

        // Part 2 alone is still a trace, whose row says the state before it is unknown.
        let alone = try self.rows(CLI.runInProcess(["triage", p2]).out)
        XCTAssertEqual(alone.count, 1)
        XCTAssertTrue(tags(alone[0]).contains("incomplete-session"), "\(alone[0])")
        XCTAssertTrue((alone[0]["incompleteSession"] as? String)?.contains("without the parts before it") == true)
        XCTAssertEqual(alone[0]["parts"] as? [String], [])
    }

    func test_failOnThresholds() throws {
        let traces = CLI.root + "/traces"
        let crossed = CLI.runInProcess(["triage", traces, "--fail-on", "unexplained-divergence>0"])
        XCTAssertEqual(crossed.status, 1)
        XCTAssertTrue(crossed.err.contains("Error: --fail-on 'unexplained-divergence>0' crossed: "), crossed.err)
        XCTAssertEqual(CLI.runInProcess(["triage", traces, "--fail-on", "unexplained-divergence>1000"]).status, 0)
        XCTAssertEqual(CLI.runInProcess(["triage", traces, "--fail-on", "unexplained-divergence>50%"]).status, 0)
        let share = CLI.runInProcess(["triage", traces, "--fail-on", "interruption-not-recovered>0.5%", "--fail-on", "quality-flapping>90%"])
        XCTAssertEqual(share.status, 1)
        XCTAssertTrue(share.err.contains("'interruption-not-recovered>0.5%' crossed"), share.err)
        XCTAssertFalse(share.err.contains("'quality-flapping>90%' crossed"), share.err)
        XCTAssertEqual(CLI.runInProcess(["triage", traces, "--fail-on", "not-a-trace>0"]).status, 0)
        for bad in ["nonsense>1", "unexplained-divergence", "unexplained-divergence>abc", "unexplained-divergence>-1",
                    "unexplained-divergence>101%", "unexplained-divergence>1e3%", ">1"] {
            let r = CLI.runInProcess(["triage", traces, "--fail-on", bad])
            XCTAssertEqual(r.status, 64, bad)
            XCTAssertTrue(r.err.hasPrefix("Error: --fail-on '"), r.err)
            XCTAssertEqual(r.out, "", "no rows before a usage error")
        }
    }

    func test_summaryCountsAreTheRowsCounts() throws {
        let d = try folder()
        let r = CLI.runInProcess(["triage", d, CLI.root + "/traces", "--summary", "--json", "--fail-on", "damaged-trace>0"])
        XCTAssertEqual(r.status, 1, r.err)
        let rows = try rows(r.out)
        let line = try XCTUnwrap(r.err.split(separator: "\n").first { $0.hasPrefix("{") })
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(summary["schema"] as? String, "rtctrace.triage-summary/2")
        XCTAssertEqual(summary["traces"] as? Int, rows.count)
        // The folder's goldens are copies of traces/: each is counted once, the later path as a duplicate.
        let duplicates = rows.filter { $0["duplicateOf"] is String }
        XCTAssertEqual(duplicates.count, Self.goldens.count, "\(duplicates.map { $0["path"]! })")
        XCTAssertEqual(summary["duplicates"] as? Int, Self.goldens.count)
        var counts: [String: Int] = [:]
        for row in rows {
            for t in tags(row) where !(row["duplicateOf"] is String) || t == "duplicate-upload" { counts[t, default: 0] += 1 }
        }
        let listed = (summary["tags"] as? [[String: Any]] ?? []).map { ($0["tag"] as! String, $0["traces"] as! Int) }
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: listed), counts)
        XCTAssertEqual(summary["readable"] as? Int, rows.filter {
            !tags($0).contains("not-a-trace") && !tags($0).contains("unreadable") && !($0["duplicateOf"] is String)
        }.count)
        let first = try XCTUnwrap((summary["openFirst"] as? [[String: Any]])?.first)
        XCTAssertGreaterThan(first["unexplainedDivergences"] as? Int ?? 0, 0, "unexplained divergences come first")
        XCTAssertTrue((first["command"] as? String)?.hasPrefix("rtctrace explain ") == true)
        let failOn = try XCTUnwrap((summary["failOn"] as? [[String: Any]])?.first)
        XCTAssertEqual(failOn["crossed"] as? Bool, true)

        let text = CLI.runInProcess(["triage", d, "--summary"])
        XCTAssertTrue(text.err.hasPrefix("Triaged \(Self.goldens.count + 3) traces: \(Self.goldens.count + 1) readable, 2 not a trace, 0 unreadable"), text.err)
        XCTAssertTrue(text.err.contains("By SDK version"), text.err)
        XCTAssertTrue(text.err.contains("By iOS version"), text.err)
        XCTAssertTrue(text.err.contains("Open first"), text.err)
        XCTAssertTrue(text.err.contains("By device model"), text.err)
        XCTAssertTrue(text.err.contains("Regressions within each product"), text.err)
        XCTAssertTrue(text.err.contains("  1. 1 trace: unexplained divergence\n     e.g. " + d + "/nested/smeeting-default-speaker-before-enter.jsonl: 1 unexplained divergence\n     rtctrace explain " + d + "/nested/smeeting-default-speaker-before-enter.jsonl\n"), text.err)
        XCTAssertTrue(text.err.contains("Skipped 1 file in the folders given (no row): 1 whose name is not a trace's (*.jsonl, *.zst, *.rtcbundle); e.g. " + d + "/notes.txt\n"),
                      "47 files are not said to be 46 traces: \(text.err)")
    }

    func test_listFilesAndUnreadableEntries() throws {
        let d = try folder()
        // A pipe with a trace's name: a folder walk passes it by, a list names it and gets a row.
        XCTAssertEqual(mkfifo(d + "/nested/pipe.jsonl", 0o600), 0)
        let list = dir + "/list.txt"
        try "# the day's uploads\n\(d)/nested\n\n\(dir)/gone.jsonl\n\(CLI.root)/traces/srtc-cdn-wangsu.jsonl\n\(d)/nested/pipe.jsonl\n"
            .write(toFile: list, atomically: true, encoding: .utf8)
        let r = CLI.runInProcess(["triage", "@" + list])
        XCTAssertEqual(r.status, 0, r.err)
        let rows = try rows(r.out)
        XCTAssertEqual(rows.count, 5, r.out)
        let gone = try row(rows, "gone.jsonl")
        XCTAssertEqual(tags(gone), ["unreadable"])
        XCTAssertTrue((gone["unexplainable"] as? String)?.contains("cannot open") == true, "\(gone)")
        let pipe = try row(rows, "pipe.jsonl")
        XCTAssertEqual(tags(pipe), ["unreadable"])
        XCTAssertTrue((pipe["unexplainable"] as? String)?.contains("not a regular file") == true, "\(pipe)")
        XCTAssertEqual(try self.rows(CLI.runInProcess(["triage", d]).out).count, Self.goldens.count + 3, "the walk skips the pipe")
        XCTAssertEqual(CLI.runInProcess(["triage", dir + "/missing-folder"]).status, 64)
        XCTAssertEqual(CLI.runInProcess(["triage", "@" + dir + "/missing-list"]).status, 64)
        XCTAssertEqual(CLI.runInProcess(["triage"]).status, 64)
    }

    func test_tagListNamesEveryTag() {
        let r = CLI.runInProcess(["triage", "--list-tags"])
        XCTAssertEqual(r.status, 0)
        for t in ["speaker-blocked-by-external-device", "route-request-before-call", "interruption-not-recovered",
                  "unexplained-divergence", "session-missing-allowbluetooth", "quality-flapping", "not-a-trace", "damaged-trace"] {
            XCTAssertTrue(r.out.contains(t + " "), t)
        }
    }
}
