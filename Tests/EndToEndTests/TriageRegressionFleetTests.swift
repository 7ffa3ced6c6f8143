import Foundation
import TestSupport
import TraceFixtures
import XCTest

/// The summary an operations lead acts on, on generated fleets: regressions within each product only,
/// ranked by kind and by the traces they added, each with its query; nothing where nothing was planted;
/// and week over week, what is new and what is gone.
final class TriageRegressionFleetTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func summary(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    func entries(_ s: [String: Any]) throws -> [[String: Any]] {
        try XCTUnwrap((s["regressions"] as? [String: Any])?["entries"] as? [[String: Any]])
    }

    /// A regression planted in each layer and an old-version problem in each: the summary lists exactly
    /// those four, regressions first, each kind by the traces it added, each against its own product's
    /// versions; no entry for the tag only one layer's SDK raises, for simulators, Macs or the model whose
    /// traces are copies of one upload.
    func test_theSummaryListsExactlyThePlantedProblemsRanked() throws {
        let runs = try PlantedFleet.week1Runs()
        let s = runs.summary
        let list = try entries(s)
        func name(_ e: [String: Any]) -> String { "\(e["kind"]!) \(e["dimension"]!) \(e["group"]!) \(e["tag"]!)" }
        XCTAssertEqual(list.map(name), ["regression sdk SRTC 4.6.2 interruption-not-recovered",
                                        "regression sdk SMeeting 3.2.1 session-missing-notifyothers",
                                        "oldVersion sdk SMeeting 3.1.4 session-wrong-mode",
                                        "oldVersion sdk SRTC 4.6.0 session-missing-notifyothers"], "\(list)")
        // Ranked: regressions before old versions, each kind by the traces it added.
        let added = list.map { $0["added"] as? Double ?? 0 }
        XCTAssertGreaterThanOrEqual(added[0], added[1])
        XCTAssertGreaterThanOrEqual(added[2], added[3])
        XCTAssertGreaterThan(added.min() ?? 0, 15)
        XCTAssertEqual(added, added.sorted(by: >), "here the planted regressions also added the most traces")
        for e in list {
            let t = e["tagged"] as? Int ?? 0, n = e["traces"] as? Int ?? 0, baseRate = e["baselineRate"] as? Double ?? 1
            XCTAssertEqual(e["added"] as? Double ?? 0, Double(t) - Double(n) * baseRate, accuracy: 0.5, "\(e)")
            XCTAssertTrue(e["cluster"] is NSNull, "spread over forty apps: \(e)")
            let product = try XCTUnwrap(e["product"] as? String)
            XCTAssertTrue((e["baselineGroups"] as? [String] ?? []).allSatisfy { $0.hasPrefix(product + " ") }, "within its product: \(e)")
            XCTAssertTrue((e["query"] as? String)?.hasPrefix("WITH rows AS (SELECT * FROM read_ndjson('rows.jsonl.zst')") == true)
        }
        XCTAssertEqual(list[0]["baseline"] as? String, "SRTC 4.6.1")
        XCTAssertEqual(list[1]["baseline"] as? String, "SMeeting 3.2.0")
        XCTAssertEqual(list[2]["baselineGroups"] as? [String], ["SMeeting 3.2.0", "SMeeting 3.2.1"])
        XCTAssertTrue(list[3]["baseline"] is NSNull)
        XCTAssertEqual(list[3]["layer"] as? String, "srtc")

        // The fleet has what made false entries: SMeeting's audio module tag (8 % in every SMeeting version,
        // none in SRTC), simulators and Macs, and twelve copies of one upload on one model.
        let tags = Dictionary(uniqueKeysWithValues: (s["tags"] as? [[String: Any]] ?? []).map { ($0["tag"] as! String, $0["traces"] as! Int) })
        XCTAssertGreaterThan(tags["audio-module-left-disabled"] ?? 0, 60)
        XCTAssertGreaterThan(tags["simulator-trace"] ?? 0, 20)
        XCTAssertGreaterThan(tags["not-ios"] ?? 0, 20)
        XCTAssertEqual(s["duplicates"] as? Int, PlantedFleet.copies - 1)

        // The text, as the merge Job prints it from the rows.
        let text = CLI.runInProcess(["triage", "--from-rows", runs.whole]).out
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("Regressions within each product") }, text)
        XCTAssertTrue(lines[start + 1].hasPrefix("  1. SRTC 4.6.2: interruption-not-recovered "), text)
        XCTAssertTrue(lines[start + 1].contains(" in SRTC 4.6.1, +"), text)
        XCTAssertTrue(lines[start + 2].hasPrefix("     WITH rows AS "), "each with its query: \(text)")
        XCTAssertTrue(lines[start + 5].hasPrefix("  3. SMeeting 3.1.4, the oldest SMeeting version: session-wrong-mode "), text)
        XCTAssertTrue(lines[start + 5].contains(" in the later versions (SMeeting 3.2.0, SMeeting 3.2.1), +"), text)
        XCTAssertEqual(lines[start + 9], "", "four entries: \(text)")
    }

    /// The same fleet with nothing planted (every version of a product alike, the same simulators, Macs,
    /// copies and layer-specific tag): nothing is listed, though over a hundred tests were made.
    func test_aFleetWithNothingPlantedListsNothing() throws {
        let fleet = dir + "/even"
        try PlantedFleet.write(PlantedFleet.even, seed: 7, to: fleet)
        let r = CLI.runInProcess(["triage", fleet, "--json", "-o", dir + "/rows.jsonl"])
        XCTAssertEqual(r.status, 0, r.err)
        let s = try summary(r.err)
        let list = try entries(s)
        XCTAssertEqual(list.count, 0, "\(list)")
        XCTAssertGreaterThan((s["regressions"] as? [String: Any])?["tests"] as? Int ?? 0, 100)
        XCTAssertEqual(s["duplicates"] as? Int, PlantedFleet.copies - 1)
        XCTAssertTrue(CLI.runInProcess(["triage", "--from-rows", dir + "/rows.jsonl"]).out.contains("  none: no share differs by more than chance\n"))
    }

    /// Week 2 against week 1's rows (as shards): SRTC 4.6.3's unexplained divergences are new, and it is the
    /// version with the most new escalations; SMeeting's missing notifyOthers, fixed in 3.2.2, is gone.
    /// The rows of week 2 are the same with and without the baseline.
    func test_weekOverWeekListsTheNewRegressionAsNewAndTheFixedOneAsGone() throws {
        let runs = try PlantedFleet.week1Runs()
        let two = dir + "/w2"
        try PlantedFleet.write(PlantedFleet.week2, seed: 25, day: "2026-12-06", to: two)
        let baseline = runs.shards.flatMap { ["--baseline", $0] }
        let r = CLI.runInProcess(["triage", two, "--json", "-o", dir + "/w2.jsonl.zst"] + baseline)
        XCTAssertEqual(r.status, 0, r.err)
        let changes = try XCTUnwrap(try summary(r.err)["changes"] as? [String: Any])
        XCTAssertEqual((changes["baseline"] as? [String: Any])?["traces"] as? Int, 2300 + PlantedFleet.copies)
        func named(_ key: String) -> [String] {
            (changes[key] as? [[String: Any]] ?? []).map { "\($0["product"]!) \(($0["tag"] as? String) ?? "signature " + (($0["signature"] as? String) ?? "?"))" }
        }
        XCTAssertEqual(Set(named("rose")), ["SRTC unexplained-divergence", "SRTC route-divergence", "SRTC signature unexplained divergence"], "\(changes)")
        XCTAssertEqual(named("fell"), ["SMeeting session-missing-notifyothers"], "\(changes)")
        XCTAssertEqual((changes["newCodes"] as? [[String: Any]])?.map { $0["code"] as? String }, ["route.divergence"])
        let escalations = try XCTUnwrap(changes["escalations"] as? [[String: Any]])
        XCTAssertEqual(escalations.first?["sdk"] as? String, "SRTC 4.6.3", "the version with the most new escalations")
        XCTAssertEqual(escalations.first?["versionInBaseline"] as? Bool, false)
        XCTAssertEqual(escalations.first?["significant"] as? Bool, true)

        let text = CLI.runInProcess(["triage", "--from-rows", dir + "/w2.jsonl.zst"] + baseline).out
        XCTAssertTrue(text.contains("\nSince the baseline (\(2300 + PlantedFleet.copies) traces, "), text)
        XCTAssertTrue(text.contains("  New\n    SRTC: "), text)
        XCTAssertTrue(text.contains("  Gone\n    SMeeting: session-missing-notifyothers "), text)
        XCTAssertTrue(text.contains("  New escalations by SDK version (traces with an unexplained divergence beyond the baseline's share)\n    SRTC 4.6.3: "), text)
        // Against itself, nothing changed.
        let same = CLI.runInProcess(["triage", "--from-rows", runs.whole] + baseline).out
        XCTAssertTrue(same.contains("  nothing new, nothing gone"), same)
    }

    /// A baseline changes the summary, never the rows.
    func test_theRowsAreTheSameWithABaseline() throws {
        let runs = try PlantedFleet.week1Runs()
        let plain = CLI.runInProcess(["triage", CLI.root + "/traces"])
        let compared = CLI.runInProcess(["triage", CLI.root + "/traces", "--baseline", runs.whole, "--summary"])
        XCTAssertEqual(compared.status, 0, compared.err)
        XCTAssertEqual(compared.out, plain.out)
        XCTAssertTrue(compared.err.contains("\nSince the baseline ("), compared.err)
    }
}
