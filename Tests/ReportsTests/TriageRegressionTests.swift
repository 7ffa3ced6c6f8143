import Analysis
import Foundation
import Reports
import TraceCodec
import TraceFixtures
import TraceModel
import XCTest

/// Regressions within a product, the tags a grouping implies, entries one content cluster drives, and a
/// summary that counts rows in any order (what `triage --from-rows` relies on).
final class TriageRegressionTests: XCTestCase {
    static let root = TriageTests.root

    func row(_ trace: String) -> TriageRow {
        Triage.row(for: TraceSession(paths: [Self.root + "/traces/" + trace], size: 1))
    }

    /// A row of a readable trace with the header facts the regressions group by.
    func fleetRow(_ path: String, layer: Layer, sdk: String, device: String = "iPhone15,2", os: String = "iOS 17.4.1",
                  bundle: String = "com.example.app", tags: [TriageTag] = []) -> TriageRow {
        var r = TriageRow(path: path)
        (r.layer, r.sdk, r.device, r.os, r.bundleId, r.records, r.size) = (layer, sdk, device, os, bundle, 20, 100)
        r.tags = tags.sorted()
        return r
    }

    /// SMeeting's oldest version has the audio-module tag as often as its successor; SRTC never has it: no
    /// entry (against "the rest of the fleet", SRTC included, the oldest version was a false regression).
    func test_aVersionIsComparedOnlyWithinItsProduct() {
        var s = TriageSummary()
        var rng = SplitMix64(seed: 34)
        for (layer, sdk, percent) in [(Layer.srtc, "SRTC 4.6.1", 0), (.srtc, "SRTC 4.6.2", 0), (.smeeting, "SMeeting 3.1.4", 6), (.smeeting, "SMeeting 3.2.1", 6)] {
            for i in 0..<1500 {
                s.add(fleetRow("\(sdk)-\(i)", layer: layer, sdk: sdk, bundle: "com.example.app\(rng.below(30))",
                               tags: rng.below(100) < percent ? [.audioModuleLeftDisabled] : []))
            }
        }
        let r = s.regressions
        XCTAssertEqual(r.entries.map(\.tag), [], "\(r.entries)")
        XCTAssertEqual(Set(s.products.keys), [TriageProduct(layer: .srtc, name: "SRTC"), TriageProduct(layer: .smeeting, name: "SMeeting")])
        XCTAssertEqual(TriageRegressions.baselines(of: "SMeeting 3.1.4", .sdk, in: ["SMeeting 3.1.4", "SMeeting 3.2.1"]).map(\.0),
                       [.laterVersions(["SMeeting 3.2.1"])], "the oldest against the later ones")
        XCTAssertEqual(TriageRegressions.baselines(of: "SMeeting 3.2.1", .sdk, in: ["SMeeting 3.1.4", "SMeeting 3.2.1"]).map(\.0),
                       [.previousVersion("SMeeting 3.1.4")])
        XCTAssertEqual(TriageRegressions.baselines(of: "SRTC 4.6.1", .sdk, in: ["SRTC 4.6.1"]).count, 0, "a product with one version compares none")
    }

