import Foundation
import TestSupport
@testable import TraceCodec
@testable import TraceModel
import XCTest

final class ContainerTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Fixtures.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Writes `records` with small frames; returns the path and, per frame, (end offset, records so far).
    func writeTrace(_ records: [Record], frameRecords: Int = 3, name: String = "t.trace.zst") throws -> (String, [(Int, Int)]) {
        let path = dir + "/" + name
        let w = try TraceWriter(path: path, options: .init(frameRecords: 1_000_000, frameBytes: 1 << 30, level: 3))
        var frames: [(Int, Int)] = []
        for (i, r) in records.enumerated() {
            try w.append(r)
            if (i + 1) % frameRecords == 0 {
                try w.flush()
                frames.append((w.fileSize, i + 1))
            }
        }
        try w.flush()
        frames.append((w.fileSize, records.count))
        try w.close()
        return (path, frames)
    }

    func test_writerOutputIsReadByStockZstd() throws {
        let records = Fixtures.records(200)
        let (path, _) = try writeTrace(records, frameRecords: 17)
        XCTAssertEqual(Fixtures.run("/usr/bin/zstd", ["-t", "-q", path]).status, 0)
        let out = Fixtures.run("/usr/bin/zstd", ["-dc", path])
        XCTAssertEqual(out.status, 0)
        let expected = records.map { $0.jsonLine + "\n" }.joined()
        XCTAssertEqual(String(decoding: out.out, as: UTF8.self), expected)
        let d = RecordDecoder()
        let lines = String(decoding: out.out, as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(try lines.enumerated().map { try d.decode(String($0.element), lineNumber: $0.offset + 1) }.count, records.count)
    }

    func test_readsMultiFrameTraceMadeByStockZstd() throws {
        let records = Fixtures.records(120)
        let text = records.map { $0.jsonLine + "\n" }
        var parts: [String] = []
        for (i, chunk) in stride(from: 0, to: text.count, by: 25).enumerated() {
            let p = dir + "/part\(i).jsonl"
            try text[chunk..<min(chunk + 25, text.count)].joined().write(toFile: p, atomically: true, encoding: .utf8)
            XCTAssertEqual(Fixtures.run("/usr/bin/zstd", ["-q", "-f", "-\(i % 19 + 1)", p, "-o", p + ".zst"]).status, 0)
            parts.append(p + ".zst")
        }
        let joined = dir + "/stock.trace.zst"
        var data = Data()
        for p in parts { data.append(try Data(contentsOf: URL(fileURLWithPath: p))) }
        try data.write(to: URL(fileURLWithPath: joined))
        let (got, problems) = try Fixtures.readAll(joined)
        XCTAssertEqual(problems, [])
        XCTAssertEqual(got.count, records.count)
        for (a, b) in zip(got, records) where !(a.body.type.hasPrefix("custom")) { XCTAssertEqual(a, b) }
        // Plain JSON Lines is a trace too.
        let (plain, plainProblems) = try Fixtures.readAll(dir + "/part0.jsonl")
        XCTAssertEqual(plainProblems, [])
        XCTAssertEqual(plain.count, 25)
    }

    func test_eachFrameIsDecodedToTheBufferStartOnceTheOneBeforeIsHandedOn() throws {
        // Frames of 50 records, read one record at a time: when a frame's lines have all been handed on, the
        // next frame goes to the start of the decoded buffer (nothing to move), so the buffer never holds
        // more than the largest frame, however many frames came before.
        let records = Fixtures.records(3_000)
        let (path, _) = try writeTrace(records, frameRecords: 50)
        let lines = records.map { $0.jsonLine.utf8.count + 1 }
        let largestFrame = stride(from: 0, to: lines.count, by: 50).map { lines[$0..<min($0 + 50, lines.count)].reduce(0, +) }.max()!
        let reader = try TraceReader(path: path)
        var read = 0, held = 0
        reader.forEach(record: { _ in
            read += 1
            held = max(held, reader.source.dataEnd)
        }, problem: { XCTFail("\($0)") })
        XCTAssertEqual(read, records.count)
        XCTAssertLessThanOrEqual(held, largestFrame)
        XCTAssertGreaterThan(lines.reduce(0, +), 4 * largestFrame, "the frames before would not fit")
    }

    func test_truncationAtEveryByteOffset() throws {
        let records = Array(Fixtures.records(40).filter { if case .unknown = $0.body { false } else { true } }.enumerated().map {
            Record(seq: $0.offset, t: $0.element.t, $0.element.body)
        })
        let (path, frames) = try writeTrace(records, frameRecords: 4)
        let full = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = dir + "/cut.trace.zst"
        for n in 0..<full.count {
            try full.prefix(n).write(to: URL(fileURLWithPath: cut))
            let (got, problems) = try Fixtures.readAll(cut)
            XCTAssertTrue(got.count <= records.count && Array(records.prefix(got.count)) == got, "cut \(n): not a prefix")
            let complete = frames.last { $0.0 <= n }?.1 ?? 0
            XCTAssertGreaterThanOrEqual(got.count, complete, "cut \(n): lost records of complete frames")
            XCTAssertFalse(problems.isEmpty, "cut \(n): a cut trace must not verify")
        }
        XCTAssertEqual(try Fixtures.readAll(path).problems, [])
    }

    func test_corruptByteInMiddleFrameIsReportedAndSkipped() throws {
        let records = Fixtures.records(30).filter { if case .unknown = $0.body { false } else { true } }
            .enumerated().map { Record(seq: $0.offset, t: $0.element.t, $0.element.body) }
        let (path, frames) = try writeTrace(records, frameRecords: 5)
        let full = try Data(contentsOf: URL(fileURLWithPath: path))
        // The third frame: records 10..<15, bytes frames[1].0 ..< frames[2].0.
        let range = frames[1].0..<frames[2].0
        let bad = dir + "/bad.trace.zst"
        for offset in range {
            var d = full
            d[offset] ^= 0x5A
            try d.write(to: URL(fileURLWithPath: bad))
            let (got, problems) = try Fixtures.readAll(bad)
            if problems.isEmpty {
                // The flip hit bytes the decoder does not use: the content (and its checksum) is intact.
                XCTAssertEqual(got, records, "byte \(offset): silent corruption")
                continue
            }
            let seqs = Set(got.map(\.seq))
            XCTAssertTrue(Set(0..<10).isSubset(of: seqs), "byte \(offset): frames before lost")
            XCTAssertTrue(Set(15..<records.count).isSubset(of: seqs), "byte \(offset): frames after not read")
            XCTAssertFalse(seqs.contains { (10..<15).contains($0) }, "byte \(offset): corrupt frame's records released")
            XCTAssertTrue(problems.contains { $0.lost == 10...14 && $0.offset == range.lowerBound }, "byte \(offset) (+\(offset - range.lowerBound) of \(range.count)): \(problems)")
        }
    }

    func test_appendContinuesSeqAndRepairsTornTail() throws {
        let records = Fixtures.records(30).filter { if case .unknown = $0.body { false } else { true } }
            .enumerated().map { Record(seq: $0.offset, t: $0.element.t, $0.element.body) }
        let path = dir + "/a.trace.zst"
        var w: TraceWriter? = try TraceWriter(path: path, options: .init(frameRecords: 1000, level: 3))
        for r in records.prefix(10) { try w!.append(r) }
        try w!.close()
        w = try TraceWriter(path: path, create: false)
        XCTAssertEqual(w!.nextSeq, 10)
        XCTAssertThrowsError(try w!.append(records[11])) { XCTAssertTrue("\($0)".contains("expected 10")) }
        for r in records[10..<20] { try w!.append(r) }
        try w!.flush()
        // Simulate a crash mid-write: a frame cut in its middle, no end mark.
        let sizeBefore = w!.fileSize
        for r in records[20..<30] { try w!.append(r) }
        try w!.flush()
        let sizeAfter = w!.fileSize
        w = nil
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.prefix(sizeBefore + (sizeAfter - sizeBefore) * 3 / 4).write(to: URL(fileURLWithPath: path))
        let before = try Fixtures.readAll(path)
        XCTAssertTrue(before.problems.contains { $0.kind == .tornFrame })
        let kept = before.records.count
        XCTAssertGreaterThanOrEqual(kept, 20)
        let w2 = try TraceWriter(path: path, create: false)
        XCTAssertEqual(w2.nextSeq, kept)
        XCTAssertEqual(w2.openReport.rescuedLines, kept - 20)
        for r in records[kept..<30] { try w2.append(r) }
        try w2.close()
        let after = try Fixtures.readAll(path)
        XCTAssertEqual(after.problems, [])
        XCTAssertEqual(after.records, records)
        XCTAssertEqual(Fixtures.run("/usr/bin/zstd", ["-t", "-q", path]).status, 0)
    }

    func test_secondWriterIsRefused() throws {
        let path = dir + "/lock.trace.zst"
        let w = try TraceWriter(path: path)
        try w.append(t: 0, .header(Fixtures.header))
        XCTAssertThrowsError(try TraceWriter(path: path, create: false)) { XCTAssertTrue("\($0)".contains("another writer")) }
        try w.close()
        XCTAssertNoThrow(try TraceWriter(path: path, create: false))
    }

    func test_seqGapTimeBackwardsAndUnknownTypesAreReported() throws {
        let path = dir + "/g.jsonl"
        try """
        {"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc"}
        {"seq":1,"t":10,"type":"api.joinChannel","channel":"c"}
        {"seq":4,"t":20,"type":"future.thing","a":1}
        {"seq":5,"t":15,"type":"api.leaveChannel"}
        {"seq":6,"t":30,"type":"api.setRoute","target":"loud"}
        {"seq":7,"t":40,"type":"api.leaveChannel"}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let reader = try TraceReader(path: path)
        var kinds: [TraceProblem.Kind] = []
        var n = 0
        while let e = reader.next() {
            if case .problem(let p) = e { kinds.append(p.kind) } else { n += 1 }
        }
        XCTAssertEqual(kinds, [.seqGap, .timeBackwards, .badRecord])
        XCTAssertEqual(reader.problems[0].lost, 2...3)
        XCTAssertEqual(reader.problems[2].seq, 6)
        XCTAssertEqual(reader.problems[2].field, "target")
        XCTAssertEqual(reader.unknownTypes, ["future.thing": 1])
        XCTAssertEqual(n, 5)
    }

    func test_lineLengthLimitIsReportedAndReadingContinues() throws {
        let path = dir + "/long.jsonl"
        let long = "{\"seq\":1,\"t\":1,\"type\":\"sdk.log\",\"level\":\"i\",\"message\":\"" + String(repeating: "x", count: 5000) + "\"}"
        try ([#"{"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc"}"#, long,
              #"{"seq":2,"t":2,"type":"api.leaveChannel"}"#].joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let reader = try TraceReader(path: path, limits: ReaderLimits(maxLineBytes: 1000))
        var problems: [TraceProblem] = [], seqs: [Int] = []
        while let e = reader.next() {
            switch e {
            case .record(let r): seqs.append(r.seq)
            case .problem(let p): problems.append(p)
            }
        }
        XCTAssertEqual(seqs, [0, 2])
        XCTAssertEqual(problems.first?.kind, .lineTooLong)
        XCTAssertEqual(problems.first?.line, 2)
        XCTAssertTrue(problems.first!.message.contains("1000"))
    }

    func test_windowLimitIsNamed() throws {
        let path = dir + "/big.jsonl"
        let lines = (0..<2000).map { #"{"seq":\#($0),"t":\#($0),"type":"sdk.log","level":"i","message":"m\#($0 % 7)"}"# }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        // Compressed from a pipe, the frame has no content size, so it declares its full window.
        let z = Fixtures.run("/usr/bin/zstd", ["-q", "-19", "-c"], stdin: try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(z.status, 0)
        try z.out.write(to: URL(fileURLWithPath: path + ".zst"))
        let reader = try TraceReader(path: path + ".zst", limits: ReaderLimits(maxWindowLog: 10))
        var problems: [TraceProblem] = []
        while let e = reader.next() { if case .problem(let p) = e { problems.append(p) } }
        XCTAssertTrue(problems.contains { $0.kind == .windowTooLarge && $0.message.contains("window limit") }, "\(problems)")
    }
}
