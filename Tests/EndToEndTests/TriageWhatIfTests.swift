import Foundation
import TestSupport
import TraceFixtures
import XCTest

/// `triage --whatif`: a fix sized across a generated fleet with a planted regression.
final class TriageWhatIfTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// SRTC 4.6.2 does not recover from 20 % of its interruptions (4.6.1: 2 %). Reactivating after the
    /// interruption's end (the catalogue's advice for interruption.notRecovered) resolves the regressed
    /// traces; a fix for another problem (the session's mode) resolves none of them.
    func test_I3_theMatchingFixResolvesThePlantedRegression_andAnotherFixDoesNot() throws {
        let fleet = SyntheticFleet.make(seed: 35, versions: [
            SyntheticFleet.Version(sdk: "SRTC 4.6.1", traces: 50, notRecoveredPercent: 2),
            SyntheticFleet.Version(sdk: "SRTC 4.6.2", traces: 60, planted: [(.interruptionNotRecovered, 20), (.wrongSessionMode, 10)]),
        ])
        for t in fleet { try t.jsonLines.write(toFile: dir + "/" + t.name, atomically: false, encoding: .utf8) }
        let planted = fleet.filter { $0.scenario == .interruptionNotRecovered && $0.jsonLines.contains("SRTC 4.6.2") }.count
        XCTAssertGreaterThan(planted, 5, "the regression is planted")

        func run(_ fix: String) throws -> (tag: [String: Any], rows: [[String: Any]], text: String) {
            let rows = dir + "/rows-\(fix.count).jsonl"
            let r = CLI.runInProcess(["triage", dir, "--whatif", fix, "--json", "-o", rows, "--jobs", "2"])
            XCTAssertEqual(r.status, 0, r.err)
            let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.err.utf8)) as? [String: Any])
            let byTag = try XCTUnwrap((summary["whatif"] as? [String: Any])?["byTag"] as? [[String: Any]])
            let tag = try XCTUnwrap(byTag.first { $0["tag"] as? String == "interruption-not-recovered" })
            let lines = try String(contentsOfFile: rows, encoding: .utf8).split(separator: "\n")
            let parsed = try lines.map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            return (tag, parsed, CLI.runInProcess(["triage", "--from-rows", rows]).out)
        }

        let fix = try run("advice:interruption.notRecovered")
        let had = try XCTUnwrap(fix.tag["traces"] as? Int), resolved = try XCTUnwrap(fix.tag["resolved"] as? Int)
        var fixedRows = 0
        for row in fix.rows {
            let change = try XCTUnwrap(row["whatif"] as? [String: Any], "every row of a --whatif run carries its change")
            let tagged = (row["tags"] as? [String])?.contains("interruption-not-recovered") == true
            let cleared = (change["resolvedTags"] as? [String])?.contains("interruption-not-recovered") == true
            XCTAssertFalse(cleared && !tagged)
            guard cleared else { continue }
            fixedRows += 1
            XCTAssertEqual(change["improves"] as? Bool, true)
            XCTAssertGreaterThan(change["findingsRemoved"] as? Int ?? 0, 0, "the row says what the fix removed")
        }
        XCTAssertGreaterThanOrEqual(had, planted)
        XCTAssertEqual(resolved, fixedRows, "the summary counts the rows")
        XCTAssertEqual(resolved, had, "reactivating after the interruption's end resolves every such trace")
        XCTAssertTrue(fix.text.contains("resolves \(resolved) of \(had) `interruption-not-recovered` traces; 0 remain"), fix.text)

        let other = try run("advice:session.wrongMode")
        XCTAssertEqual(other.tag["resolved"] as? Int, 0, "a fix for another problem resolves none of them")
        XCTAssertTrue(other.text.contains("`session-wrong-mode`") || other.text.contains("wrong-mode"), other.text)
    }
}
