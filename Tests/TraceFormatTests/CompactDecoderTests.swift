import Foundation
import TestSupport
@testable import TraceCodec
import TraceFixtures
@testable import TraceModel
import XCTest

/// The single pass a replay reads (`RecordDecoder.decodeCompact`, `RecordBatch.take`) gives, for every line
/// it accepts, exactly the record the whole decoder gives; every other line is left to the whole decoder.
final class CompactDecoderTests: XCTestCase {
    let decoder = RecordDecoder()

    /// Decodes `line` both ways; the record made from the compact form when the single pass took it.
    func compactRecord(_ line: String, arena: ReplayArena) -> Record? {
        var batch = RecordBatch()
        let bytes = Array(line.utf8)
        let before = batch.mark
        let r = bytes.withUnsafeBufferPointer { decoder.decodeCompact($0, into: &batch) }
        guard let r else {
            XCTAssertEqual(batch.bytes.count, before.bytes, "a line the single pass declines leaves the batch as it was")
            XCTAssertTrue(batch.speakers.isEmpty && batch.samples.isEmpty && batch.lists.isEmpty && batch.spans.isEmpty)
            return nil
        }
        batch.records.append(r)
        let taken = batch.take(0, into: arena)
        XCTAssertEqual(taken.seq, r.seq)
        XCTAssertEqual(taken.t, r.t)
        // A log line's text is read, not kept: only its type, seq and time are compared.
        if r.kind == .sdkLog { return (try? decoder.decode(line)).map { Record(seq: $0.seq, t: $0.t, $0.body) } }
        return arena.record(taken)
    }

    func test_compactRecordsEqualWholeRecords_randomHighRateLines() throws {
        var g = RecordGenerator(seed: 31) { $0.string() }
        let arena = ReplayArena()
        let high = RecordKind.allCases.filter(\.isHighRate)
        var taken = 0
        for i in 0..<6000 {
            let record = Record(seq: g.int(1 << 20), t: Int64(g.int(1 << 30)), g.body(high[i % high.count]))
            let line = record.jsonLine
            let whole = try decoder.decode(line)
            let compact = compactRecord(line, arena: arena)
            if let compact {
                taken += 1
                XCTAssertEqual(compact, whole, "line \(i): \(line)")
            }
            // It takes exactly the lines the single pass to whole records takes.
            let fast = Array(line.utf8).withUnsafeBufferPointer { decoder.fastDecode($0) }
            XCTAssertEqual(compact != nil, fast != nil, "line \(i): \(line)")
            arena.reset()
        }
        XCTAssertGreaterThan(taken, 2000)
    }

    func test_compactRecordsEqualWholeRecords_benchSessions() throws {
        let arena = ReplayArena()
        for kind in BenchSession.Kind.allCases {
            var session = BenchSession(kind)
            for i in 0..<20_000 {
                let record = session.nextRecord()
                let line = record.jsonLine
                let compact = compactRecord(line, arena: arena)
                if record.body.kind?.isHighRate == true {
                    XCTAssertNotNil(compact, "\(kind) record \(i) is canonical: \(line)")
                }
                if let compact { XCTAssertEqual(compact, try decoder.decode(line), "\(kind) record \(i)") }
                arena.reset()
            }
        }
    }

    func test_linesTheSinglePassDeclinesAreLeftWhole() throws {
        let arena = ReplayArena()
        let declined = [
            #"{"seq":1,"t":2,"type":"srv.speakers","speaking":[{"uid":"a\u0041","trackId":"m","level":0.5}],"stopped":[]}"#,
            #"{"seq":1,"t":2,"type":"srv.speakers", "speaking":[],"stopped":[]}"#,
            #"{"t":2,"seq":1,"type":"obs.routeChanged","route":"speaker","previousRoute":"receiver","reason":"override"}"#,
            #"{"seq":1,"t":2,"type":"obs.routeChanged","route":"loud","previousRoute":"receiver","reason":"override"}"#,
            #"{"seq":1,"t":2,"type":"os.deviceDisconnected","id":"\#u{7}"}"#,
            #"{"seq":1,"t":2,"type":"os.deviceConnected","id":"x","kind":"bluetooth","extra":1}"#,
            #"{"seq":1,"t":2,"type":"api.joinChannel","channel":"c"}"#,
            #"{"seq":1,"t":2,"type":"sdk.log","level":"info","message":"tab\there"}"#,
        ]
        for line in declined { XCTAssertNil(compactRecord(line, arena: arena), line) }
        // Strings the single pass takes: any UTF-8, unlisted kinds, absent optional fields.
        let taken = [
            #"{"seq":1,"t":2,"type":"os.deviceConnected","id":"Écouteurs 🎧","kind":"hearingAid","name":"Ça va"}"#,
            #"{"seq":1,"t":2,"type":"obs.routeSnapshot","route":"bluetooth","ports":["BluetoothHFP","Speaker"]}"#,
            #"{"seq":1,"t":2,"type":"obs.routeSnapshot","route":"bluetooth","ports":[]}"#,
            #"{"seq":1,"t":2,"type":"obs.routeSnapshot","route":"bluetooth"}"#,
            #"{"seq":1,"t":2,"type":"api.setRoute","target":"speaker","api":"setSpeakerOutputEnabled(true)"}"#,
            #"{"seq":1,"t":2,"type":"sdk.activeSpeakers","speakers":[]}"#,
        ]
        for line in taken {
            let compact = try XCTUnwrap(compactRecord(line, arena: arena), line)
            XCTAssertEqual(compact, try decoder.decode(line), line)
        }
    }

