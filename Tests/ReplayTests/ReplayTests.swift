import Replay
import Reports
import TestSupport
import TraceModel
import XCTest

final class ReplayTests: XCTestCase {
    /// A joined SRTC call on the earpiece, device reporting the receiver.
    func joinedOnReceiver() -> TraceBuilder {
        var b = TraceBuilder()
        b.add(100, .micPermission(status: .granted))
        b.add(200, .joinChannel(channel: "c"))
        b.add(250, .sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: "voiceChat", options: ["allowBluetooth"])))
        b.add(260, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange))
        return b
    }

    func test_X1_predictedAndActualAreStepFunctions() {
        var b = joinedOnReceiver()
        let call = b.add(1000, .setRoute(target: .speaker, api: "setSpeakerOutputPreferred(true)"))
        let obs = b.add(1040, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .override))
        let r = b.replay()
        // Nothing is predicted before the engagement (R13), then the receiver, then the speaker.
        XCTAssertEqual(r.predictedTimeline.map(\.route), [nil, .receiver, .speaker])
        XCTAssertEqual(r.predictedTimeline.last, RouteSegment(t: 1000, route: .speaker, seq: call))
        XCTAssertEqual(r.actualTimeline.map(\.route), [.receiver, .speaker])
        XCTAssertEqual(r.actualTimeline.last, RouteSegment(t: 1040, route: .speaker, seq: obs))
        XCTAssertEqual(r.divergences, [], "a 40 ms lag is within the tolerance")
        XCTAssertEqual(r.verdicts.map(\.verdict), [.applied])
    }

    func test_X2_divergenceCountsOnlyPastTheTolerance() {
        var b = joinedOnReceiver()
        b.add(1000, .setRoute(target: .speaker, api: nil))
        b.add(1500, .routeSnapshot(route: .receiver, ports: nil))    // exactly 500 ms: not longer than the tolerance
        b.add(1500, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .override))
        XCTAssertEqual(b.replay().divergences, [])
        var c = joinedOnReceiver()
        let call = c.add(1000, .setRoute(target: .speaker, api: nil))
        c.add(1501, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .override))
        let r = c.replay()
        XCTAssertEqual(r.divergences.count, 1)
        let d = r.divergences[0]
        XCTAssertEqual([d.start, d.end], [1000, 1501])
        XCTAssertEqual([d.predicted, d.actual], [.speaker, .receiver])
        XCTAssertEqual(d.predictedSeq, call)
        XCTAssertEqual(d.actualSeq, 4)
        XCTAssertEqual(d.afterAppliedCall, call)
        XCTAssertFalse(d.explained)
        XCTAssertEqual(r.findingCounts[.routeDivergence], 1)
        XCTAssertEqual(r.findings.first { $0.code == .routeDivergence }?.severity, .error)
    }

    func test_X2_nullPredictionOrUnknownActualIsNoDivergence() {
        var b = joinedOnReceiver()
        b.add(1000, .setAudioModuleEnabled(enabled: false))           // prediction null
        b.add(1100, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .categoryChange))
        b.add(5000, .routeChanged(route: .unknown, previousRoute: .speaker, reason: .unknown))
        b.add(6000, .setAudioModuleEnabled(enabled: true))            // prediction receiver, actual unknown
        b.add(9000, .clearRouteOverride)
        XCTAssertEqual(b.replay().divergences, [])
    }

    func test_X2_openDivergenceCountsAtTheToleranceAndAtTheEnd() {
        var b = joinedOnReceiver()
        b.add(1000, .setRoute(target: .speaker, api: nil))
        b.add(1400, .expect(Expectation(.divergences(count: 0))))
        b.add(1600, .expect(Expectation(.divergences(count: 1))))
        b.add(3000, .sdkLog(level: "info", message: "still on receiver"))
        let r = b.replay()
        XCTAssertEqual(r.failedExpectations, [])
        XCTAssertEqual(r.divergences.count, 1)
        XCTAssertTrue(r.divergences[0].openAtEnd)
        XCTAssertEqual(r.divergences[0].end, 3000)
    }

    func test_X3_divergenceExplainedByMissingAllowBluetooth() {
        var b = TraceBuilder(.smeeting)
        b.add(100, .micPermission(status: .granted))
        b.add(200, .enterMeeting(room: "r"))
        // Mode default: neither chat mode, which would imply allowBluetooth (R11).
        let act = b.add(250, .sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: "default", options: ["defaultToSpeaker"])))
        b.add(260, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange))
        b.add(2000, .deviceConnected(id: "bt", kind: .bluetooth, name: "AirPods", port: "BluetoothHFP"))
        b.add(5000, .routeSnapshot(route: .receiver, ports: ["BuiltInReceiver"]))
        let r = b.replay()
        XCTAssertEqual(r.divergences.count, 1)
        XCTAssertEqual(r.divergences[0].explainedBy, .sessionMissingAllowBluetooth)
        XCTAssertEqual(r.divergences[0].explainedBySeq, act)
        XCTAssertEqual(r.findings.first { $0.code == .routeDivergence }?.severity, .warning)
        XCTAssertEqual(r.findings.first { $0.code == .routeDivergence }?.rule, .X3)
    }

    func test_finding_route_divergence_namesBothSidesInLayerWords() {
        var b = joinedOnReceiver()
        b.add(1000, .setRoute(target: .speaker, api: nil))
        b.add(4000, .routeSnapshot(route: .receiver, ports: nil))
        let f = b.replay().findings.first { $0.code == .routeDivergence }!
        XCTAssertEqual(f.seqs, [5, 4])
        XCTAssertTrue(f.message.contains("predicts speaker") && f.message.contains("played receiver"), f.message)
        XCTAssertFalse((f.message + f.advice).lowercased().contains("meeting"))
    }

    func test_finding_audioModule_disabledWhileSpeaking() {
        var b = joinedOnReceiver()
        b.add(500, .connState(state: .connected))
        b.add(600, .speakers(speaking: [Speaker(uid: "u2", trackId: "a", level: 0.4)], stopped: []))
        let off = b.add(700, .setAudioModuleEnabled(enabled: false))
        b.add(800, .setAudioModuleEnabled(enabled: true))
        b.add(900, .speakers(speaking: [], stopped: [SpeakerKey(uid: "u2", trackId: "a")]))
        b.add(1000, .setAudioModuleEnabled(enabled: false))       // nobody speaking: no finding
        b.add(1100, .setAudioModuleEnabled(enabled: true))
        let r = b.replay()
        let found = r.findings.filter { $0.code == .audioModuleDisabledWhileSpeaking }
        XCTAssertEqual(found.map(\.seqs), [[off]])
        XCTAssertEqual(found.first?.rule, .R9)
    }

    func test_timersFireBeforeARecordAtTheSameTime() {
        // Recovery retry is due 2000 ms after the call ends; an expectation at exactly that time sees it.
        var b = joinedOnReceiver()
        b.add(1000, .interruptionBegan(cause: .systemCall, wasSuspended: nil))
        b.add(1001, .callState(state: .connected))
        b.add(3000, .interruptionEnded(shouldResume: true))
        b.add(4000, .callState(state: .disconnected))
        b.add(5999, .expect(Expectation(.interrupted(true), rule: .I3)))
        b.add(6000, .expect(Expectation(.interrupted(false), rule: .I3)))
        b.add(6000, .expect(Expectation(.route(.receiver))))
        let r = b.replay()
        XCTAssertEqual(r.failedExpectations, [])
        XCTAssertEqual(r.recoveries, 1)
    }

    func test_expectationsReportExpectedAndActual() {
        var b = joinedOnReceiver()
        let call = b.add(1000, .setRoute(target: .speaker, api: nil))
        b.add(1100, .expect(Expectation(.route(.bluetooth))))
        b.add(1100, .expect(Expectation(.verdict(ref: call, verdict: .deferred, cause: .notEngaged))))
        b.add(1100, .expect(Expectation(.verdict(ref: call, verdict: .applied, cause: nil))))
        b.add(1100, .expect(Expectation(.quality(nil))))
        b.add(1100, .expect(Expectation(.finding(code: .routeIneffective, count: nil))))
        b.add(1100, .expect(Expectation(.noFinding(code: .routeIneffective))))
        let r = b.replay()
        XCTAssertEqual(r.expectations.map(\.passed), [false, false, true, true, false, true])
        XCTAssertEqual(r.expectations[0].expected, "bluetooth")
        XCTAssertEqual(r.expectations[0].actual, "speaker")
        XCTAssertEqual(r.expectations[1].actual, "applied")
    }

    func test_replayIsDeterministic() {
        var b = joinedOnReceiver()
        b.add(500, .connState(state: .connected))
        for i in 0..<200 {
            let lvl: QualityLevel = [.good, .poor, .excellent, .lost][i % 4]
            b.add(1000 + Int64(i) * 500, .qualityReport(pub: QualitySample(level: lvl, mos: 3.5), sub: QualitySample(level: .good, mos: 4.0)))
            if i % 50 == 7 { b.add(1000 + Int64(i) * 500, .setRoute(target: i % 2 == 0 ? .speaker : .earpiece, api: nil)) }
        }
        let a = ExplainJSON.render(b.replay(), golden: true)
        let c = ExplainJSON.render(b.replay(), golden: true)
        XCTAssertEqual(a, c)
        XCTAssertTrue(a.contains("\"quality.flapping\""))
    }
}

