import Foundation
import TestSupport
import XCTest

/// Every command that reads a trace reads the three-part golden session as one: its parts in any order,
/// their folder, or an `@LIST`; the commands that write one write a session (or, merged, one trace).
final class SessionCommandsTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    var session: String { CLI.root + "/traces/smeeting-session-weekly" }
    var parts: [String] { (1...3).map { session + "/part-\($0).jsonl" } }

    /// The three ways to name the session: the folder, the parts out of order, a list.
    func spellings() throws -> [[String]] {
        let list = dir + "/parts.txt"
        try (parts.reversed().joined(separator: "\n") + "\n").write(toFile: list, atomically: true, encoding: .utf8)
        return [[session], [parts[2], parts[0], parts[1]], ["@" + list]]
    }

    /// What the whole session's replay concludes, from `explain --json`.
    func conclusions(_ args: [String]) throws -> [String: Any] {
        let r = CLI.runInProcess(["explain", "--json"] + args)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any], r.err)
        let verdicts = (json["verdicts"] as? [[String: Any]] ?? []).map { "\($0["seq"]!) \($0["verdict"]!)" }
        let summary = json["summary"] as? [String: Any] ?? [:]
        return ["verdicts": verdicts, "divergences": summary["divergences"] ?? -1, "session": (json["session"] as? [String: Any])?["parts"] ?? []]
    }

    func test_everyReadingCommandTakesTheSessionAsOneTrace() throws {
        let whole = try conclusions([session])
        XCTAssertEqual(whole["verdicts"] as? [String], ["14 applied", "49 ineffective", "89 applied"])
        XCTAssertEqual(whole["session"] as? [Int], [1, 2, 3])
        for (k, args) in try spellings().enumerated() {
            XCTAssertEqual(try conclusions(args) as NSDictionary, whole as NSDictionary, "\(args)")
            XCTAssertEqual(CLI.runInProcess(["check"] + args).status, 0, "check \(args)")
            XCTAssertEqual(CLI.runInProcess(["diff"] + [args.count == 1 ? args[0] : session, session]).status, 0, "diff \(args)")
            let html = dir + "/r\(k).html", export = dir + "/e\(k).json"
            XCTAssertEqual(CLI.runInProcess(["report"] + args + ["-o", html]).status, 0, "report \(args)")
            let page = try String(contentsOfFile: html, encoding: .utf8)
            XCTAssertTrue(page.contains("part-1.jsonl"))
            XCTAssertTrue(page.contains("<title>SMeeting trace report: \(session)/part-1.jsonl (session 6c1f0d3a-weekly-sync, parts 1–3)</title>"), "the title names the session")
            XCTAssertTrue(page.contains("<span class=\"session\">session 6c1f0d3a-weekly-sync, parts 1–3</span>"), "and so does the header")
            XCTAssertTrue(CLI.runInProcess(["explain"] + args).out.hasPrefix("SMeeting trace: \(session)/part-1.jsonl (session 6c1f0d3a-weekly-sync, parts 1–3)\n"))
            XCTAssertEqual(CLI.runInProcess(["export"] + args + ["-o", export]).status, 0, "export \(args)")
            let chrome = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: export))) as? [String: Any])
            let other = try XCTUnwrap(chrome["otherData"] as? [String: Any])
            XCTAssertEqual((other["session"] as? [String: Any])?["id"] as? String, "6c1f0d3a-weekly-sync")
            XCTAssertEqual((other["session"] as? [String: Any])?["parts"] as? [Int], [1, 2, 3])
            let reduced = dir + "/min\(k).trace.zst"
            let reduce = CLI.runInProcess(["reduce"] + args + ["--divergence", "-o", reduced])
            XCTAssertEqual(reduce.status, 0, "reduce \(args): \(reduce.err)")
            XCTAssertEqual(CLI.runInProcess(["check", reduced]).status, 0, "the reduced trace passes check")
        }
    }

    func test_redactWritesOneRedactedFilePerPart_stillOneSessionThatReplaysAlike() throws {
        let whole = try conclusions([session])
        for (k, args) in try spellings().enumerated() {
            let out = dir + "/redacted\(k)"
            let r = CLI.runInProcess(["redact"] + args + ["-o", out, "--salt", "case-42"])
            XCTAssertEqual(r.status, 0, "\(args): \(r.err)")
            let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            XCTAssertEqual(files, ["part-1.trace.zst", "part-2.trace.zst", "part-3.trace.zst"])
            XCTAssertEqual(try conclusions([out]) as NSDictionary, whole as NSDictionary, "the redacted parts replay as the session")
            let text = CLI.runInProcess(["cat", out]).out
            XCTAssertFalse(text.contains("AirPods") || text.contains("m-lena") || text.contains("weekly-sync-204") || text.contains("6c1f0d3a"),
                           "no personal value is left: \(text.prefix(400))")
            // Each part still begins with its checkpoint: part 2 alone replays from it.
            let alone = CLI.runInProcess(["explain", out + "/part-2.trace.zst"])
            XCTAssertTrue(alone.out.contains("from its checkpoint"), alone.out)
        }
        let merged = dir + "/merged.trace.zst"
        XCTAssertEqual(CLI.runInProcess(["redact", session, "--merge", "-o", merged, "--salt", "case-42"]).status, 0)
        XCTAssertEqual(try conclusions([merged]) as NSDictionary, whole as NSDictionary, "one merged trace replays as the session")
        XCTAssertEqual(CLI.runInProcess(["verify", merged]).status, 0, "a merged session is an intact trace")
    }

    /// Each part's file is named by its part number, so a session missing part 2 is written as parts 1 and
    /// 3, as its headers say.
    func test_perPartOutputsAreNamedByTheirPartNumber() throws {
        let gap = CLI.root + "/traces/smeeting-session-missing-part"
        for command in [["record"], ["redact", "--salt", "s"]] {
            let out = dir + "/\(command[0])"
            let r = CLI.runInProcess(command + [gap, "-o", out])
            XCTAssertEqual(r.status, 0, "\(command): \(r.err)")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out).sorted(), ["part-1.trace.zst", "part-3.trace.zst"], "\(command)")
            XCTAssertTrue(CLI.runInProcess(["cat", out + "/part-3.trace.zst"]).out.contains("\"part\":3"))
        }
    }

    /// A merged trace cannot skip a missing part's seqs: record and redact say which part is missing, even
    /// when the folder was given, and write nothing.
    func test_mergingASessionMissingAPartNamesThePart() throws {
        let gap = CLI.root + "/traces/smeeting-session-missing-part"
        for command in [["record"], ["redact", "--salt", "s"]] {
            let out = dir + "/\(command[0]).trace.zst"
            let r = CLI.runInProcess(command + [gap, "--merge", "-o", out])
            XCTAssertEqual(r.status, 1, "\(command): \(r.err)")
            XCTAssertTrue(r.err.contains("part 2 of session 4e2d9c10-allhands is missing (the parts given are 1 and 3)"), r.err)
            XCTAssertFalse(r.err.contains("give the parts in order, or their folder"), r.err)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        }
        // Replaying it, the warning names the missing part rather than asking for the folder it was given.
        let explain = CLI.runInProcess(["explain", gap])
        XCTAssertTrue(explain.err.contains("(part 2 is not among the files given: add it to replay the session as one trace)"), explain.err)
        XCTAssertFalse(explain.err.contains("or their folder"), explain.err)
    }

    /// A session's parts go to a folder; one that cannot be created (its parent is a file) is an I/O
    /// failure (74), as the exit table says, and nothing is written.
    func test_aPartsFolderThatCannotBeCreatedIsAnIOFailure() throws {
        let file = dir + "/a-file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        for command in ["record", "redact"] {
            let r = CLI.runInProcess([command, session, "-o", file + "/parts"])
            XCTAssertEqual(r.status, 74, "\(command): \(r.err)")
            XCTAssertTrue(r.err.contains("cannot create the folder"), r.err)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["a-file"])
    }

    func test_aContinuationPartIsNeverCalledBroken() throws {
        let two = parts[1]
        for args in [["redact", two, "-o", dir + "/p2r.trace.zst", "--salt", "s"], ["record", two, "-o", dir + "/p2.trace.zst"]] {
            let r = CLI.runInProcess(args)
            XCTAssertEqual(r.status, 0, "\(args): \(r.err)")
            XCTAssertFalse(r.err.contains("--renumber"), r.err)
        }
        // Recording the session writes a session; appending the next part continues the trace.
        let recorded = dir + "/recorded"
        XCTAssertEqual(CLI.runInProcess(["record", session, "-o", recorded]).status, 0)
        XCTAssertEqual(CLI.runInProcess(["check", recorded]).status, 0)
        let grown = dir + "/grown.trace.zst"
        XCTAssertEqual(CLI.runInProcess(["record", parts[0], "-o", grown]).status, 0)
        XCTAssertEqual(CLI.runInProcess(["append", grown, parts[1]]).status, 0)
        XCTAssertEqual(CLI.runInProcess(["append", grown, parts[2]]).status, 0)
        XCTAssertEqual(try conclusions([grown]) as NSDictionary, try conclusions([session]) as NSDictionary)
        let again = CLI.runInProcess(["append", grown, parts[1]])
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.err.contains("is not the part that follows") && !again.err.contains("--renumber"), again.err)
    }
}
