import Foundation
import Replay
@testable import TraceCodec
@testable import TraceModel
@testable import TraceRecorder
import XCTest

/// The Apple adapter's mappings, fed the raw values iOS delivers.
final class MappingTests: XCTestCase {
    typealias M = AppleAudioMapping

    func test_portTypes_toTheFiveStateRoute_andDeviceKinds() {
        let table: [(String, Route, DeviceKind?)] = [
            ("Speaker", .speaker, nil), ("Receiver", .receiver, nil),
            ("BluetoothHFP", .bluetooth, .bluetooth), ("BluetoothA2DPOutput", .bluetooth, .bluetooth), ("BluetoothLE", .bluetooth, .bluetooth),
            // AirPlay and CarPlay have kinds of their own and no five-state route (R14).
            ("AirPlay", .unknown, .airplay), ("CarAudio", .unknown, .carAudio),
            ("Headphones", .headset, .headset), ("MicrophoneWired", .headset, .headset), ("USBAudio", .headset, .headset),
            ("LineOut", .headset, .headset), ("HDMIOutput", .headset, .headset), ("Thunderbolt", .headset, .headset),
            ("DisplayPort", .headset, .headset), ("AVB", .headset, .headset),
            // `HeadsetMic` is the constant's Swift name, not a port type iOS reports.
            ("HeadsetMic", .unknown, nil), ("MicrophoneBuiltIn", .unknown, nil), ("Virtual", .unknown, nil), ("", .unknown, nil),
            // A type a newer iOS reports is kept as it is: an external device of an unlisted kind (T1, R14).
            ("SpatialAudioDock", .unknown, .unlisted("SpatialAudioDock")),
        ]
        for (port, route, kind) in table {
            XCTAssertEqual(M.route(portType: port), route, port)
            XCTAssertEqual(M.deviceKind(portType: port), kind, port)
        }
        XCTAssertEqual(M.route(outputs: []), .unknown)
        XCTAssertEqual(M.route(outputs: [.init(type: "BluetoothA2DPOutput"), .init(type: "Speaker")]), .bluetooth, "the first output is the one in use")
    }

    func test_routeChangeReasons_rawValues0Through8() {
        let expected: [RouteChangeReason] = [.unknown, .newDeviceAvailable, .oldDeviceUnavailable, .categoryChange, .override,
                                             .unknown, .wakeFromSleep, .noSuitableRouteForCategory, .routeConfigurationChange]
        XCTAssertEqual((0...8).map { M.routeChangeReason(rawValue: UInt($0)) }, expected)
        XCTAssertEqual(M.routeChangeReason(rawValue: 99), .unknown)
    }

    typealias Resolver = M.InterruptionResolver

    func began(_ r: inout Resolver, reason: UInt? = nil, suspended: Bool? = nil, callUp: Bool = false, at ms: UInt64) -> [Resolver.Decision] {
        r.interruption(typeRawValue: 1, optionsRawValue: nil, reasonRawValue: reason, wasSuspended: suspended, otherCallUp: callUp, at: ms * 1_000_000)
    }

    func test_interruptionReasons_areRecordedAtOnce() {
        var r = Resolver()
        let cases: [(UInt, InterruptionCause)] = [(1, .appWasSuspended), (2, .unlisted("builtInMicMuted")), (3, .unlisted("sceneWasBackgrounded")),
                                                  (4, .unlisted("routeDisconnected")), (9, .unlisted("reason9"))]
        for (raw, cause) in cases {
            XCTAssertEqual(began(&r, reason: raw, at: 10).map(\.event), [.interruptionBegan(cause: cause)], "reason \(raw)")
        }
        XCTAssertEqual(began(&r, reason: 0, suspended: true, at: 20).map(\.event), [.interruptionBegan(cause: nil, wasSuspended: true)],
                       "AVAudioSessionInterruptionWasSuspendedKey (iOS 10.3–14.5): a stale interruption (I9)")
        XCTAssertEqual(began(&r, reason: 0, callUp: true, at: 30).map(\.event), [.interruptionBegan(cause: .systemCall)], "a call already up")
        XCTAssertNil(r.pending)
    }

