import Analysis
import Replay
import Reports
import TestSupport
import TraceCodec
import TraceModel
import XCTest

/// `diff` and lost records: a stretch one side does not have is "missing" on that side, never the state the
/// replay carried across it.
final class TraceDiffMissingTests: XCTestCase {
    /// A call on the receiver; AirPods take it at 4.1 s and leave at 7 s; the records around them at 3 s and 8 s.
    private var whole: [Record] {
        let start: [(Int64, RecordBody)] = [(0, TraceDiffTests.header), (100, .micPermission(status: .granted)),
                                            (200, .joinChannel(channel: "c")), (300, TraceDiffTests.activated),
                                            (350, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange))]
        let rest: [(Int64, RecordBody)] = [(3000, .micPermission(status: .granted)),
                           (4000, .deviceConnected(id: "bt-1", kind: .bluetooth, name: "AirPods", port: nil)),
                           (4100, .routeChanged(route: .bluetooth, previousRoute: .receiver, reason: .newDeviceAvailable)),
                           (7000, .deviceDisconnected(id: "bt-1")),
                           (7100, .routeChanged(route: .receiver, previousRoute: .bluetooth, reason: .oldDeviceUnavailable)),
                           (8000, .micPermission(status: .granted)), (10000, .leaveChannel)]
        return (start + rest).enumerated().map { Record(seq: $0.offset, t: $0.element.0, $0.element.1) }
    }

    /// The trace as a file, without the records of `lost` (a seq gap the reader reports).
    private func file(_ records: [Record], without lost: ClosedRange<Int>? = nil, _ name: String) throws -> DiffSide {
        let dir = Fixtures.tempDir("diff-missing")
        let path = dir + "/\(name).jsonl"
        let text = records.filter { r in !(lost?.contains(r.seq) ?? false) }.map { $0.jsonLine + "\n" }.joined()
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try DiffSide.replay(TraceSession(path: path))
    }

    func test_aLostRangeIsMissingOnThatSideNotTheRouteCarriedAcrossIt() throws {
        let records = whole
        let gap = 6...9
        XCTAssertEqual(records[6].body.kind, .deviceConnected)
        let a = try file(records, "a"), b = try file(records, without: gap, "b")
        XCTAssertEqual(b.result.lost.map { [$0.fromSeq, $0.toSeq] }, [[6, 9]])
        let d = TraceDiff.compare(a, b)
        let device = try XCTUnwrap(d.differences.first { $0.kind == .actualRoute })
        XCTAssertEqual(device.bValue, "missing")
        XCTAssertEqual(device.t, 3000, "from B's last record before the loss")
        XCTAssertEqual(device.until, 8000, "to B's first record after it")
        XCTAssertEqual(device.aValue, "receiver")
        XCTAssertEqual(device.aSteps.map(\.value), ["bluetooth", "receiver"], "what A has there")
        XCTAssertEqual(device.bMissing.map { [$0.fromSeq, $0.toSeq] }, [6, 9])
        XCTAssertNil(device.aMissing)
        // Never the state carried across: B's receiver is not set against A's AirPods.
        for x in d.differences where [.actualRoute, .predictedRoute, .quality].contains(x.kind) {
            XCTAssertNotEqual(x.bValue, "receiver", "\(x)")
            XCTAssertFalse(x.bSteps.contains { $0.value == "receiver" && $0.t < 8000 }, "\(x)")
        }
        let text = TraceDiffText.render(d)
        XCTAssertTrue(text.contains("B  no record: missing (B's records from 3.000s to 8.000s are missing, seq 6–9: records are missing from the file (seq skips))"), text)
        let json = TraceDiffJSON.render(d)
        XCTAssertTrue(json.contains(#""value":"missing","cause":null,"then":[],"missing":{"cause":"seqGap","fromSeq":6,"toSeq":9,"fromT":3000,"toT":8000}"#), json)

        // The other way round, A is the side that lacks the stretch.
        let reversed = TraceDiff.compare(b, a)
        let r = try XCTUnwrap(reversed.differences.first { $0.kind == .actualRoute })
        XCTAssertEqual(r.aValue, "missing")
        XCTAssertEqual(r.aMissing?.fromSeq, 6)
        XCTAssertNil(r.bMissing)
    }

    func test_withoutLossesNothingIsMissingAndTheJSONIsAsBefore() throws {
        let records = whole
        let d = TraceDiff.compare(try file(records, "a"), try file(records, "b"))
        XCTAssertTrue(d.same)
        var other = records
        other[7].body = .routeChanged(route: .speaker, previousRoute: .receiver, reason: .override)
        let changed = TraceDiff.compare(try file(records, "a"), try file(other, "b"))
        XCTAssertFalse(changed.same)
        XCTAssertFalse(changed.differences.contains { $0.aMissing != nil || $0.bMissing != nil || $0.aValue == "missing" || $0.bValue == "missing" })
        let json = TraceDiffJSON.render(changed)
        XCTAssertFalse(json.contains(#""missing":"#) || json.contains(#""value":"missing""#), json)
    }

    func test_aCallInALostRangeIsMissingOnThatSideNotAbsent() throws {
        // A speaker tap while the AirPods have the route (ineffective), in the records B lost.
        var records = whole
        records.insert(Record(seq: 0, t: 5000, .setRoute(target: .speaker, api: nil)), at: 8)
        for i in records.indices { records[i].seq = i }
        let d = TraceDiff.compare(try file(records, "a"), try file(records, without: 6...10, "b"))
        let verdict = try XCTUnwrap(d.differences.first { $0.kind == .verdict })
        XCTAssertEqual(verdict.aValue, "ineffective")
        XCTAssertEqual(verdict.bValue, "missing", "B does not have the call: its records are missing there")
        XCTAssertEqual(verdict.bMissing.map { [$0.fromSeq, $0.toSeq] }, [6, 10])
        XCTAssertTrue(TraceDiffText.render(d).contains("B  no record: missing (B's records from 3.000s to 8.000s are missing, seq 6–10"))
        // A call B did make but A does not have is missing on A's side, the same way.
        let reversed = TraceDiff.compare(try file(records, without: 6...10, "a"), try file(records, "b"))
        XCTAssertEqual(reversed.differences.first { $0.kind == .verdict }?.aValue, "missing")
    }

    func test_aMissingPartOfASessionIsMissingOnThatSide() throws {
        // The weekly session whole, and without its second part.
        let dir = Fixtures.trace("smeeting-session-weekly")
        let whole = try DiffSide.replay(TraceSession(paths: ["part-1", "part-2", "part-3"].map { dir + "/\($0).jsonl" }), unopened: .isAProblem)
        let partial = try DiffSide.replay(TraceSession(paths: ["part-1", "part-3"].map { dir + "/\($0).jsonl" }), unopened: .isAProblem)
        let gap = try XCTUnwrap(partial.result.lost.first { $0.cause == .missingPart })
        let d = TraceDiff.compare(whole, partial)
        let missing = d.differences.filter { $0.bMissing != nil }
        XCTAssertFalse(missing.isEmpty, "\(d.differences)")
        for x in missing {
            XCTAssertEqual(x.bMissing?.cause, .missingPart)
            XCTAssertTrue(x.bValue == "missing" || x.bSteps.contains { $0.value == "missing" }, "\(x)")
        }
        // Inside the missing part no state of B is anything but missing.
        for x in d.differences where [.actualRoute, .predictedRoute, .quality].contains(x.kind) {
            let values = [(x.t, x.bValue)] + x.bSteps.map { ($0.t, Optional($0.value)) }
            for (t, v) in values where t > gap.fromT && t < gap.toT { XCTAssertEqual(v, "missing", "\(x)") }
        }
    }

    func test_whenBothSidesLackTheSameStretchTheyAgree() throws {
        let records = whole
        let d = TraceDiff.compare(try file(records, without: 6...9, "a"), try file(records, without: 6...9, "b"))
        XCTAssertTrue(d.same, "\(d.differences)")
    }
}
