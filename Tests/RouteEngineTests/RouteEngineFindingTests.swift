import Contract
import RouteEngine
import TestSupport
import TraceModel
import XCTest

/// One test per finding code the route engine owns.
final class RouteEngineFindingTests: XCTestCase {
    private func callSession(_ options: [String] = ["allowBluetooth", "defaultToSpeaker"], mode: String = "voiceChat",
                             ok: Bool = true, category: String = "playAndRecord") -> RecordBody {
        .sessionActivated(SessionActivation(ok: ok, category: category, mode: mode, options: options))
    }

    private func findings(_ outputs: [RouteOutput]) -> [Finding] {
        outputs.compactMap { if case .finding(let f) = $0 { f } else { nil } }
    }

    func test_finding_route_ineffective_namesCauseAndAdvisesInLayerWords() {
        for layer in Layer.allCases {
            let smeeting = layer == .smeeting
            var notEngaged = TestStore.started(layer, engaged: false)
            let deferred = findings(notEngaged.skip(.setRoute(target: .speaker, api: nil), at: 1))
            XCTAssertEqual(deferred.map(\.severity), [.info])
            XCTAssertTrue(deferred[0].message.contains("notEngaged"))
            XCTAssertTrue(deferred[0].message.contains("setAudioRoute(.speaker)"))
            XCTAssertTrue(deferred[0].advice.contains(smeeting ? "enters the meeting" : "joins the channel"))
            XCTAssertTrue(deferred[0].advice.contains("defaultAudioRoute"))

            var external = TestStore.started(layer)
            external.skip(.deviceConnected(id: "bt", kind: .bluetooth, name: "Meeting Room Channel", port: nil), at: 1)
            let api = "setSpeakerOutputEnabled(true)"
            let ineffective = findings(external.skip(.setRoute(target: .speaker, api: api), at: 2))
            XCTAssertEqual(ineffective.map(\.severity), [.warning])
            XCTAssertEqual(ineffective[0].seqs, [3, 2])
            XCTAssertTrue(ineffective[0].message.contains("externalRouteActive"))
            XCTAssertTrue(ineffective[0].message.contains(api))
            XCTAssertTrue(ineffective[0].advice.contains(smeeting ? "isExternalAudioRouteActive" : "currentRoute.isExternal"))
            XCTAssertTrue(ineffective[0].advice.contains(smeeting ? "currentAudioRoute" : "use currentRoute"))
            // The engine phrases the cause's advice without the call's target: both buttons (the explanation
            // words it for the route asked: ExplanationTests.test_externalDeviceAdviceNamesTheRouteAsked).
            XCTAssertTrue(ineffective[0].advice.lowercased().contains("grey out the speaker and earpiece buttons"), ineffective[0].advice)
        }
    }

    func test_finding_route_ineffective_adviceForEveryCause() {
        var store = TestStore.started(.smeeting, simulator: true)
        store.skip(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 1)
        XCTAssertTrue(findings(store.skip(.setRoute(target: .speaker, api: nil), at: 2))[0].advice
            .contains("applied when the interruption recovers"))
        store.skip(.interruptionEnded(shouldResume: true), at: 3)
        store.skip(.setAudioModuleEnabled(enabled: false), at: 4)
        XCTAssertTrue(findings(store.skip(.setRoute(target: .earpiece, api: nil), at: 5))[0].advice
            .contains("setAudioModuleEnabled(true)"))
        store.skip(.setAudioModuleEnabled(enabled: true), at: 6)
        XCTAssertTrue(findings(store.skip(.setDefaultRoute(target: .speaker), at: 7))[0].advice
            .contains("clearAudioRouteOverride()"))
        store.skip(.clearRouteOverride, at: 8)
        XCTAssertTrue(findings(store.skip(.setRoute(target: .earpiece, api: nil), at: 9))[0].advice.contains("real device"))

        var denied = TestStore.started(.srtc, initialDefault: .speaker)
        denied.skip(.micPermission(status: .denied), at: 1)
        let micDenied = findings(denied.skip(.setDefaultRoute(target: .earpiece), at: 2))
        XCTAssertTrue(micDenied[0].message.contains("micDenied"))
        XCTAssertTrue(micDenied[0].advice.contains("send the user to Settings"), micDenied[0].advice)
        XCTAssertTrue(micDenied[0].advice.contains("playback-only"))
    }

