import Contract
import RouteEngine
import TestSupport
import TraceModel
import XCTest

/// R15 (b): the flush window at the recovery from an interruption (I3, I6, I8, I9, and an I11 hold), never
/// at an I5 rebuild, and not when the override was set or changed during the interruption.
final class RouteEngineV3FlushAtRecoveryTests: XCTestCase {
    private func settle(_ due: Int64, _ openedBy: Int, _ reading: Int) -> RouteTimer {
        RouteTimer(due: due, kind: .flushSettle(openedBy: openedBy, readingSeq: reading))
    }

    /// Engaged with a call session (seq 2), the speaker override (seq 3) shown by the device (seq 4), then
    /// interrupted at t=2000 (seq 5).
    private func interruptedWithOverride() -> TestStore {
        var store = TestStore.started()
        store.skip(callSession(), at: 10)
        store.send(.setRoute(target: .speaker, api: nil), at: 1000, outputs: [verdict(3, "api.setRoute", .applied, t: 1000)]) {
            $0.override = .speaker; $0.overrideSeq = 3; $0.predictionSeq = 3
        }
        store.send(reading(.speaker, .override), at: 1020) { $0.lastReading = .init(route: .speaker, t: 1020, seq: 4) }
        store.send(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 2000, outputs: [timer(3001, .interruptedCallback(seq: 5))]) {
            $0.interruptedBy(5); $0.predictionSeq = 5
        }
        return store
    }

    /// The same, and the earpiece asked during the interruption: deferred, to be applied at the recovery (seq 6).
    private func earpieceDeferredDuringTheInterruption() -> TestStore {
        var store = interruptedWithOverride()
        store.send(.setRoute(target: .earpiece, api: nil), at: 2500, outputs: [
            verdict(6, "api.setRoute", .deferred, .interrupted, causeSeq: 5, t: 2500),
            finding("route.ineffective", .info, "V1", [6, 5], t: 2500, call: 6),
        ]) { $0.override = .earpiece; $0.overrideSeq = 6; $0.pendingOverrideCall = 6 }
        return store
    }

    /// The recovery at `os.interruptionEnded` (seq 6, t=3000): the route in force counts as a reading taken then.
    private func recovered(_ store: inout TestStore) {
        store.send(.interruptionEnded(shouldResume: true), at: 3000, outputs: [
            .recovered(t: 3000), timer(8001, .recoveryWindow(interruptionSeq: 5)), timer(8001, .callPathWindow(seq: 6)),
            .timer(settle(3501, 5, 4)),
        ]) { $0.recoveredAt(6); $0.pendingConfirmation = .init(interruptionSeq: 5, triggerSeq: 6, recoveredAt: 3000) }
    }

    func test_R15_atARecoveryTheRouteInForceCounts_andWhenItSettlesOnOTheOverrideStays() {
        var store = interruptedWithOverride()
        recovered(&store)
        store.fire(settle(3501, 5, 4))                        // iOS posts no change when the route stays: O
        XCTAssertNil(store.engine.obligations.flush)
        store.send(.clearRouteOverride, at: 4000, outputs: [verdict(7, "api.clearRouteOverride", .applied, t: 4000)]) {
            $0.override = nil; $0.overrideSeq = nil; $0.predictionSeq = 7
        }
    }

    func test_R15_atARecoveryAReadingOfNSettles_andTheFlushNamesTheInterruptionsBeginning() {
        var store = interruptedWithOverride()
        recovered(&store)
        store.send(callSession(), at: 3010) {
            $0.activatedSinceInterruption = true; $0.pendingConfirmation = nil; $0.callSessionUp(7, "voiceChat")
        }
        store.send(reading(.receiver, .categoryChange), at: 3060, outputs: [.timer(settle(3561, 5, 8))]) {
            $0.lastReading = .init(route: .receiver, t: 3060, seq: 8)
        }
        store.fire(settle(3501, 5, 4))                        // shown 60 ms only
        store.fire(settle(3561, 5, 8), outputs: [finding("route.overrideFlushed", .info, "R15", [8, 5, 3], t: 3561)]) {
            $0.override = nil; $0.overrideSeq = nil; $0.predictionSeq = 8
        }
    }

    func test_R15_noWindowAtARecoveryWhenTheOverrideWasSetDuringTheInterruption() {
        var store = earpieceDeferredDuringTheInterruption()
        // The SDK was asked to apply it at the recovery: a device that does not show it is a divergence.
        store.send(.interruptionEnded(shouldResume: true), at: 3000, outputs: [
            .recovered(t: 3000), timer(8001, .recoveryWindow(interruptionSeq: 5)), outcome(6, .applied, t: 3000, by: 7),
            timer(8001, .callPathWindow(seq: 7)),
        ]) {
            $0.recoveredAt(7); $0.pendingConfirmation = .init(interruptionSeq: 5, triggerSeq: 7, recoveredAt: 3000)
            $0.pendingOverrideCall = nil; $0.overrideAppliedBy = 7
        }
        XCTAssertNil(store.engine.obligations.flush)
        // A call that changes nothing (noop) sets nothing: the window opens as usual.
        var noop = interruptedWithOverride()
        noop.send(.setRoute(target: .speaker, api: nil), at: 2500, outputs: [verdict(6, "api.setRoute", .noop, t: 2500)])
        noop.skip(.interruptionEnded(shouldResume: true), at: 3000)
        XCTAssertEqual(noop.engine.obligations.flush?.openedBy, 5)
    }