    func test_anInterruptionBeforeTheCallThatExplainsIt_isASystemCall_withTheNotificationsTime() {
        var r = Resolver()
        XCTAssertEqual(began(&r, reason: 0, at: 1000), [], "the default reason, no call up yet: it waits for one")
        XCTAssertEqual(r.deadline, 1_500_000_000)
        XCTAssertEqual(r.callChanged(to: .incoming, at: 1_200_000_000),
                       [.init(event: .interruptionBegan(cause: .systemCall), madeAt: 1_000_000_000)])
        XCTAssertNil(r.pending)
    }

    func test_anInterruptionNoCallExplains_isUnknown_onceItsWindowIsOver() {
        var r = Resolver()
        _ = began(&r, at: 1000)
        XCTAssertEqual(r.tick(at: 1_499_000_000), [])
        XCTAssertEqual(r.tick(at: 1_500_000_000), [.init(event: .interruptionBegan(cause: .unknown), madeAt: 1_000_000_000)])
        _ = began(&r, at: 2000)
        XCTAssertEqual(r.callChanged(to: .incoming, at: 2_600_000_000).map(\.event), [.interruptionBegan(cause: .unknown)],
                       "a call after the window does not explain it")
        _ = began(&r, at: 3000)
        XCTAssertEqual(r.interruption(typeRawValue: 0, optionsRawValue: 1, reasonRawValue: nil, wasSuspended: nil, otherCallUp: false, at: 3_100_000_000),
                       [.init(event: .interruptionBegan(cause: .unknown), madeAt: 3_000_000_000),
                        .init(event: .interruptionEnded(shouldResume: true), madeAt: 3_100_000_000)], "an end settles it first")
        XCTAssertEqual(r.interruption(typeRawValue: 0, optionsRawValue: nil, reasonRawValue: nil, wasSuspended: nil, otherCallUp: false, at: 4).map(\.event),
                       [.interruptionEnded(shouldResume: nil)])
        XCTAssertEqual(r.interruption(typeRawValue: 7, optionsRawValue: nil, reasonRawValue: nil, wasSuspended: nil, otherCallUp: false, at: 5), [])
    }

    func test_anInterruptionWhileTheCallIsReportedInEitherOrder_recordsTheSameRecords() throws {
        // The call observer first, or the interruption first: the same records (the call's state where iOS
        // reported it), the interruption with the cause the call gives it, and the same replay.
        let dir = Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func play(callFirst: Bool, in sub: String) throws -> [Record] {
            let clock = ManualClock()
            let recorder = TraceRecorder(Support.configuration(dir + "/" + sub, clock: clock))
            var r = Resolver()
            var tracker = M.CallTracker()
            func call() {
                let state = tracker.changed(callId: "CELL", state: .incoming)!
                for d in r.callChanged(to: state, at: clock.monotonicNanoseconds()) { recorder.record(d.event, madeAt: d.madeAt) }
                recorder.record(.callState(state))
            }
            if callFirst { call() }
            clock.advance(milliseconds: 40)
            for d in r.interruption(typeRawValue: 1, optionsRawValue: nil, reasonRawValue: 0, wasSuspended: nil,
                                    otherCallUp: tracker.otherCallUp, at: clock.monotonicNanoseconds()) { recorder.record(d.event, madeAt: d.madeAt) }
            recorder.record(.sdkInterrupted)
            clock.advance(milliseconds: 40)
            if !callFirst { call() }
            XCTAssertTrue(recorder.close(timeout: 20))
            return try Support.read(dir + "/" + sub + "/" + Support.traceFiles(dir + "/" + sub)[0]).records
        }
        let first = try play(callFirst: true, in: "a"), second = try play(callFirst: false, in: "b")
        let before = first.dropFirst().map(\.body), after = second.dropFirst().map(\.body)
        XCTAssertTrue(before.contains(.interruptionBegan(cause: .systemCall, wasSuspended: nil)), "\(before)")
        XCTAssertTrue(after.contains(.interruptionBegan(cause: .systemCall, wasSuspended: nil)), "\(after)")
        XCTAssertEqual(Set(before.map { "\($0)" }), Set(after.map { "\($0)" }))
        // The held interruption may be written after the SDK's callback of the same ms; the replay takes
        // sdk.* records after the others of their ms, so both orders replay alike (no missed callback).
        let a = Replay.run(records: Array(first)), b = Replay.run(records: Array(second))
        XCTAssertEqual(a.findings.map(\.code), b.findings.map(\.code))
        XCTAssertFalse(b.findings.contains { $0.code == .interruptionNoInterruptedCallback }, "\(b.findings.map(\.code))")
        XCTAssertEqual(a.verdicts.map(\.verdict), b.verdicts.map(\.verdict))
    }

