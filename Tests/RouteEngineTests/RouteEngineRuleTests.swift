import Contract
import RouteEngine
import TestSupport
import TraceModel
import XCTest

/// One test per route rule (contract.md, "Route engine").
final class RouteEngineRuleTests: XCTestCase {
    func test_initialState_matchesTheContract() {
        let s = RouteEngine().state
        XCTAssertEqual(s.layer, .srtc)
        XCTAssertNil(s.override)
        XCTAssertFalse(s.engaged)
        XCTAssertEqual(s.micPermission, .undetermined)
        XCTAssertEqual(s.devices, [])
        XCTAssertFalse(s.interrupted)
        XCTAssertFalse(s.recoveryPending)
        XCTAssertTrue(s.foreground)
        XCTAssertEqual(s.callState, .idle)
        XCTAssertTrue(s.audioModuleEnabled)
        XCTAssertEqual(s.defaultTarget, .earpiece)
        XCTAssertNil(s.predictedRoute, "not engaged → no prediction (R13 replaces v1's speaker)")
    }

    func test_R1_onlySpeakerAndEarpieceAreTargets() {
        XCTAssertEqual(RouteTarget.allCases, [.speaker, .earpiece])
        XCTAssertEqual(RouteTarget.earpiece.route, .receiver)
        var store = TestStore.started()
        store.send(.setRoute(target: .speaker, api: nil), at: 10, outputs: [verdict(2, "api.setRoute", .applied, t: 10)]) {
            $0.override = .speaker; $0.overrideSeq = 2; $0.predictionSeq = 2
        }
        XCTAssertEqual(store.state.predictedRoute, .speaker)
        XCTAssertFalse(store.state.isExternalRouteActive, "no call ever asks for an external route")
    }

    func test_R2_effectiveTargetIsOverrideElseDefault_defaultFromHeader() {
        var store = TestStore()
        store.send(header(initialDefault: .speaker)) { $0.defaultTarget = .speaker; $0.defaultSeq = 0; $0.headerSeq = 0 }
        XCTAssertEqual(store.state.effectiveTarget, .speaker)
        // R17: the engagement opens a call-path window; R13: the prediction starts with it.
        store.send(.joinChannel(channel: "c"), outputs: [timer(5001, .callPathWindow(seq: 1))]) {
            $0.engaged = true; $0.engagedSeq = 1; $0.predictionSeq = 1
        }
        store.send(.setRoute(target: .earpiece, api: nil), outputs: [verdict(2, "api.setRoute", .applied, t: 0)]) {
            $0.override = .earpiece; $0.overrideSeq = 2; $0.predictionSeq = 2
        }
        XCTAssertEqual(store.state.effectiveTarget, .earpiece)
        XCTAssertEqual(store.state.effectiveRouteTarget, .earpiece)
        XCTAssertEqual(store.state.predictedRoute, .receiver)

        var plain = TestStore()
        plain.send(header()) { $0.headerSeq = 0 }
        XCTAssertNil(plain.state.predictionSource, "R6 no longer occurs: not engaged, no prediction (R13)")
        XCTAssertEqual(plain.state.effectiveTarget, .earpiece, "absent initialDefaultRoute means earpiece")
    }

    func test_R3_defaultOverrideAndClear_andTheThreeSpellingsAreOneMechanism() {
        var store = TestStore.started()
        store.send(.setDefaultRoute(target: .speaker), at: 5, outputs: [verdict(2, "api.setDefaultRoute", .applied, t: 5)]) {
            $0.defaultTarget = .speaker; $0.defaultSeq = 2; $0.predictionSeq = 2
        }
        let api = "setSpeakerOutputEnabled(false)"
        store.send(.setRoute(target: .earpiece, api: api), at: 6,
                   outputs: [verdict(3, "api.setRoute", .applied, t: 6, api: api)]) {
            $0.override = .earpiece; $0.overrideSeq = 3; $0.predictionSeq = 3
        }
        store.send(.setRoute(target: .earpiece, api: "setSpeakerOutputPreferred(false)"), at: 7,
                   outputs: [verdict(4, "api.setRoute", .noop, t: 7, api: "setSpeakerOutputPreferred(false)")])
        store.send(.clearRouteOverride, at: 8, outputs: [verdict(5, "api.clearRouteOverride", .applied, t: 8)]) {
            $0.override = nil; $0.overrideSeq = nil; $0.predictionSeq = 5
        }
        XCTAssertEqual(store.state.predictedRoute, .speaker)
    }

