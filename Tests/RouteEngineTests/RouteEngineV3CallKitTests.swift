import Contract
import RouteEngine
import TestSupport
import TraceModel
import XCTest

/// Contract v3's CallKit rules: I11 (a CallKit hold), I12 (CallKit owns activation: no prediction) and I13
/// (CallKit picks the built-in route for an answered call).
final class RouteEngineV3CallKitTests: XCTestCase {
    private let didActivate = RecordBody.callKit(event: .didActivate, callId: nil)
    private let didDeactivate = RecordBody.callKit(event: .didDeactivate, callId: nil)

    /// Engaged, the path up by CallKit (seq 2), then held by a `didDeactivate` at t=1000 (seq 3).
    private func held() -> TestStore {
        var store = TestStore.started()
        store.send(didActivate, at: 10) { $0.callPathUp = true }
        store.send(didDeactivate, at: 1000) { $0.interruptedBy(3, .hold); $0.predictionSeq = 3 }
        return store
    }

    func test_I11_aHoldInterrupts_routeCallsAreDeferred_andDidActivateRecoversAtOnce() {
        var store = held()
        XCTAssertNil(store.state.predictedRoute)
        // While it lasts the system's beginnings and ends are ignored; `hold` itself changes nothing.
        store.send(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 1100)
        store.send(.interruptionEnded(shouldResume: true), at: 1200)
        store.send(.setRoute(target: .speaker, api: nil), at: 1300, outputs: [
            verdict(6, "api.setRoute", .deferred, .interrupted, causeSeq: 3, t: 1300),
            finding("route.ineffective", .info, "V1", [6, 3], t: 1300, call: 6),
        ]) { $0.override = .speaker; $0.overrideSeq = 6; $0.pendingOverrideCall = 6 }
        store.send(.callKit(event: .hold, callId: nil), at: 1400)
        store.send(.callKit(event: .unhold, callId: nil), at: 2000, outputs: [timer(7001, .reactivationWindow(unholdSeq: 8))])
        // No I2 conditions; deferred calls decided by it; no callback checked (no I14 window); the override was
        // set during the hold, so no flush window (R15).
        store.send(didActivate, at: 2050, outputs: [.recovered(t: 2050), outcome(6, .applied, t: 2050, by: 9)]) {
            $0.recoveredAt(9); $0.activatedSinceInterruption = true; $0.callPathUp = true
            $0.pendingOverrideCall = nil; $0.overrideAppliedBy = 9
        }
        store.fire(RouteTimer(due: 7001, kind: .reactivationWindow(unholdSeq: 8)))
        XCTAssertEqual(store.state.predictionSource, PredictionSource(rule: .R2, seq: 6, appliedBy: 9))
    }

    func test_I11_anUnholdWithoutDidActivateInItsWindow_raisesNoReactivationOncePerHold() {
        var store = held()
        store.send(.callKit(event: .unhold, callId: nil), at: 6000, outputs: [timer(11001, .reactivationWindow(unholdSeq: 4))])
        store.send(.callKit(event: .unhold, callId: nil), at: 7000, outputs: [timer(12001, .reactivationWindow(unholdSeq: 5))])
        store.send(.sdkLog(level: "info", message: "tick"), at: 11000)                  // t0 + W: nothing yet
        store.fire(RouteTimer(due: 11001, kind: .reactivationWindow(unholdSeq: 4)),
                   outputs: [finding("callkit.noReactivation", .error, "I11", [4, 3], t: 11001)])
        store.fire(RouteTimer(due: 12001, kind: .reactivationWindow(unholdSeq: 5)))      // once per hold
        XCTAssertTrue(store.state.interrupted)
        // The edge: a didActivate at exactly t0 + W is in the window.
        var edge = held()
        edge.skip(.callKit(event: .unhold, callId: nil), at: 6000)
        edge.send(didActivate, at: 11000, outputs: [.recovered(t: 11000)]) {
            $0.recoveredAt(5); $0.activatedSinceInterruption = true; $0.callPathUp = true
        }
        edge.fire(RouteTimer(due: 11001, kind: .reactivationWindow(unholdSeq: 4)))
        // A hold whose unhold never comes raises nothing.
        var never = held()
        never.send(.sdkLog(level: "info", message: "tick"), at: 60_000)
        never.finish()
    }

