import Analysis
import Contract
import Foundation
import Replay
import TestSupport
import TraceCodec
import TraceModel
import XCTest

/// The parts of the golden sessions (`traces/*/part-N.jsonl`): a part replayed alone from its checkpoint
/// gives what the whole session gives from the part's start on; without its checkpoint it is partial,
/// with no unexplained divergence and no all-clear; a session missing a part is partial too.
final class SessionPartsReplayTests: XCTestCase {
    /// Every golden session: its folder's parts, in part order.
    func sessions() throws -> [(name: String, parts: [String])] {
        let root = Fixtures.traces
        var out: [(String, [String])] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: root).sorted() {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDir), isDir.boolValue else { continue }
            let parts = try FileManager.default.contentsOfDirectory(atPath: root + "/" + name)
                .filter { $0.hasPrefix("part-") && $0.hasSuffix(".jsonl") }
                .sorted { Int($0.dropFirst(5).dropLast(6))! < Int($1.dropFirst(5).dropLast(6))! }
                .map { root + "/" + name + "/" + $0 }
            if parts.count > 1 { out.append((name, parts)) }
        }
        return out
    }

    /// What a verdict is, without the records behind it (a part alone cites its checkpoint for what came before).
    struct Call: Equatable {
        var seq: Int
        var verdict: VerdictKind, cause: VerdictCause?, outcome: OutcomeKind?, outcomeCause: VerdictCause?
        init(_ v: Verdict) {
            seq = v.seq; verdict = v.verdict; cause = v.cause; outcome = v.outcome?.kind; outcomeCause = v.outcome?.cause
        }
    }

    /// What a divergence is, without the records behind its prediction.
    struct Stretch: Equatable {
        var start: Int64, end: Int64, predicted: Route, actual: Route, explainedBy: FindingCode?
        init(_ d: Divergence) {
            start = d.start; end = d.end; predicted = d.predicted; actual = d.actual; explainedBy = d.explainedBy
        }
    }

    func test_aPartAloneFromItsCheckpointGivesWhatTheWholeSessionGivesFromItsStart() throws {
        let all = try sessions()
        XCTAssertGreaterThanOrEqual(all.count, 2, "the golden sessions")
        var compared = 0
        for (name, parts) in all {
            let whole = (try Replay.run(TraceSession(paths: parts), unopened: .isAProblem))
            for part in parts.dropFirst() {
                let records = try Fixtures.readAll(part).records
                guard records.dropFirst().first?.body.kind == .checkpoint else { continue }
                let alone = Replay.run(records: records, file: part)
                XCTAssertEqual(alone.session?.starts.first?.checkpointSeq, records[1].seq, "\(part) starts from its checkpoint")
                XCTAssertEqual(alone.session?.isPartial, false, part)
                assertSame(alone, whole, records, "\(name): \(part)")
                compared += 1
            }
        }
        XCTAssertGreaterThanOrEqual(compared, 3, "parts compared")
    }

    /// The part alone (`records`, header first) gives the whole session's verdicts on its calls and the whole
    /// session's divergences that overlap it, each cut at the part's checkpoint: one that began before the part
    /// is open from the checkpoint on.
    func assertSame(_ alone: ReplayResult, _ whole: ReplayResult, _ records: [Record], _ what: String,
                    file: StaticString = #filePath, line: UInt = #line) {
        guard let start = records.first, records.count > 1, let last = records.last else { return XCTFail(what, file: file, line: line) }
        let from = records[1].t
        XCTAssertEqual(alone.verdicts.map(Call.init), whole.verdicts.filter { (start.seq...last.seq).contains($0.seq) }.map(Call.init),
                       what, file: file, line: line)
        let overlapping = whole.divergences.filter { $0.end > from && $0.start <= last.t }.map { d -> Stretch in
            var s = Stretch(d)
            s.start = max(s.start, from)
            return s
        }
        XCTAssertEqual(alone.divergences.map(Stretch.init), overlapping, what, file: file, line: line)
    }

    /// A meeting whose device plays the receiver against a speaker default from part 1 on; part 2 begins with
    /// the checkpoint that says so, and the meeting exits in part 2.
    func divergenceAcrossTheBoundary() -> (whole: [Record], part2: [Record]) {
        var header = TraceHeader(layer: .smeeting, sdk: "test", device: .init(model: "iPhone15,3", os: "iOS 17.5", simulator: false))
        header.session = .init(id: "split", part: 1)
        var b = TraceBuilder(header: header)
        b.add(400, .setDefaultRoute(target: .speaker))
        b.add(1_500, .enterMeeting(room: "ward-round", uid: nil))
        b.add(1_535, .micPermission(status: .granted))
        b.add(1_560, .sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: "voiceChat",
                                                         options: ["defaultToSpeaker", "allowBluetooth"])))
        b.add(1_610, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange))
        b.add(6_000, .routeSnapshot(route: .receiver, ports: ["Receiver"]))
        header.session = .init(id: "split", part: 2)
        let boundary = b.add(6_600, .header(header))
        b.add(6_600, .checkpoint(TraceCheckpoint(defaultRoute: .speaker, engaged: true, micPermission: .granted, currentRoute: .receiver,
                                                 session: .init(category: "playAndRecord", mode: "voiceChat",
                                                                options: ["defaultToSpeaker", "allowBluetooth"]))))
        b.add(20_000, .routeSnapshot(route: .receiver, ports: ["Receiver"]))
        b.add(30_000, .exitMeeting)
        b.add(30_055, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .categoryChange))
        return (b.records, Array(b.records[boundary...]))
    }

    func test_aDivergenceOpenAcrossThePartBoundaryIsOpenFromTheCheckpoint() throws {
        let (whole, part2) = divergenceAcrossTheBoundary()
        let all = Replay.run(records: whole)
        XCTAssertEqual(all.divergences.map { [$0.start, $0.end] }, [[1_610, 30_000]], "the whole session")
        XCTAssertEqual(all.unexplainedDivergenceCount, 1)
        let alone = Replay.run(records: part2)
        assertSame(alone, all, part2, "part 2 alone")
        XCTAssertEqual(alone.divergences.first?.actualSeq, part2[1].seq, "the checkpoint reported the route")
        XCTAssertEqual(alone.unexplainedDivergenceCount, 1)
        XCTAssertFalse(Explanation(alone).summary.contains { $0.text.hasPrefix("Nothing is wrong") })
    }

    func test_withoutItsCheckpointAPartIsPartial_withNoUnexplainedDivergenceAndNoAllClear() throws {
        for (name, parts) in try sessions() {
            for part in parts.dropFirst() {
                var records = try Fixtures.readAll(part).records
                guard records.count > 1, case .checkpoint = records[1].body else { continue }
                records[1] = Record(seq: records[1].seq, t: records[1].t, .sdkLog(level: "info", message: "no checkpoint here"))
                let alone = Replay.run(records: records, file: part)
                XCTAssertEqual(alone.session?.isPartial, true, "\(name): \(part)")
                XCTAssertEqual(alone.unexplainedDivergenceCount, 0, "\(name): \(part)")
                XCTAssertTrue(alone.verdicts.filter { $0.call != .switchLayer }.allSatisfy { $0.verdict == .undetermined || $0.seq > (alone.session?.unknownState.first?.untilSeq ?? .max) },
                              "no verdict derived from the unknown state: \(alone.verdicts)")
                let e = Explanation(alone)
                XCTAssertTrue(e.partial)
                XCTAssertFalse(e.summary.contains { $0.text.hasPrefix("Nothing is wrong") }, "\(name): \(part)")
                XCTAssertTrue(alone.hasIssues)
            }
        }
    }

    /// Part 2 of a meeting whose part 1 connected AirPods, replayed without part 1 and without a checkpoint:
    /// its header, then `body`.
    func loneSecondPart(_ body: (inout TraceBuilder) -> Void) -> ReplayResult {
        var header = TraceHeader(layer: .smeeting, sdk: "test", device: .init(model: "iPhone15,2", os: "iOS 17.5.1", simulator: false))
        header.session = .init(id: "eng", part: 2)
        var b = TraceBuilder(header: header)
        b.records[0] = Record(seq: 4, t: 10_000, .header(header))
        body(&b)
        b.records = b.records.enumerated().map { Record(seq: 4 + $0.offset, t: $0.element.t, $0.element.body) }
        return Replay.run(records: b.records)
    }

    func test_anEngagementAloneLeavesTheDevicesUnknown_noVerdictAndNoUnexplainedDivergence() throws {
        let r = loneSecondPart { b in
            b.add(11_000, .enterMeeting(room: "r", uid: nil))
            b.add(11_050, .sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: "voiceChat", options: ["allowBluetooth"])))
            b.add(11_070, .routeChanged(route: .bluetooth, previousRoute: .bluetooth, reason: .categoryChange))
            b.add(13_000, .setRoute(target: .speaker, api: "setSpeakerOutputEnabled(true)"))
            // AirPods the part never saw connect have the route: the devices are still unknown.
            b.add(20_000, .routeSnapshot(route: .bluetooth, ports: ["BluetoothHFP:AirPods"]))
            // Nothing in the second before accounts for it, but the prediction it departs from is not known.
            b.add(25_000, .routeChanged(route: .receiver, previousRoute: .bluetooth, reason: .categoryChange))
            b.add(30_000, .exitMeeting)
        }
        XCTAssertEqual(r.verdicts.map(\.verdict), [.undetermined], "the AirPods connected before the part may have the route")
        XCTAssertEqual(r.verdicts.first?.cause, .stateUnknown)
        XCTAssertEqual(r.session?.unknownState.first?.untilSeq, nil, "still unknown at the end")
        XCTAssertEqual(r.divergences.count, 1)
        XCTAssertEqual(r.divergences.first?.startStateUnknown, true)
        XCTAssertEqual(r.unexplainedDivergenceCount, 0)
        XCTAssertEqual(r.unknownStartDivergenceCount, 1)
        XCTAssertNil(r.findingCounts[.sessionChangedByOtherComponent], "no other component is blamed against an unknown state")
        let f = try XCTUnwrap(r.findings.first { $0.code == .routeDivergence })
        XCTAssertNotEqual(f.severity, .error)
        XCTAssertTrue(f.message.contains("unknown start state"), f.message)
        let e = Explanation(r)
        XCTAssertTrue(e.divergences.first?.headline.hasPrefix("unknown start state") ?? false, "\(e.divergences.map(\.headline))")
        XCTAssertTrue(e.summary.contains { $0.text.contains("1 from an unknown start state, not judged") }, "\(e.summary.map(\.text))")
        XCTAssertFalse(e.summary.contains { $0.text.hasPrefix("Nothing is wrong") })
    }

    func test_aRouteSnapshotAloneLeavesTheEngagementUnknown() {
        let r = loneSecondPart { b in
            b.add(10_000, .routeSnapshot(route: .bluetooth, ports: ["BluetoothHFP:AirPods Pro"]))
            b.add(16_000, .setRoute(target: .speaker, api: "setSpeakerOutputEnabled(true)"))
            b.add(17_000, .routeSnapshot(route: .speaker, ports: ["Speaker"]))
            b.add(18_000, .setRoute(target: .earpiece, api: "setSpeakerOutputEnabled(false)"))
        }
        XCTAssertEqual(r.verdicts.map(\.verdict), [.undetermined, .undetermined], "whether the meeting was entered is unknown")
        XCTAssertEqual(r.session?.unknownState.first?.untilSeq, nil)
        XCTAssertEqual(r.session?.isPartial, true)
    }

    func test_anEngagementAndASnapshotShowingTheBuiltInRouteMakeTheStateKnown() {
        var snapshot = 0
        let r = loneSecondPart { b in
            b.add(10_500, .setRoute(target: .earpiece, api: nil))
            b.add(11_000, .enterMeeting(room: "r", uid: nil))
            b.add(11_050, .sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: "voiceChat", options: ["allowBluetooth"])))
            b.add(11_070, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange))
            snapshot = b.add(12_000, .routeSnapshot(route: .receiver, ports: ["Receiver"])) + 4
            b.add(13_000, .setRoute(target: .speaker, api: nil))
            b.add(13_050, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .override))
            b.add(14_000, .deviceConnected(id: "bt-1", kind: .bluetooth, name: "AirPods", port: "BluetoothHFP"))
            b.add(14_100, .routeChanged(route: .bluetooth, previousRoute: .speaker, reason: .newDeviceAvailable))
            b.add(15_000, .setRoute(target: .earpiece, api: nil))
        }
        XCTAssertEqual(r.session?.unknownState.first?.untilSeq, snapshot, "known from the snapshot on")
        XCTAssertEqual(r.verdicts.map(\.verdict), [.undetermined, .applied, .ineffective])
        XCTAssertEqual(r.verdicts.last?.cause, .externalRouteActive)
        XCTAssertEqual(r.divergences, [])
    }

    func test_aSnapshotShowingTheDeviceThePartConnectedMakesTheDevicesKnown() {
        var snapshot = 0
        let r = loneSecondPart { b in
            b.add(10_500, .deviceConnected(id: "bt-1", kind: .bluetooth, name: "AirPods", port: "BluetoothHFP"))
            snapshot = b.add(10_600, .routeSnapshot(route: .bluetooth, ports: ["BluetoothHFP:AirPods"])) + 4
            b.add(11_000, .exitMeeting)
            b.add(12_000, .setRoute(target: .speaker, api: nil))
        }
        XCTAssertEqual(r.session?.unknownState.first?.untilSeq, snapshot + 1, "known at the leave, the snapshot having told the devices")
        XCTAssertEqual(r.verdicts.map(\.verdict), [.deferred])
        XCTAssertEqual(r.verdicts.first?.cause, .notEngaged)
    }

    func test_aCheckpointAfterAnUnknownStretchStartsTheEnginesFromIt_notComparedWithTheUnknownState() throws {
        let weekly = try XCTUnwrap(try sessions().first { $0.name == "smeeting-session-weekly" })
        var second = try Fixtures.readAll(weekly.parts[1]).records
        let third = try Fixtures.readAll(weekly.parts[2]).records
        guard case .checkpoint = second[1].body, case .checkpoint = third[1].body else { return XCTFail("the parts begin with checkpoints") }
        second[1] = Record(seq: second[1].seq, t: second[1].t, .sdkLog(level: "info", message: "no checkpoint here"))
        let r = Replay.run(records: second + third)
        let whole = (try Replay.run(TraceSession(paths: weekly.parts), unopened: .isAProblem))
        XCTAssertNil(r.findingCounts[.traceCheckpointMismatch], "nothing known to compare the checkpoint with")
        XCTAssertEqual(r.session?.unknownState.map(\.untilSeq), [third[1].seq], "known again at part 3's checkpoint")
        XCTAssertEqual(r.session?.starts.map(\.part), [2], "part 3 follows part 2")
        let part3 = third[0].seq...third[third.count - 1].seq
        XCTAssertEqual(r.verdicts.filter { part3.contains($0.seq) }.map(Call.init), whole.verdicts.filter { part3.contains($0.seq) }.map(Call.init))
        let from = third[1].t
        XCTAssertEqual(r.divergences.filter { $0.start >= from }.map(Stretch.init), whole.divergences.filter { $0.start >= from }.map(Stretch.init))
        XCTAssertTrue(r.verdicts.filter { !part3.contains($0.seq) }.allSatisfy { $0.verdict == .undetermined })
    }

    func test_aLayerCallOnAnEngineAndTransportFromBeforeThePartIsUndetermined() {
        let r = loneSecondPart { b in
            b.add(10_500, .subscribe(pubUid: "u2", trackId: "cam", layers: ["cam-h", "cam-l"]))
            b.add(11_000, .switchLayer(pubUid: "u2", trackId: "cam", targetTrackId: "cam-l"))
            b.add(12_000, .connEngine(vendor: .seaStart))
            b.add(12_500, .switchLayer(pubUid: "u2", trackId: "cam", targetTrackId: "cam-h"))
            b.add(13_000, .connState(state: .connected))
            b.add(14_000, .switchLayer(pubUid: "u2", trackId: "cam", targetTrackId: "cam-l"))
        }
        XCTAssertEqual(r.verdicts.map(\.verdict), [.undetermined, .undetermined, .applied],
                       "not rejected for a transport that was connecting only by default: decided once the part's records say it")
        XCTAssertEqual(r.verdicts.prefix(2).map(\.cause), [.stateUnknown, .stateUnknown])
        XCTAssertEqual(r.notTakingEffectCount, 0)
    }

    func test_aSessionMissingItsMiddlePartIsPartial_notAllClear() throws {
        let weekly = try XCTUnwrap(try sessions().first { $0.name == "smeeting-session-weekly" })
        XCTAssertEqual(weekly.parts.count, 3)
        let gap = try Replay.run(TraceSession(paths: [weekly.parts[0], weekly.parts[2]]), unopened: .isAProblem)
        XCTAssertEqual(gap.session?.missing.map(\.parts), [2...2])
        XCTAssertEqual(gap.session?.isPartial, true)
        let e = Explanation(gap)
        XCTAssertFalse(e.summary.contains { $0.text.hasPrefix("Nothing is wrong") }, "\(e.summary)")
        XCTAssertTrue(e.summary.contains { $0.text.contains("part 2 of session 6c1f0d3a-weekly-sync is missing") }, "\(e.summary)")
        // Part 3 begins with a checkpoint: the state after the gap is known again, the gap itself is not judged.
        XCTAssertEqual(gap.session?.starts.first?.checkpointSeq, try Fixtures.readAll(weekly.parts[2]).records[1].seq)
    }

    func test_theWholeSessionChecksEachCheckpoint() throws {
        let weekly = try XCTUnwrap(try sessions().first { $0.name == "smeeting-session-weekly" })
        XCTAssertEqual((try Replay.run(TraceSession(paths: weekly.parts), unopened: .isAProblem)).findingCounts[.traceCheckpointMismatch], nil, "the checkpoints agree")
        let mismatch = try XCTUnwrap(try sessions().first { $0.name == "srtc-session-checkpoint-mismatch" })
        let r = (try Replay.run(TraceSession(paths: mismatch.parts), unopened: .isAProblem))
        let f = try XCTUnwrap(r.findings.first { $0.code == .traceCheckpointMismatch })
        XCTAssertTrue(f.message.contains("devices (checkpoint: none; replayed: bt-88:c6:26:00:11:02)"), f.message)
        XCTAssertEqual(f.severity, .warning)
    }
}
