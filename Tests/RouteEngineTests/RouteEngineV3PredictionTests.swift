import Contract
import RouteEngine
import TestSupport
import TraceModel
import XCTest

/// Contract v3's predicted route: R13 (no prediction outside the call), R14 (device kinds and AirPlay),
/// R16 (a macOS trace) and T1 (open vocabularies) on the route engine's records.
final class RouteEngineV3PredictionTests: XCTestCase {
    func test_R13_noPredictionBeforeTheEngagement_whateverDevicesAreConnected() {
        var store = TestStore()
        store.send(header()) { $0.headerSeq = 0 }
        // A pre-call page: the session is the app's. The device plays what it likes and nothing is predicted.
        store.send(.deviceConnected(id: "bt", kind: .bluetooth, name: "AirPods", port: "BluetoothHFP"), at: 100) {
            $0.devices = [.init(id: "bt", kind: .bluetooth, name: "AirPods", seq: 1)]
        }
        XCTAssertNil(store.state.predictedRoute, "v1 predicted bluetooth here (R4 before not engaged)")
        XCTAssertNil(store.state.predictionSource)
        store.send(reading(.receiver, .categoryChange), at: 200) { $0.lastReading = .init(route: .receiver, t: 200, seq: 2) }
        // V1 is unchanged: notEngaged comes first.
        store.send(.setRoute(target: .speaker, api: nil), at: 300, outputs: [
            verdict(3, "api.setRoute", .deferred, .notEngaged, t: 300), finding("route.ineffective", .info, "V1", [3], t: 300, call: 3),
        ]) { $0.override = .speaker; $0.overrideSeq = 3; $0.pendingOverrideCall = 3 }
        store.send(.joinChannel(channel: "c"), at: 1000, outputs: [
            outcome(3, .ineffective, .externalRouteActive, t: 1000, by: 4), timer(6001, .callPathWindow(seq: 4)),
        ]) {
            $0.engaged = true; $0.engagedSeq = 4; $0.predictionSeq = 4; $0.pendingOverrideCall = nil; $0.overrideAppliedBy = 4
        }
        XCTAssertEqual(store.state.predictedRoute, .bluetooth)
        XCTAssertEqual(store.state.predictionSource, PredictionSource(rule: .R4, seq: 1))
    }

    func test_R13_noPredictionAfterLeaving() {
        var store = TestStore.started(.smeeting)
        store.send(.deviceConnected(id: "car", kind: .bluetooth, name: "Car", port: "BluetoothHFP"), at: 100) {
            $0.devices = [.init(id: "car", kind: .bluetooth, name: "Car", seq: 2)]; $0.predictionSeq = 2
        }
        // No activation recorded: the exit opens R18's window; the prediction ends with the call.
        store.send(.exitMeeting, at: 200, outputs: [timer(5201, .deactivationWindow(seq: 3))]) {
            $0.engaged = false; $0.leftSeq = 3; $0.predictionSeq = 3
        }
        XCTAssertNil(store.state.predictedRoute, "a hands-free car kit takes calls, not the app's media")
        store.send(reading(.speaker, .override), at: 1500) { $0.lastReading = .init(route: .speaker, t: 1500, seq: 4) }
        store.send(.setRoute(target: .speaker, api: "setSpeakerOutputEnabled(true)"), at: 1600, outputs: [
            verdict(5, "api.setRoute", .deferred, .notEngaged, causeSeq: 3, t: 1600, api: "setSpeakerOutputEnabled(true)"),
            finding("route.ineffective", .info, "V1", [5, 3], t: 1600, call: 5),
        ]) { $0.override = .speaker; $0.overrideSeq = 5; $0.pendingOverrideCall = 5 }
        store.finish()   // the deferred call stays pending (V2)
    }