    func test_devicesAreSeenAcrossOutputsAndAvailableInputs() {
        let speaker = M.Port(type: "Speaker", name: "Speaker", uid: "Speaker")
        let builtInMic = M.Port(type: "MicrophoneBuiltIn", name: "iPhone Microphone", uid: "Built-In Microphone")
        let hfpOut = M.Port(type: "BluetoothHFP", name: "AirPods Pro", uid: "7C:04:D0:1A:3F:22-tsco")
        let hfpIn = M.Port(type: "BluetoothHFP", name: "AirPods Pro", uid: "7C:04:D0:1A:3F:22-tsco")
        let headphones = M.Port(type: "Headphones", name: "Headphones", uid: "Wired Headphones")
        let headsetMic = M.Port(type: "MicrophoneWired", name: "Headset Microphone", uid: "Wired Microphone")
        let usbMic = M.Port(type: "USBAudio", name: "Studio Mic", uid: "AppleUSBAudioEngine:Studio:1")
        var t = M.DeviceTracker()
        // A bluetooth headset connected while the SDK forces the speaker: in the inputs only.
        XCTAssertEqual(t.update(outputs: [speaker], inputs: [builtInMic, hfpIn]),
                       [.deviceConnected(id: "7C:04:D0:1A:3F:22", kind: .bluetooth, name: "AirPods Pro", port: "BluetoothHFP")])
        XCTAssertEqual(t.update(outputs: [hfpOut], inputs: [builtInMic, hfpIn]), [], "taking the route is no new device")
        // A wired headset: its output and its microphone are one device, also while an override hides the output.
        XCTAssertEqual(t.update(outputs: [headphones], inputs: [builtInMic, hfpIn, headsetMic]),
                       [.deviceConnected(id: "WiredHeadset", kind: .headset, name: "Headphones", port: "Headphones")])
        XCTAssertEqual(t.update(outputs: [speaker], inputs: [builtInMic, hfpIn, headsetMic]), [], "overridden to the speaker: still connected")
        // An input-only device, and devices that leave.
        XCTAssertEqual(t.update(outputs: [speaker], inputs: [builtInMic, headsetMic, usbMic]),
                       [.deviceDisconnected(id: "7C:04:D0:1A:3F:22"),
                        .deviceConnected(id: "AppleUSBAudioEngine:Studio:1", kind: .headset, name: "Studio Mic", port: "USBAudio")])
        XCTAssertEqual(t.devices.map(\.id), ["WiredHeadset", "AppleUSBAudioEngine:Studio:1"], "in connection order")
        XCTAssertEqual(t.update(outputs: [speaker], inputs: [builtInMic]),
                       [.deviceDisconnected(id: "WiredHeadset"), .deviceDisconnected(id: "AppleUSBAudioEngine:Studio:1")])
    }