    func test_I11_whatIsNotAHold_andWhatEndsIt() {
        // After the app's own call ended, or while not engaged: the path goes down, nothing is interrupted.
        var ended = TestStore.started()
        ended.skip(didActivate, at: 10)
        ended.send(.callKit(event: .end, callId: nil), at: 20) { $0.ownCallEnded = true }
        ended.send(didDeactivate, at: 30) { $0.callPathUp = false }
        var idle = TestStore.started(engaged: false)
        idle.send(didDeactivate, at: 30)
        // A second didDeactivate during a hold changes nothing.
        var store = held()
        store.send(didDeactivate, at: 1500)
        // An `end` ends the hold's obligation (nothing to reactivate), not the hold.
        store.skip(.callKit(event: .unhold, callId: nil), at: 2000)                      // seq 5
        store.send(.callKit(event: .end, callId: nil), at: 2100) { $0.ownCallEnded = true }
        store.fire(RouteTimer(due: 7001, kind: .reactivationWindow(unholdSeq: 5)))
        XCTAssertTrue(store.state.interrupted)
        // A leave ends it; I10 is not for a hold.
        store.send(.leaveChannel, at: 9000) {
            $0.engaged = false; $0.leftSeq = 7; $0.interrupted = false; $0.interruptionKind = nil
        }
    }

    func test_I11_replacesAnOpenI1Interruption_andAResetReplacesTheHold() {
        var store = TestStore.started()
        store.skip(didActivate, at: 10)
        store.send(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 100, outputs: [timer(1101, .interruptedCallback(seq: 3))]) {
            $0.interruptedBy(3); $0.predictionSeq = 3
        }
        store.send(didDeactivate, at: 200) { $0.interruptionKind = .hold; $0.interruptionSeq = 4 }
        store.send(.mediaServicesReset, at: 300, outputs: [timer(5301, .rebuildWindow(resetSeq: 5))]) {
            $0.interruptionKind = .reset; $0.interruptionSeq = 5; $0.resetSeq = 5
        }
        store.send(didActivate, at: 400, outputs: [
            .recovered(t: 400), timer(5401, .recoveryWindow(interruptionSeq: 5)), timer(5401, .callPathWindow(seq: 6)),
        ]) { $0.recoveredAt(6); $0.resetSeq = nil; $0.activatedSinceInterruption = true; $0.callPathUp = true }
    }

    func test_I12_noPredictionFromAnAnswerUntilDidActivateOrEnd_verdictsComputedWithoutIt() {
        var store = TestStore.started(.smeeting)
        store.send(.callKit(event: .answer, callId: "A"), at: 100, outputs: [timer(5101, .callKitWindow(actionSeq: 2))]) {
            $0.callKitWindows = [.init(actionSeq: 2, t: 100, answered: true)]; $0.callKitActionSeq = 2; $0.predictionSeq = 2
        }
        store.send(.setRoute(target: .speaker, api: "setSpeakerOutputEnabled(true)"), at: 200,
                   outputs: [verdict(3, "api.setRoute", .applied, t: 200, api: "setSpeakerOutputEnabled(true)")]) {
            $0.override = .speaker; $0.overrideSeq = 3
        }
        XCTAssertNil(store.state.predictedRoute)
        store.send(didActivate, at: 1100) {
            $0.callKitWindows = []; $0.callKitActionSeq = nil; $0.callPathUp = true; $0.predictionSeq = 4
        }
        XCTAssertEqual(store.state.predictedRoute, .speaker)
        // Not closed by callkit.noDidActivate: CallKit still owns activation; an end closes it.
        var silent = TestStore.started()
        silent.skip(.callKit(event: .start, callId: nil), at: 100)                         // seq 2
        silent.fire(RouteTimer(due: 5101, kind: .callKitWindow(actionSeq: 2)),
                    outputs: [finding("callkit.noDidActivate", .error, "I7", [2], t: 5101)]) { $0.callKitWindows = [] }
        XCTAssertNil(silent.state.predictedRoute)
        silent.send(.callKit(event: .end, callId: nil), at: 6000) { $0.callKitActionSeq = nil; $0.ownCallEnded = true; $0.predictionSeq = 3 }
    }

