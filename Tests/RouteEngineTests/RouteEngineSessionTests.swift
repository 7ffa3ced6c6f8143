import Contract
import RouteEngine
import TestSupport
import TraceModel
import XCTest

/// R11 (mode implications) and R12 (another component reconfigured the session).
final class RouteEngineSessionTests: XCTestCase {
    private func activation(_ mode: String?, _ options: [String] = [], ok: Bool = true) -> RecordBody {
        .sessionActivated(SessionActivation(ok: ok, category: "playAndRecord", mode: mode, options: options))
    }

    private func change(_ route: Route, _ reason: RouteChangeReason = .categoryChange) -> RecordBody {
        .routeChanged(route: route, previousRoute: .receiver, reason: reason)
    }

    func test_R11_videoChatPredictsSpeakerAndMakesEarpieceRequestsIneffective() {
        var idle = TestStore.started(engaged: false)
        idle.send(activation("videoChat"), at: 1) { $0.activationsRecorded = true; $0.callSessionUp(1, "videoChat") }
        XCTAssertEqual(idle.state.videoChatSeq, 1, "the call session is up before the engagement too (R19)")
        XCTAssertNil(idle.state.predictedRoute, "but nothing is predicted while not engaged (R13)")

        var store = TestStore.started()
        XCTAssertEqual(store.state.predictedRoute, .receiver)
        store.send(activation("videoChat", ok: false), at: 5) { $0.activationsRecorded = true }
        store.send(activation("videoChat"), at: 10) { $0.callSessionUp(3, "videoChat"); $0.predictionSeq = 3 }
        XCTAssertEqual(store.state.predictedRoute, .speaker, "videoChat implies defaultToSpeaker: no way to the receiver")
        XCTAssertEqual(store.state.predictionSource, PredictionSource(rule: .R11, seq: 3))
        store.send(.setRoute(target: .earpiece, api: "setAudioRoute(.earpiece)"), at: 20, outputs: [
            verdict(4, "api.setRoute", .ineffective, .videoChatMode, causeSeq: 3, t: 20, api: "setAudioRoute(.earpiece)"),
            finding("route.ineffective", .warning, "V1", [4, 3], t: 20, call: 4),
        ]) { $0.override = .earpiece; $0.overrideSeq = 4 }
        store.send(.setRoute(target: .speaker, api: nil), at: 30, outputs: [verdict(5, "api.setRoute", .noop, t: 30)]) {
            $0.override = .speaker; $0.overrideSeq = 5
        }
        // micDenied is checked before videoChatMode.
        store.send(.micPermission(status: .denied), at: 40) { $0.micPermission = .denied; $0.micPermissionSeq = 6 }
        store.send(.clearRouteOverride, at: 50, outputs: [
            verdict(7, "api.clearRouteOverride", .ineffective, .micDenied, causeSeq: 6, t: 50),
            finding("route.ineffective", .warning, "V1", [7, 6], t: 50, call: 7),
        ]) { $0.override = nil; $0.overrideSeq = nil }
        store.send(.micPermission(status: .granted), at: 60) { $0.micPermission = .granted; $0.micPermissionSeq = 8 }
        XCTAssertEqual(store.state.predictedRoute, .speaker, "still videoChat")
        // The latest call session decides: a voiceChat activation reaches the receiver again.
        store.send(activation("voiceChat"), at: 70) { $0.callSessionUp(9, "voiceChat"); $0.predictionSeq = 9 }
        XCTAssertEqual(store.state.predictedRoute, .receiver)
        store.send(activation("videoChat"), at: 80) { $0.callSessionUp(10, "videoChat"); $0.predictionSeq = 10 }
        store.send(.leaveChannel, at: 90, outputs: [.timer(RouteTimer(due: 5091, kind: .deactivationWindow(seq: 11)))]) {
            $0.engaged = false; $0.leftSeq = 11; $0.predictionSeq = 11
        }
        store.send(.joinChannel(channel: "c"), at: 100) { $0.engaged = true; $0.engagedSeq = 12; $0.predictionSeq = 12 }
        XCTAssertEqual(store.state.predictedRoute, .speaker, "leaving keeps the call session that is up (R19): still videoChat")
    }

