import Foundation
import TestSupport
@testable import TraceCodec
import TraceFixtures
@testable import TraceModel
import XCTest

/// The fast decoder must give exactly the records Foundation's JSONDecoder gives.
final class DecoderEquivalenceTests: XCTestCase {
    func randomBody(_ g: inout SplitMix64) -> RecordBody {
        func sample() -> QualitySample {
            QualitySample(level: g.vocab(QualityLevel.self), score: g.bool() ? g.double() : nil, mos: g.bool() ? g.double() : nil,
                          loss: g.bool() ? g.double() : nil, rtt: g.double(), jitter: g.double(), bitrate: g.double())
        }
        func speaker() -> Speaker { Speaker(uid: g.string(), trackId: g.string(), level: g.double()) }
        func ref() -> Expectation.RecordRef? { g.bool() ? nil : g.bool() ? Expectation.RecordRef.none : .seq(g.int(1000)) }
        switch g.int(32) {
        case 0: return .header(TraceHeader(layer: g.vocab(Layer.self), sdk: g.string(), device: .init(model: g.string(), os: g.string(), simulator: g.bool()),
                                           app: .init(bundleId: g.string(), micUsageDescription: g.bool(), backgroundAudio: g.bool()),
                                           startedAt: g.string(), initialDefaultRoute: g.bool() ? g.vocab(RouteTarget.self) : nil,
                                           redacted: g.bool() ? g.vocab(RedactedBy.self) : nil,
                                           session: g.bool() ? .init(id: g.string(), part: 1 + g.int(9)) : nil))
        case 1: return .joinChannel(channel: g.string())
        case 2: return .setRoute(target: g.vocab(RouteTarget.self), api: g.bool() ? g.string() : nil)
        case 3: return .subscribe(pubUid: g.string(), trackId: g.string(), layers: (0..<g.int(4)).map { _ in g.string() })
        case 4: return .deviceConnected(id: g.string(), kind: g.vocab(DeviceKind.self), name: g.bool() ? g.string() : nil, port: g.bool() ? g.string() : nil)
        case 5: return .interruptionBegan(cause: g.bool() ? g.vocab(InterruptionCause.self) : nil)
        case 6: return .routeChanged(route: g.vocab(Route.self), previousRoute: g.vocab(Route.self), reason: g.vocab(RouteChangeReason.self))
        case 7: return .sessionActivated(SessionActivation(ok: g.bool(), error: g.bool() ? g.string() : nil, category: g.string(), mode: g.string(),
                                                           options: (0..<g.int(4)).map { _ in g.string() }))
        case 8: return .sdkQualityChanged(overall: g.vocab(QualityLevel.self), previous: g.vocab(QualityLevel.self), mos: g.bool() ? g.double() : nil)
        case 9: return .sdkActiveSpeakers(speakers: (0..<g.int(4)).map { _ in speaker() })
        case 10: return .qualityReport(pub: sample(), sub: sample())
        case 11: return .speakers(speaking: (0..<g.int(4)).map { _ in speaker() }, stopped: (0..<g.int(3)).map { _ in SpeakerKey(uid: g.string(), trackId: g.string()) })
        case 12: return .srvLayerSwitched(LayerSwitch(pubUid: g.string(), trackId: g.string(), fromTrackId: g.bool() ? g.string() : nil,
                                                      toTrackId: g.string(), reason: g.string(), latencyMs: g.bool() ? g.double() : nil))
        case 13: return .sdkLog(level: g.string(), message: g.string())
        case 14: return .callState(state: g.vocab(CallState.self))
        case 15: return .connState(state: g.vocab(ConnState.self))
        case 16: return .expect(Expectation(.verdict(ref: g.int(1000), verdict: g.vocab(VerdictKind.self), cause: g.bool() ? g.vocab(VerdictCause.self) : nil),
                                            atEnd: g.bool(), rule: g.bool() ? g.string() : nil))
        case 17: return .expect(Expectation(.quality(g.bool() ? nil : .init(overall: g.vocab(QualityLevel.self), mos: g.bool() ? g.double() : nil))))
        case 18: return .expect(Expectation(.speakers((0..<g.int(3)).map { _ in SpeakerKey(uid: g.string(), trackId: g.string()) })))
        case 19: return .expect(Expectation(.route(g.bool() ? nil : g.vocab(Route.self))))
        case 20: return .expect(Expectation(.finding(code: g.string(), count: g.bool() ? g.int(5) : nil)))
        case 21: return .routeSnapshot(route: g.vocab(Route.self), ports: g.bool() ? (0..<g.int(3)).map { _ in g.string() } : nil)
        case 22: return .setAudioModuleEnabled(enabled: g.bool())
        case 23: return .deviceDisconnected(id: g.string())
        case 24: return .clearRouteOverride
        case 25: return .mediaServicesReset
        case 26: return .callKit(event: g.vocab(CallKitEvent.self), callId: g.bool() ? g.string() : nil)
        case 27: return .expect(Expectation(.outcome(ref: g.int(1000), outcome: g.vocab(OutcomeKind.self),
                                                     cause: g.bool() ? g.vocab(VerdictCause.self) : nil, by: ref()),
                                            atEnd: g.bool(), rule: g.bool() ? "V2" : nil))
        case 28: return .expect(Expectation(.predictedBy(ref: g.int(10), rule: g.vocab(RuleID.self), seq: ref(), appliedBy: ref()),
                                            atEnd: g.bool()))
        case 29: return .sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: "voiceChat",
                                                            options: g.bool() ? ["allowBluetoothHFP", "defaultToSpeaker"] : ["allowBluetooth"]))
        case 30: return .dropped(count: g.int(1 << 20), fromT: Int64(g.int(1 << 30)), toT: Int64(g.int(1 << 30)))
        default: return Fixtures.bodies[g.int(Fixtures.bodies.count - 1)]
        }
    }

    func test_fastDecoderMatchesJSONDecoderOnRandomRecords() throws {
        var g = SplitMix64(seed: 20261129)
        let fast = RecordDecoder()
        let reference = JSONDecoder()
        for i in 0..<5000 {
            let r = Record(seq: g.int(1 << 20), t: Int64(g.int(1 << 30)), randomBody(&g))
            let line = r.jsonLine
            let a = try fast.decode(line)
            let b = try reference.decode(Record.self, from: Data(line.utf8))
            XCTAssertEqual(Self.comparable(a), b, "record \(i): \(line)")
            XCTAssertEqual(a, r, "record \(i) does not round-trip: \(line)")
        }
    }

    func test_version2RecordsDecodeAlikeOnEveryPath() throws {
        let fast = RecordDecoder()
        var general = RecordDecoder()
        general.useFastPath = false
        let reference = JSONDecoder()
        let lines = [
            #"{"seq":4,"t":100,"type":"os.mediaServicesReset"}"#,
            #"{"seq":5,"t":120,"type":"os.callKit","event":"answer","callId":"C-1"}"#,
            #"{"seq":6,"t":130,"type":"os.callKit","event":"didActivate"}"#,
            #"{"seq":7,"t":140,"type":"obs.sessionActivated","ok":true,"category":"playAndRecord","mode":"voiceChat","options":["allowBluetoothHFP"]}"#,
            #"{"seq":8,"t":150,"type":"expect.outcome","ref":3,"outcome":"applied","by":null,"rule":"V2"}"#,
            #"{"seq":9,"t":150,"type":"expect.predictedBy","ref":0,"rule":"R2","seq":3,"appliedBy":5,"at":"end"}"#,
            #"{"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc","redacted":"source","session":{"id":"run-1","part":2}}"#,
        ]
        for line in lines {
            let a = try fast.decode(line)
            XCTAssertEqual(a, try general.decode(line), line)
            XCTAssertEqual(Self.comparable(a), try reference.decode(Record.self, from: Data(line.utf8)), line)
            XCTAssertEqual(try fast.decode(a.jsonLine), a, "round trip: \(line)")
        }
        XCTAssertEqual(try fast.decode(lines[1]).body, .callKit(event: .answer, callId: "C-1"))
        guard case .sessionActivated(let a) = try fast.decode(lines[3]).body else { return XCTFail("not an activation") }
        XCTAssertEqual(a.options, ["allowBluetooth"], "allowBluetoothHFP is read as allowBluetooth")
        XCTAssertEqual(try fast.decode(lines[4]).body, .expect(Expectation(.outcome(ref: 3, outcome: .applied, cause: nil, by: Expectation.RecordRef.none), rule: "V2")))
        let predicted = try fast.decode(lines[5]).body
        XCTAssertEqual(predicted, .expect(Expectation(.predictedBy(ref: 0, rule: .R2, seq: .seq(3), appliedBy: .seq(5)), atEnd: true)))
        if case .expect(let e) = predicted { XCTAssertEqual(e.pinnedRule, "X4") }
        guard case .header(let h) = try fast.decode(lines[6]).body else { return XCTFail("not a header") }
        XCTAssertEqual(h.redacted, .source)
        XCTAssertEqual(h.session, TraceHeader.Session(id: "run-1", part: 2))
    }

    func test_timestampsOutsideZeroTo2To53AreUndecodable() throws {
        let fast = RecordDecoder()
        var general = RecordDecoder()
        general.useFastPath = false
        let reference = JSONDecoder()
        func line(_ t: String) -> String { #"{"seq":1,"t":"# + t + #","type":"sdk.log","level":"i","message":"m"}"# }
        XCTAssertEqual(try fast.decode(line("9007199254740992")).t, 1 << 53, "2^53 itself is allowed")
        XCTAssertEqual(try general.decode(line("9007199254740992")).t, 1 << 53)
        for bad in ["9007199254740993", "-1", "99999999999999999"] {
            XCTAssertThrowsError(try fast.decode(line(bad)), bad) { error in
                XCTAssertEqual((error as? RecordDecodeError)?.field, "t", bad)
            }
            XCTAssertThrowsError(try general.decode(line(bad)), bad)
            XCTAssertThrowsError(try reference.decode(Record.self, from: Data(line(bad).utf8)), bad)
        }
    }

    func test_numbersOutsideThePlainFormLeaveTheSinglePassPathWithTheSameResult() throws {
        let fast = RecordDecoder()
        var general = RecordDecoder()
        general.useFastPath = false
        let reference = JSONDecoder()
        // Exponents, more than 15 digits, negative zero, a trailing-dot-free fraction: all valid JSON.
        for mos in ["1e0", "3.5E-1", "0.12345678901234567", "1234567890123456", "-0", "4.0", "0", "0.5", "-2.25"] {
            let line = #"{"seq":1,"t":2,"type":"srv.qualityReport","pub":{"level":"good","mos":"# + mos + #"},"sub":{"level":"poor"}}"#
            let a = try fast.decode(line), b = try general.decode(line)
            XCTAssertEqual(a, b, mos)
            XCTAssertEqual(a, try reference.decode(Record.self, from: Data(line.utf8)), mos)
        }
        // Forms JSON forbids are refused by both paths alike.
        for bad in ["01", "1.", "-", ".5", "1e"] {
            let line = #"{"seq":1,"t":2,"type":"srv.qualityReport","pub":{"level":"good","mos":"# + bad + #"},"sub":{"level":"poor"}}"#
            XCTAssertNil(Array(line.utf8).withUnsafeBufferPointer { fast.fastDecode($0) }, bad)
            XCTAssertEqual((try? fast.decode(line)) == nil, (try? general.decode(line)) == nil, bad)
        }
        // seq and t with a leading zero or a fraction go to the general path too.
        for head in [#"{"seq":01,"t":2"#, #"{"seq":1,"t":2.5"#, #"{"seq":1,"t":1e3"#] {
            let line = head + #","type":"sdk.log","level":"i","message":"m"}"#
            XCTAssertNil(Array(line.utf8).withUnsafeBufferPointer { fast.fastDecode($0) }, head)
            XCTAssertEqual((try? fast.decode(line)) == nil, (try? general.decode(line)) == nil, head)
        }
    }

    func test_singlePassAndGeneralPathsAgree() throws {
        var g = SplitMix64(seed: 7)
        let fast = RecordDecoder()
        var general = RecordDecoder()
        general.useFastPath = false
        var fastHits = 0
        for _ in 0..<5000 {
            let r = Record(seq: g.int(1 << 20), t: Int64(g.int(1 << 30)), randomBody(&g))
            let line = Array(r.jsonLine.utf8)
            let a = try fast.decode(line)
            XCTAssertEqual(a, try general.decode(line))
            if line.withUnsafeBufferPointer({ fast.fastDecode($0) }) != nil { fastHits += 1 }
        }
        XCTAssertGreaterThan(fastHits, 500, "the single-pass path should take the high-rate records")
        // Route records as the writer writes them take the single-pass path.
        for body: RecordBody in [.routeChanged(route: .bluetooth, previousRoute: .speaker, reason: .newDeviceAvailable),
                                 .routeSnapshot(route: .headset, ports: ["a", "b"]), .routeSnapshot(route: .receiver, ports: []),
                                 .routeSnapshot(route: .speaker, ports: nil), .setRoute(target: .speaker, api: "setSpeakerphoneOn"),
                                 .setRoute(target: .earpiece, api: nil), .clearRouteOverride,
                                 .deviceConnected(id: "bt1", kind: .bluetooth, name: "AirPods", port: "BluetoothHFP"),
                                 .deviceConnected(id: "h", kind: .headset, name: nil, port: nil), .deviceDisconnected(id: "bt1")] {
            let line = Array(Record(seq: 3, t: 9, body).jsonLine.utf8)
            XCTAssertEqual(line.withUnsafeBufferPointer { fast.fastDecode($0) }, Record(seq: 3, t: 9, body))
        }
        // Another key order, or an unknown member, goes down the general path with the same result.
        let reordered = #"{"type":"srv.qualityReport","t":5,"seq":1,"sub":{"level":"good"},"pub":{"mos":4,"level":"poor"}}"#
        XCTAssertNil(Array(reordered.utf8).withUnsafeBufferPointer { fast.fastDecode($0) })
        XCTAssertEqual(try fast.decode(reordered).body, .qualityReport(pub: QualitySample(level: .poor, mos: 4), sub: QualitySample(level: .good)))
        let extra = #"{"seq":1,"t":5,"type":"sdk.log","level":"i","message":"m","x":1}"#
        XCTAssertNil(Array(extra.utf8).withUnsafeBufferPointer { fast.fastDecode($0) })
        XCTAssertEqual(try fast.decode(extra).body, .sdkLog(level: "i", message: "m"))
    }

    func test_fastDecoderMatchesJSONDecoderOnGoldenCorpus() throws {
        let reference = JSONDecoder()
        var compared = 0
        for f in Fixtures.goldenTraceNames() {
            let reader = try TraceReader(path: Fixtures.trace(f))
            while let e = reader.next() {
                guard case .record(let r) = e else { continue }
                if case .unknown = r.body { continue }
                let line = reader.withCurrentLine { Data($0) }
                XCTAssertEqual(try reference.decode(Record.self, from: line), Self.comparable(r), "\(f) seq \(r.seq)")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 1000, "the golden corpus should hold thousands of records")
    }
}

extension DecoderEquivalenceTests {
    /// The record as the reference path can decode it: Codable sees only the first of expect.predictedBy's
    /// two `seq` members (the record's own), never the asserted one.
    static func comparable(_ r: Record) -> Record {
        guard case .expect(var e) = r.body, case let .predictedBy(ref, rule, _, appliedBy) = e.kind else { return r }
        e.kind = .predictedBy(ref: ref, rule: rule, seq: nil, appliedBy: appliedBy)
        return Record(seq: r.seq, t: r.t, .expect(e))
    }
}

/// Helpers for random record fields.
extension SplitMix64 {
    mutating func int(_ n: Int) -> Int { below(n) }
    mutating func bool() -> Bool { next() & 1 == 0 }
    mutating func double() -> Double {
        switch int(4) {
        case 0: Double(int(100))
        case 1: Double(int(100_000)) / 1000
        case 2: Double(bitPattern: 0x3FF0_0000_0000_0000 | (next() >> 12)) - 1
        default: Double(int(5000)) * 0.001 + 1
        }
    }
    mutating func string() -> String {
        let alphabet: [String] = ["a", "Z", "0", " ", "\"", "\\", "\n", "\t", "é", "☃", "😀", "/", "\u{1}", "{", "]"]
        return (0..<int(12)).map { _ in alphabet[int(alphabet.count)] }.joined()
    }
    mutating func vocab<E: TraceVocabulary>(_: E.Type) -> E { pick(Array(E.allCases)) }
}