    /// A bluetooth device (seq 2), an answered CallKit call (seq 3), its didActivate at t=500 (seq 4).
    private func answered(_ kind: DeviceKind = .bluetooth, event: CallKitEvent = .answer) -> TestStore {
        var store = TestStore.started()
        store.skip(.deviceConnected(id: "pods", kind: kind, name: "AirPods", port: nil), at: 10)
        store.skip(.callKit(event: event, callId: nil), at: 100)
        store.skip(didActivate, at: 500)
        return store
    }

    func test_I13_iOSPutsAnAnsweredCallOnTheBuiltInRoute_andTheDevicesLoseTheRoute() {
        var store = answered()
        XCTAssertEqual(store.state.predictedRoute, .bluetooth)
        store.send(reading(.receiver, .categoryChange), at: 600, outputs: [finding("callkit.builtInRouteChosen", .info, "I13", [5, 2], t: 600)]) {
            $0.lastReading = .init(route: .receiver, t: 600, seq: 5); $0.callKitChoice = .init(route: .receiver, readingSeq: 5)
            $0.predictionSeq = 5
        }
        XCTAssertEqual(store.state.predictionSource, PredictionSource(rule: .I13, seq: 5))
        XCTAssertFalse(store.state.isExternalRouteActive)
        // V1 skips R4: a tap for the other built-in route is applied, and after it the built-in branches apply.
        store.send(.setRoute(target: .speaker, api: nil), at: 1000, outputs: [verdict(6, "api.setRoute", .applied, t: 1000)]) {
            $0.override = .speaker; $0.overrideSeq = 6; $0.callKitChoice?.route = nil; $0.predictionSeq = 6
        }
        XCTAssertEqual(store.state.predictedRoute, .speaker)
        // A reading that shows bluetooth ends it: R4 again.
        store.send(reading(.bluetooth, .newDeviceAvailable), at: 2000) {
            $0.lastReading = .init(route: .bluetooth, t: 2000, seq: 7); $0.callKitChoice = nil; $0.predictionSeq = 7
        }
        XCTAssertEqual(store.state.predictedRoute, .bluetooth)
    }

    func test_I13_theMatchWindowAfterDidActivateIsInclusive() {
        var inside = answered()
        inside.skip(reading(.speaker, .routeConfigurationChange), at: 1500)
        XCTAssertEqual(inside.state.callKitChoice, .init(route: .speaker, readingSeq: 5))
        var outside = answered()
        outside.send(reading(.speaker, .routeConfigurationChange), at: 1501) { $0.lastReading = .init(route: .speaker, t: 1501, seq: 5) }
        XCTAssertEqual(outside.state.predictedRoute, .bluetooth, "a divergence as before v3")
    }

    func test_I13_aDidActivateAfterNoDidActivateStillClosesTheAnswersWindow() {
        // I12's window outlives I7's finding, and I13 reads I12's: a late didActivate of an answered call counts.
        var store = TestStore.started()
        store.skip(.deviceConnected(id: "pods", kind: .bluetooth, name: "AirPods", port: nil), at: 10)   // seq 2
        store.skip(.callKit(event: .answer, callId: nil), at: 100)                                       // seq 3
        store.fire(RouteTimer(due: 5101, kind: .callKitWindow(actionSeq: 3)),
                   outputs: [finding("callkit.noDidActivate", .error, "I7", [3], t: 5101)]) { $0.callKitWindows = [] }
        store.skip(didActivate, at: 6000)                                                                // seq 4
        store.send(reading(.receiver, .categoryChange), at: 6100, outputs: [finding("callkit.builtInRouteChosen", .info, "I13", [5, 2], t: 6100)]) {
            $0.lastReading = .init(route: .receiver, t: 6100, seq: 5); $0.callKitChoice = .init(route: .receiver, readingSeq: 5)
            $0.predictionSeq = 5
        }
    }

