import Foundation
import TestSupport
import TraceFixtures
import XCTest

/// `rtctrace triage` as a support-operations lead runs it on a fleet: the summary lists a planted
/// regression and nothing else, tags count outcomes, duplicates and odd files are said, `--json` is
/// one document, and a failure to write is an I/O failure (74), never the "threshold crossed" 1.
final class TriageFleetTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func summary(_ err: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(err.utf8)) as? [String: Any], err)
    }

    func rows(_ out: String) throws -> [[String: Any]] {
        try out.split(separator: "\n").map { try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    /// Each scenario of the generator gets exactly the tags it is made to show.
    func test_theGeneratedScenariosHaveTheirTags() throws {
        // Week 1's rows (triaged once for every test), and week 2's one scenario week 1 lacks, triaged here.
        let runs = try PlantedFleet.week1Runs()
        let ignored = SyntheticFleet.make(seed: 25, versions: PlantedFleet.week2).filter { $0.scenario == .speakerIgnored }
        XCTAssertGreaterThan(ignored.count, 10)
        let d = dir + "/ignored"
        try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        for t in ignored { try t.jsonLines.write(toFile: d + "/w2-" + t.name, atomically: false, encoding: .utf8) }
        let r = CLI.runInProcess(["triage", d])
        XCTAssertEqual(r.status, 0, r.err)
        let week1 = CLI.run(["-dc", runs.whole], exe: "/usr/bin/zstd")
        XCTAssertEqual(week1.status, 0, week1.err)
        let fleet = SyntheticFleet.make(seed: 24, versions: PlantedFleet.week1)
            + ignored.map { t in var t = t; t.name = "w2-" + t.name; return t }
        let byName = Dictionary(uniqueKeysWithValues: try rows(week1.out + r.out).map { (($0["path"] as! String).split(separator: "/").last.map(String.init)!, $0) })
        let expected: [SyntheticFleet.Scenario: [String]] = [
            .clean: [], .interruptionRecovered: [], .interruptionNotRecovered: ["interruption-not-recovered"],
            .speakerBlockedByAirPods: ["route-call-not-taking-effect", "speaker-blocked-by-external-device"],
            .routeRequestBeforeJoin: ["took-effect-late", "route-request-before-call"],
            .audioModuleLeftDisabled: ["audio-module-left-disabled"], .deactivatedWithoutNotifyOthers: ["session-missing-notifyothers"],
            .wrongSessionMode: ["session-wrong-mode"], .speakerIgnored: ["route-divergence", "unexplained-divergence"],
        ]
        var odd: [String: Int] = [:]
        for t in fleet {
            let row = try XCTUnwrap(byName[t.name], t.name)
            // A simulator's and a Mac's clean calls carry what the header says, and nothing else.
            let implied: [String] = switch row["device"] as? String {
            case "arm64": ["simulator-trace"]
            case "Mac14,2": ["not-ios"]
            default: []
            }
            if !implied.isEmpty { odd[implied[0], default: 0] += 1 }
            XCTAssertEqual(row["tags"] as? [String], implied.isEmpty ? expected[t.scenario] : implied, "\(t.name)")
        }
        XCTAssertGreaterThan(odd["simulator-trace"] ?? 0, 10)
        XCTAssertGreaterThan(odd["not-ios"] ?? 0, 10)
        XCTAssertEqual(Set(fleet.map(\.scenario)), Set(SyntheticFleet.Scenario.allCases))
    }

    func test_theGoldenCorpusListsNoRegression() throws {
        let r = CLI.runInProcess(["triage", CLI.root + "/traces", "--json"])
        XCTAssertEqual(r.status, 0, r.err)
        let regressions = try XCTUnwrap(try summary(r.err)["regressions"] as? [String: Any])
        XCTAssertEqual((regressions["entries"] as? [[String: Any]])?.count, 0, "\(regressions)")
        XCTAssertGreaterThan(regressions["tests"] as? Int ?? 0, 100)
    }

    /// The trace explain calls "Nothing is wrong" gets no umbrella tag: its call took effect late.
    func test_aCallThatTookEffectLateIsNotACallThatDidNotTakeEffect() throws {
        let trace = CLI.root + "/traces/srtc-setroute-before-join.jsonl"
        let row = try XCTUnwrap(try rows(CLI.runInProcess(["triage", trace]).out).first)
        XCTAssertEqual(row["tags"] as? [String], ["took-effect-late", "route-request-before-call"])
        XCTAssertEqual((row["notTakingEffect"] as? [String: Any])?["total"] as? Int, 0)
        XCTAssertEqual((row["tookEffectLate"] as? [String: Any])?["causes"] as? [String: Int], ["notEngaged": 1])
        let explain = CLI.runInProcess(["explain", trace])
        XCTAssertEqual(explain.status, 0)
        XCTAssertTrue(explain.out.contains("Nothing is wrong"), explain.out)
    }

    /// With --json, standard error holds one JSON document, even with -o and a crossed threshold.
    func test_jsonWithOutputIsOneDocument() throws {
        let out = dir + "/rows.jsonl"
        let r = CLI.runInProcess(["triage", CLI.root + "/traces", "--json", "-o", out, "--fail-on", "unexplained-divergence>0"])
        XCTAssertEqual(r.status, 1)
        let s = try summary(r.err)
        XCTAssertEqual((s["output"] as? [String: Any])?["path"] as? String, out)
        XCTAssertEqual((s["failOn"] as? [[String: Any]])?.first?["crossed"] as? Bool, true)
        XCTAssertEqual(r.out, "")
    }

    /// The same upload twice: two rows, the second marked, the summary counting it once.
    func test_duplicateUploadsAreFlaggedAndCountedOnce() throws {
        let golden = CLI.root + "/traces/srtc-interruption-not-recovered.jsonl"
        try FileManager.default.copyItem(atPath: golden, toPath: dir + "/a.jsonl")
        try FileManager.default.copyItem(atPath: golden, toPath: dir + "/b.jsonl")
        let r = CLI.runInProcess(["triage", dir, "--json"])
        let rows = try rows(r.out)
        XCTAssertEqual(rows.count, 2)
        XCTAssertTrue(rows[0]["duplicateOf"] is NSNull)
        XCTAssertEqual(rows[1]["duplicateOf"] as? String, dir + "/a.jsonl")
        XCTAssertEqual(rows[0]["contentHash"] as? String, rows[1]["contentHash"] as? String)
        XCTAssertEqual(rows[1]["tags"] as? [String], ["duplicate-upload", "interruption-not-recovered"])
        let s = try summary(r.err)
        XCTAssertEqual(s["duplicates"] as? Int, 1)
        let tags = Dictionary(uniqueKeysWithValues: (s["tags"] as? [[String: Any]] ?? []).map { ($0["tag"] as! String, $0["traces"] as! Int) })
        XCTAssertEqual(tags["interruption-not-recovered"], 1)
        XCTAssertEqual(tags["duplicate-upload"], 1)
    }

    /// A customer's .jsonl.gz in a folder is named in the summary, not passed over in silence; a .tar.zst
    /// is an archive, not a damaged trace.
    func test_oddFilesAreSaid() throws {
        try FileManager.default.copyItem(atPath: CLI.root + "/traces/srtc-setroute-before-join.jsonl", toPath: dir + "/call.jsonl")
        try Data([0x1F, 0x8B, 0x08, 0x00]).write(to: URL(fileURLWithPath: dir + "/customer.jsonl.gz"))
        // A tar of a trace, compressed with zstd.
        let tar = CLI.run(["-cf", dir + "/bundle.tar", "-C", CLI.root + "/traces", "srtc-setroute-before-join.jsonl"], exe: "/usr/bin/tar")
        XCTAssertEqual(tar.status, 0, tar.err)
        XCTAssertEqual(CLI.run(["-q", "--rm", dir + "/bundle.tar", "-o", dir + "/bundle.tar.zst"], exe: "/usr/bin/zstd").status, 0)
        let r = CLI.runInProcess(["triage", dir, "--json"])
        let rows = try rows(r.out)
        XCTAssertEqual(rows.count, 2)
        let bundle = try XCTUnwrap(rows.first { ($0["path"] as? String)?.hasSuffix("bundle.tar.zst") == true })
        XCTAssertEqual(bundle["tags"] as? [String], ["not-a-trace"])
        XCTAssertTrue((bundle["unexplainable"] as? String)?.contains("tar archive compressed with zstd") == true, "\(bundle)")
        let skipped = try XCTUnwrap(try summary(r.err)["skipped"] as? [String: Any])
        XCTAssertEqual(skipped["files"] as? Int, 1)
        XCTAssertEqual(skipped["examples"] as? [String], [dir + "/customer.jsonl.gz"])
        let explain = CLI.runInProcess(["explain", dir + "/bundle.tar.zst"])
        XCTAssertEqual(explain.status, 65, explain.err)
        XCTAssertTrue(explain.err.contains("tar --zstd -xf"), explain.err)
    }

    /// A FIFO with a trace's name is never opened, and is counted with its reason: with --json (and -o)
    /// standard error is the summary alone (a warning line before it made it unparsable, and the FIFO
    /// was counted nowhere); without, it is named in a warning and counted too.
    func test_aFIFOInAFolderIsCountedAndJSONStandardErrorIsOneDocument() throws {
        let d = dir + "/in"
        try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.root + "/traces/srtc-setroute-before-join.jsonl", toPath: d + "/call.jsonl")
        XCTAssertEqual(mkfifo(d + "/pipe.jsonl", 0o644), 0)
        for output in [[], ["-o", dir + "/rows.jsonl"]] {
            let r = CLI.runInProcess(["triage", d, "--json"] + output)
            XCTAssertEqual(r.status, 0, r.err)
            let s = try summary(r.err)
            XCTAssertEqual(s["traces"] as? Int, 1)
            let skipped = try XCTUnwrap(s["skipped"] as? [String: Any])
            XCTAssertEqual(skipped["files"] as? Int, 1)
            XCTAssertEqual(skipped["examples"] as? [String], [d + "/pipe.jsonl"])
            XCTAssertEqual(skipped["byReason"] as? [String: Int], ["fifo": 1])
            let entry = try XCTUnwrap((skipped["entries"] as? [[String: Any]])?.first)
            XCTAssertEqual(entry["reason"] as? String, "fifo")
            XCTAssertTrue((entry["why"] as? String)?.contains("a FIFO") == true, "\(entry)")
        }
        let text = CLI.runInProcess(["triage", d, "--summary"])
        XCTAssertEqual(text.status, 0, text.err)
        XCTAssertTrue(text.err.hasPrefix("warning: \(d)/pipe.jsonl: skipped, not a regular file (a FIFO, a named pipe)"), text.err)
        XCTAssertTrue(text.err.contains("Skipped 1 file in the folders given (no row): 1 FIFO (never opened: reading one blocks); e.g. \(d)/pipe.jsonl\n"), text.err)
    }

    /// A hidden file, trace-named or not, is not read but counted (reason hidden); hidden folders are not
    /// searched. The examples are in path order whatever the folder's order.
    func test_hiddenFilesAreCountedAndExamplesAreInPathOrder() throws {
        let fm = FileManager.default
        try fm.copyItem(atPath: CLI.root + "/traces/srtc-setroute-before-join.jsonl", toPath: dir + "/call.jsonl")
        try fm.copyItem(atPath: CLI.root + "/traces/srtc-setroute-before-join.jsonl", toPath: dir + "/.hidden.jsonl")
        try fm.createDirectory(atPath: dir + "/.git", withIntermediateDirectories: true)
        try fm.copyItem(atPath: CLI.root + "/traces/srtc-setroute-before-join.jsonl", toPath: dir + "/.git/inside.jsonl")
        // Names created in an order unlike byte order (the folder's order follows creation on many file systems).
        let names = ["zeta.txt", "b/notes.md", "alpha.gz", "b/.DS_Store", "M.log"]
        try fm.createDirectory(atPath: dir + "/b", withIntermediateDirectories: true)
        for n in names { try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/" + n)) }
        let r = CLI.runInProcess(["triage", dir, "--json"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(try rows(r.out).map { $0["path"] as? String }, [dir + "/call.jsonl"])
        let skipped = try XCTUnwrap(try summary(r.err)["skipped"] as? [String: Any])
        XCTAssertEqual(skipped["files"] as? Int, 6)
        XCTAssertEqual(skipped["byReason"] as? [String: Int], ["name": 4, "hidden": 2])
        let expected = (names + [".hidden.jsonl"]).map { dir + "/" + $0 }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        XCTAssertEqual(skipped["examples"] as? [String], expected)
        let hidden = (skipped["entries"] as? [[String: Any]] ?? []).filter { $0["reason"] as? String == "hidden" }.compactMap { $0["path"] as? String }
        XCTAssertEqual(hidden, [dir + "/.hidden.jsonl", dir + "/b/.DS_Store"])
    }

    /// -o creates the folders it needs (a fresh volume); a place that cannot be written is 74, not 1.
    func test_outputFoldersAreCreatedAndWriteFailuresAreIOErrors() throws {
        let trace = CLI.root + "/traces/srtc-setroute-before-join.jsonl"
        let nested = dir + "/rows/2026-11-29/shard-0.jsonl.zst"
        let made = CLI.runInProcess(["triage", trace, "-o", nested])
        XCTAssertEqual(made.status, 0, made.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: nested))
        // A retried pod writes its shard again: an existing rows file is replaced, no --force needed.
        let again = CLI.runInProcess(["triage", trace, CLI.root + "/traces/srtc-interruption-not-recovered.jsonl", "-o", nested])
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertTrue(again.err.contains("(2 rows)"), again.err)
        try Data().write(to: URL(fileURLWithPath: dir + "/plain-file"))
        let blocked = CLI.runInProcess(["triage", trace, "-o", dir + "/plain-file/rows.jsonl"])
        XCTAssertEqual(blocked.status, 74, blocked.err)
        XCTAssertTrue(blocked.err.contains("cannot create the folder"), blocked.err)
        if getuid() != 0 {
            try FileManager.default.createDirectory(atPath: dir + "/locked", withIntermediateDirectories: true)
            chmod(dir + "/locked", 0o500)
            defer { chmod(dir + "/locked", 0o700) }
            XCTAssertEqual(CLI.runInProcess(["triage", trace, "-o", dir + "/locked/rows.jsonl"]).status, 74)
        }
    }

    /// A dangling link in a folder (an upload removed under the link, a link loop) gets an `unreadable`
    /// row, as a missing @LIST entry does; a dangling link without a trace name is counted as skipped.
    func test_danglingLinksInAFolderGetARow() throws {
        try FileManager.default.copyItem(atPath: CLI.root + "/traces/srtc-setroute-before-join.jsonl", toPath: dir + "/call.jsonl")
        try FileManager.default.createSymbolicLink(atPath: dir + "/gone.jsonl", withDestinationPath: dir + "/removed.jsonl")
        try FileManager.default.createSymbolicLink(atPath: dir + "/loop.jsonl.zst", withDestinationPath: dir + "/loop.jsonl.zst")
        try FileManager.default.createSymbolicLink(atPath: dir + "/notes.txt", withDestinationPath: dir + "/removed.txt")
        let r = CLI.runInProcess(["triage", dir, "--json"])
        XCTAssertEqual(r.status, 0, r.err)
        let rows = try rows(r.out)
        XCTAssertEqual(rows.map { ($0["path"] as? String ?? "").replacingOccurrences(of: dir + "/", with: "") },
                       ["call.jsonl", "gone.jsonl", "loop.jsonl.zst"])
        for row in rows.dropFirst() {
            XCTAssertEqual(row["tags"] as? [String], ["unreadable"], "\(row)")
            XCTAssertNotNil(row["unexplainable"] as? String, "\(row)")
        }
        let s = try summary(r.err)
        XCTAssertEqual(s["traces"] as? Int, 3)
        XCTAssertEqual((s["skipped"] as? [String: Any])?["examples"] as? [String], [dir + "/notes.txt"])
    }

    /// A run killed while writing its rows (SIGKILL: no cleanup runs) leaves its temporary beside the
    /// output and nothing under the output's name; the next run writing there removes it, and keeps a
    /// temporary that a live writer still holds.
    func test_aKilledRunsTemporaryIsRemovedByTheNextRun() throws {
        let traces = dir + "/traces"
        try FileManager.default.createDirectory(atPath: traces, withIntermediateDirectories: true)
        for name in ["srtc-setroute-before-join", "srtc-interruption-not-recovered", "srtc-bluetooth-blocks-speaker"] {
            try FileManager.default.copyItem(atPath: CLI.root + "/traces/\(name).jsonl", toPath: traces + "/\(name).jsonl")
        }
        let out = dir + "/rows/day/shard-0.jsonl"
        let killed = CLI.run(["triage", traces, "--jobs", "1", "-o", out], env: ["RTCTRACE_FAULT_KILL_TRIAGE": "srtc-setroute-before-join.jsonl"])
        XCTAssertEqual(killed.status, -9, killed.err)
        func temporaries() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: dir + "/rows/day").filter { $0.hasPrefix(".shard-0.jsonl.tmp-") }.sorted()
        }
        let left = try temporaries()
        XCTAssertEqual(left.count, 1, "the killed run's temporary")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        let rowsBeforeKill = try String(contentsOfFile: dir + "/rows/day/" + left[0], encoding: .utf8)
        XCTAssertEqual(rowsBeforeKill.split(separator: "\n").count, 2, "killed after two rows were written")

        // A writer still at work (here: this test holding the writer's lock) keeps its temporary.
        let held = dir + "/rows/day/.shard-0.jsonl.tmp-1-live"
        _ = FileManager.default.createFile(atPath: held, contents: Data())
        let handle = try XCTUnwrap(FileHandle(forReadingAtPath: held))
        XCTAssertEqual(flock(handle.fileDescriptor, LOCK_EX), 0)
        defer { try? handle.close() }
        let again = CLI.runInProcess(["triage", traces, "--jobs", "1", "-o", out])
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertEqual(try temporaries(), [".shard-0.jsonl.tmp-1-live"], "the dead run's temporary is gone, the live one stays")
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").count, 3)
    }

    /// A file that lost its header is damaged and holds nothing to judge: `not-a-trace` and
    /// `damaged-trace`, no judgement tags, and the share of `damaged-trace` is of all inputs (here 1 of
    /// 2), never more than the whole of the readable traces.
    func test_aHeaderlessFileIsDamagedNotJudgedAndItsShareIsOfAllInputs() throws {
        try FileManager.default.copyItem(atPath: CLI.root + "/traces/srtc-setroute-before-join.jsonl", toPath: dir + "/call.jsonl")
        let text = try String(contentsOfFile: CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl", encoding: .utf8)
        try text.split(separator: "\n").dropFirst().joined(separator: "\n").write(toFile: dir + "/headerless.jsonl", atomically: true, encoding: .utf8)
        let r = CLI.runInProcess(["triage", dir, "--json", "--fail-on", "damaged-trace>60%"])
        XCTAssertEqual(r.status, 0, r.err)
        let headerless = try XCTUnwrap(try rows(r.out).first { ($0["path"] as? String)?.hasSuffix("headerless.jsonl") == true })
        XCTAssertEqual(headerless["tags"] as? [String], ["not-a-trace", "damaged-trace"])
        let tags = try XCTUnwrap(try summary(r.err)["tags"] as? [[String: Any]])
        let damaged = try XCTUnwrap(tags.first { $0["tag"] as? String == "damaged-trace" })
        XCTAssertEqual(damaged["share"] as? Double, 0.5)
        XCTAssertEqual((try summary(r.err)["failOn"] as? [[String: Any]])?.first?["of"] as? Int, 2)
    }
}
