import Analysis
import Foundation
import Replay
import Reports
import TestSupport
import TraceCodec
import TraceModel
import XCTest

final class RedactTests: XCTestCase {
    func hex(_ s: String) -> String { SHA256.hex(SHA256.hash(Array(s.utf8))) }

    func test_SHA256_andHMAC_matchPublishedVectors() {
        XCTAssertEqual(hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(hex(String(repeating: "a", count: 1000)), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        // RFC 4231 test case 2.
        XCTAssertEqual(SHA256.hex(SHA256.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))),
                       "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // RFC 4231 test case 6 (key longer than a block).
        XCTAssertEqual(SHA256.hex(SHA256.hmac(key: [UInt8](repeating: 0xaa, count: 131),
                                              message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))),
                       "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    /// A trace with personal data in every field that can hold it, including inside a log message.
    static func personalTrace() -> (records: [Record], secrets: [String]) {
        let recs = Fixtures.records(layer: .smeeting, bundleId: "com.acme.secretmeet", [
            (900, .connEngine(vendor: .seaStart)), (1000, .enterMeeting(room: "Board-Room-Zurich")),
            (1010, .connState(state: .connected)), (1035, .micPermission(status: .granted)), (1060, Fixtures.callSession),
            (1075, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange)),
            (2000, .subscribe(pubUid: "alice.smith@acme", trackId: "cam-alice", layers: ["cam-alice-hd", "cam-alice-sd"])),
            (2500, .switchLayer(pubUid: "alice.smith@acme", trackId: "cam-alice", targetTrackId: "cam-alice-sd")),
            (2800, .srvLayerSwitched(LayerSwitch(pubUid: "alice.smith@acme", trackId: "cam-alice", fromTrackId: "cam-alice-hd",
                                                 toTrackId: "cam-alice-sd", reason: "client", latencyMs: 300))),
            (3000, .speakers(speaking: [Speaker(uid: "bob.jones@acme", trackId: "mic-bob", level: 0.5),
                                        Speaker(uid: "alice.smith@acme", trackId: "mic-alice", level: 0.5)], stopped: [])),
            (3010, .sdkActiveSpeakers(speakers: [Speaker(uid: "alice.smith@acme", trackId: "mic-alice", level: 0.5),
                                                 Speaker(uid: "bob.jones@acme", trackId: "mic-bob", level: 0.5)])),
            (3020, .expect(Expectation(.speakers([SpeakerKey(uid: "alice.smith@acme", trackId: "mic-alice"),
                                                  SpeakerKey(uid: "bob.jones@acme", trackId: "mic-bob")])))),
            (4000, .deviceConnected(id: "bt-7c:04:d0:1a:3f:22", kind: .bluetooth, name: "Carol's AirPods Pro", port: "BluetoothHFP")),
            (4050, .routeChanged(route: .bluetooth, previousRoute: .receiver, reason: .newDeviceAvailable)),
            (4100, .sdkLog(level: "info", message: "route -> Carol's AirPods Pro in Board-Room-Zurich")),
            (4200, .routeSnapshot(route: .bluetooth, ports: ["BluetoothHFP:Erin's Beats Studio", "Speaker", "Ivan-Phone-Dock"])),
            (4300, .deviceConnected(id: "usb-0042", kind: .headset, name: nil, port: "Frank's Car Stereo")),
            (4310, .deviceDisconnected(id: "usb-0042")),
            (4400, .sdkError(api: "switchLayer", error: "webrtcError: ICE failed for grace@acme.com at 10.1.2.3 (alice.smith@acme)")),
            (4500, .sessionActivated(SessionActivation(ok: false, error: "Henry-iPhone refused from 192.168.0.77",
                                                       category: "playAndRecord", mode: "voiceChat", options: ["allowBluetooth"]))),
            (5000, .setRoute(target: .speaker, api: "setAudioRoute(.speaker)")),
            (6000, .speakers(speaking: [], stopped: [SpeakerKey(uid: "bob.jones@acme", trackId: "mic-bob")])),
            (6500, .unknown(type: "app.custom", json: "{\"seq\":23,\"t\":6500,\"type\":\"app.custom\",\"user\":\"dave@acme\"}")),
            (7000, .deviceDisconnected(id: "bt-7c:04:d0:1a:3f:22")),
            (7050, .routeChanged(route: .speaker, previousRoute: .bluetooth, reason: .oldDeviceUnavailable)),
            (8000, .callKit(event: .answer, callId: "call-Marie-Dupont-0042")),
            (9000, .exitMeeting),
        ])
        let secrets = ["Marie-Dupont", "com.acme.secretmeet", "Board-Room-Zurich", "alice.smith", "bob.jones", "cam-alice", "mic-alice", "mic-bob",
                       "Carol", "AirPods Pro", "7c:04:d0:1a:3f:22", "dave@acme", "Erin", "Beats Studio", "Ivan-Phone-Dock",
                       "Frank", "Car Stereo", "usb-0042", "grace@acme.com", "10.1.2.3", "Henry-iPhone", "192.168.0.77"]
        return (recs, secrets)
    }

    func test_redact_noOriginalPersonalValueSurvives_andFindingsAreIdentical() throws {
        let (recs, secrets) = Self.personalTrace()
        let dir = Fixtures.tempDir()
        let input = dir + "/personal.trace.zst", output = dir + "/redacted.trace.zst"
        try Fixtures.write(recs, input)
        let report = try Redaction.run(input: input, output: output, salt: "case-4711")
        XCTAssertEqual(report.records, recs.count)
        XCTAssertEqual(Set(report.changed.map(\.kind)), ["device name", "device id", "uid", "track id", "room name", "bundle id",
                                                         "log message", "error text", "port name", "unknown record fields", "call id"])
        // Nowhere in the output: neither in the decompressed text nor in the file's bytes.
        let text = try TraceFiles.load(output).map(\.jsonLine).joined(separator: "\n")
        let bytes = String(decoding: try Data(contentsOf: URL(fileURLWithPath: output)), as: UTF8.self)
        for s in secrets {
            XCTAssertFalse(text.contains(s), "\(s) survives in the redacted records")
            XCTAssertFalse(bytes.contains(s), "\(s) survives in the file")
        }
        XCTAssertTrue(text.contains("\"name\":\"dev-"), text)
        // Seq, t and types are kept exactly.
        let redacted = try TraceFiles.load(output)
        XCTAssertEqual(redacted.map(\.seq), recs.map(\.seq))
        XCTAssertEqual(redacted.map(\.t), recs.map(\.t))
        XCTAssertEqual(redacted.map(\.type), recs.map(\.type))
        // The replay concludes exactly the same.
        let before = try Replay.run(TraceSession(path: input)), after = try Replay.run(TraceSession(path: output))
        XCTAssertEqual(Redaction.differences(before, after), [])
        XCTAssertEqual(after.failedExpectations.count, 0, "expect.speakers follows the tokens, in the same order")
        XCTAssertEqual(before.findings.map(\.code.rawValue), after.findings.map(\.code.rawValue))
        XCTAssertEqual(before.findings.map(\.seqs), after.findings.map(\.seqs))
        XCTAssertEqual(before.findings.map(\.severity), after.findings.map(\.severity))
        XCTAssertEqual(before.findings.map(\.rule), after.findings.map(\.rule))
        XCTAssertEqual(before.verdicts, after.verdicts)
        XCTAssertEqual(before.divergences, after.divergences)
    }

    /// Free text in the fields that usually hold vocabulary: a log level, a layer switch's reason and a
    /// CallKit call id are tokenised when they are not words of the vocabulary; the vocabulary stays.
    func test_redact_tokenisesFreeTextInLevelsReasonsAndCallIds() throws {
        let recs = Fixtures.records(layer: .smeeting, [
            (900, .connEngine(vendor: .seaStart)), (1000, .enterMeeting(room: "r")), (1010, .connState(state: .connected)),
            (1100, .sdkLog(level: "jane_doe", message: "m")), (1110, .sdkLog(level: "warning", message: "m")),
            (1200, .callKit(event: .answer, callId: "call-Marie-Dupont-0042")),
            (1300, .srvLayerSwitched(LayerSwitch(pubUid: "u", trackId: "t", fromTrackId: "t-hd", toTrackId: "t-sd",
                                                 reason: "asked by Bob.Smith", latencyMs: 10))),
            (1400, .sdkLayerSwitched(LayerSwitch(pubUid: "u", trackId: "t", fromTrackId: "t-hd", toTrackId: "t-sd",
                                                 reason: "bwe_down", latencyMs: 10))),
            (2000, .exitMeeting),
        ])
        let dir = Fixtures.tempDir()
        let input = dir + "/free-text.trace.zst", output = dir + "/redacted.trace.zst"
        try Fixtures.write(recs, input)
        let report = try Redaction.run(input: input, output: output, salt: "case-4711")
        XCTAssertEqual(Set(report.changed.map(\.kind)).intersection(["log level", "layer switch reason", "call id"]),
                       ["log level", "layer switch reason", "call id"])
        let text = try TraceFiles.load(output).map(\.jsonLine).joined(separator: "\n")
        for secret in ["jane_doe", "Marie", "Dupont", "Bob.Smith", "asked by"] { XCTAssertFalse(text.contains(secret), "\(secret): \(text)") }
        XCTAssertTrue(text.contains("\"level\":\"lvl-"), text)
        XCTAssertTrue(text.contains("\"callId\":\"call-"), text)
        XCTAssertTrue(text.contains("\"reason\":\"why-"), text)
        XCTAssertTrue(text.contains("\"level\":\"warning\""), "a level word stays: \(text)")
        XCTAssertTrue(text.contains("\"reason\":\"bwe_down\""), "a reason word stays: \(text)")
    }

    /// What is vocabulary stays: port types and a known error code at the start of an error text.
    func test_redact_keepsPortTypesAndErrorCodes() throws {
        let (recs, _) = Self.personalTrace()
        let dir = Fixtures.tempDir()
        let input = dir + "/personal.trace.zst", output = dir + "/redacted.trace.zst"
        try Fixtures.write(recs, input)
        _ = try Redaction.run(input: input, output: output, salt: "case-4711")
        let text = try TraceFiles.load(output).map(\.jsonLine).joined(separator: "\n")
        XCTAssertTrue(text.contains("\"BluetoothHFP:dev-"), text)
        XCTAssertTrue(text.contains("\"Speaker\""), text)
        XCTAssertTrue(text.contains("\"port\":\"BluetoothHFP\""), text)
        XCTAssertTrue(text.contains("\"port\":\"port-"), text)
        XCTAssertTrue(text.contains("\"error\":\"webrtcError: err-"), text)
        XCTAssertTrue(text.contains("\"error\":\"err-"), text)
        XCTAssertTrue(text.hasPrefix("{\"seq\":0,") && text.split(separator: "\n")[0].contains("\"redacted\":\"redact\""), text)
    }

    /// What users see of a redacted trace (the Chrome export, the HTML report, a reduction) repeats
    /// none of the personal values either.
    func test_redact_nothingPersonalInTheExportReportOrReductionOfTheRedactedTrace() throws {
        let (recs, secrets) = Self.personalTrace()
        let dir = Fixtures.tempDir()
        let input = dir + "/personal.trace.zst", output = dir + "/redacted.trace.zst"
        try Fixtures.write(recs, input)
        _ = try Redaction.run(input: input, output: output, salt: "case-4711")
        let recorder = ChromeTraceObserver()
        let exported = ChromeTrace.render(try Replay.run(TraceSession(path: output), observer: recorder.observe), observer: recorder)
        let (result, lanes) = try Fixtures.replayWithLanes(output)
        let html = HTMLReport.render(result, lanes: lanes)
        let reduced = try TraceMinimizer(records: try TraceFiles.load(output), options: ReduceOptions(goal: .finding(.routeIneffective))).run()
        let reducedText = reduced.records.map(\.jsonLine).joined(separator: "\n")
        // What cat prints (the records as written), what explain says (text and JSON), the triage row.
        let catText = try TraceFiles.load(output).map(\.jsonLine).joined(separator: "\n")
        let explained = ExplainText.render(result) + ExplainJSON.render(result)
        let row = TriageRowJSON.render(Triage.row(for: TraceSession(paths: [output], size: 0)))
        for s in secrets {
            XCTAssertFalse(catText.contains(s), "\(s) in the redacted trace (cat)")
            XCTAssertFalse(explained.contains(s), "\(s) in explain")
            XCTAssertFalse(row.contains(s), "\(s) in the triage row")
            XCTAssertFalse(exported.contains(s), "\(s) in the Chrome export")
            XCTAssertFalse(html.contains(s) || html.contains(s.replacingOccurrences(of: "'", with: "&#39;")), "\(s) in the report")
            XCTAssertFalse(reducedText.contains(s), "\(s) in the reduction")
        }
    }

    func test_redact_tokensAreStableWithinATrace_andDependOnTheSalt() {
        let a = Redactor(salt: "s1"), b = Redactor(salt: "s2")
        XCTAssertEqual(a.token(.deviceName, "AirPods"), a.token(.deviceName, "AirPods"))
        XCTAssertNotEqual(a.token(.deviceName, "AirPods"), b.token(.deviceName, "AirPods"))
        XCTAssertTrue(a.token(.deviceName, "AirPods").hasPrefix("dev-"))
        XCTAssertEqual(a.token(.deviceName, "AirPods").count, "dev-".count + 8)
        // Uids keep their order so that speaker ties (S2) sort the same.
        let (recs, _) = Self.personalTrace()
        for r in recs { a.learn(r) }
        a.finishLearning()
        XCTAssertLessThan(a.token(.uid, "alice.smith@acme"), a.token(.uid, "bob.jones@acme"))
        XCTAssertTrue(a.token(.uid, "alice.smith@acme").hasPrefix("uid-01-"))
    }

    func test_redact_everyGoldenTraceReplaysTheSame() throws {
        let dir = Fixtures.tempDir()
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.root + "/traces")
            .filter { $0.hasSuffix(".jsonl") || $0.hasSuffix(".zst") }.sorted()
        XCTAssertGreaterThan(names.count, 20)
        for name in names {
            let out = dir + "/" + name + ".redacted.trace.zst"
            let before = try Replay.run(TraceSession(path: Fixtures.trace(name)))
            // A trace damaged on purpose (expect.damage) has seq gaps a redacted trace cannot keep.
            if before.declaredDamage != nil { continue }
            _ = try Redaction.run(input: Fixtures.trace(name), output: out, salt: nil)
            let after = try Replay.run(TraceSession(path: out))
            XCTAssertEqual(Redaction.differences(before, after), [], name)
            XCTAssertEqual(before.failedExpectations.count, after.failedExpectations.count, name)
        }
    }
}