    func test_finding_interruption_notRecovered_whenNothingConfirmsWithinTheWindow() {
        for confirmation in [nil, RecordBody.sdkRecovered, callSession()] {
            var store = TestStore.started()
            store.skip(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 100)
            let outputs = store.skip(.interruptionEnded(shouldResume: true), at: 200)
            let windows = outputs.compactMap { if case .timer(let t) = $0, case .recoveryWindow = t.kind { t } else { nil } }
            guard let window = windows.first else { return XCTFail("expected the recovery window") }
            // v3: the window's end is inclusive, so its finding falls due one ms after it.
            XCTAssertEqual(window, RouteTimer(due: 5201, kind: .recoveryWindow(interruptionSeq: 2)))
            store.skip(.sessionActivated(.init(ok: false, category: "playAndRecord")), at: 300)  // a failure confirms nothing
            if let confirmation { store.skip(confirmation, at: 4000) }
            let expected = confirmation == nil ? [finding("interruption.notRecovered", .error, "I3", [3, 2], t: 5201)] : []
            store.fire(window, outputs: expected) { $0.pendingConfirmation = nil }
        }
    }

    func test_finding_interruption_prematureReactivation_onlyWhileInterruptedAndCallUp() {
        var store = TestStore.started()
        store.send(.callState(state: .connected), at: 1) { $0.callState = .connected }
        store.send(callSession(), at: 2, outputs: []) {
            $0.activationsRecorded = true; $0.callSessionUp(3, "voiceChat", options: ["allowBluetooth", "defaultToSpeaker"])
        }
        XCTAssertTrue(findings(store.skip(.interruptionBegan(cause: .systemCall, wasSuspended: nil), at: 3)).isEmpty)
        // R19: the session it configured is the one that is up; R17: a premature reactivation does not bring the
        // call path up (it is bound to fail).
        store.send(callSession(), at: 4, outputs: [finding("interruption.prematureReactivation", .warning, "I4", [5, 4], t: 4)]) {
            $0.activatedSinceInterruption = true; $0.callSession = .init(seq: 5, mode: "voiceChat", allowsAirPlay: false)
        }
        store.skip(.callState(state: .held), at: 5)
        store.send(callSession(ok: false), at: 6,
                   outputs: [finding("interruption.prematureReactivation", .warning, "I4", [7, 4], t: 6)])
        store.skip(.callState(state: .idle), at: 7)
        store.send(callSession(ok: false), at: 8)
    }

    func test_finding_interruption_recoveredWithoutActivation() {
        var store = TestStore.started()
        store.send(.sdkRecovered, at: 1)   // no interruption yet: nothing to judge
        store.skip(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 2)
        store.skip(.interruptionEnded(shouldResume: true), at: 3)
        store.send(.sdkRecovered, at: 4, outputs: [finding("interruption.recoveredWithoutActivation", .error, "I4", [5, 3], t: 4)]) {
            $0.pendingConfirmation = nil
        }
        store.skip(.interruptionBegan(cause: .siri, wasSuspended: nil), at: 5)
        store.skip(.interruptionEnded(shouldResume: true), at: 6)
        store.skip(callSession(), at: 7)
        store.send(.sdkRecovered, at: 8)
    }

    func test_finding_audioModule_leftDisabled_atLeaveOrEndOnce() {
        var store = TestStore.started(.smeeting)
        store.skip(.setAudioModuleEnabled(enabled: false), at: 1)
        store.send(.exitMeeting, at: 2, outputs: [
            finding("audioModule.leftDisabled", .warning, "R9", [3, 2], t: 2), timer(5003, .deactivationWindow(seq: 3)),
        ]) {
            $0.engaged = false; $0.leftSeq = 3; $0.audioModuleLeftDisabledReported = true
        }
        store.finish()
        store.skip(.enterMeeting(room: "r"), at: 3)
        store.skip(.setAudioModuleEnabled(enabled: false), at: 4)
        store.skip(.setAudioModuleEnabled(enabled: true), at: 5)
        store.finish()
        store.skip(.setAudioModuleEnabled(enabled: false), at: 6)
        store.finish(outputs: [finding("audioModule.leftDisabled", .warning, "R9", [7], t: 6)]) {
            $0.audioModuleLeftDisabledReported = true
        }
        store.finish()
    }

    func test_finding_session_missingNotifyOthers() {
        var store = TestStore.started()
        store.send(.sessionDeactivated(notifyOthers: true, ok: nil, error: nil), at: 1)
        store.send(.sessionDeactivated(notifyOthers: false, ok: nil, error: nil), at: 2,
                   outputs: [finding("session.missingNotifyOthers", .warning, nil, [3], t: 2)])
    }