    func test_I13_notForAStartedCall_norForAHeadset() {
        for store0 in [answered(event: .start), answered(.headset)] {
            var store = store0
            store.send(reading(.receiver, .routeConfigurationChange), at: 600) { $0.lastReading = .init(route: .receiver, t: 600, seq: 5) }
            XCTAssertNil(store.state.callKitChoice)
        }
    }

    func test_I13_whatEndsItAndWhatDoesNot() {
        let ends: [(RecordBody, Bool)] = [
            (.deviceDisconnected(id: "pods"), false),
            (.deviceConnected(id: "tv", kind: .airplay, name: nil, port: nil), false),     // no call session: cannot take it
            (.deviceConnected(id: "hs", kind: .headset, name: nil, port: nil), true),
            (reading(.headset, .newDeviceAvailable), true),
            (.callKit(event: .end, callId: nil), true), (.callKit(event: .answer, callId: nil), true),
            (.callKit(event: .start, callId: nil), true),
            (.interruptionBegan(cause: .siri, wasSuspended: nil), true), (.leaveChannel, true),
        ]
        for (record, ending) in ends {
            var store = answered()
            store.skip(reading(.receiver, .routeConfigurationChange), at: 600)
            store.skip(record, at: 2000)
            XCTAssertEqual(store.state.callKitChoice == nil, ending, "\(record)")
        }
        // A disconnect leaves iOS's choice as the prediction, not the built-in default.
        var store = answered()
        store.skip(reading(.speaker, .routeConfigurationChange), at: 600)
        store.skip(.deviceDisconnected(id: "pods"), at: 2000)
        XCTAssertEqual(store.state.predictedRoute, .speaker)
        // Any route call ends the phase in which iOS's choice is the prediction, a noop included; R4 stays skipped.
        store.send(.setDefaultRoute(target: .earpiece), at: 3000, outputs: [verdict(7, "api.setDefaultRoute", .noop, t: 3000)]) {
            $0.callKitChoice?.route = nil; $0.predictionSeq = 7
        }
        XCTAssertEqual(store.state.predictedRoute, .receiver)
        XCTAssertEqual(store.state.predictionSource, PredictionSource(rule: .R2, seq: nil))
    }

    func test_I4_anActivationDuringAHoldWithASystemCallUp_isPremature_andBringsNoPathUp() {
        // The user took the cellular call (connected) and CallKit held the app's call: an activation then is
        // bound to fail (I4, first half; only a reset's rebuild is exempt), so it does not bring the call path
        // up (R17): the engagement after the hang-up opens a window.
        let (engine, findings) = replayed([
            (100, .joinChannel(channel: "c")),
            (110, callSession()),
            (1500, .callState(state: .connected)),
            (2000, .callKit(event: .didDeactivate, callId: nil)),                           // 4: hold
            (2500, callSession()),                                                          // 5: premature
            (3000, .leaveChannel),
            (3100, .callState(state: .disconnected)),
            (4000, .joinChannel(channel: "c")),                                             // 8
            (10000, .sdkLog(level: "debug", message: "tick")),
        ])
        XCTAssertEqual(raised(.interruptionPrematureReactivation, in: findings), ["[5, 4]@2500"])
        XCTAssertFalse(engine.state.callPathUp)
        XCTAssertEqual(raised(.sessionCallPathNotUp, in: findings), ["[8]@9001"])
    }
}
