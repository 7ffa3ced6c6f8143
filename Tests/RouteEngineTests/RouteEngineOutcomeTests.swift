import Contract
import RouteEngine
import TestSupport
import TraceModel
import XCTest

/// V2 (what became of each call), X4 (why the prediction is what it is) and the engine's device limit.
final class RouteEngineOutcomeTests: XCTestCase {
    func test_V2_deferredCallsAreDecidedAtTheEngagement_moduleReenabledFirst() {
        var store = TestStore.started(engaged: false, initialDefault: .speaker)
        store.send(.setAudioModuleEnabled(enabled: false), at: 1) {   // not engaged: no prediction either way (R13)
            $0.audioModuleEnabled = false; $0.audioModuleDisabledSeq = 1
        }
        store.send(.setRoute(target: .speaker, api: nil), at: 2, outputs: [
            verdict(2, "api.setRoute", .deferred, .notEngaged, t: 2), finding("route.ineffective", .info, "V1", [2], t: 2, call: 2),
        ]) { $0.override = .speaker; $0.overrideSeq = 2; $0.pendingOverrideCall = 2 }
        // "None gives applied" even though the route (speaker default) already was what the call asked.
        store.send(.joinChannel(channel: "c"), at: 50, outputs: [outcome(2, .applied, t: 50, by: 3), timer(5051, .callPathWindow(seq: 3))]) {
            $0.engaged = true; $0.engagedSeq = 3; $0.audioModuleEnabled = true; $0.audioModuleDisabledSeq = nil
            $0.pendingOverrideCall = nil; $0.overrideAppliedBy = 3; $0.predictionSeq = 3
        }
        XCTAssertEqual(store.state.predictionSource, PredictionSource(rule: .R2, seq: 2, appliedBy: 3))
    }

    func test_V2_aLaterCallOfTheSamePartSupersedes_aNoopSupersedesNothing() {
        var store = TestStore.started(engaged: false)
        store.skip(.setRoute(target: .speaker, api: nil), at: 1)                 // seq 1
        store.skip(.setDefaultRoute(target: .speaker), at: 2)                    // seq 2: another part
        store.send(.setRoute(target: .speaker, api: nil), at: 3, outputs: [verdict(3, "api.setRoute", .noop, t: 3)])
        store.send(.clearRouteOverride, at: 4, outputs: [
            verdict(4, "api.clearRouteOverride", .deferred, .notEngaged, t: 4),
            outcome(1, .superseded, t: 4, by: 4),
            finding("route.ineffective", .info, "V1", [4], t: 4, call: 4),
        ]) { $0.override = nil; $0.overrideSeq = nil; $0.pendingOverrideCall = 4 }
        store.send(.joinChannel(channel: "c"), at: 9, outputs: [
            outcome(2, .applied, t: 9, by: 5), outcome(4, .applied, t: 9, by: 5), timer(5010, .callPathWindow(seq: 5)),
        ]) {
            $0.engaged = true; $0.engagedSeq = 5; $0.predictionSeq = 5
            $0.pendingOverrideCall = nil; $0.pendingDefaultCall = nil; $0.overrideAppliedBy = 5; $0.defaultAppliedBy = 5
        }
    }

    func test_V2_leaveDropsADeferredOverride_aDeferredDefaultWaitsForTheNextEngagement() {
        var store = TestStore.started(.smeeting)
        store.skip(.deviceConnected(id: "hs", kind: .headset, name: nil, port: nil), at: 1)   // seq 2
        store.skip(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 2)                           // seq 3
        store.skip(.setRoute(target: .speaker, api: nil), at: 3)                            // seq 4
        store.skip(.setDefaultRoute(target: .speaker), at: 4)                               // seq 5
        // Interrupted before, not engaged after: no prediction either way (R13), and no R18 window.
        store.send(.exitMeeting, at: 5, outputs: [outcome(4, .dropped, t: 5, by: 6)]) {
            $0.engaged = false; $0.leftSeq = 6; $0.interrupted = false; $0.interruptionKind = nil; $0.override = nil
            $0.overrideSeq = nil; $0.pendingOverrideCall = nil
        }
        XCTAssertEqual(store.state.pendingDefaultCall, 5)
        // Decided on the state then: the headset has the route, so the default is ineffective, and final.
        store.send(.enterMeeting(room: "r"), at: 6, outputs: [
            outcome(5, .ineffective, .externalRouteActive, t: 6, by: 7), timer(5007, .callPathWindow(seq: 7)),
        ]) {
            $0.engaged = true; $0.engagedSeq = 7; $0.pendingDefaultCall = nil; $0.defaultAppliedBy = 7; $0.predictionSeq = 7
        }
        store.send(.deviceDisconnected(id: "hs"), at: 7) { $0.devices = []; $0.predictionSeq = 8 }
        XCTAssertEqual(store.state.predictedRoute, .speaker, "the default is audible now; its outcome stays ineffective")
        // A leave drops a deferred override even when not engaged.
        store.skip(.exitMeeting, at: 8)
        store.skip(.setRoute(target: .earpiece, api: nil), at: 9)                           // seq 10
        store.send(.exitMeeting, at: 10, outputs: [outcome(10, .dropped, t: 10, by: 11)]) {
            $0.leftSeq = 11; $0.override = nil; $0.overrideSeq = nil; $0.pendingOverrideCall = nil
        }
    }

