import Foundation
@_spi(FaultInjection) import SystemLayer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Replay
@testable import TraceModel
import TraceCodec
@testable import TraceRecorder
import XCTest

/// Privacy at the source (no personal value reaches the disk) and failures (a full disk stops the
/// recording with a clear message and leaves the earlier files intact).
final class PrivacyAndFailureTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func record(_ script: Script, in dir: String, _ adjust: (inout RecorderConfiguration) -> Void) throws -> (records: [Record], replay: ReplayResult) {
        let recorded = try Support.record(script, in: dir, adjust)
        XCTAssertEqual(recorded.statistics.dropped, 0)
        return (recorded.records, recorded.replay)
    }

    func test_sourceRedaction_noPersonalValueReachesTheDisk_andVerdictsAreKept() throws {
        let salt = Array("per-install salt for the test".utf8)
        for (i, script) in (Scenarios.all + [Scenarios.thirtyMinuteMeeting()]).enumerated() {
            let sub = dir + "/\(i)"
            let (records, replay) = try record(script, in: sub) { $0.privacy = .hashed(salt: salt) }
            guard case .header(let h) = records[0].body else { return XCTFail("no header") }
            XCTAssertEqual(h.redacted, .source)
            Support.assertSameSteps(records, script, redacted: true)
            Support.assertIntended(replay, script)
            // Neither the compressed bytes nor the decompressed text hold any personal value.
            var everything = Data()
            for f in Support.traceFiles(sub) {
                everything += try Data(contentsOf: URL(fileURLWithPath: sub + "/" + f))
                for r in try Support.read(sub + "/" + f).records { everything += Data(r.jsonLine.utf8) }
            }
            XCTAssertFalse(script.personalValues.isEmpty)
            for value in script.personalValues + ["alice", "Alice", "AirPods", "7C:04"] {
                XCTAssertNil(everything.range(of: Data(value.utf8)), "\(script.name): '\(value)' reached the disk")
            }
        }
    }

    /// Headers and file names too: the bundle id and the session id are tokens, and so are
    /// identifier-like error texts, port names, snapshot entries without a port type, call ids and the
    /// private values of custom events; with the redacted trace, `rtctrace redact` changes nothing more
    /// in the fields the map declares.
    func test_sourceRedaction_coversHeadersFileNamesAndEveryPersonalField() throws {
        let clock = ManualClock()
        var c = Support.configuration(dir, clock: clock)
        c.sessionId = "Session-of-Jane-Doe"
        c.app = .init(bundleId: "com.janedoe.secretapp")
        c.privacy = .hashed(salt: Array("salt".utf8))
        c.files.maxFileBytes = 1024
        let r = TraceRecorder(c)
        let secrets = ["Jane", "jane_doe", "Bob.Smith", "turn.acme.com", "Kitchen speaker", "CallOf-Jane", "janedoe", "secretapp", "Doe"]
        r.record(.joinChannel(channel: "Jane's room"))
        r.record(.sdkError(api: "joinChannel", error: "jane_doe"))
        r.record(.sdkError(api: "joinChannel", error: "Bob.Smith"))
        r.record(.sessionActivated(ok: false, error: "turn.acme.com"))
        r.record(.deviceConnected(id: "dev-Jane", kind: .headset, name: "Jane's headset", port: "Kitchen speaker"))
        r.record(.routeSnapshot(route: .headset, ports: ["Kitchen speaker", "Headphones:Jane's headset"]))
        r.record(.callKit(.answer, callId: "CallOf-Jane"))
        r.record(.custom("peer", ["who": .string("Jane Doe"), "where": .string("lab", privacy: .public)]))
        for i in 0..<80 {
            r.record(.sdkLog(level: "debug", message: "line \(i) for Jane, rotating the part " + String(i * 7919, radix: 36)))
            clock.advance(milliseconds: 100)
        }
        XCTAssertTrue(r.close(timeout: 20))
        let files = Support.traceFiles(dir)
        XCTAssertGreaterThan(files.count, 1, "rotated: every header redacted, not only the first")
        let token = PersonalValue.token(key: Array("salt".utf8), kind: .sessionId, value: "Session-of-Jane-Doe")
        XCTAssertEqual(r.sessionId, token)
        var everything = Data()
        for f in files {
            XCTAssertTrue(f.contains("-\(token)-p"), "the file name carries the session's token: \(f)")
            everything += try Data(contentsOf: URL(fileURLWithPath: dir + "/" + f))
            let (records, problems) = try Support.read(dir + "/" + f)
            XCTAssertEqual(problems, [])
            for rec in records { everything += Data(rec.jsonLine.utf8) }
            guard case .header(let h) = records[0].body else { return XCTFail() }
            XCTAssertEqual(h.session?.id, token)
            XCTAssertEqual(h.redacted, .source)
            XCTAssertEqual(h.app.bundleId, PersonalValue.token(key: Array("salt".utf8), kind: .bundleId, value: "com.janedoe.secretapp"))
        }
        XCTAssertNotNil(everything.range(of: Data("lab".utf8)), "a custom value marked public stays")
        for s in secrets + ["Session-of"] {
            XCTAssertNil(everything.range(of: Data(s.utf8)), "'\(s)' reached the disk")
        }
    }

    func test_sourceTokensAreRedactsTokensWithoutRank() {
        var r = SourceRedactor(salt: Array("k".utf8))
        XCTAssertEqual(r.redact(.enterMeeting(room: "Board")), .enterMeeting(room: PersonalValue.token(key: Array("k".utf8), kind: .room, value: "Board")))
        XCTAssertEqual(r.redact(.routeSnapshot(route: .bluetooth, ports: ["BluetoothHFP:Alice's AirPods", "Speaker"])),
                       .routeSnapshot(route: .bluetooth, ports: ["BluetoothHFP:" + PersonalValue.token(key: Array("k".utf8), kind: .deviceName, value: "Alice's AirPods"), "Speaker"]))
        // Error codes are kept; error text is not.
        XCTAssertEqual(r.redact(.sdkError(api: "switchLayer", error: "transportNotReady")), .sdkError(api: "switchLayer", error: "transportNotReady"))
        guard case .sdkError(_, let e) = r.redact(.sdkError(api: "enterMeeting", error: "token of alice@example.com expired")) else { return XCTFail() }
        XCTAssertTrue(e.hasPrefix("err-"))
        XCTAssertEqual(r.redact(.setRoute(target: .speaker, api: "setAudioRoute(.speaker)")), .setRoute(target: .speaker, api: "setAudioRoute(.speaker)"))
    }

    func test_aWriteErrorThatIsNoDeviceState_stopsRecordingWithAClearMessage_earlierFilesIntact() throws {
        // After 12,000 more bytes every write fails with EIO (a full disk or a locked volume pauses
        // recording instead: DeviceStateTests), through the system layer every write goes through.
        final class Budget: @unchecked Sendable { var left = 12_000 }
        let budget = Budget()
        SystemFaults.injector = FaultInjector(write: { attempt in
            if budget.left <= 0 { return .fail(.ioError) }
            budget.left -= attempt.count
            return nil
        })
        defer { SystemFaults.injector = nil }
        let logs = LogSink()
        let clock = ManualClock()
        var c = RecorderConfiguration(directory: dir, layer: .srtc)
        c.clock = clock
        c.sessionId = "full"
        c.frame = .init(records: 10, milliseconds: 2000)
        c.files.maxFileBytes = 4096
        c.log = logs.add
        let recorder = TraceRecorder(c)
        var i = 0
        while recorder.isRecording && i < 10_000 {
            recorder.record(.sdkLog(level: "debug", message: "line \(i) " + String(repeating: String(i % 36, radix: 36), count: 120)))
            clock.advance(milliseconds: 20)
            i += 1
            if i % 50 == 0 { recorder.flush(timeout: 10) }
        }
        XCTAssertFalse(recorder.isRecording, "the recording stops")
        XCTAssertTrue(recorder.close(timeout: 10))
        let errors = logs.entries.filter { $0.level == .error }
        XCTAssertEqual(errors.count, 1, "\(logs.messages)")
        let message = errors.first?.message ?? ""
        XCTAssertTrue(message.contains("write failed") && message.contains("error"), message)
        XCTAssertTrue(message.contains("Recording stopped; the trace files written before are intact"), message)
        // Records offered afterwards are ignored, never thrown at the caller.
        recorder.record(.leaveChannel)
        XCTAssertGreaterThan(recorder.statistics.ignored, 0)
        // The closed parts verify; the part open at the failure ends with a complete frame.
        let files = Support.traceFiles(dir)
        XCTAssertGreaterThanOrEqual(files.filter { $0.hasPrefix("outbox/") }.count, 2, "\(files)")
        for f in files {
            let (records, problems) = try Support.read(dir + "/" + f)
            XCTAssertFalse(records.isEmpty)
            if f.hasPrefix("outbox/") { XCTAssertEqual(problems, [], f) } else {
                XCTAssertEqual(problems.map(\.kind), [.notClosed], "\(f): \(problems)")
            }
        }
    }

    func test_unwritableFolder_isReportedAndRecordsAreIgnored() throws {
        let file = dir + "/not-a-folder"
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let logs = LogSink()
        var c = RecorderConfiguration(directory: file + "/traces", layer: .srtc)
        c.log = logs.add
        let recorder = TraceRecorder(c)
        recorder.record(.leaveChannel)
        XCTAssertTrue(recorder.close(timeout: 10))
        XCTAssertFalse(recorder.isRecording)
        XCTAssertEqual(logs.entries.map(\.level), [.error])
        XCTAssertTrue(logs.messages[0].hasPrefix("recording did not start: cannot create the folder"), logs.messages[0])
    }
}