    func test_routeChange_addsAndRemovesExternalDevices_byAddressAcrossProfiles_andAirPlayAndCarPlayKinds() {
        let receiver = M.Port(type: "Receiver", name: "Receiver", uid: "Built-In Receiver")
        let a2dp = M.Port(type: "BluetoothA2DPOutput", name: "AirPods Pro", uid: "7C:04:D0:1A:3F:22-tacl")
        let hfp = M.Port(type: "BluetoothHFP", name: "AirPods Pro", uid: "7C:04:D0:1A:3F:22-tsco")
        let wired = M.Port(type: "Headphones", name: "Headphones", uid: "Wired Headphones")
        let airplay = M.Port(type: "AirPlay", name: "Living Room", uid: "AA:BB:CC:DD:EE:FF-airplay")
        let car = M.Port(type: "CarAudio", name: "CarPlay", uid: "CarPlay-1")
        var t = M.DeviceTracker()
        XCTAssertEqual(t.routeChange(reasonRawValue: 1, previous: [receiver], current: [hfp], availableInputs: []),
                       [.deviceConnected(id: "7C:04:D0:1A:3F:22", kind: .bluetooth, name: "AirPods Pro", port: "BluetoothHFP"),
                        .routeChanged(route: .bluetooth, previous: .receiver, reason: .newDeviceAvailable)])
        XCTAssertEqual(t.routeChange(reasonRawValue: 3, previous: [hfp], current: [a2dp], availableInputs: []),
                       [.routeChanged(route: .bluetooth, previous: .bluetooth, reason: .categoryChange)],
                       "A2DP to HFP is one device changing profile")
        XCTAssertEqual(t.routeChange(reasonRawValue: 2, previous: [a2dp], current: [wired], availableInputs: []),
                       [.deviceDisconnected(id: "7C:04:D0:1A:3F:22"), .deviceConnected(id: "WiredHeadset", kind: .headset, name: "Headphones", port: "Headphones"),
                        .routeChanged(route: .headset, previous: .bluetooth, reason: .oldDeviceUnavailable)])
        XCTAssertEqual(t.routeChange(reasonRawValue: 1, previous: [wired], current: [airplay], availableInputs: []),
                       [.deviceDisconnected(id: "WiredHeadset"), .deviceConnected(id: "AA:BB:CC:DD:EE:FF-airplay", kind: .airplay, name: "Living Room", port: "AirPlay"),
                        .routeChanged(route: .unknown, previous: .headset, reason: .newDeviceAvailable)])
        XCTAssertEqual(t.routeChange(reasonRawValue: 1, previous: [airplay], current: [car], availableInputs: [car]),
                       [.deviceDisconnected(id: "AA:BB:CC:DD:EE:FF-airplay"), .deviceConnected(id: "CarPlay-1", kind: .carAudio, name: "CarPlay", port: "CarAudio"),
                        .routeChanged(route: .unknown, previous: .unknown, reason: .newDeviceAvailable)])
        XCTAssertEqual(M.snapshotPorts([hfp, M.Port(type: "Speaker")]), ["BluetoothHFP:AirPods Pro", "Speaker"])
    }

    func test_callFlags_toCallStates() {
        // (hasConnected, hasEnded, isOutgoing, isOnHold) → state
        let table: [(Bool, Bool, Bool, Bool, CallState)] = [
            (false, false, false, false, .incoming), (false, false, true, false, .dialing),
            (true, false, false, false, .connected), (true, false, true, false, .connected),
            (true, false, false, true, .held), (true, true, false, false, .disconnected),
            (false, true, false, false, .disconnected), (false, true, true, false, .disconnected),
        ]
        for (c, e, o, h, state) in table {
            XCTAssertEqual(M.callState(hasConnected: c, hasEnded: e, isOutgoing: o, isOnHold: h), state, "\((c, e, o, h))")
        }
    }