    func test_R4_externalDevicesWin_mostRecentlyConnected() {
        var store = TestStore.started()
        store.send(.deviceConnected(id: "bt", kind: .bluetooth, name: "AirPods", port: nil), at: 10) {
            $0.devices = [.init(id: "bt", kind: .bluetooth, name: "AirPods", seq: 2)]; $0.predictionSeq = 2
        }
        XCTAssertEqual(store.state.predictedRoute, .bluetooth)
        store.send(.deviceConnected(id: "wired", kind: .headset, name: nil, port: "Headphones"), at: 20) {
            $0.devices.append(.init(id: "wired", kind: .headset, seq: 3)); $0.predictionSeq = 3
        }
        XCTAssertEqual(store.state.predictedRoute, .headset)
        XCTAssertTrue(store.state.isExternalAudioRouteActive)
        XCTAssertTrue(store.state.isBluetoothAvailable)
        store.send(.setRoute(target: .speaker, api: nil), at: 30, outputs: [
            verdict(4, "api.setRoute", .ineffective, .externalRouteActive, causeSeq: 3, t: 30),
            finding("route.ineffective", .warning, "V1", [4, 3], t: 30, call: 4),
        ]) { $0.override = .speaker; $0.overrideSeq = 4 }
        XCTAssertEqual(store.state.predictedRoute, .headset)
    }

    func test_R5_unplugFallsBackToRemainingDeviceThenToOverride() {
        var store = TestStore.started()
        store.send(.setRoute(target: .speaker, api: nil), at: 1, outputs: [verdict(2, "api.setRoute", .applied, t: 1)]) {
            $0.override = .speaker; $0.overrideSeq = 2; $0.predictionSeq = 2
        }
        store.send(.deviceConnected(id: "bt", kind: .bluetooth, name: nil, port: nil), at: 2) {
            $0.devices = [.init(id: "bt", kind: .bluetooth, seq: 3)]; $0.predictionSeq = 3
        }
        store.send(.deviceConnected(id: "hs", kind: .headset, name: nil, port: nil), at: 3) {
            $0.devices.append(.init(id: "hs", kind: .headset, seq: 4)); $0.predictionSeq = 4
        }
        store.send(.deviceDisconnected(id: "hs"), at: 4) {
            $0.devices = [.init(id: "bt", kind: .bluetooth, seq: 3)]; $0.predictionSeq = 5
        }
        XCTAssertEqual(store.state.predictedRoute, .bluetooth)
        store.send(.deviceDisconnected(id: "unknown"), at: 5)
        store.send(.deviceDisconnected(id: "bt"), at: 6) { $0.devices = []; $0.predictionSeq = 7 }
        XCTAssertEqual(store.state.override, .speaker, "the override survives plugging and unplugging")
        XCTAssertEqual(store.state.predictedRoute, .speaker)
    }

