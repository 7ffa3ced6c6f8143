import Foundation
import Replay
import TestSupport
import TraceCodec
@testable import TraceRecorder
import XCTest

/// What an SDK adds to what the contract models, with privacy: custom events, template logs with
/// public and private values, a filter before the queue, closing the part on demand, and size caps.
final class ExtensionTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Support.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    let salt = Array("per-install salt".utf8)

    func recorder(_ clock: ManualClock, _ adjust: (inout RecorderConfiguration) -> Void = { _ in }) -> TraceRecorder {
        var c = Support.configuration(dir, clock: clock)
        c.sessionId = "ext"
        adjust(&c)
        return TraceRecorder(c)
    }

    func records() throws -> [Record] { try Support.joinParts(Support.traceFiles(dir).map { dir + "/" + $0 }) }

    func test_customEvents_typedValues_safeNames_keptAndCountedByTheReader_ignoredByTheEngines() throws {
        let clock = ManualClock()
        let r = recorder(clock)
        r.record(.joinChannel(channel: "c"))
        r.record(.custom("rtpStats", ["ssrc": .int(123_456), "jitterMs": 23.5, "nack": 12, "keyframe": true,
                                      "peer": .string("uid-alice"), "codec": .string("opus", privacy: .public),
                                      "seq": 9, "bad key!": 1]))
        r.record(.custom("näme with spaces", [:]))
        r.record(.setRoute(target: .speaker, api: "setSpeakerOutputEnabled(true)"))
        r.record(.leaveChannel)
        XCTAssertTrue(r.close(timeout: 20))
        let written = try records()
        let custom = written.filter { $0.type.hasPrefix("x.") }
        XCTAssertEqual(custom.map(\.type), ["x.rtpStats", "x.n_me_with_spaces"])
        XCTAssertEqual(custom[0].jsonLine,
                       #"{"seq":2,"t":0,"type":"x.rtpStats","ssrc":123456,"jitterMs":23.5,"nack":12,"keyframe":true,"peer":"uid-alice","codec":"opus","_seq":9,"bad_key_":1}"#)
        let reader = try TraceReader(path: dir + "/" + Support.traceFiles(dir)[0])
        while reader.next() != nil {}
        XCTAssertEqual(reader.unknownTypes, ["x.rtpStats": 1, "x.n_me_with_spaces": 1], "counted as types the format does not list")
        XCTAssertEqual(reader.problems, [])
        let withCustom = Replay.run(records: written)
        let without = Replay.run(records: written.filter { !$0.type.hasPrefix("x.") }.enumerated().map { Record(seq: $0.offset, t: $0.element.t, $0.element.body) })
        XCTAssertEqual(withCustom.verdicts.map(\.verdict), without.verdicts.map(\.verdict), "the engines ignore them")
        XCTAssertEqual(withCustom.findings.map(\.code), without.findings.map(\.code))
    }

    func test_customEvents_areCapped_inValuesAndStrings() throws {
        let clock = ManualClock()
        let r = recorder(clock)
        var many: [(String, TraceRecorder.CustomValue)] = (0..<40).map { ("v\($0)", .int($0)) }
        many.append(("long", .string(String(repeating: "z", count: 20_000), privacy: .public)))
        r.record(TraceRecorder.Event(payload: .custom(TraceRecorder.CustomEvent(name: String(repeating: "n", count: 100), values: many))))
        XCTAssertTrue(r.close(timeout: 20))
        let line = try XCTUnwrap(try records().last { $0.type.hasPrefix("x.") }).jsonLine
        XCTAssertTrue(line.contains("\"type\":\"x.\(String(repeating: "n", count: 64))\""), line)
        XCTAssertTrue(line.contains("\"v31\":31"))
        XCTAssertFalse(line.contains("\"v32\""), "at most 32 values")
        XCTAssertFalse(line.contains("\"long\""), "the 41st value is past the cap")
        XCTAssertTrue(line.hasSuffix(",\"_clipped\":true}"), "the record says values were left out: \(line.suffix(60))")
        XCTAssertEqual(r.statistics.clipped, 1)
    }

    func test_templateLogs_hashOnlyPrivateValues_withPrivacyOn() throws {
        let clock = ManualClock()
        let r = recorder(clock) { $0.privacy = .hashed(salt: self.salt) }
        let uid = "alice.martin@example.com"
        r.record(.log(level: "debug", "rtp stats for \(uid) nack=\(12) loss=\(0.25) key=\(true) ssrc=\(998_877, privacy: .private) codec=\("opus", privacy: .public)"))
        r.record(.sdkLog(level: "debug", message: "whole line for \(uid)"))
        r.record(.log(level: "Alice's level", "plain template"))
        XCTAssertTrue(r.close(timeout: 20))
        let logs = try records().compactMap { r -> (String, String)? in
            if case .sdkLog(let level, let message) = r.body { return (level, message) }
            return nil
        }
        let uidToken = PersonalValue.token(key: salt, kind: .logMessage, value: uid)
        let ssrcToken = PersonalValue.token(key: salt, kind: .logMessage, value: "998877")
        XCTAssertEqual(logs[0].0, "debug")
        XCTAssertEqual(logs[0].1, "rtp stats for \(uidToken) nack=12 loss=0.25 key=true ssrc=\(ssrcToken) codec=opus")
        XCTAssertEqual(logs[1].1, PersonalValue.token(key: salt, kind: .logMessage, value: "whole line for \(uid)"), "sdkLog is private as a whole")
        XCTAssertEqual(logs[2].0, PersonalValue.token(key: salt, kind: .logLevel, value: "Alice's level"))
        XCTAssertEqual(logs[2].1, "plain template")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + Support.traceFiles(dir)[0]))
        XCTAssertNil(bytes.range(of: Data("alice".utf8)))
    }

    func test_templateLogs_withPrivacyOff_readAsPrinted() throws {
        let clock = ManualClock()
        let r = recorder(clock)
        let event = TraceRecorder.Event.log("jitter \(23) ms for \("uid-7")")
        XCTAssertEqual(event.body, .sdkLog(level: "info", message: "jitter 23 ms for uid-7"))
        r.record(event)
        XCTAssertTrue(r.close(timeout: 20))
        XCTAssertEqual(try records().last?.body, .sdkLog(level: "info", message: "jitter 23 ms for uid-7"))
    }

    func test_theFilterSeesEveryEventBeforeTheQueue_dropsOrChangesIt() throws {
        let clock = ManualClock()
        let r = recorder(clock) {
            $0.filter = { e in
                if e.type == "sdk.log" { return nil }
                if case .record(.joinChannel) = e.payload { return .joinChannel(channel: "renamed") }
                return e
            }
        }
        r.record(.joinChannel(channel: "secret"))
        for _ in 0..<5 { r.record(.sdkLog(level: "debug", message: "noise")) }
        r.record(.leaveChannel)
        let rt = r.makeRealtimeProducer()
        XCTAssertFalse(rt.record(.sdkLog(level: "debug", message: "render")))
        XCTAssertTrue(rt.record(.sdkInterrupted))
        XCTAssertTrue(r.close(timeout: 20))
        XCTAssertEqual(try records().dropFirst().map(\.body), [.joinChannel(channel: "renamed"), .leaveChannel, .sdkInterrupted])
        XCTAssertEqual(r.statistics.filtered, 6)
    }

    func test_rotateNow_closesThePartIntoTheOutbox_whateverTheUploadMode_andSaysWhere() throws {
        let clock = ManualClock()
        let landed = LogSink()
        let r = recorder(clock) {
            $0.upload = .onDemand
            $0.onOutbox = { path in landed.add(RecorderLog(.info, path)) }
        }
        r.record(.joinChannel(channel: "c"))
        r.record(.setRoute(target: .speaker))
        let done = DispatchSemaphore(value: 0)
        final class Box: @unchecked Sendable { var path: String?? }
        let box = Box()
        r.rotateNow { path in
            box.path = path
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success)
        let path = try XCTUnwrap(box.path ?? nil)
        XCTAssertTrue(path.hasPrefix(dir + "/outbox/"), path)
        XCTAssertEqual(landed.messages, [path], "onOutbox is told")
        let (first, problems) = try Support.read(path)
        XCTAssertEqual(problems, [], "closed whole, with its end mark")
        XCTAssertEqual(first.count, 3)
        r.record(.leaveChannel)
        XCTAssertTrue(r.close(timeout: 20))
        let files = Support.traceFiles(dir)
        XCTAssertEqual(files.filter { $0.hasPrefix("local/") }.count, 1, "later parts follow the upload mode: \(files)")
        let second = try Support.read(dir + "/" + files.first { $0.hasPrefix("local/") }!).records
        guard case .header(let h) = second[0].body, case .checkpoint(let c) = second[1].body else { return XCTFail("\(second)") }
        XCTAssertEqual(h.session?.part, 2)
        XCTAssertFalse(h.session?.resumed ?? true)
        XCTAssertTrue(c.engaged)
        XCTAssertEqual(c.override, .speaker, "the part begins with the state the records so far give")
        XCTAssertEqual(second.last?.body, .leaveChannel)
    }

    func test_sizeCaps_clipLongStringsWithANote_andDropRecordsOverTheRecordCap() throws {
        let clock = ManualClock()
        let logs = LogSink()
        let r = recorder(clock) { $0.log = logs.add }
        r.record(.sdkLog(level: "debug", message: String(repeating: "é", count: 10_000)))
        let crowd = (0..<3000).map { Speaker(uid: "uid-\($0)", trackId: "mic-\($0)", level: 0.5) }
        r.record(.sdkActiveSpeakers(crowd))
        r.record(.sdkActiveSpeakers(crowd))
        r.record(.leaveChannel)
        XCTAssertTrue(r.close(timeout: 20))
        let written = try records()
        guard case .sdkLog(_, let message) = written[1].body else { return XCTFail("\(written[1])") }
        XCTAssertLessThanOrEqual(message.utf8.count, 8192)
        XCTAssertTrue(message.hasSuffix("…[clipped from 20000 bytes]"), String(message.suffix(40)))
        XCTAssertTrue(message.dropLast(27).allSatisfy { $0 == "é" }, "cut at a character boundary")
        XCTAssertEqual(written.map(\.type), ["trace.header", "sdk.log", "api.leaveChannel", "trace.dropped"])
        guard case .dropped(let count, _, _) = written.last!.body else { return XCTFail() }
        XCTAssertEqual(count, 2)
        let s = r.statistics
        XCTAssertEqual(s.clipped, 1)
        XCTAssertEqual(s.oversized, 2)
        XCTAssertEqual(s.dropped, 2)
        XCTAssertEqual(logs.messages.filter { $0.contains("over the record cap of 65536 bytes") }.count, 1, "\(logs.messages)")
    }
}