    func test_R14_aPortOfAirPlayOrCarAudioSetsTheKind() {
        var store = TestStore.started()
        store.send(.deviceConnected(id: "tv", kind: .bluetooth, name: "Living Room", port: "AirPlay"), at: 10) {
            $0.devices = [.init(id: "tv", kind: .airplay, name: "Living Room", seq: 2)]
        }
        store.send(.deviceConnected(id: "car", kind: .headset, name: nil, port: "CarAudio"), at: 20) {
            $0.devices.append(.init(id: "car", kind: .carAudio, seq: 3)); $0.predictionSeq = 3
        }
        store.send(.deviceConnected(id: "usb", kind: .headset, name: nil, port: "USBAudio"), at: 30) {
            $0.devices.append(.init(id: "usb", kind: .headset, seq: 4)); $0.predictionSeq = 4
        }
        XCTAssertEqual(store.state.predictedRoute, .headset, "any other port keeps the recorded kind")
    }

    func test_R14_airPlayTakesTheRouteOnlyWhileTheCallSessionAllowsIt() {
        var store = TestStore.started(.smeeting)
        store.send(callSession("voiceChat"), at: 10) { $0.activationsRecorded = true; $0.callSessionUp(2, "voiceChat") }
        // voiceChat allows no AirPlay (QA1803): the output is skipped as if absent.
        store.send(.deviceConnected(id: "tv", kind: .airplay, name: "TV", port: nil), at: 100) {
            $0.devices = [.init(id: "tv", kind: .airplay, name: "TV", seq: 3)]
        }
        XCTAssertEqual(store.state.predictedRoute, .receiver)
        XCTAssertFalse(store.state.isExternalRouteActive)
        store.send(.setRoute(target: .speaker, api: nil), at: 200, outputs: [verdict(4, "api.setRoute", .applied, t: 200)]) {
            $0.override = .speaker; $0.overrideSeq = 4; $0.predictionSeq = 4
        }
        // allowAirPlay in the call session that is up (R19): it stays connected and takes the route now.
        store.send(callSession("voiceChat", ["allowBluetooth", "allowAirPlay"]), at: 300) {
            $0.callSessionUp(5, "voiceChat", options: ["allowBluetooth", "allowAirPlay"]); $0.predictionSeq = 5
        }
        XCTAssertNil(store.state.predictedRoute, "the five-state route has no value for AirPlay")
        XCTAssertNil(store.state.predictionSource)
        store.send(.setRoute(target: .earpiece, api: nil), at: 400, outputs: [
            verdict(6, "api.setRoute", .ineffective, .externalRouteActive, causeSeq: 3, t: 400),
            finding("route.ineffective", .warning, "V1", [6, 3], t: 400, call: 6),
        ]) { $0.override = .earpiece; $0.overrideSeq = 6 }
        // A successful activation in another category ends the call session: AirPlay cannot take it again.
        store.send(otherActivation("playback"), at: 500) { $0.callSession = nil; $0.callPathUp = false; $0.predictionSeq = 7 }
        XCTAssertEqual(store.state.predictedRoute, .receiver)
    }

    func test_R14_theKindsThatCanTakeTheRoute_andAirPlayOutsideTheCall() {
        let airplay = RouteEngine.ConnectedDevice(id: "tv", kind: .airplay, seq: 1)
        var s = RouteEngine.State()
        s.devices = [airplay]
        XCTAssertEqual(s.routeDevice, airplay, "not engaged: the session is the app's, and playback allows AirPlay")
        s.engaged = true
        XCTAssertNil(s.routeDevice, "engaged with no call session up: it cannot")
        s.callSession = .init(seq: 2, mode: "videoChat", allowsAirPlay: true)
        XCTAssertEqual(s.routeDevice, airplay, "videoChat allows mirrored AirPlay")
        XCTAssertNil(s.predictedRoute)
        s.callSession = .init(seq: 3, mode: "voiceChat", allowsAirPlay: false)
        for kind in [DeviceKind.carAudio, .unlisted("hearingAid")] {
            s.devices = [airplay, .init(id: "x", kind: kind, seq: 4)]
            XCTAssertEqual(s.routeDevice?.id, "x", "\(kind) takes the route as any external device does")
            XCTAssertNil(s.predictedRoute, "\(kind) has no five-state value")
        }
    }