    func test_R6_requestsBeforeEngagementAreRecorded_leaveDropsOverrideKeepsDefault() {
        var store = TestStore()
        store.send(header(.smeeting)) { $0.layer = .smeeting; $0.headerSeq = 0 }
        store.send(.setDefaultRoute(target: .speaker), at: 1, outputs: [
            verdict(1, "api.setDefaultRoute", .deferred, .notEngaged, t: 1),
            finding("route.ineffective", .info, "V1", [1], t: 1, call: 1),
        ]) { $0.defaultTarget = .speaker; $0.defaultSeq = 1; $0.pendingDefaultCall = 1 }
        store.send(.setRoute(target: .earpiece, api: nil), at: 2, outputs: [
            verdict(2, "api.setRoute", .deferred, .notEngaged, t: 2),
            finding("route.ineffective", .info, "V1", [2], t: 2, call: 2),
        ]) { $0.override = .earpiece; $0.overrideSeq = 2; $0.pendingOverrideCall = 2 }
        XCTAssertNil(store.state.predictedRoute, "not engaged → no prediction (R13)")
        // V2: both are decided at the engagement, on the state then: the override shadows the new default.
        store.send(.enterMeeting(room: "r"), at: 3, outputs: [
            outcome(1, .ineffective, .overrideActive, t: 3, by: 3), outcome(2, .applied, t: 3, by: 3),
            timer(5004, .callPathWindow(seq: 3)),
        ]) {
            $0.engaged = true; $0.engagedSeq = 3; $0.predictionSeq = 3
            $0.pendingDefaultCall = nil; $0.pendingOverrideCall = nil; $0.defaultAppliedBy = 3; $0.overrideAppliedBy = 3
        }
        XCTAssertEqual(store.state.predictedRoute, .receiver, "the recorded request applies at engagement")
        XCTAssertEqual(store.state.predictionSource, PredictionSource(rule: .R2, seq: 2, appliedBy: 3))
        XCTAssertTrue(store.state.isAudioSessionActive)
        // R18: no activation recorded so far, so the exit opens a deactivation window.
        store.send(.exitMeeting, at: 4, outputs: [timer(5005, .deactivationWindow(seq: 4))]) {
            $0.engaged = false; $0.leftSeq = 4; $0.override = nil; $0.overrideSeq = nil; $0.predictionSeq = 4
            $0.overrideAppliedBy = nil
        }
        XCTAssertEqual(store.state.defaultTarget, .speaker)
        store.send(.setRoute(target: .earpiece, api: nil), at: 5, outputs: [
            verdict(5, "api.setRoute", .deferred, .notEngaged, causeSeq: 4, t: 5),
            finding("route.ineffective", .info, "V1", [5, 4], t: 5, call: 5),
        ]) { $0.override = .earpiece; $0.overrideSeq = 5; $0.pendingOverrideCall = 5 }
    }

    func test_R7_micDeniedMakesEarpieceTargetPlayOnSpeaker() {
        var store = TestStore.started()
        XCTAssertEqual(store.state.predictedRoute, .receiver)
        store.send(.micPermission(status: .denied), at: 5) {
            $0.micPermission = .denied; $0.micPermissionSeq = 2; $0.predictionSeq = 2
        }
        XCTAssertEqual(store.state.predictedRoute, .speaker)
        store.send(.micPermission(status: .granted), at: 6) {
            $0.micPermission = .granted; $0.micPermissionSeq = 3; $0.predictionSeq = 3
        }
        XCTAssertEqual(store.state.predictedRoute, .receiver)
    }

