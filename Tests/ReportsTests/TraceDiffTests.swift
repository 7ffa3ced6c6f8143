import Analysis
import Replay
import Reports
import TraceModel
import XCTest

/// `TraceDiff`: pairing, the first behavioural difference, tolerance, and every kind of difference.
final class TraceDiffTests: XCTestCase {
    static let header = RecordBody.header(TraceHeader(layer: .srtc, sdk: "SRTC 4.6.2", device: .init(model: "iPhone15,2", os: "iOS 17.4")))
    static let activated = RecordBody.sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: "voiceChat", options: ["allowBluetooth"]))

    func trace(_ bodies: [(Int64, RecordBody)]) -> [Record] {
        ([(0, Self.header)] + bodies).enumerated().map { Record(seq: $0.offset, t: $0.element.0, $0.element.1) }
    }

    /// A call's start: joined, session activated, on the receiver.
    let start: [(Int64, RecordBody)] = [(100, .micPermission(status: .granted)), (200, .joinChannel(channel: "c")), (300, activated),
                                        (350, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange))]
    let speaker: RecordBody = .setRoute(target: .speaker, api: "setSpeakerOutputEnabled(true)")
    let airpods: RecordBody = .deviceConnected(id: "bt-1", kind: .bluetooth, name: "AirPods", port: nil)

    func diff(_ a: [Record], _ b: [Record], tolerance: Int64 = 500) -> TraceDiff {
        let options = ReplayOptions(toleranceMs: tolerance)
        return TraceDiff.compare(DiffSide.replay(records: a, file: "a", options: options),
                                 DiffSide.replay(records: b, file: "b", options: options), toleranceMs: tolerance)
    }

    /// setRoute(speaker) before the headset connects is applied; after it, ineffective.
    var speakerThenHeadset: [Record] {
        trace(start + [(2000, speaker), (2100, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .override)),
                       (4000, airpods), (4100, .routeChanged(route: .bluetooth, previousRoute: .speaker, reason: .newDeviceAvailable)),
                       (8000, .leaveChannel)])
    }
    var headsetThenSpeaker: [Record] {
        trace(start + [(2000, airpods), (2100, .routeChanged(route: .bluetooth, previousRoute: .receiver, reason: .newDeviceAvailable)),
                       (4000, speaker), (8000, .leaveChannel)])
    }

    func test_V1_R4_theOrderOfAHeadsetAndASpeakerRequestIsTheFirstDifference() throws {
        let d = diff(speakerThenHeadset, headsetThenSpeaker)
        XCTAssertFalse(d.same)
        let first = try XCTUnwrap(d.differences.first)
        XCTAssertEqual(first.kind, .verdict)
        XCTAssertEqual(first.subject, "api.setRoute speaker")
        XCTAssertEqual(first.rule, .R4)
        XCTAssertEqual(first.a, DiffRecord(seq: 5, t: 2000, type: "api.setRoute"))
        XCTAssertEqual(first.b, DiffRecord(seq: 7, t: 4000, type: "api.setRoute"))
        XCTAssertEqual(first.aValue, "applied")
        XCTAssertNil(first.aCause)
        XCTAssertEqual(first.bValue, "ineffective")
        XCTAssertEqual(first.bCause, .externalRouteActive)
        let predicted = try XCTUnwrap(d.differences.first { $0.kind == .predictedRoute })
        XCTAssertEqual([predicted.aValue, predicted.bValue], ["speaker", "bluetooth"])
        XCTAssertEqual(predicted.t, 2000)
        XCTAssertEqual(predicted.until, 4000)
        XCTAssertEqual(predicted.b?.type, "os.deviceConnected", "the record that set B's prediction")
        XCTAssertEqual(d.differences.map(\.kind), [.verdict, .predictedRoute, .actualRoute])
        XCTAssertEqual(d.paired, 8)
        XCTAssertEqual(d.a.unpaired.map(\.seq), [6], "the speaker route change has no counterpart")
        let text = TraceDiffText.render(d)
        XCTAssertTrue(text.contains("First difference at 2.000s: the verdict on api.setRoute speaker [R4]\n"
            + "  A  seq 5 api.setRoute at 2.000s: applied\n"
            + "  B  seq 7 api.setRoute at 4.000s: ineffective (externalRouteActive): an external device had the route, and iOS does not let an app take the output back from it\n"), text)
    }

    func test_tracesThatDifferOnlyWithinTheToleranceBehaveTheSame() {
        XCTAssertTrue(diff(speakerThenHeadset, speakerThenHeadset).same)
        // Every record of B 300 ms later: the same behaviour, shifted within the tolerance.
        let shifted = speakerThenHeadset.map { r in Record(seq: r.seq, t: r.seq == 0 ? 0 : r.t + 300, r.body) }
        let d = diff(speakerThenHeadset, shifted)
        XCTAssertTrue(d.same, TraceDiffText.render(d))
        XCTAssertTrue(TraceDiffText.render(d).contains("The traces behave the same"))
        // The device following 1500 ms later is a difference in what it played (and a divergence on
        // B's side, from the request on), not in any verdict.
        let late = speakerThenHeadset.map { r in Record(seq: r.seq, t: r.seq == 6 ? r.t + 1500 : r.t, r.body) }
        let l = diff(speakerThenHeadset, late)
        XCTAssertEqual(l.differences.map(\.kind), [.divergence, .actualRoute], TraceDiffText.render(l))
        XCTAssertEqual(l.differences.last?.aValue, "speaker")
        XCTAssertEqual(l.differences.last?.bValue, "receiver")
        XCTAssertEqual(l.differences.last?.until, 3600)
        XCTAssertTrue(diff(speakerThenHeadset, late, tolerance: 2000).same, "within a 2000 ms tolerance it is the same")
    }

    func test_X2_aDivergenceOnOneSideIsADifference() throws {
        // B's device stays on the receiver after the request: an unexplained divergence.
        let stuck = trace(start + [(2000, speaker), (8000, .leaveChannel)])
        let ok = trace(start + [(2000, speaker), (2100, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .override)),
                                (8000, .leaveChannel)])
        let d = diff(ok, stuck)
        let div = try XCTUnwrap(d.differences.first { $0.kind == .divergence })
        XCTAssertNil(div.aValue)
        XCTAssertEqual(div.bValue, "predicted speaker, device played receiver, unexplained")
        XCTAssertEqual(div.rule, .X2)
        XCTAssertEqual(div.b?.seq, 5, "the request that started it")
        XCTAssertEqual(div.a?.seq, 5, "its counterpart on A's side")
        XCTAssertEqual(d.differences.map(\.kind), [.divergence, .actualRoute], "the divergence starts at the request, the routes differ from A's change")
    }

    func test_aFindingOnOneSideIsADifference() throws {
        let wrongMode = RecordBody.sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: "default", options: ["allowBluetooth"]))
        let a = trace(start + [(8000, .leaveChannel)])
        var bodies = start
        bodies[2] = (300, wrongMode)
        let d = diff(a, trace(bodies + [(8000, .leaveChannel)]))
        let f = try XCTUnwrap(d.differences.first { $0.kind == .finding })
        XCTAssertEqual(f.subject, "session.wrongMode")
        XCTAssertNil(f.aValue)
        XCTAssertEqual(f.bValue, "warning")
        XCTAssertEqual(f.b?.type, "obs.sessionActivated")
        XCTAssertNil(f.a, "the activations differ in mode, so they are not paired")
    }

    func test_jsonIsDeterministicAndNamesBothSides() {
        let d = diff(speakerThenHeadset, headsetThenSpeaker)
        let json = TraceDiffJSON.render(d)
        XCTAssertEqual(json, TraceDiffJSON.render(diff(speakerThenHeadset, headsetThenSpeaker)))
        XCTAssertTrue(json.hasPrefix(#"{"schema":"rtctrace.diff/2","same":false,"toleranceMs":500,"paired":8,"changedCalls":0,"offsetMs":0,"#), json)
        XCTAssertTrue(json.contains(#"{"kind":"verdict","subject":"api.setRoute speaker","rule":"R4","t":2000,"until":null,"a":{"record":{"seq":5,"t":2000,"type":"api.setRoute"},"value":"applied","cause":null,"then":[]},"b":{"record":{"seq":7,"t":4000,"type":"api.setRoute"},"value":"ineffective","cause":"externalRouteActive","then":[]}}"#), json)
    }

    /// The same trace recorded 2 s later (every record, header aside): the same behaviour.
    func test_aPureShiftBehavesTheSame() {
        let shifted = speakerThenHeadset.map { r in Record(seq: r.seq, t: r.seq == 0 ? 0 : r.t + 2000, r.body) }
        let d = diff(speakerThenHeadset, shifted)
        XCTAssertTrue(d.same, TraceDiffText.render(d))
        XCTAssertEqual(d.offsetMs, 2000)
        XCTAssertTrue(TraceDiffText.render(d).contains("B runs 2.000s behind A"), TraceDiffText.render(d))
        // A shift and one real change: the change is still found, at A's time.
        let late = shifted.map { r in Record(seq: r.seq, t: r.seq == 6 ? r.t + 1500 : r.t, r.body) }
        let l = diff(speakerThenHeadset, late)
        XCTAssertEqual(l.differences.map(\.kind), [.divergence, .actualRoute], TraceDiffText.render(l))
        XCTAssertEqual(l.differences.last?.t, 2100)
    }

    /// A copy cut short is not "the same": the longer trace goes on after the other's end.
    func test_aTruncatedCopyDiffers() throws {
        let whole = speakerThenHeadset
        let cut = Array(whole.prefix(7))
        let d = diff(whole, cut)
        XCTAssertFalse(d.same, TraceDiffText.render(d))
        let end = try XCTUnwrap(d.differences.first { $0.kind == .end })
        XCTAssertEqual(end.t, 2100, "the cut copy's last record")
        XCTAssertEqual(end.a?.seq, 7, "the first record A has after B's end")
        XCTAssertEqual(end.bValue, "ends")
        XCTAssertTrue(end.aValue?.hasPrefix("goes on: 3 more records to 8.000s") == true, end.aValue ?? "")
        XCTAssertTrue(TraceDiffText.render(d).contains("one trace goes on after the other ends"))
    }

    /// The same call made with another argument is one changed call, compared as such, not two unpaired calls.
    func test_aChangedCallIsOneDifferenceNotTwoUnpairedCalls() throws {
        let earpiece: RecordBody = .setRoute(target: .earpiece, api: "setSpeakerOutputEnabled(false)")
        let a = trace(start + [(2000, speaker), (2100, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .override)), (8000, .leaveChannel)])
        let b = trace(start + [(2000, earpiece), (8000, .leaveChannel)])
        let d = diff(a, b)
        let call = try XCTUnwrap(d.differences.first)
        XCTAssertEqual(call.kind, .call)
        XCTAssertEqual([call.aValue, call.bValue], ["api.setRoute speaker", "api.setRoute earpiece"])
        XCTAssertEqual(call.a?.seq, 5)
        XCTAssertEqual(call.b?.seq, 5)
        XCTAssertEqual(d.changedCalls, 1)
        XCTAssertEqual(d.b.unpaired.map(\.type), [], "the earpiece call is paired as the changed one")
        XCTAssertFalse(d.differences.contains { $0.kind == .verdict && ($0.aValue == nil || $0.bValue == nil) }, "no call is said to be on one side only")
        XCTAssertTrue(TraceDiffText.render(d).contains("the call api.setRoute was made with other arguments"), TraceDiffText.render(d))
    }

    /// A stretch where the sides differ while one of them changes again tells every value, not the first only.
    func test_aStretchTellsEveryValueOfEachSide() throws {
        let a = trace(start + [(2000, airpods), (2100, .routeChanged(route: .bluetooth, previousRoute: .receiver, reason: .newDeviceAvailable)),
                               (8000, .leaveChannel)])
        let b = trace(start + [(2000, airpods), (2100, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .newDeviceAvailable)),
                               (4000, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .override)), (8000, .leaveChannel)])
        let d = diff(a, b)
        let played = try XCTUnwrap(d.differences.first { $0.kind == .actualRoute })
        XCTAssertEqual(played.aValue, "bluetooth")
        XCTAssertEqual(played.bValue, "speaker")
        XCTAssertEqual(played.bSteps, [Difference.Step(t: 4000, value: "receiver")])
        XCTAssertTrue(TraceDiffText.render(d).contains(": speaker, then receiver from 4.000s"), TraceDiffText.render(d))
    }

    /// A call of two minutes: a speaker request, a headset, quality reports every two seconds.
    var twoMinutes: [Record] {
        var bodies = start + [(20_000, speaker), (20_100, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .override)),
                              (90_000, airpods), (90_100, .routeChanged(route: .bluetooth, previousRoute: .speaker, reason: .newDeviceAvailable))]
        let good = QualitySample(level: .good, score: 85, mos: 4.1, loss: 0.01, rtt: 80, jitter: 8, bitrate: 900)
        let poor = QualitySample(level: .poor, score: 40, mos: 2.2, loss: 0.12, rtt: 400, jitter: 40, bitrate: 200)
        for t in stride(from: Int64(1000), to: 120_000, by: 2000) {
            let bad = (70_000..<80_000).contains(t)
            bodies.append((t, .qualityReport(pub: bad ? poor : good, sub: bad ? poor : good)))
        }
        bodies.append((120_000, .leaveChannel))
        return trace(bodies.sorted { $0.0 < $1.0 })
    }

    /// Records after 60 s are 2 s late in B (a stretch recorded late): one difference, where the shift
    /// starts, and the rest compared after it (the whole-trace median offset gave five, the first at -1 s).
    func test_aShiftThatStartsMidTraceIsOneDifferenceAtTheShift() throws {
        let a = twoMinutes
        let b = a.map { r in Record(seq: r.seq, t: r.t > 60_000 ? r.t + 2000 : r.t, r.body) }
        let d = diff(a, b)
        XCTAssertEqual(d.differenceCount, 1, TraceDiffText.render(d))
        let shift = try XCTUnwrap(d.differences.first)
        XCTAssertEqual(shift.kind, .shift)
        XCTAssertEqual(shift.t, 61_000, "the first record after 60 s")
        XCTAssertEqual(shift.a?.t, 61_000)
        XCTAssertEqual(shift.b?.t, 63_000)
        XCTAssertEqual([shift.aValue, shift.bValue], ["B with A", "B 2.000s behind A"])
        XCTAssertEqual(d.offsetMs, 0, "B starts with A")
        XCTAssertTrue(TraceDiffText.render(d).contains("First difference at 1m 01.000s: B's clock moves against A's: B 2.000s behind A from here on"),
                      TraceDiffText.render(d))
        // The shift and a real change after it: the change is still found, at A's time.
        let late = b.map { r in Record(seq: r.seq, t: r.t == 92_100 ? r.t + 1500 : r.t, r.body) }
        let l = diff(a, late)
        XCTAssertEqual(l.differences.map(\.kind), [.shift, .divergence, .actualRoute], TraceDiffText.render(l))
        XCTAssertEqual(l.differences.last?.t, 90_100)
        // Shifted back later on: two steps, nothing else.
        let back = a.map { r in Record(seq: r.seq, t: r.t > 60_000 && r.t < 100_000 ? r.t + 2000 : r.t, r.body) }
        XCTAssertEqual(diff(a, back).differences.map(\.kind), [.shift, .shift], TraceDiffText.render(diff(a, back)))
    }
}
