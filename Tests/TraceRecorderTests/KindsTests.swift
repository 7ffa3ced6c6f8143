import Foundation
import TestSupport
import TraceModel
@testable import TraceRecorder
import XCTest

/// One person, one token: a personal value declared of a kind in a template log or a custom event gets
/// the token the same value gets in a record field of that kind.
final class KindsTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func test_theSameUidAsASpeaker_inATemplateLog_andInACustomEvent_isOneToken() throws {
        let clock = ManualClock()
        var c = Support.configuration(dir, layer: .smeeting, clock: clock)
        c.privacy = .hashed(salt: Array("install-salt".utf8))
        let r = TraceRecorder(c)
        let uid = "jane.doe-4711", room = "Weekly with Jane", device = "Jane's AirPods"
        r.record(.enterMeeting(room: room, uid: "me-1"))
        r.record(.deviceConnected(id: "AA:BB", kind: .bluetooth, name: device, port: "BluetoothHFP"))
        r.record(.sdkActiveSpeakers([Speaker(uid: uid, trackId: "t-1", level: 0.8)]))
        r.record(.log(level: "debug", "rtp stats for \(uid, kind: .uid) in \(room, kind: .room) via \(device, kind: .device) nack=\(12) note=\("free text about Jane")"))
        r.record(.custom("rtpStats", ["uid": .string(uid, kind: .uid), "room": .string(room, kind: .room), "nack": 12,
                                      "note": .string("free text about Jane")]))
        XCTAssertTrue(r.close(timeout: 20))
        let records = try Support.joinParts(Support.traceFiles(dir).map { dir + "/" + $0 })
        let text = records.map(\.jsonLine).joined(separator: "\n")
        for secret in ["jane", "Jane", "Weekly"] { XCTAssertFalse(text.contains(secret), "\(secret) reached the disk: \(text)") }
        guard case .sdkActiveSpeakers(let speakers)? = records.first(where: { $0.type == "sdk.activeSpeakers" })?.body,
              case .enterMeeting(let roomToken, _)? = records.first(where: { $0.type == "api.enterMeeting" })?.body,
              case .deviceConnected(_, _, let deviceToken?, _)? = records.first(where: { $0.type == "os.deviceConnected" })?.body,
              case .sdkLog(_, let line)? = records.first(where: { $0.type == "sdk.log" })?.body,
              let custom = records.first(where: { $0.type == "x.rtpStats" })?.jsonLine else { return XCTFail(text) }
        let uidToken = speakers[0].uid
        XCTAssertTrue(uidToken.hasPrefix("uid-"), uidToken)
        XCTAssertEqual(line, "rtp stats for \(uidToken) in \(roomToken) via \(deviceToken) nack=12 note="
            + PersonalValue.token(key: Array("install-salt".utf8), kind: .logMessage, value: "free text about Jane"))
        XCTAssertTrue(custom.contains("\"uid\":\"\(uidToken)\""), custom)
        XCTAssertTrue(custom.contains("\"room\":\"\(roomToken)\""), custom)
        XCTAssertTrue(custom.contains("\"note\":\"rec-"), custom)
        // rtctrace redact, with the install's salt, gives a speaker's uid the same eight hex digits.
        XCTAssertEqual(PersonalValue.token(key: Array("install-salt".utf8), kind: .uid, value: uid), uidToken)
    }

    func test_withPrivacyOff_aDeclaredValueIsWrittenAsItIs() throws {
        let r = TraceRecorder(Support.configuration(dir, clock: ManualClock()))
        r.record(.log("joined \("chan-1", kind: .channel) as \(42, kind: .uid)"))
        XCTAssertTrue(r.close(timeout: 20))
        let records = try Support.joinParts(Support.traceFiles(dir).map { dir + "/" + $0 })
        XCTAssertEqual(records.last?.body, .sdkLog(level: "info", message: "joined chan-1 as 42"))
    }
}