    func test_callTracker_leavesOutTheAppsOwnCallAndRepeats() {
        var t = M.CallTracker()
        t.markOwn("OWN")
        XCTAssertNil(t.changed(callId: "OWN", state: .incoming), "the app's own call is os.callKit, never os.callState")
        XCTAssertFalse(t.otherCallUp)
        XCTAssertEqual(t.changed(callId: "CELL", state: .incoming), .incoming)
        XCTAssertTrue(t.otherCallUp)
        XCTAssertNil(t.changed(callId: "CELL", state: .incoming), "no change, no record")
        XCTAssertEqual(t.changed(callId: "CELL", state: .connected), .connected)
        XCTAssertEqual(t.changed(callId: "CELL", state: .disconnected), .disconnected)
        XCTAssertFalse(t.otherCallUp)
    }

    func test_sessionErrors_byTheirCaseNames_andCallKitHold() {
        XCTAssertEqual(M.sessionError(domain: "NSOSStatusErrorDomain", code: 561_017_449), "insufficientPriority")
        XCTAssertEqual(M.sessionError(domain: "NSOSStatusErrorDomain", code: 560_557_684), "cannotInterruptOthers")
        XCTAssertEqual(M.sessionError(domain: "NSOSStatusErrorDomain", code: 560_030_580), "isBusy")
        XCTAssertEqual(M.sessionError(domain: "NSOSStatusErrorDomain", code: -50), "badParam")
        XCTAssertEqual(M.sessionError(domain: "com.example", code: 7), "com.example.7")
        for (_, name) in M.sessionErrorNames {
            XCTAssertNotNil(SystemVocabulary.leadingErrorCode(name), "\(name) is a word source redaction keeps")
        }
        XCTAssertEqual(M.heldCallEvent(isOnHold: true), .hold)
        XCTAssertEqual(M.heldCallEvent(isOnHold: false), .unhold)
    }

    func test_recordPermission_fourCharCodes() {
        XCTAssertEqual(M.micPermission(rawValue: 1_735_552_628), .granted)       // 'grnt'
        XCTAssertEqual(M.micPermission(rawValue: 1_684_369_017), .denied)        // 'deny'
        XCTAssertEqual(M.micPermission(rawValue: 1_970_168_948), .undetermined)  // 'undt'
        XCTAssertEqual(M.micPermission(rawValue: 1_919_251_316), .unlisted("rest"))  // a code a newer iOS may add: kept
        XCTAssertEqual(M.micPermission(rawValue: 7), .unlisted("7"))
    }

    func test_sessionConfiguration_shortSwiftSpellings() {
        XCTAssertEqual(M.category(rawValue: "AVAudioSessionCategoryPlayAndRecord"), "playAndRecord")
        XCTAssertEqual(M.category(rawValue: "AVAudioSessionCategorySoloAmbient"), "soloAmbient")
        XCTAssertEqual(M.mode(rawValue: "AVAudioSessionModeVoiceChat"), "voiceChat")
        XCTAssertEqual(M.mode(rawValue: "AVAudioSessionModeDefault"), "default")
        XCTAssertEqual(M.mode(rawValue: "AVAudioSessionModeVideoChat"), "videoChat")
        // allowBluetooth (0x4) | defaultToSpeaker (0x8) | allowBluetoothA2DP (0x20)
        XCTAssertEqual(M.categoryOptions(rawValue: 0x2C), ["allowBluetooth", "defaultToSpeaker", "allowBluetoothA2DP"])
        XCTAssertEqual(M.categoryOptions(rawValue: 0x1), ["mixWithOthers"])
        XCTAssertEqual(M.categoryOptions(rawValue: 0x204), ["allowBluetooth", "option0x200"], "an unknown bit is kept, named by its value")
    }
}