    /// A trace read in batches gives the records and the problems of a read record by record, in the same
    /// order, on one thread and on two: among them a line that is not JSON, a record without a type going
    /// back in seq, records missing (a seq gap) and a record going back in time.
    func test_batchesHoldWhatTheRecordByRecordReadGives() throws {
        let dir = Fixtures.tempDir("compact")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var lines: [String] = []
        var session = BenchSession(.stress)
        for i in 0..<3000 {
            var r = session.nextRecord()
            if i == 2100 || i == 2101 { continue }
            if i == 2500 { r.t -= 100_000 }
            lines.append(i == 700 ? "not json" : i == 1400 ? #"{"seq":1,"t":2}"# : r.jsonLine)
        }
        let path = dir + "/t.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        var expected: [String] = []
        try TraceReader(path: path).forEach(record: { expected.append("record \($0.jsonLine)") }, problem: { expected.append("problem \($0)") })
        for pipelined in [false, true] {
            var got: [String] = []
            let arena = ReplayArena()
            try TraceReader(path: path).forEachBatch(pipelined: pipelined) { batch in
                var p = 0
                for i in batch.records.indices {
                    while p < batch.problems.count, batch.problems[p].before <= i { got.append("problem \(batch.problems[p].problem)"); p += 1 }
                    let r = batch.take(i, into: arena)
                    if r.kind == .sdkLog, !r.hasFull {
                        got.append(expected[got.count])  // its text is not kept: compared by seq below
                        XCTAssertTrue(expected[got.count - 1].contains("\"seq\":\(r.seq),"))
                    } else {
                        got.append("record \(arena.record(r).jsonLine)")
                    }
                }
                for q in batch.problems[p...] { got.append("problem \(q.problem)") }
                arena.reset()
            }
            XCTAssertEqual(got, expected, "pipelined: \(pipelined)")
        }
        XCTAssertTrue(expected.contains { $0.hasPrefix("problem") })
        // Each damaged line and the gap after it, the records missing, the time going back.
        let problems = expected.filter { $0.hasPrefix("problem") }
        XCTAssertEqual(problems.count, 6, "\(problems)")
        XCTAssertTrue(problems.contains { $0.contains("seq 2102 ") && $0.contains("lost seq 2100") }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.contains("seq 2500 ") && $0.contains("goes backwards") }, "\(problems)")
    }

    func test_theReplayRecordIsSmallAndItsVocabularyIndicesRoundTrip() {
        XCTAssertLessThanOrEqual(MemoryLayout<ReplayRecord>.stride, 64)
        XCTAssertTrue(_isPOD(ReplayRecord.self), "no reference-counted field")
        for v in Route.allCases { XCTAssertEqual(Route.byIndex[Int(v.index)], v) }
        for v in RouteTarget.allCases { XCTAssertEqual(RouteTarget.byIndex[Int(v.index)], v) }
        for v in QualityLevel.allCases { XCTAssertEqual(QualityLevel.byIndex[Int(v.index)], v) }
        for v in RouteChangeReason.allCases { XCTAssertEqual(RouteChangeReason.byIndex[Int(v.index)], v) }
        for (i, v) in DeviceKind.listed.enumerated() { XCTAssertEqual(v.listedIndex, i) }
    }
}