    func test_R15_aDevicePluggedAndUnpluggedDuringTheInterruption_theRecoveryStillKnowsTheOverrideWasSetDuringIt() {
        var store = earpieceDeferredDuringTheInterruption()
        // Interrupted: neither device change opens a window, and neither may make the recovery forget the call.
        store.send(.deviceConnected(id: "hs", kind: .headset, name: nil, port: "Headphones"), at: 2600) {
            $0.devices = [.init(id: "hs", kind: .headset, seq: 7)]
        }
        store.send(.deviceDisconnected(id: "hs"), at: 2700) { $0.devices = [] }
        XCTAssertNil(store.engine.obligations.flush)
        // No settle timer at the recovery: the SDK was asked to apply the earpiece then.
        store.send(.interruptionEnded(shouldResume: true), at: 3000, outputs: [
            .recovered(t: 3000), timer(8001, .recoveryWindow(interruptionSeq: 5)), outcome(6, .applied, t: 3000, by: 9),
            timer(8001, .callPathWindow(seq: 9)),
        ]) {
            $0.recoveredAt(9); $0.pendingConfirmation = .init(interruptionSeq: 5, triggerSeq: 9, recoveredAt: 3000)
            $0.pendingOverrideCall = nil; $0.overrideAppliedBy = 9
        }
        XCTAssertNil(store.engine.obligations.flush)
        XCTAssertNil(store.engine.toleratedRoute, "a speaker reading is a mismatch, not the earpiece flushed")
        // The flag was read at that recovery: the next interruption starts without it, and its recovery opens one.
        store.skip(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 4000)                   // seq 10
        store.skip(.interruptionEnded(shouldResume: true), at: 4500)                                // seq 11
        XCTAssertEqual(store.engine.obligations.flush?.openedBy, 10)
    }

    func test_R15_neverAtAnI5Rebuild() {
        var store = TestStore.started()
        store.skip(callSession(), at: 10)                                               // seq 2
        store.skip(.setRoute(target: .speaker, api: nil), at: 1000)                     // seq 3
        store.skip(reading(.speaker, .override), at: 1020)                              // seq 4
        store.send(.mediaServicesReset, at: 2000, outputs: [
            timer(7001, .rebuildWindow(resetSeq: 5)), timer(3001, .interruptedCallback(seq: 5)),
        ]) { $0.interruptedBy(5, .reset); $0.predictionSeq = 5; $0.callSession = nil }
        // The SDK must re-apply the override (v2): no flush window, no settle timer.
        store.send(callSession(), at: 2500, outputs: [
            .recovered(t: 2500), timer(7501, .recoveryWindow(interruptionSeq: 5)), timer(7501, .callPathWindow(seq: 6)),
        ]) {
            $0.recoveredAt(6); $0.resetSeq = nil; $0.activatedSinceInterruption = true; $0.callSessionUp(6, "voiceChat")
        }
        XCTAssertNil(store.engine.obligations.flush)
    }

    func test_R15_atTheRecoveryFromAHold_theFlushNamesTheHoldsDidDeactivate() {
        var store = TestStore.started(.smeeting)
        store.skip(.callKit(event: .didActivate, callId: nil), at: 10)                  // seq 2: the path is up
        store.skip(.setRoute(target: .speaker, api: nil), at: 1000)                     // seq 3
        store.skip(reading(.speaker, .override), at: 1020)                              // seq 4
        store.send(.callKit(event: .didDeactivate, callId: nil), at: 2000) { $0.interruptedBy(5, .hold); $0.predictionSeq = 5 }
        store.send(.callKit(event: .unhold, callId: nil), at: 3000, outputs: [timer(8001, .reactivationWindow(unholdSeq: 6))])
        store.send(.callKit(event: .didActivate, callId: nil), at: 3050, outputs: [.recovered(t: 3050), .timer(settle(3551, 5, 4))]) {
            $0.recoveredAt(7); $0.activatedSinceInterruption = true; $0.callPathUp = true
        }
        store.send(reading(.receiver, .categoryChange), at: 3070, outputs: [.timer(settle(3571, 5, 8))]) {
            $0.lastReading = .init(route: .receiver, t: 3070, seq: 8)
        }
        store.fire(settle(3571, 5, 8), outputs: [finding("route.overrideFlushed", .info, "R15", [8, 5, 3], t: 3571)]) {
            $0.override = nil; $0.overrideSeq = nil; $0.predictionSeq = 8
        }
        store.fire(RouteTimer(due: 8001, kind: .reactivationWindow(unholdSeq: 6)))   // reactivated in time
    }
}