    func test_V2_recoveryDecidesTheCallsDeferredMeanwhile() {
        var store = TestStore.started()
        store.skip(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 100)                               // seq 2
        store.skip(.setRoute(target: .speaker, api: nil), at: 200)                          // seq 3
        store.skip(.setAudioModuleEnabled(enabled: false), at: 250)                         // seq 4
        store.send(.interruptionEnded(shouldResume: true), at: 300, outputs: [
            .recovered(t: 300), timer(5301, .recoveryWindow(interruptionSeq: 2)),
            outcome(3, .ineffective, .audioModuleDisabled, t: 300, by: 5), timer(5301, .callPathWindow(seq: 5)),
        ]) {
            $0.interrupted = false; $0.interruptionKind = nil; $0.predictionSeq = 5; $0.pendingOverrideCall = nil; $0.overrideAppliedBy = 5
            $0.pendingConfirmation = .init(interruptionSeq: 2, triggerSeq: 5, recoveredAt: 300)
        }
    }

    func test_X4_predictionSourceNamesTheBranchAndItsRecord() {
        var store = TestStore()
        store.skip(header(initialDefault: .speaker))                                        // seq 0
        XCTAssertNil(store.state.predictionSource, "not engaged: no prediction, so no source (R13: R6 no longer occurs)")
        store.skip(.joinChannel(channel: "c"), at: 1)
        XCTAssertEqual(store.state.predictionSource, PredictionSource(rule: .R2, seq: 0), "the header's initialDefaultRoute")
        store.skip(.setRoute(target: .earpiece, api: nil), at: 2)                           // seq 2
        XCTAssertEqual(store.state.predictionSource, PredictionSource(rule: .R2, seq: 2))
        store.skip(.micPermission(status: .denied), at: 3)                                  // seq 3
        XCTAssertEqual(store.state.predictionSource, PredictionSource(rule: .R7, seq: 3))
        store.skip(.deviceConnected(id: "bt", kind: .bluetooth, name: nil, port: nil), at: 4)   // seq 4
        XCTAssertEqual(store.engine.predictionSource, PredictionSource(rule: .R4, seq: 4))
        store.skip(.setAudioModuleEnabled(enabled: false), at: 5)
        XCTAssertNil(store.state.predictionSource)

        var plain = TestStore.started()
        XCTAssertEqual(plain.state.predictionSource, PredictionSource(rule: .R2, seq: nil), "the built-in default has no record")
        plain.skip(.sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: "videoChat")), at: 1)
        XCTAssertEqual(plain.state.predictionSource, PredictionSource(rule: .R11, seq: 2))
        var simulator = TestStore.started(simulator: true)
        simulator.skip(.micPermission(status: .denied), at: 1)
        XCTAssertEqual(simulator.state.predictionSource, PredictionSource(rule: .R10, seq: 0), "R10 comes before R7")
    }

    func test_finding_trace_limitExceeded_devicesBeyondTheLimitAreIgnored() {
        var store = TestStore.started()
        for i in 0..<RouteEngine.deviceLimit {
            store.skip(.deviceConnected(id: "bt-\(i)", kind: .bluetooth, name: nil, port: nil), at: 1)
        }
        let seq = store.nextSeq
        store.send(.deviceConnected(id: "wired", kind: .headset, name: nil, port: nil), at: 2,
                   outputs: [finding("trace.limitExceeded", .warning, nil, [seq], t: 2)]) { $0.deviceLimitReported = true }
        XCTAssertEqual(store.state.predictedRoute, .bluetooth, "the addition beyond the limit is ignored")
        store.send(.deviceConnected(id: "wired-2", kind: .headset, name: nil, port: nil), at: 3)   // once per limit
        store.send(.deviceConnected(id: "bt-0", kind: .bluetooth, name: nil, port: nil), at: 4) {   // a reconnection is no addition
            $0.devices.removeFirst(); $0.devices.append(.init(id: "bt-0", kind: .bluetooth, seq: seq + 2))
        }
    }
}