    /// The tag table says which header field a tag's definition reads; a grouping by that field never tests it.
    func test_tagsTheGroupingImpliesAreNotTested() throws {
        XCTAssertEqual(TriageTag.simulatorTrace.reads, [.simulator])
        XCTAssertEqual(TriageTag.notIOS.reads, [.os])
        XCTAssertEqual(TriageTag.allCases.filter { !$0.reads.isEmpty }, [.simulatorTrace, .notIOS])
        XCTAssertTrue(TriageRegressions.Dimension.device.implies(.simulatorTrace))
        XCTAssertTrue(TriageRegressions.Dimension.device.implies(.notIOS))
        XCTAssertTrue(TriageRegressions.Dimension.os.implies(.notIOS))
        XCTAssertFalse(TriageRegressions.Dimension.os.implies(.simulatorTrace))
        XCTAssertFalse(TriageRegressions.Dimension.sdk.implies(.notIOS))
        var s = TriageSummary()
        var rng = SplitMix64(seed: 5)
        for i in 0..<3000 {
            let model = ["iPhone13,3", "iPhone14,2", "iPhone15,2"][i % 3]
            s.add(fleetRow("d\(i)", layer: .srtc, sdk: "SRTC 4.6.2", device: model, bundle: "com.example.app\(rng.below(30))",
                           tags: rng.below(100) < 2 ? [.qualityFlapping] : []))
        }
        for i in 0..<60 { s.add(fleetRow("sim\(i)", layer: .srtc, sdk: "SRTC 4.6.2", device: "arm64", bundle: "com.example.app\(i % 30)", tags: [.simulatorTrace])) }
        for i in 0..<60 { s.add(fleetRow("mac\(i)", layer: .srtc, sdk: "SRTC 4.6.2", device: "Mac14,2", os: "macOS 14.4", bundle: "com.example.app\(i % 30)", tags: [.notIOS])) }
        // A model with a real cluster: a fifth of its traces flap.
        for i in 0..<200 {
            s.add(fleetRow("p\(i)", layer: .srtc, sdk: "SRTC 4.6.2", device: "iPhone12,1", bundle: "com.example.app\(rng.below(30))",
                           tags: i % 5 == 0 ? [.qualityFlapping] : []))
        }
        let r = s.regressions
        XCTAssertEqual(r.entries.map { "\($0.kind) \($0.dimension) \($0.group) \($0.tag)" }, ["cluster device iPhone12,1 quality-flapping"])
        XCTAssertEqual(r.entries.first?.baseline, .restOfProduct)
        XCTAssertNil(r.entries.first?.cluster, "thirty apps")
        XCTAssertTrue(r.entries.first?.query.contains("coalesce(device = 'iPhone12,1', false) AS in_group") == true)
    }

    /// The docs' device query leaves out exactly the tags a device model implies, and the tags about the input.
    func test_theDocumentedDeviceQueryLeavesOutTheImpliedTags() throws {
        let doc = try String(contentsOfFile: Self.root + "/docs/triage.md", encoding: .utf8)
        let block = try XCTUnwrap(doc.components(separatedBy: "-- Regressions by device model\n").dropFirst().first?.components(separatedBy: "```").first)
        let list = try XCTUnwrap(block.components(separatedBy: "t.tag NOT IN (").dropFirst().first?.components(separatedBy: ")").first)
        let named = Set(list.components(separatedBy: "'").enumerated().filter { $0.offset % 2 == 1 }.map(\.element))
        let expected = TriageTag.allCases.filter { ($0.describesInput || TriageRegressions.Dimension.device.implies($0)) && $0 != .notATrace && $0 != .unreadable }
        XCTAssertEqual(named, Set(expected.map(\.rawValue)))
    }