    /// R8 as restated in v3, branch by branch from the last to the first: each earlier branch wins over
    /// every later one.
    func test_R8_predictionOrder() {
        var s = RouteEngine.State()
        s.engaged = true
        s.override = .earpiece
        XCTAssertEqual(s.predictedRoute, .receiver, "else: the effective target")
        s.callSession = .init(seq: 1, mode: "videoChat", allowsAirPlay: true)
        XCTAssertEqual(s.predictedRoute, .speaker, "a videoChat call session → speaker (R11, R19)")
        s.micPermission = .denied
        XCTAssertEqual(s.predictedRoute, .speaker, "mic denied → speaker")
        s.simulator = true
        XCTAssertEqual(s.predictedRoute, .speaker, "simulator → speaker")
        s.devices = [.init(id: "a", kind: .headset, seq: 1), .init(id: "b", kind: .bluetooth, seq: 2)]
        XCTAssertEqual(s.predictedRoute, .bluetooth, "the device that has the route, before the simulator")
        s.devices.append(.init(id: "car", kind: .carAudio, seq: 3))
        XCTAssertNil(s.predictedRoute, "a device with no five-state value has the route → no prediction (R14)")
        s.engaged = false
        XCTAssertNil(s.predictedRoute, "not engaged → no prediction, whatever devices are connected (R13)")
        s.devices.removeLast()
        XCTAssertNil(s.predictedRoute, "not engaged, with a bluetooth device connected (R13; v1 predicted bluetooth)")
        s.callKitChoice = .init(route: .receiver, readingSeq: 4)
        XCTAssertEqual(s.predictedRoute, .receiver, "iOS's CallKit choice comes before R13 in the order")
        s.engaged = true
        XCTAssertEqual(s.predictedRoute, .receiver, "iOS's CallKit choice, before the devices (I13)")
        s.callKitActionSeq = 5
        XCTAssertNil(s.predictedRoute, "a CallKit window open → no prediction (I12)")
        XCTAssertEqual(s.predicted(override: s.override, callKitWindow: false), .receiver, "verdicts read R8 without it")
        s.callKitActionSeq = nil
        s.audioModuleEnabled = false
        XCTAssertNil(s.predictedRoute, "module disabled → no prediction, even with a device")
        s.audioModuleEnabled = true
        s.interrupted = true
        XCTAssertNil(s.predictedRoute, "interrupted → no prediction")
        XCTAssertNil(s.currentRoute)
        XCTAssertNil(s.currentAudioRoute)
        s.interrupted = false
        XCTAssertEqual(s.predictedRoute, .receiver)
        s.macOS = true
        XCTAssertNil(s.predictedRoute, "a macOS trace → no prediction, first of all (R16)")
        XCTAssertNil(s.predictionSource)
    }

    func test_R9_audioModuleDisabledUntilReenabled_engagementResetsIt() {
        var store = TestStore.started()
        store.send(.setAudioModuleEnabled(enabled: false), at: 10) {
            $0.audioModuleEnabled = false; $0.audioModuleDisabledSeq = 2; $0.predictionSeq = 2
        }
        XCTAssertNil(store.state.predictedRoute)
        store.send(.setAudioModuleEnabled(enabled: false), at: 11)
        store.send(.leaveChannel, at: 20, outputs: [
            finding("audioModule.leftDisabled", .warning, "R9", [4, 2], t: 20), timer(5021, .deactivationWindow(seq: 4)),
        ]) {
            $0.engaged = false; $0.leftSeq = 4; $0.audioModuleLeftDisabledReported = true
        }
        store.send(.joinChannel(channel: "c"), at: 30, outputs: [timer(5031, .callPathWindow(seq: 5))]) {
            $0.engaged = true; $0.engagedSeq = 5; $0.audioModuleEnabled = true; $0.audioModuleDisabledSeq = nil
            $0.audioModuleLeftDisabledReported = false; $0.predictionSeq = 5
        }
        XCTAssertTrue(store.state.isAudioModuleEnabled)
        XCTAssertEqual(store.state.predictedRoute, .receiver)
    }

    func test_R10_simulatorHasNoEarpiece_findingAtHeader() {
        var store = TestStore()
        store.send(header(simulator: true), outputs: [finding("device.simulator", .warning, "R10", [0], t: 0)]) {
            $0.simulator = true; $0.headerSeq = 0
        }
        store.send(.joinChannel(channel: "c"), at: 1, outputs: [timer(5002, .callPathWindow(seq: 1))]) {
            $0.engaged = true; $0.engagedSeq = 1; $0.predictionSeq = 1
        }
        XCTAssertEqual(store.state.predictedRoute, .speaker)
        store.send(.setRoute(target: .speaker, api: nil), at: 2, outputs: [verdict(2, "api.setRoute", .noop, t: 2)]) {
            $0.override = .speaker; $0.overrideSeq = 2
        }
        store.send(.setRoute(target: .earpiece, api: nil), at: 3, outputs: [
            verdict(3, "api.setRoute", .ineffective, .simulator, causeSeq: 0, t: 3),
            finding("route.ineffective", .warning, "V1", [3, 0], t: 3, call: 3),
        ]) { $0.override = .earpiece; $0.overrideSeq = 3 }
        XCTAssertEqual(store.state.predictedRoute, .speaker)
    }
}