    func test_R11_impliedOptionsSilenceMissingOptionFindings() {
        var store = TestStore.started(initialDefault: .speaker)
        store.send(activation("voiceChat", ["defaultToSpeaker"]), at: 1) {
            $0.activationsRecorded = true; $0.callSessionUp(2, "voiceChat", options: ["defaultToSpeaker"])
        }
        store.send(activation("videoChat", []), at: 2) { $0.callSessionUp(3, "videoChat") }
        store.send(activation("voiceChat", ["allowBluetoothHFP"]), at: 3,
                   outputs: [finding("session.missingDefaultToSpeaker", .warning, "R11", [4, 0], t: 3)]) {
            $0.callSessionUp(4, "voiceChat", missingDefaultToSpeaker: true)
        }
        store.send(activation("gameChat", ["defaultToSpeaker"]), at: 4, outputs: [
            finding("session.missingAllowBluetooth", .warning, "R11", [5], t: 4), finding("session.wrongMode", .warning, nil, [5], t: 4),
        ]) { $0.callSessionUp(5, "gameChat", missingAllowBluetooth: true) }
        store.send(activation("default", ["defaultToSpeaker", "allowBluetoothHFP"]), at: 5,
                   outputs: [finding("session.wrongMode", .warning, nil, [6], t: 5)]) { $0.callSessionUp(6, "default") }
        // Once per successful call-session activation: the same configuration twice is reported twice.
        store.send(activation("gameChat", ["defaultToSpeaker"]), at: 6, outputs: [
            finding("session.missingAllowBluetooth", .warning, "R11", [7], t: 6), finding("session.wrongMode", .warning, nil, [7], t: 6),
        ]) { $0.callSessionUp(7, "gameChat", missingAllowBluetooth: true) }
    }

    func test_R12_aRouteChangeNothingAccountsForIsAnotherComponent() {
        var store = TestStore.started(options: .init(matchWindowMs: 1000))   // the join at t=0 accounts until t=1000
        store.send(change(.receiver), at: 500) { $0.lastReading = .init(route: .receiver, t: 500, seq: 2) }  // towards the prediction
        store.send(change(.speaker), at: 1000) { $0.lastReading = .init(route: .speaker, t: 1000, seq: 3) }  // the join is inside the window (inclusive)
        store.send(change(.speaker), at: 1001, outputs: [finding("session.changedByOtherComponent", .warning, "R12", [4], t: 1001)]) {
            $0.lastReading = .init(route: .speaker, t: 1001, seq: 4)
        }
        store.send(change(.speaker, .newDeviceAvailable), at: 3000) { $0.lastReading = .init(route: .speaker, t: 3000, seq: 5) }  // not a category or override change
        store.send(change(.unknown, .override), at: 5000) { $0.lastReading = .init(route: .unknown, t: 5000, seq: 6) }  // a change to unknown needs no explanation
        store.send(.sdkLog(level: "info", message: "noise"), at: 5999)          // the SDK's log accounts for nothing
        store.send(.qualityReport(pub: QualitySample(level: .good), sub: QualitySample(level: .good)), at: 6000)
        store.send(change(.speaker, .override), at: 6500, outputs: [finding("session.changedByOtherComponent", .warning, "R12", [9], t: 6500)]) {
            $0.lastReading = .init(route: .speaker, t: 6500, seq: 9)
        }
        store.send(.overrideOutput(port: .none), at: 7000)
        store.send(change(.speaker, .override), at: 7500) { $0.lastReading = .init(route: .speaker, t: 7500, seq: 11) }  // the SDK's own override call
        store.send(.subscribe(pubUid: "u1", trackId: "v1", layers: ["v1-h"]), at: 9000)
        store.send(change(.speaker), at: 9900) { $0.lastReading = .init(route: .speaker, t: 9900, seq: 13) }  // any api.* record accounts
        store.send(.unknown(type: "os.thermalState", json: "{}"), at: 11000)
        store.send(change(.speaker), at: 11500) { $0.lastReading = .init(route: .speaker, t: 11500, seq: 15) }  // any os.* record, even one unknown to this version
        store.send(.sessionDeactivated(notifyOthers: true, ok: nil, error: nil), at: 13000)
        store.send(change(.speaker), at: 13800) { $0.lastReading = .init(route: .speaker, t: 13800, seq: 17) }
    }

    func test_R12_onlyWhileEngagedNotInterruptedAndPredicting() {
        var idle = TestStore.started(engaged: false)
        idle.send(change(.receiver), at: 5000) { $0.lastReading = .init(route: .receiver, t: 5000, seq: 1) }  // not engaged (no prediction, R13)
        var store = TestStore.started()
        store.skip(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 100)
        store.send(change(.speaker), at: 5000) { $0.lastReading = .init(route: .speaker, t: 5000, seq: 3) }  // interrupted: no prediction
        store.skip(.interruptionEnded(shouldResume: true), at: 6000)
        store.skip(.setAudioModuleEnabled(enabled: false), at: 6100)
        store.send(change(.speaker), at: 9000) { $0.lastReading = .init(route: .speaker, t: 9000, seq: 6) }  // module disabled: no prediction
        store.skip(.setAudioModuleEnabled(enabled: true), at: 9100)
        store.send(change(.speaker), at: 11000, outputs: [finding("session.changedByOtherComponent", .warning, "R12", [8], t: 11000)]) {
            $0.lastReading = .init(route: .speaker, t: 11000, seq: 8)
        }
        XCTAssertEqual(store.state.predictedRoute, .receiver, "the contract still predicts what the SDK should re-apply")
    }
}