    func test_R14_aDeviceThatCannotTakeTheRouteIsSkippedByR4AndR5() {
        var store = TestStore.started()
        store.skip(callSession("voiceChat"), at: 10)                                    // seq 2
        store.send(.deviceConnected(id: "bt", kind: .bluetooth, name: nil, port: nil), at: 100) {
            $0.devices = [.init(id: "bt", kind: .bluetooth, seq: 3)]; $0.predictionSeq = 3
        }
        store.send(.deviceConnected(id: "tv", kind: .airplay, name: nil, port: nil), at: 200) {
            $0.devices.append(.init(id: "tv", kind: .airplay, seq: 4))
        }
        XCTAssertEqual(store.state.predictedRoute, .bluetooth, "the latest that can take the route has it")
        XCTAssertEqual(store.state.predictionSource, PredictionSource(rule: .R4, seq: 3))
        store.send(.deviceDisconnected(id: "bt"), at: 300) {
            $0.devices = [.init(id: "tv", kind: .airplay, seq: 4)]; $0.predictionSeq = 5
        }
        XCTAssertEqual(store.state.predictedRoute, .receiver, "R5 falls past the AirPlay output to the effective target")
    }

    func test_R16_aMacOSTraceHasNoRouteContract() {
        var store = TestStore()
        let mac = TraceHeader(layer: .srtc, device: .init(model: "Mac14,2", os: "macOS 14.5"), app: .init(micUsageDescription: false))
        store.send(.header(mac), outputs: [finding("device.notIOS", .info, "R16", [0], t: 0)]) {
            $0.headerSeq = 0; $0.macOS = true; $0.micUsageDescription = false
        }
        // No verdict, no outcome, no state: the route calls are not iOS's AudioRouteSession.
        store.send(.setRoute(target: .earpiece, api: nil), at: 10)
        store.send(.setDefaultRoute(target: .speaker), at: 11)
        // macOS also terminates an app that opens the microphone without NSMicrophoneUsageDescription.
        store.send(.joinChannel(channel: "c"), at: 20, outputs: [finding("app.missingMicUsageDescription", .error, "R6", [3], t: 20)]) {
            $0.engaged = true; $0.engagedSeq = 3
        }
        store.send(.deviceConnected(id: "bt", kind: .bluetooth, name: nil, port: nil), at: 30)
        store.send(.setAudioModuleEnabled(enabled: false), at: 35)
        store.send(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 40)
        store.send(.sessionDeactivated(notifyOthers: false, ok: false, error: "isBusy"), at: 50)
        store.send(reading(.speaker, .override), at: 60)
        // T1 is no route family: an unlisted value is still named.
        store.send(.interruptionBegan(cause: .unlisted("builtInMicMuted"), wasSuspended: nil), at: 70,
                   outputs: [finding("trace.unknownValue", .warning, "T1", [9], t: 70)])
        store.send(.leaveChannel, at: 80) { $0.engaged = false; $0.leftSeq = 10 }
        store.finish()
        XCTAssertNil(store.state.predictedRoute)
        XCTAssertNil(store.engine.predictionSource)
    }

    func test_R16_onlyAnOSThatBeginsWithMacOSInAnyCaseIsOffContract() {
        for (os, macOS) in [("macOS 14.5", true), ("MACOS 15", true), ("macos", true), ("iOS 17.4", false),
                            ("iPadOS 17.4", false), ("Mac OS X", false), (nil, false)] as [(String?, Bool)] {
            var engine = RouteEngine()
            let out = engine.apply(Record(seq: 0, t: 0, .header(TraceHeader(layer: .smeeting, device: .init(os: os)))))
            XCTAssertEqual(engine.state.macOS, macOS, os ?? "nil")
            XCTAssertEqual(out.count, macOS ? 1 : 0, os ?? "nil")
        }
    }