    /// One app's one problem on one model makes several tags "regress" there: one line that says so.
    func test_entriesOneContentClusterDrivesAreFoldedIntoOneLine() throws {
        var s = TriageSummary()
        var rng = SplitMix64(seed: 8)
        for i in 0..<3000 {
            s.add(fleetRow("a\(i)", layer: .srtc, sdk: "SRTC 4.6.2", device: ["iPhone13,3", "iPhone14,2", "iPhone15,2"][i % 3],
                           bundle: "com.example.app\(rng.below(30))", tags: rng.below(100) < 1 ? [.qualityFlapping] : []))
        }
        for i in 0..<60 {
            var r = fleetRow("rig\(i)", layer: .srtc, sdk: "SRTC 4.6.2", device: "iPhone9,9", bundle: "com.example.testrig",
                             tags: [.interruptionNotRecovered, .qualityFlapping])
            r.findings = [.interruptionNotRecovered: 1, .qualityFlapping: 1]
            r.errors = 1
            s.add(r)
        }
        for i in 0..<40 { s.add(fleetRow("other\(i)", layer: .srtc, sdk: "SRTC 4.6.2", device: "iPhone9,9", bundle: "com.example.app\(i % 30)")) }
        let r = s.regressions
        XCTAssertEqual(Set(r.entries.map(\.tag)), [.interruptionNotRecovered, .qualityFlapping])
        XCTAssertTrue(r.entries.allSatisfy { $0.cluster?.cluster == TriageSummary.ContentCluster(bundleId: "com.example.testrig", problem: "interruption.notRecovered") })
        XCTAssertEqual(r.lines.count, 1, "one line for both")
        XCTAssertEqual(r.lines.first?.entries.count, 2)
        let text = TriageSummaryText.render(s)
        XCTAssertTrue(text.contains("  1. device model iPhone9,9 with SRTC: one content cluster drives 2 tags: 60 of the 60 traces with "), text)
        XCTAssertTrue(text.contains(" are interruption.notRecovered from com.example.testrig; "), text)
        let json = TriageSummaryText.json(s)
        XCTAssertTrue(json.contains(#""cluster":{"bundleId":"com.example.testrig","problem":"interruption.notRecovered","traces":60}"#), json)
    }

    /// A summary counts rows in any order: the rows of shards, read in any order, make the same summary.
    func test_theSummaryIsTheSameInAnyOrder() {
        var rows: [TriageRow] = []
        var rng = SplitMix64(seed: 11)
        for i in 0..<2000 {
            let sdk = ["SRTC 4.6.1", "SRTC 4.6.2", "SMeeting 3.2.0"][i % 3]
            var r = fleetRow("t\(String(10_000 + i))", layer: sdk.hasPrefix("S") && sdk.hasPrefix("SM") ? .smeeting : .srtc, sdk: sdk,
                             device: rng.pick(["iPhone13,3", "iPhone14,2"]), bundle: "com.example.app\(rng.below(9))")
            if rng.below(100) < (sdk == "SRTC 4.6.2" ? 12 : 2) {
                r.tags = [.interruptionNotRecovered]; r.findings = [.interruptionNotRecovered: 1]; r.errors = 1
            }
            rows.append(r)
        }
        var inOrder = TriageSummary(), shuffled = TriageSummary()
        for r in rows { inOrder.add(r) }
        var order = Array(rows.indices)
        for i in order.indices.reversed() { order.swapAt(i, rng.below(i + 1)) }
        for i in order { shuffled.add(rows[i]) }
        XCTAssertEqual(TriageSummaryText.json(shuffled), TriageSummaryText.json(inOrder))
        XCTAssertEqual(inOrder.openFirst.first?.example.path, rows.first { !$0.findings.isEmpty }?.path, "the example is the first path")
        XCTAssertEqual(inOrder.regressions.entries.count, 1)
    }

    /// A row read back from its JSON carries what the summary counts.
    func test_aRowReadBackFromItsJSONCountsTheSame() throws {
        for name in ["srtc-interruption-not-recovered.jsonl", "smeeting-default-speaker-before-enter.jsonl", "srtc-bluetooth-blocks-speaker.jsonl"] {
            var original = row(name)
            original.markDuplicate(of: "/elsewhere.jsonl")
            let json = TriageRowJSON.render(original)
            let back = try TriageRow(json: try JSONValue.parse(json))
            XCTAssertEqual(TriageRowJSON.render(back).count > 0, true)
            for (a, b) in [(back.path, original.path), (back.sdk, original.sdk), (back.device, original.device), (back.os, original.os),
                           (back.bundleId, original.bundleId), (back.contentHash, original.contentHash), (back.duplicateOf, original.duplicateOf),
                           (back.command, original.command)] as [(String?, String?)] {
                XCTAssertEqual(a, b, name)
            }
            XCTAssertEqual(back.tags, original.tags, name)
            XCTAssertEqual(back.findings, original.findings, name)
            XCTAssertEqual([back.errors, back.unexplainedDivergences, back.records, back.size, back.partCount],
                           [original.errors, original.unexplainedDivergences, original.records, original.size, original.partCount], name)
            XCTAssertEqual(back.layer, original.layer)
            var a = TriageSummary(), b = TriageSummary()
            a.add(original)
            b.add(back)
            XCTAssertEqual(TriageSummaryText.json(a), TriageSummaryText.json(b), name)
        }
        XCTAssertThrowsError(try TriageRow(json: try JSONValue.parse(#"{"schema":"rtctrace.report/1","path":"x"}"#)))
        XCTAssertThrowsError(try TriageRow(json: try JSONValue.parse(#"{"schema":"rtctrace.triage/2","path":"x","findings":{"no.such":1}}"#)))
        XCTAssertThrowsError(try JSONValue.parse(#"{"a":1,"a":2}"#), "a key twice")
    }

    /// Two periods of one product: a code that appears, one that disappears, a tag that rises, one that
    /// falls, and the escalations of a version that was there before and of one that is new.
    func test_changesSinceABaselinePeriod() throws {
        func period(_ build: (inout [TriageRow]) -> Void) -> TriageSummary {
            var rows: [TriageRow] = []
            build(&rows)
            var s = TriageSummary()
            for r in rows { s.add(r) }
            return s
        }
        func add(_ rows: inout [TriageRow], _ n: Int, _ sdk: String, _ tags: [TriageTag] = [], _ findings: [FindingCode: Int] = [:], unexplained: Int = 0) {
            for _ in 0..<n {
                var r = fleetRow("p\(rows.count)-\(sdk)", layer: .srtc, sdk: sdk, tags: tags)
                r.findings = findings
                r.unexplainedDivergences = unexplained
                rows.append(r)
            }
        }
        let before = period { rows in
            add(&rows, 900, "SRTC 4.6.1")
            add(&rows, 60, "SRTC 4.6.1", [.sessionMissingNotifyOthers], [.sessionMissingNotifyOthers: 1])
            add(&rows, 10, "SRTC 4.6.1", [.routeDivergence, .unexplainedDivergence], [.routeDivergence: 1], unexplained: 1)
        }
        let after = period { rows in
            add(&rows, 500, "SRTC 4.6.1")
            add(&rows, 5, "SRTC 4.6.1", [.routeDivergence, .unexplainedDivergence], [.routeDivergence: 1], unexplained: 1)
            add(&rows, 400, "SRTC 4.6.2")
            add(&rows, 50, "SRTC 4.6.2", [.interruptionNotRecovered], [.interruptionNotRecovered: 1])
            add(&rows, 30, "SRTC 4.6.2", [.routeDivergence, .unexplainedDivergence], [.routeDivergence: 1], unexplained: 1)
        }
        let c = after.changes(since: before)
        func names(_ list: [TriageChanges.Change]) -> Set<String> { Set(list.map(\.subject.name)) }
        XCTAssertTrue(names(c.rose).isSuperset(of: ["interruption-not-recovered", "interruption.notRecovered", "unexplained-divergence"]), "\(c.rose)")
        XCTAssertTrue(names(c.fell).contains("session-missing-notifyothers"), "\(c.fell)")
        XCTAssertEqual(c.newCodes.map(\.code), [.interruptionNotRecovered])
        XCTAssertEqual(c.goneCodes.map(\.code), [.sessionMissingNotifyOthers])
        XCTAssertEqual(c.goneCodes.first?.baselineTraces, 60)
        XCTAssertEqual(c.escalations.map(\.sdk), ["SRTC 4.6.2"], "4.6.1's escalations are at its old rate")
        XCTAssertEqual(c.escalations.first?.versionInBaseline, false)
        XCTAssertEqual(c.escalations.first?.test.baselineTraces, 970, "a new version is compared with its product as it was")
        XCTAssertTrue(before.changes(since: before).isEmpty)
        let text = TriageSummaryText.render(after, changes: c)
        XCTAssertTrue(text.contains("    finding code session.missingNotifyOthers: none, 60 traces in the baseline\n"), text)
        XCTAssertTrue(text.contains("  New escalations by SDK version"), text)
    }
}
