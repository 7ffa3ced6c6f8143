import Analysis
import Replay
import Reports
import TraceModel
import XCTest

/// What-if replay: edits as data, their validation and application, the cut where history ends, and
/// the comparison through diff.
final class WhatIfTests: XCTestCase {
    static let header = RecordBody.header(TraceHeader(layer: .srtc, sdk: "SRTC 4.6.2", device: .init(model: "iPhone15,2", os: "iOS 17.4")))
    static let activated = RecordBody.sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: "voiceChat", options: ["allowBluetooth"]))

    func trace(_ bodies: [(Int64, RecordBody)]) -> [Record] {
        ([(0, Self.header)] + bodies).enumerated().map { Record(seq: $0.offset, t: $0.element.0, $0.element.1) }
    }

    /// Joined, session activated (seq 3), on the receiver (seq 4); AirPods (seq 5) take the route, then
    /// setRoute(speaker) (seq 7) is ineffective (R4); the device keeps the AirPods.
    var headsetThenSpeaker: [Record] {
        trace([(100, .micPermission(status: .granted)), (200, .joinChannel(channel: "c")), (300, Self.activated),
               (350, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange)),
               (2000, .deviceConnected(id: "bt-1", kind: .bluetooth, name: "AirPods", port: nil)),
               (2100, .routeChanged(route: .bluetooth, previousRoute: .receiver, reason: .newDeviceAvailable)),
               (4000, .setRoute(target: .speaker, api: "setSpeakerOutputEnabled(true)")),
               (6000, .routeSnapshot(route: .speaker, ports: nil)),
               (8000, .leaveChannel)])
    }

    func run(_ records: [Record], _ edits: [WhatIfEdit]) throws -> WhatIfResult {
        try WhatIf.run(WhatIfBase(records: records, file: "t"), edits: edits)
    }

    func test_noEditsReportNoChange_andTheEditedTraceIsTheOriginal() throws {
        let records = headsetThenSpeaker
        let edited = try EditedTrace.apply([], to: records)
        XCTAssertEqual(edited.records, records)
        XCTAssertEqual(edited.names, records.map(\.seq))
        XCTAssertNil(edited.firstEditT)
        let w = try run(records, [])
        XCTAssertTrue(w.diff.same, "\(w.diff.differences)")
        XCTAssertEqual(w.resolved, [])
        XCTAssertEqual(w.added, [])
        XCTAssertFalse(w.improves)
        XCTAssertNil(w.historyEndsAt)
    }

    func test_R4_movingTheSpeakerCallBeforeTheHeadsetMakesItTakeEffect() throws {
        let w = try run(headsetThenSpeaker, [.move(seq: 7, after: 4)])
        XCTAssertEqual(w.historyEndsAt, 350)
        let call = try XCTUnwrap(w.resolved.first { $0.kind == .call })
        XCTAssertEqual(call.seq, 7)
        XCTAssertEqual(call.before, "ineffective")
        XCTAssertEqual(call.after, "applied")
        XCTAssertEqual(call.rule, .R4)
        XCTAssertEqual(w.added, [])
        XCTAssertTrue(w.improves)
        let verdict = try XCTUnwrap(w.diff.differences.first { $0.kind == .verdict })
        XCTAssertEqual(verdict.b?.seq, 7, "B's records are named by their original seqs")
        XCTAssertEqual(verdict.b?.t, 350)
        XCTAssertTrue(WhatIfText.render(w).contains("The contract predicts that, with this change, the call api.setRoute speaker (seq 7 at 4.000s [R4]) takes effect: ineffective → applied."),
                      WhatIfText.render(w))
    }

    func test_afterTheFirstEditNoDivergenceOrCallbackFindingIsCompared() throws {
        // The device played the speaker at 6000 while the contract predicts the AirPods: a divergence in the original.
        let original = Replay.run(records: headsetThenSpeaker)
        XCTAssertEqual(original.divergences.map(\.start), [6000])
        // Dropping the leave (at 8000) puts history's end after the divergence's start: it is the original's on both sides,
        // though the edited trace ends when it begins.
        let late = try run(headsetThenSpeaker, [.drop(seq: 9)])
        XCTAssertEqual(late.historyEndsAt, 8000)
        XCTAssertFalse(late.diff.differences.contains { $0.kind == .divergence || $0.kind == .actualRoute })
        // Delaying the call from 4000: the divergence that starts at 6000 is history on both sides.
        let w = try run(headsetThenSpeaker, [.delay(seq: 7, ms: 500)])
        XCTAssertEqual(w.historyEndsAt, 4000)
        XCTAssertFalse(w.diff.differences.contains { $0.kind == .divergence || $0.kind == .actualRoute })
        XCTAssertFalse(w.added.contains { $0.subject == FindingCode.routeDivergence.rawValue })
    }

    func test_insertedRecordsGetFreshSeqs_andTheEditedTraceIsNumberedAfresh() throws {
        let records = headsetThenSpeaker
        let edited = try EditedTrace.apply([.insert(json: #"{"type":"api.setRoute","target":"speaker"}"#, at: 5000, after: nil), .drop(seq: 2)], to: records)
        XCTAssertEqual(edited.records.map(\.seq), Array(0..<records.count), "no seq gap: nothing reads as lost")
        XCTAssertEqual(edited.inserted, [records.count])
        XCTAssertEqual(edited.names, [0, 1, 3, 4, 5, 6, 7, records.count, 8, 9])
        XCTAssertEqual(edited.firstEditT, 200)
        XCTAssertEqual(edited.records[7].t, 5000)
        // A call added while the AirPods have the route: ineffective (R4), named by its fresh seq.
        let w = try run(records, [.insert(json: #"{"type":"api.setRoute","target":"earpiece"}"#, at: nil, after: 5)])
        let added = try XCTUnwrap(w.added.first)
        XCTAssertEqual(added.seq, records.count, "an inserted call is named by its fresh seq")
        XCTAssertEqual(added.rule, .R4)
        XCTAssertEqual(added.t, 2000)
        XCTAssertFalse(w.improves)
        // The same call made later (dropped, inserted at 5000) pairs with the original: nothing changes.
        let later = try run(records, [.drop(seq: 7), .insert(json: #"{"type":"api.setRoute","target":"speaker"}"#, at: 5000, after: nil)])
        XCTAssertEqual(later.resolved, [])
        XCTAssertEqual(later.added, [])
    }

    func test_R11_sessionEditsChangeActivationsFromATimeOn() throws {
        let bare = RecordBody.sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: "default", options: []))
        let records = trace([(100, .micPermission(status: .granted)), (200, .joinChannel(channel: "c")), (300, bare), (5000, bare), (8000, .leaveChannel)])
        let edited = try EditedTrace.apply([.session(.setOption, value: "allowBluetooth", from: 1000), .session(.mode, value: "voiceChat", from: nil)], to: records)
        guard case .sessionActivated(let first) = edited.records[3].body, case .sessionActivated(let second) = edited.records[4].body else {
            return XCTFail("activations moved")
        }
        XCTAssertEqual(first.options, [])
        XCTAssertEqual(first.mode, "voiceChat")
        XCTAssertEqual(second.options, ["allowBluetooth"])
        XCTAssertEqual(edited.changed, [true, true])
        let w = try run(records, [.session(.mode, value: "voiceChat", from: nil)])
        XCTAssertTrue(w.resolved.contains { $0.subject == FindingCode.sessionWrongMode.rawValue }, "\(w.resolved)")
    }

    func test_editsAreValidatedNamingTheEditAndTheField() throws {
        let records = headsetThenSpeaker
        func error(_ edits: [WhatIfEdit]) -> String {
            do { _ = try EditedTrace.apply(edits, to: records, source: "x"); return "" } catch { return error.description }
        }
        XCTAssertEqual(error([.drop(seq: 1), .move(seq: 99, after: 2)]), "x: edit 2 (move): field 'seq': no record with seq 99 in the trace")
        XCTAssertEqual(error([.drop(seq: 0)]), "x: edit 1 (drop): field 'seq': seq 0 is a header, which no edit moves or drops")
        XCTAssertEqual(error([.drop(seq: 3), .delay(seq: 3, ms: 5)]), "x: edit 2 (delay): field 'seq': seq 3 was dropped by an edit before this one")
        XCTAssertTrue(error([.insert(json: #"{"type":"api.setRoute","target":"loud"}"#, at: 10, after: nil)]).hasPrefix("x: edit 1 (insert): field 'record.target'"))
        XCTAssertTrue(error([.insert(json: #"{"type":"api.setRoute","target":"speaker","t":5}"#, at: 10, after: nil)]).hasPrefix("x: edit 1 (insert): field 'record.t'"))
        XCTAssertEqual(error([.move(seq: 7, after: 7)]), "x: edit 1 (move): field 'after': a record cannot move after itself")
        XCTAssertEqual(error([.delay(seq: 7, ms: -5000)]), "x: edit 1 (delay): field 'ms': moves seq 7 outside the trace's times (to -1000 ms)")
        func fileError(_ text: String) -> String {
            do { _ = try WhatIfEdit.parse(file: text, path: "e.json"); return "" } catch { return error.description }
        }
        XCTAssertEqual(fileError(#"[{"edit":"move","seq":7,"after":4,"at":5}]"#),
                       "e.json: edit 1 (move): field 'at': not a field of this edit (it takes after, seq)")
        XCTAssertEqual(fileError(#"[{"edit":"drop","seq":7},{"edit":"jump"}]"#).prefix(44), "e.json: edit 2 (jump): field 'edit': 'jump' ")
        XCTAssertEqual(fileError(#"[{"edit":"drop-type","type":"os.nothing"}]"#),
                       "e.json: edit 1 (drop-type): field 'type': 'os.nothing' is not a record type of the trace format")
        XCTAssertEqual(fileError(#"[{"edit":"insert","record":{"type":"api.leaveChannel"}}]"#),
                       "e.json: edit 1 (insert): field 'at': give exactly one of 'at' (a time) and 'after' (a seq)")
    }

    func test_editsFromTheCommandLineKeepTheirOrderAndQualifiers() throws {
        let parsed = try WhatIfEdit.parse(arguments: [
            (nil, "t.jsonl"), ("--move", "20"), ("--after", "31"), ("--delay", "20"), (nil, "1500"), ("--json", ""),
            ("--set-option", "allowBluetooth"), ("--from", "9000"), ("--insert", #"{"type":"api.setRoute","target":"speaker"}"#), ("--at", "95000"),
            ("--drop-type", "os.deviceConnected"),
        ])
        XCTAssertEqual(parsed.rest, ["t.jsonl"])
        XCTAssertEqual(parsed.edits, [.move(seq: 20, after: 31), .delay(seq: 20, ms: 1500), .session(.setOption, value: "allowBluetooth", from: 9000),
                                      .insert(json: #"{"target":"speaker","type":"api.setRoute"}"#, at: 95000, after: nil),
                                      .dropType(type: "os.deviceConnected", from: nil)])
        XCTAssertThrowsError(try WhatIfEdit.parse(arguments: [("--after", "3")]))
        XCTAssertThrowsError(try WhatIfEdit.parse(arguments: [("--delay", "3")]))
        XCTAssertThrowsError(try WhatIfEdit.parse(arguments: [("--move", "3")]), "a move needs --after")
    }
}