    func test_T1_unlistedOSValuesAreKept_warnedOncePerFieldAndValue() {
        var store = TestStore.started()
        store.send(.appState(state: .unlisted("inactive")), at: 100,
                   outputs: [finding("trace.unknownValue", .warning, "T1", [2], t: 100)])            // left as it was
        store.send(.callState(state: .unlisted("ringing")), at: 110, outputs: [finding("trace.unknownValue", .warning, "T1", [3], t: 110)])
        store.send(.micPermission(status: .unlisted("restricted")), at: 120,
                   outputs: [finding("trace.unknownValue", .warning, "T1", [4], t: 120)])          // not denied
        store.send(.callKit(event: .unlisted("setMuted"), callId: nil), at: 130,
                   outputs: [finding("trace.unknownValue", .warning, "T1", [5], t: 130)])          // no rule applies
        // Read as `unknown`: the interruption begins as usual.
        store.send(.interruptionBegan(cause: .unlisted("builtInMicMuted"), wasSuspended: nil), at: 140, outputs: [
            finding("trace.unknownValue", .warning, "T1", [6], t: 140), timer(1141, .interruptedCallback(seq: 6)),
        ]) { $0.interruptedBy(6); $0.predictionSeq = 6 }
        store.send(.callState(state: .unlisted("ringing")), at: 150)                                 // once per field and value
        store.send(.appState(state: .unlisted("ringing")), at: 160,
                   outputs: [finding("trace.unknownValue", .warning, "T1", [8], t: 160)])          // another field
        // The call state stayed idle and the app in the foreground: I2's conditions hold.
        store.send(.interruptionEnded(shouldResume: true), at: 200,
                   outputs: [.recovered(t: 200), timer(5201, .recoveryWindow(interruptionSeq: 6)), timer(5201, .callPathWindow(seq: 9))]) {
            $0.recoveredAt(9); $0.pendingConfirmation = .init(interruptionSeq: 6, triggerSeq: 9, recoveredAt: 200)
        }
        XCTAssertEqual(store.state.micPermission, .undetermined)
        // An unlisted kind is an external device with no five-state value (R14).
        store.send(.deviceConnected(id: "ha", kind: .unlisted("hearingAid"), name: nil, port: nil), at: 300,
                   outputs: [finding("trace.unknownValue", .warning, "T1", [10], t: 300)]) {
            $0.devices = [.init(id: "ha", kind: .unlisted("hearingAid"), seq: 10)]; $0.predictionSeq = 10
        }
        store.send(.setRoute(target: .speaker, api: nil), at: 310, outputs: [
            verdict(11, "api.setRoute", .ineffective, .externalRouteActive, causeSeq: 10, t: 310),
            finding("route.ineffective", .warning, "V1", [11, 10], t: 310, call: 11),
        ]) { $0.override = .speaker; $0.overrideSeq = 11 }
    }

    func test_T1_sessionCategoryAndModeAreOpen_optionsAnOpenListWithoutWarning() {
        var store = TestStore.started(.smeeting)
        // An unlisted mode is neither voiceChat nor videoChat; an unlisted option is kept silently.
        let mode = SessionActivation(ok: true, category: "playAndRecord", mode: "voiceChatPro",
                                     options: ["allowBluetooth", "overrideMutedMicrophoneInterruption"])
        store.send(.sessionActivated(mode), at: 10, outputs: [
            finding("trace.unknownValue", .warning, "T1", [2], t: 10), finding("session.wrongMode", .warning, nil, [2], t: 10),
        ]) { $0.activationsRecorded = true; $0.callSessionUp(2, "voiceChatPro") }
        // An unlisted category is another category: no call session, the call path down.
        store.send(.sessionActivated(SessionActivation(ok: true, category: "spatialPlayback", mode: "default")), at: 20,
                   outputs: [finding("trace.unknownValue", .warning, "T1", [3], t: 20)]) {
            $0.callSession = nil; $0.callPathUp = false
        }
        store.send(.sessionActivated(mode), at: 30, outputs: [finding("session.wrongMode", .warning, nil, [4], t: 30)]) {
            $0.callSessionUp(4, "voiceChatPro")
        }
    }
}