final class DivergenceCapTests: XCTestCase {
    /// Five stretches where the device plays the speaker while the prediction is the receiver.
    func flappingDevice() -> TraceBuilder {
        var b = TraceBuilder()
        b.add(100, .micPermission(status: .granted))
        b.add(200, .joinChannel(channel: "c"))
        b.add(250, .sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: "voiceChat", options: ["allowBluetooth"])))
        b.add(260, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange))
        for i in 0..<5 {
            let t = Int64(2000 + i * 4000)
            b.add(t, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .categoryChange))
            b.add(t + 2000, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange))
        }
        return b
    }

    func test_divergencesBeyondTheCapAreCountedNotKept() throws {
        let b = flappingDevice()
        let full = b.replay()
        XCTAssertEqual(full.divergences.count, 5)
        XCTAssertEqual(full.divergenceCount, 5)
        XCTAssertEqual(full.divergencesDropped, 0)
        var options = ReplayOptions()
        options.maxDivergences = 2
        let capped = b.replay(options)
        XCTAssertEqual(capped.divergences, Array(full.divergences.prefix(2)))
        XCTAssertEqual(capped.divergenceCount, 5)
        XCTAssertEqual(capped.unexplainedDivergenceCount, full.divergences.filter { !$0.explained }.count)
        XCTAssertEqual(capped.divergencesDropped, 3)

        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(ExplainJSON.render(capped).utf8)) as? [String: Any])
        let summary = try XCTUnwrap(json["summary"] as? [String: Any])
        XCTAssertEqual(summary["divergences"] as? Int, 5)
        XCTAssertEqual(summary["divergencesNotListed"] as? Int, 3)
        XCTAssertEqual((json["divergences"] as? [Any])?.count, 2)
        let text = ExplainText.render(capped)
        XCTAssertTrue(text.contains("5 route divergences"), text)
        XCTAssertTrue(text.contains("… 3 more"), text)
    }
}
