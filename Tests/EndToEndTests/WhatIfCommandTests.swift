import Foundation
import TestSupport
import XCTest

/// `rtctrace whatif` as a support engineer runs it: edits on the line or in a file, the original never
/// written, a session's parts edited as one trace, and the JSON others script against.
final class WhatIfCommandTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    let blocked = CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl"

    func test_R4_settingTheRouteBeforeTheHeadsetConnectsTakesEffect_andTheInputIsNotWritten() throws {
        let copy = dir + "/t.jsonl"
        try FileManager.default.copyItem(atPath: blocked, toPath: copy)
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        let r = CLI.runInProcess(["whatif", copy, "--move", "20", "--after", "11"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("The contract predicts that, with this change, the call api.setRoute speaker (seq 20 at 9.000s [R4]) takes effect: ineffective → applied."), r.out)
        XCTAssertTrue(r.out.contains("First difference at 1.480s: the verdict on api.setRoute speaker [R4]"), "diff's words: \(r.out)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copy)), before, "the trace is never written")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["t.jsonl"], "nothing is written beside it")
    }

    func test_noEditsReportNoChange() {
        let r = CLI.runInProcess(["whatif", blocked])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.out.contains("The edits change no record"), r.out)
        XCTAssertTrue(r.out.contains("The traces behave the same"), r.out)
        let j = CLI.runInProcess(["whatif", blocked, "--json"])
        let o = try? JSONSerialization.jsonObject(with: Data(j.out.utf8)) as? [String: Any]
        XCTAssertEqual(o?["schema"] as? String, "rtctrace.whatif/1")
        XCTAssertEqual((o?["diff"] as? [String: Any])?["same"] as? Bool, true)
        XCTAssertEqual((o?["resolved"] as? [Any])?.count, 0)
        XCTAssertTrue(o?["historyEndsAt"] is NSNull)
    }

    func test_editsFromAFile_andTheirErrorsNameTheEditAndTheField() throws {
        let edits = dir + "/fix.json"
        try #"[{"edit":"drop-type","type":"os.deviceConnected"}]"#.write(toFile: edits, atomically: true, encoding: .utf8)
        let r = CLI.runInProcess(["whatif", blocked, "--edits", edits, "--json"])
        XCTAssertEqual(r.status, 0, r.err)
        let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        XCTAssertEqual(o["improves"] as? Bool, true)
        XCTAssertEqual(o["historyEndsAt"] as? Int, 4200)
        let resolved = try XCTUnwrap(o["resolved"] as? [[String: Any]])
        XCTAssertEqual(resolved.first?["seq"] as? Int, 20)
        XCTAssertEqual(resolved.first?["after"] as? String, "applied")
        let edit = try XCTUnwrap((o["edits"] as? [[String: Any]])?.first)
        XCTAssertEqual(edit["edit"] as? String, "drop-type")
        XCTAssertEqual(edit["changed"] as? Bool, true)

        try #"[{"edit":"move","seq":20,"after":999}]"#.write(toFile: edits, atomically: true, encoding: .utf8)
        let bad = CLI.runInProcess(["whatif", blocked, "--edits", edits])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.err.contains("\(edits): edit 1 (move): field 'after': no record with seq 999 in the trace"), bad.err)
        let insert = CLI.runInProcess(["whatif", blocked, "--insert", #"{"type":"api.setRoute","target":"loud"}"#, "--at", "100"])
        XCTAssertEqual(insert.status, 64)
        XCTAssertTrue(insert.err.contains("the command line: edit 1 (insert): field 'record.target'"), insert.err)
        let stray = CLI.runInProcess(["whatif", blocked, "--after", "3"])
        XCTAssertEqual(stray.status, 64)
        XCTAssertTrue(stray.err.contains("field 'after'"), stray.err)
    }

    /// The parts of one session are edited as the one trace they join into: a call of part 2 moved after a
    /// record of part 3, named by its seq in the session.
    func test_editsOnASessionsPartsApplyToTheJoinedSession() throws {
        let session = CLI.root + "/traces/smeeting-session-weekly"
        let r = CLI.runInProcess(["whatif", session, "--move", "49", "--after", "81", "--json"])
        XCTAssertEqual(r.status, 0, r.out + r.err)
        let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let resolved = try XCTUnwrap(o["resolved"] as? [[String: Any]])
        XCTAssertEqual(resolved.first?["seq"] as? Int, 49)
        XCTAssertEqual(resolved.first?["before"] as? String, "ineffective")
        XCTAssertEqual((o["added"] as? [Any])?.count, 0, "the checkpoint of part 3 restates history: no mismatch is added")
    }
}

/// `explain --verify-advice` and `rules CODE` on the advice the catalogue can check by replay.
final class AdviceVerificationCommandTests: XCTestCase {
    func test_R11_explainVerifiesTheAdvice_andRulesSaysItIsVerifiable() throws {
        let trace = CLI.root + "/traces/srtc-bluetooth-without-allowbluetooth.jsonl"
        let plain = CLI.runInProcess(["explain", trace])
        let r = CLI.runInProcess(["explain", trace, "--verify-advice"])
        XCTAssertEqual(r.status, plain.status)
        XCTAssertTrue(r.out.hasPrefix(plain.out), "the explanation and its advice are unchanged")
        XCTAssertTrue(r.out.contains("verified: following this advice, session.missingAllowBluetooth is no longer raised (--set-option allowBluetooth)"), r.out)
        let j = CLI.runInProcess(["explain", trace, "--verify-advice", "--json"])
        let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(j.out.utf8)) as? [String: Any])
        let checks = try XCTUnwrap(o["adviceChecks"] as? [[String: Any]])
        XCTAssertEqual(checks.first { $0["subject"] as? String == "session.missingAllowBluetooth" }?["verdict"] as? String, "verified")
        XCTAssertNil((try JSONSerialization.jsonObject(with: Data(CLI.runInProcess(["explain", trace, "--json"]).out.utf8)) as? [String: Any])?["adviceChecks"],
                     "without the flag the JSON is as before")
        XCTAssertTrue(CLI.runInProcess(["rules", "session.missingAllowBluetooth"]).out.contains("Verifiable by replay (explain --verify-advice):\n  yes: add the option allowBluetooth"))
        XCTAssertTrue(CLI.runInProcess(["rules", "quality.flapping"]).out.contains("Verifiable by replay (explain --verify-advice):\n  no: the advice is about the UI"))
    }

    func test_R11_theReportDrawsABadgeOnEachCheckedItem() throws {
        let dir = CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let trace = CLI.root + "/traces/srtc-bluetooth-without-allowbluetooth.jsonl"
        XCTAssertEqual(CLI.runInProcess(["report", trace, "--verify-advice", "-o", dir + "/r.html"]).status, 0)
        let html = try String(contentsOfFile: dir + "/r.html", encoding: .utf8)
        XCTAssertTrue(html.contains(#"<p class="advice-check verified"><b>advice verified</b> verified: following this advice, session.missingAllowBluetooth is no longer raised"#))
        XCTAssertEqual(CLI.runInProcess(["report", trace, "-o", dir + "/plain.html"]).status, 0)
        XCTAssertFalse(try String(contentsOfFile: dir + "/plain.html", encoding: .utf8).contains(#"<p class="advice-check"#), "no badge unless asked")
    }

    func test_I7_anAdviceThatDoesNotApplyNamesTheRuleThatStillDecides() {
        let r = CLI.runInProcess(["explain", CLI.root + "/traces/srtc-callkit-activation-race.jsonl", "--verify-advice"])
        XCTAssertTrue(r.out.contains("this advice does not change the outcome here: I7 ("), r.out)
    }
}
