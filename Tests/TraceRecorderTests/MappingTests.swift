import Foundation
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
            ("AirPlay", .bluetooth, .bluetooth),
            ("Headphones", .headset, .headset), ("HeadsetMic", .headset, .headset), ("USBAudio", .headset, .headset),
            ("CarAudio", .headset, .headset), ("LineOut", .headset, .headset), ("HDMIOutput", .headset, .headset),
            ("MicrophoneBuiltIn", .unknown, nil), ("Virtual", .unknown, nil), ("", .unknown, nil),
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

    func test_interruptions_typeAndShouldResume() {
        XCTAssertEqual(M.interruption(typeRawValue: 1, optionsRawValue: nil, otherCallUp: true), .interruptionBegan(cause: .systemCall, wasSuspended: nil))
        XCTAssertEqual(M.interruption(typeRawValue: 1, optionsRawValue: nil, otherCallUp: false), .interruptionBegan(cause: .unknown, wasSuspended: nil))
        XCTAssertEqual(M.interruption(typeRawValue: 0, optionsRawValue: 1, otherCallUp: false), .interruptionEnded(shouldResume: true))
        XCTAssertEqual(M.interruption(typeRawValue: 0, optionsRawValue: 0, otherCallUp: false), .interruptionEnded(shouldResume: false))
        XCTAssertEqual(M.interruption(typeRawValue: 0, optionsRawValue: nil, otherCallUp: false), .interruptionEnded(shouldResume: nil))
        XCTAssertNil(M.interruption(typeRawValue: 7, optionsRawValue: nil, otherCallUp: false))
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

    func test_recordPermission_fourCharCodes() {
        XCTAssertEqual(M.micPermission(rawValue: 1_735_552_628), .granted)       // 'grnt'
        XCTAssertEqual(M.micPermission(rawValue: 1_684_369_017), .denied)        // 'deny'
        XCTAssertEqual(M.micPermission(rawValue: 1_970_168_948), .undetermined)  // 'undt'
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
    }

    func test_routeChange_addsAndRemovesExternalDevices_byAddressAcrossProfiles() {
        let receiver = M.Port(type: "Receiver", name: "Receiver", uid: "Built-In Receiver")
        let a2dp = M.Port(type: "BluetoothA2DPOutput", name: "AirPods Pro", uid: "7C:04:D0:1A:3F:22-tacl")
        let hfp = M.Port(type: "BluetoothHFP", name: "AirPods Pro", uid: "7C:04:D0:1A:3F:22-tsco")
        let wired = M.Port(type: "Headphones", name: "Headphones", uid: "Wired Headphones")
        XCTAssertEqual(M.routeChange(reasonRawValue: 1, previous: [receiver], current: [hfp]),
                       [.deviceConnected(id: "7C:04:D0:1A:3F:22", kind: .bluetooth, name: "AirPods Pro", port: "BluetoothHFP"),
                        .routeChanged(route: .bluetooth, previous: .receiver, reason: .newDeviceAvailable)])
        XCTAssertEqual(M.routeChange(reasonRawValue: 3, previous: [a2dp], current: [hfp]),
                       [.routeChanged(route: .bluetooth, previous: .bluetooth, reason: .categoryChange)],
                       "A2DP to HFP is one device changing profile")
        XCTAssertEqual(M.routeChange(reasonRawValue: 2, previous: [wired], current: [M.Port(type: "Speaker")]),
                       [.deviceDisconnected(id: "Wired Headphones"), .routeChanged(route: .speaker, previous: .headset, reason: .oldDeviceUnavailable)])
        XCTAssertEqual(M.snapshotPorts([hfp, M.Port(type: "Speaker")]), ["BluetoothHFP:AirPods Pro", "Speaker"])
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
        let writable = Set(RecordKind.allCases.map(\.rawValue)).subtracting(["trace.header", "trace.dropped", "trace.checkpoint"])
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