/// The typed API covers every record type a recorder writes; times and names as the recorder writes them.
final class APITests: XCTestCase {
    func test_everyRecordTypeARecorderWritesHasAnEvent() {
        let s = QualitySample(level: .good)
        let events: [TraceRecorder.Event] = [
            .joinChannel(channel: "c"), .leaveChannel, .enterMeeting(room: "r"), .exitMeeting, .setDefaultRoute(target: .speaker),
            .setRoute(target: .speaker, api: "setSpeakerOutputEnabled(true)"), .clearRouteOverride, .setAudioModuleEnabled(false),
            .subscribe(pubUid: "u", trackId: "t", layers: ["t-h"]), .switchLayer(pubUid: "u", trackId: "t", targetTrackId: "t-h"),
            .deviceConnected(id: "d", kind: .bluetooth), .deviceDisconnected(id: "d"), .micPermission(.granted), .interruptionBegan(),
            .interruptionEnded(), .callState(.incoming), .appState(.background), .mediaServicesReset, .callKit(.answer),
            .routeChanged(route: .speaker, previous: .receiver, reason: .override), .routeSnapshot(route: .speaker),
            .sessionActivated(ok: true), .sessionDeactivated(notifyOthers: true), .overrideOutput(.speaker),
            .sdkInterrupted, .sdkRecovered, .sdkCallStateChanged(.connected), .sdkQualityChanged(overall: .good, previous: .unknown),
            .sdkActiveSpeakers([]), .sdkLayerSwitched(pubUid: "u", trackId: "t", toTrackId: "t-l", reason: "client"),
            .sdkError(api: "a", error: "e"), .sdkLog(level: "info", message: "m"), .connEngine(.seaStart), .connState(.connected),
            .qualityReport(pub: s, sub: s), .speakers(speaking: []), .srvLayerSwitched(pubUid: "u", trackId: "t", toTrackId: "t-l", reason: "bwe_down"),
        ]
        let covered = Set(events.map(\.body.type))
        // The system log's records (sys.*) are imported from the device's log, never recorded.
        // The recorder writes the trace.* records itself (a report mark through `markReport`).
        let writable = Set(RecordKind.allCases.filter { $0.family != .sys }.map(\.rawValue)).subtracting(["trace.header", "trace.dropped", "trace.checkpoint",
                                                                             "trace.report", "trace.paused"])
        XCTAssertEqual(covered, writable, "types without an event: \(writable.subtracting(covered)); events of no type: \(covered.subtracting(writable))")
    }

    func test_wallTimes() {
        XCTAssertEqual(WallTime.iso(1_764_410_400_123), "2025-11-29T10:00:00.123Z")
        XCTAssertEqual(WallTime.stamp(1_764_410_400_123), "20251129T100000123Z")
        XCTAssertEqual(WallTime.iso(0), "1970-01-01T00:00:00.000Z")
        XCTAssertEqual(WallTime.iso(951_782_400_000), "2000-02-29T00:00:00.000Z")
        for ms in [Int64(0), 951_782_400_000, 1_764_410_400_123, 4_102_444_799_999] {
            XCTAssertEqual(WallTime.parseISO(WallTime.iso(ms)), ms)
            XCTAssertEqual(WallTime.parseStamp(WallTime.stamp(ms)), ms)
        }
        XCTAssertEqual(WallTime.parseISO("2026-11-29T10:00:00Z"), 1_795_946_400_000, "the spec's form without milliseconds")
        XCTAssertNil(WallTime.parseISO("2026-11-29 10:00:00Z"))
    }

    func test_fileNames() {
        let n = TraceFileName(stamp: "20251129T100000123Z", session: "call-42", part: 7)
        XCTAssertEqual(n.fileName, "20251129T100000123Z-call-42-p0007.trace.zst")
        XCTAssertEqual(TraceFileName(fileName: n.fileName), n)
        XCTAssertNil(TraceFileName(fileName: "notes.txt"))
        XCTAssertNil(TraceFileName(fileName: ".20251129T100000123Z-x-p0001.trace.zst.tmp"))
        XCTAssertEqual(TraceRecorder.sanitize("a b/c:d-é"), "a_b_c_d-_")
    }
}

/// The recorder's own tables agree with the record model's.
final class KindTableTests: XCTestCase {
    /// The caller's path asks a switch whether a record is an app call (written through at once); it
    /// must say what the kind table's family says.
    func test_appCallsAreExactlyTheApiFamily() {
        for kind in RecordKind.allCases {
            XCTAssertEqual(kind.isAppCall, kind.family == .api, kind.rawValue)
        }
    }
}
