import TestSupport
import XCTest

/// V1: the verdict on route calls, one test per step of the cause order.
final class RouteEngineVerdictTests: XCTestCase {
    func test_V1_noStateChangeIsNoopBeforeAnyCause() {
        var store = TestStore.started(engaged: false)
        store.send(.setDefaultRoute(target: .earpiece), at: 1, outputs: [verdict(1, "api.setDefaultRoute", .noop, t: 1)])
        store.send(.clearRouteOverride, at: 2, outputs: [verdict(2, "api.clearRouteOverride", .noop, t: 2)])
    }

    func test_V1_notEngagedBeforeAudioModuleDisabled() {
        var store = TestStore.started(engaged: false)
        // Not engaged, nothing is predicted either way (R13): the prediction's record does not move.
        store.send(.setAudioModuleEnabled(enabled: false), at: 1) {
            $0.audioModuleEnabled = false; $0.audioModuleDisabledSeq = 1
        }
        store.send(.setRoute(target: .speaker, api: nil), at: 2, outputs: [
            verdict(2, "api.setRoute", .deferred, .notEngaged, t: 2), finding("route.ineffective", .info, "V1", [2], t: 2, call: 2),
        ]) { $0.override = .speaker; $0.overrideSeq = 2; $0.pendingOverrideCall = 2 }
    }

    func test_V1_interruptedBeforeAudioModuleDisabled() {
        var store = TestStore.started()
        store.skip(.setAudioModuleEnabled(enabled: false), at: 1)
        store.skip(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 2)
        store.send(.setRoute(target: .speaker, api: "setAudioRoute(.speaker)"), at: 3, outputs: [
            verdict(4, "api.setRoute", .deferred, .interrupted, causeSeq: 3, t: 3, api: "setAudioRoute(.speaker)"),
            finding("route.ineffective", .info, "V1", [4, 3], t: 3, call: 4),
        ]) { $0.override = .speaker; $0.overrideSeq = 4; $0.pendingOverrideCall = 4 }
    }

    func test_V1_audioModuleDisabledBeforeExternalRoute() {
        var store = TestStore.started()
        store.skip(.deviceConnected(id: "bt", kind: .bluetooth, name: nil, port: nil), at: 1)
        store.skip(.setAudioModuleEnabled(enabled: false), at: 2)
        store.send(.setRoute(target: .speaker, api: nil), at: 3, outputs: [
            verdict(4, "api.setRoute", .ineffective, .audioModuleDisabled, causeSeq: 3, t: 3),
            finding("route.ineffective", .warning, "V1", [4, 3], t: 3, call: 4),
        ]) { $0.override = .speaker; $0.overrideSeq = 4 }
    }

    func test_V1_externalRouteBeforeOverrideActive() {
        var store = TestStore.started()
        store.skip(.setRoute(target: .speaker, api: nil), at: 1)
        store.skip(.deviceConnected(id: "hs", kind: .headset, name: nil, port: nil), at: 2)
        store.send(.setDefaultRoute(target: .speaker), at: 3, outputs: [
            verdict(4, "api.setDefaultRoute", .ineffective, .externalRouteActive, causeSeq: 3, t: 3),
            finding("route.ineffective", .warning, "V1", [4, 3], t: 3, call: 4),
        ]) { $0.defaultTarget = .speaker; $0.defaultSeq = 4 }
    }

    func test_V1_overrideActiveBeforeSimulator_onlyForSetDefaultRoute() {
        var store = TestStore.started(simulator: true)
        store.skip(.setRoute(target: .earpiece, api: nil), at: 1)
        store.send(.setDefaultRoute(target: .speaker), at: 2, outputs: [
            verdict(3, "api.setDefaultRoute", .ineffective, .overrideActive, causeSeq: 2, t: 2),
            finding("route.ineffective", .warning, "V1", [3, 2], t: 2, call: 3),
        ]) { $0.defaultTarget = .speaker; $0.defaultSeq = 3 }
        store.send(.setRoute(target: .speaker, api: nil), at: 3, outputs: [verdict(4, "api.setRoute", .noop, t: 3)]) {
            $0.override = .speaker; $0.overrideSeq = 4
        }
    }

    func test_V1_simulatorBeforeMicDenied() {
        var store = TestStore.started(simulator: true)
        store.skip(.micPermission(status: .denied), at: 1)
        store.send(.setRoute(target: .earpiece, api: nil), at: 2, outputs: [
            verdict(3, "api.setRoute", .ineffective, .simulator, causeSeq: 0, t: 2),
            finding("route.ineffective", .warning, "V1", [3, 0], t: 2, call: 3),
        ]) { $0.override = .earpiece; $0.overrideSeq = 3 }
    }

    func test_V1_micDeniedWhenNewTargetIsEarpiece() {
        var store = TestStore.started(initialDefault: .speaker)
        store.skip(.micPermission(status: .denied), at: 1)
        store.send(.setRoute(target: .earpiece, api: nil), at: 2, outputs: [
            verdict(3, "api.setRoute", .ineffective, .micDenied, causeSeq: 2, t: 2),
            finding("route.ineffective", .warning, "V1", [3, 2], t: 2, call: 3),
        ]) { $0.override = .earpiece; $0.overrideSeq = 3 }
        store.send(.clearRouteOverride, at: 3, outputs: [verdict(4, "api.clearRouteOverride", .noop, t: 3)]) {
            $0.override = nil; $0.overrideSeq = nil
        }
    }

    func test_V1_appliedOnlyWhenThePredictedRouteChanges() {
        var store = TestStore.started()
        store.send(.setRoute(target: .earpiece, api: nil), at: 1, outputs: [verdict(2, "api.setRoute", .noop, t: 1)]) {
            $0.override = .earpiece; $0.overrideSeq = 2
        }
        store.send(.setDefaultRoute(target: .speaker), at: 2, outputs: [
            verdict(3, "api.setDefaultRoute", .ineffective, .overrideActive, causeSeq: 2, t: 2),
            finding("route.ineffective", .warning, "V1", [3, 2], t: 2, call: 3),
        ]) { $0.defaultTarget = .speaker; $0.defaultSeq = 3 }
        store.send(.clearRouteOverride, at: 3, outputs: [verdict(4, "api.clearRouteOverride", .applied, t: 3)]) {
            $0.override = nil; $0.overrideSeq = nil; $0.predictionSeq = 4
        }
        XCTAssertEqual(store.state.predictedRoute, .speaker)
    }
}
