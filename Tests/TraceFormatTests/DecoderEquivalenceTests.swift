import Foundation
import TestSupport
@testable import TraceCodec
import TraceFixtures
@testable import TraceModel
import XCTest

/// The fast decoder must give exactly the records Foundation's JSONDecoder gives.
final class DecoderEquivalenceTests: XCTestCase {
    func test_fastDecoderMatchesJSONDecoderOnRandomRecords() throws {
        var g = RecordGenerator(seed: 20261129) { $0.string() }
        let fast = RecordDecoder()
        let reference = JSONDecoder()
        let kinds = RecordKind.allCases
        for i in 0..<5000 {
            let body = i % 4 == 3 ? g.expectation(i / 4) : g.body(kinds[(i / 4 * 3 + i % 4) % kinds.count])
            let r = Record(seq: g.int(1 << 20), t: Int64(g.int(1 << 30)), body, late: i % 7 == 5)
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
        XCTAssertEqual(try fast.decode(lines[4]).body, .expect(Expectation(.outcome(ref: 3, outcome: .applied, cause: nil, by: Expectation.RecordRef.none), rule: .V2)))
        let predicted = try fast.decode(lines[5]).body
        XCTAssertEqual(predicted, .expect(Expectation(.predictedBy(ref: 0, rule: .R2, seq: .seq(3), appliedBy: .seq(5), explanation: nil), atEnd: true)))
        if case .expect(let e) = predicted { XCTAssertEqual(e.pinnedRule, .X4) }
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
        var g = RecordGenerator(seed: 7) { $0.string() }
        let fast = RecordDecoder()
        var general = RecordDecoder()
        general.useFastPath = false
        var fastHits = 0
        let kinds = RecordKind.allCases
        for i in 0..<5000 {
            let body = i % 4 == 3 ? g.expectation(i / 4) : g.body(kinds[(i / 4 * 3 + i % 4) % kinds.count])
            let r = Record(seq: g.int(1 << 20), t: Int64(g.int(1 << 30)), body, late: i % 7 == 5)
            let line = Array(r.jsonLine.utf8)
            let a = try fast.decode(line)
            XCTAssertEqual(a, try general.decode(line))
            if line.withUnsafeBufferPointer({ fast.fastDecode($0) }) != nil { fastHits += 1 }
        }
        // 11 of the 40 kinds are high-rate; random strings with escapes send some of them the general way.
        XCTAssertGreaterThan(fastHits, 300, "the single-pass path should take the high-rate records")
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
        guard case .expect(var e) = r.body, case let .predictedBy(ref, rule, _, appliedBy, explanation) = e.kind else { return r }
        e.kind = .predictedBy(ref: ref, rule: rule, seq: nil, appliedBy: appliedBy, explanation: explanation)
        return Record(seq: r.seq, t: r.t, .expect(e), late: r.late)
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
