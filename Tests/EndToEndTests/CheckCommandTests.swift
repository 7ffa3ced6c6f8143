import Foundation
import TestSupport
import XCTest

/// `rtctrace check` as CI uses it: failures name the seq, snapshots diff, JUnit parses.
final class CheckCommandTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func copyGolden(_ name: String) throws -> String {
        let dst = dir + "/" + name
        try FileManager.default.copyItem(atPath: CLI.root + "/traces/" + name, toPath: dst)
        return dst
    }

    /// A golden session is one case: its parts, in any order on the command line or as its folder,
    /// replay as one trace against the snapshot named after its first part; JUnit names it once.
    func test_aGoldenSessionIsOneCase() throws {
        let session = dir + "/weekly"
        try FileManager.default.copyItem(atPath: CLI.root + "/traces/smeeting-session-weekly", toPath: session)
        for args in [[session], [session + "/part-3.jsonl", session + "/part-1.jsonl", session + "/part-2.jsonl"]] {
            let r = CLI.runInProcess(["check"] + args + ["--junit", dir + "/junit.xml"])
            XCTAssertEqual(r.status, 0, "\(args): \(r.out)\(r.err)")
            XCTAssertTrue(r.out.contains("PASS \(session)/part-1.jsonl (+2 parts of its session)"), r.out)
            XCTAssertTrue(r.out.hasSuffix("1 passed, 0 failed\n"), r.out)
            let junit = try String(contentsOfFile: dir + "/junit.xml", encoding: .utf8)
            XCTAssertEqual(junit.components(separatedBy: "<testcase ").count - 1, 1, junit)
            XCTAssertTrue(junit.contains("name=\"weekly\" file=\"\(session)/part-1.jsonl\""), "named once, by its folder: \(junit)")
        }
        // Each part is checked as part of the session: a broken expectation in part 3 fails the one case.
        let part3 = session + "/part-3.jsonl"
        let text = try String(contentsOfFile: part3, encoding: .utf8)
        try text.replacingOccurrences(of: #""route":"receiver","rule":"R2""#, with: #""route":"speaker","rule":"R2""#)
            .write(toFile: part3, atomically: true, encoding: .utf8)
        let r = CLI.runInProcess(["check", session])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.out.contains("FAIL \(session)/part-1.jsonl (+2 parts of its session)"), r.out)
        XCTAssertTrue(r.out.contains("expect.route: expected speaker, got receiver"), r.out)
    }

    func test_changedExpectationFailsWithSeqExpectedAndGot() throws {
        let path = try copyGolden("srtc-bluetooth-blocks-speaker.jsonl")
        XCTAssertEqual(CLI.runInProcess(["check", path]).status, 0)
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let original = #""verdict":"ineffective","cause":"externalRouteActive""#
        XCTAssertTrue(text.contains(original), "the golden trace pins the ineffective verdict")
        text = text.replacingOccurrences(of: original, with: #""verdict":"applied""#)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let r = CLI.runInProcess(["check", path])
        XCTAssertEqual(r.status, 1)
        let line = r.out.split(separator: "\n").first { $0.contains("expect.verdict") }.map(String.init) ?? ""
        XCTAssertTrue(line.hasPrefix("\(path): seq "), r.out)
        XCTAssertTrue(line.contains("expect.verdict: expected applied, got ineffective"), r.out)
        XCTAssertTrue(r.out.hasSuffix("0 passed, 1 failed\n"), r.out)
    }

    func test_snapshotReviewWorkflowAndReadableDiff() throws {
        let path = try copyGolden("srtc-bluetooth-blocks-speaker.jsonl")
        let snap = dir + "/srtc-bluetooth-blocks-speaker.golden.json"
        // --update writes .new for a missing snapshot, never the accepted file; CI=true writes nothing.
        XCTAssertEqual(CLI.runInProcess(["check", path, "--update"], env: ["CI": "true"]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: snap + ".new"))
        XCTAssertEqual(CLI.runInProcess(["check", path, "--update"]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: snap + ".new"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: snap))
        XCTAssertEqual(CLI.runInProcess(["reject", dir]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: snap + ".new"))
        CLI.runInProcess(["check", path, "--update"])
        XCTAssertEqual(CLI.runInProcess(["accept", dir]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: snap))
        let clean = CLI.runInProcess(["check", dir])
        XCTAssertEqual(clean.status, 0, clean.out)
        XCTAssertTrue(clean.out.contains("snapshot"), clean.out)
        // An engine decision that changes shows up as a diff of the snapshot.
        var accepted = try String(contentsOfFile: snap, encoding: .utf8)
        XCTAssertTrue(accepted.contains(#""verdict": "ineffective""#))
        accepted = accepted.replacingOccurrences(of: #""verdict": "ineffective""#, with: #""verdict": "applied""#)
        try accepted.write(toFile: snap, atomically: true, encoding: .utf8)
        let r = CLI.runInProcess(["check", dir])
        XCTAssertEqual(r.status, 1)
        let diff = r.out.split(separator: "\n").map(String.init)
        let removed = diff.firstIndex { $0.hasPrefix("- ") && $0.contains(#""verdict": "applied""#) }
        let added = diff.firstIndex { $0.hasPrefix("+ ") && $0.contains(#""verdict": "ineffective""#) }
        XCTAssertNotNil(removed, r.out)
        XCTAssertNotNil(added, r.out)
        XCTAssertLessThan(removed ?? 0, added ?? 0, "the accepted line first, then the new one")
        XCTAssertTrue(r.out.contains("--- \(snap)"), r.out)
    }

    func test_unreferencedSnapshots() throws {
        try "{}\n".write(toFile: dir + "/orphan.golden.json", atomically: true, encoding: .utf8)
        _ = try copyGolden("srtc-bluetooth-blocks-speaker.jsonl")
        XCTAssertEqual(CLI.runInProcess(["check", dir]).status, 0)
        XCTAssertTrue(CLI.runInProcess(["check", dir]).err.contains("orphan.golden.json"))
        XCTAssertEqual(CLI.runInProcess(["check", dir, "--unreferenced", "fail"]).status, 1)
        XCTAssertEqual(CLI.runInProcess(["check", dir, "--unreferenced", "delete"], env: ["CI": "true"]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/orphan.golden.json"))
        XCTAssertEqual(CLI.runInProcess(["check", dir, "--unreferenced", "delete"]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/orphan.golden.json"))
    }

    func test_junitValidatesWithAStandardParser() throws {
        let good = try copyGolden("srtc-bluetooth-blocks-speaker.jsonl")
        let bad = dir + "/broken.jsonl"
        var text = try String(contentsOfFile: good, encoding: .utf8)
        text = text.replacingOccurrences(of: #""verdict":"ineffective","cause":"externalRouteActive""#, with: #""verdict":"noop""#)
        try (text + #"{"seq":999,"t":99999999,"type":"expect.route","route":"speaker","note":"<&'\"> ]]>"}"#  + "\n").write(toFile: bad, atomically: true, encoding: .utf8)
        let junit = dir + "/junit.xml"
        let r = CLI.runInProcess(["check", dir, "--junit", junit, "--jobs", "2"])
        XCTAssertEqual(r.status, 1)
        let script = """
        import sys
        from junitparser import JUnitXml, Failure
        xml = JUnitXml.fromfile(sys.argv[1])
        cases = [c for s in xml for c in s]
        failed = [c for c in cases if any(isinstance(r, Failure) for r in c.result)]
        print(len(cases), len(failed), failed[0].name, failed[0].result[0].message)
        """
        let p = CLI.run(["python3", "-c", script, junit], exe: "/usr/bin/env")
        XCTAssertEqual(p.status, 0, "junitparser could not read the file (is it installed? make test installs it): \(p.err)")
        let fields = p.out.split(separator: " ")
        XCTAssertEqual(fields.prefix(3).map(String.init), ["2", "1", "broken"], p.out)
        XCTAssertTrue(p.out.contains("seq"), p.out)
    }

    func test_jsonOutputAndUsageErrors() throws {
        let path = try copyGolden("srtc-bluetooth-blocks-speaker.jsonl")
        let r = CLI.runInProcess(["check", path, "--json"])
        XCTAssertEqual(r.status, 0)
        let obj = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
        XCTAssertEqual(obj?["passed"] as? Int, 1)
        let usage = CLI.runInProcess(["check", path, "--jobs", "zero"])
        XCTAssertEqual(usage.status, 64)
        XCTAssertTrue(usage.err.hasPrefix("Error: ") && usage.err.contains("See 'rtctrace check --help'"), usage.err)
        XCTAssertEqual(CLI.runInProcess(["check"]).status, 64)
        XCTAssertEqual(CLI.runInProcess(["check", dir + "/nope"]).status, 64)
    }
}