    func test_finding_session_missingAllowBluetooth_onCallSessionsOnly() {
        var store = TestStore.started()
        store.send(callSession(["defaultToSpeaker"], mode: "default", ok: false), at: 1) { $0.activationsRecorded = true }
        store.send(callSession([], mode: "default", category: "playback"), at: 2)
        store.send(callSession(["allowBluetoothA2DP"], mode: "default"), at: 3, outputs: [
            finding("session.missingAllowBluetooth", .warning, "R11", [4], t: 3), finding("session.wrongMode", .warning, nil, [4], t: 3),
        ]) { $0.callSessionUp(4, "default", missingAllowBluetooth: true) }
        store.send(callSession(["allowBluetoothHFP"], mode: "default"), at: 4,
                   outputs: [finding("session.wrongMode", .warning, nil, [5], t: 4)]) { $0.callSessionUp(5, "default") }
    }

    func test_finding_session_missingDefaultToSpeaker_onlyWhileDefaultIsSpeaker() {
        var store = TestStore.started()
        store.send(callSession(["allowBluetooth"]), at: 1) { $0.activationsRecorded = true; $0.callSessionUp(2, "voiceChat") }
        store.skip(.setDefaultRoute(target: .speaker), at: 2)
        store.send(callSession(["allowBluetooth"]), at: 3,
                   outputs: [finding("session.missingDefaultToSpeaker", .warning, "R11", [4, 3], t: 3)]) {
            $0.callSessionUp(4, "voiceChat", missingDefaultToSpeaker: true)
        }
        store.send(callSession(), at: 4) { $0.callSessionUp(5, "voiceChat") }
    }

    func test_finding_session_wrongMode() {
        var store = TestStore.started()
        store.send(callSession(mode: "videoChat"), at: 1) {
            $0.activationsRecorded = true; $0.callSessionUp(2, "videoChat"); $0.predictionSeq = 2
        }
        store.send(callSession(mode: "default"), at: 2, outputs: [finding("session.wrongMode", .warning, nil, [3], t: 2)]) {
            $0.callSessionUp(3, "default"); $0.predictionSeq = 3
        }
        store.send(.sessionActivated(.init(ok: true, category: "playAndRecord", mode: nil, options: ["allowBluetooth"])),
                   at: 3, outputs: [finding("session.wrongMode", .warning, nil, [4], t: 3)]) { $0.callSessionUp(4, nil) }
    }

    func test_finding_app_missingMicUsageDescription_atEachEngagement() {
        var store = TestStore()
        store.skip(header(.smeeting, micUsage: false))
        store.send(.enterMeeting(room: "r"), at: 1, outputs: [
            finding("app.missingMicUsageDescription", .error, "R6", [1], t: 1), timer(5002, .callPathWindow(seq: 1)),
        ]) {
            $0.engaged = true; $0.engagedSeq = 1; $0.predictionSeq = 1
        }
        store.send(.enterMeeting(room: "r"), at: 2)   // R19: an enter while engaged is not an engagement: no finding
        store.skip(.exitMeeting, at: 3)
        XCTAssertEqual(findings(store.skip(.enterMeeting(room: "r"), at: 4)).map(\.code.rawValue), ["app.missingMicUsageDescription"])
        var fine = TestStore()
        fine.skip(header(.smeeting))
        XCTAssertTrue(findings(fine.skip(.enterMeeting(room: "r"), at: 1)).isEmpty)
    }

    func test_finding_app_missingBackgroundAudio_whenBackgroundedWhileEngaged() {
        var store = TestStore()
        store.skip(header(.srtc, backgroundAudio: false))
        store.send(.appState(state: .background), at: 1) { $0.foreground = false }
        store.skip(.appState(state: .foreground), at: 2)
        store.skip(.joinChannel(channel: "c"), at: 3)
        store.send(.appState(state: .background), at: 4,
                   outputs: [finding("app.missingBackgroundAudio", .warning, nil, [4, 3], t: 4)]) { $0.foreground = false }
        store.send(.appState(state: .background), at: 5)
        var fine = TestStore.started()
        fine.send(.appState(state: .background), at: 1) { $0.foreground = false }
    }

    func test_finding_device_simulator_onceAtTheHeader() {
        var store = TestStore()
        store.send(header(.smeeting, simulator: true), outputs: [finding("device.simulator", .warning, "R10", [0], t: 0)]) {
            $0.layer = .smeeting; $0.simulator = true; $0.headerSeq = 0
        }
        store.send(.enterMeeting(room: "r"), at: 1, outputs: [timer(5002, .callPathWindow(seq: 1))]) {
            $0.engaged = true; $0.engagedSeq = 1; $0.predictionSeq = 1
        }
        var device = TestStore()
        XCTAssertTrue(findings(device.skip(header(.smeeting))).isEmpty)
    }
}
