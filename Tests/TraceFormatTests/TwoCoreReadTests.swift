import Foundation
import TestSupport
@testable import TraceCodec
import TraceFixtures
import TraceModel
import XCTest

/// The read of a replay on two cores (`TraceReader.readOnTwoCores`, what `forEachBatch(pipelined: true)`
/// does first) gives the records, the symbols and the problems of the one-thread read, in the same order
/// and with the same words and line numbers, whatever the threads' timing; frames it cannot read apart (a
/// large declared window, damage, a torn tail) and everything after them are read by the sequential reader.
final class TwoCoreReadTests: XCTestCase {
    private var dir = ""
    override func setUp() { dir = Fixtures.tempDir("two-cores") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// What a replay takes from a read: every record (as the arena rebuilds it), every problem, in order;
    /// the symbol table it ends with (each id's text); and how many frames were read apart.
    private struct Read: Equatable {
        var events: [String] = []
        var symbols: [String] = []
        var overflowed = false
        var framesApart = 0
        var stats = ContainerStats()
        var recordCount = 0
        var clipped = 0
    }

    private func read(_ path: String, pipelined: Bool, maxSymbolBytes: Int = SymbolTable.defaultMaxBytes,
                      limits: ReaderLimits = .standard, whole: Bool = false) throws -> Read {
        var out = Read()
        let arena = ReplayArena(symbols: SymbolTable(maxBytes: maxSymbolBytes))
        let reader = try TraceReader(path: path, limits: limits)
        reader.keptStringBytes = 1024
        reader.forEachBatch(pipelined: pipelined, whole: whole) { batch in
            var p = 0
            for i in batch.records.indices {
                while p < batch.problems.count, batch.problems[p].before <= i {
                    out.events.append("problem \(batch.problems[p].problem)")
                    p += 1
                }
                let r = batch.take(i, into: arena)
                // A log's text is not kept by a replay: its seq and time stand for it.
                out.events.append(r.kind == .sdkLog && !r.hasFull ? "log \(r.seq) \(r.t)" : "record \(arena.record(r).jsonLine)")
            }
            for q in batch.problems[p...] { out.events.append("problem \(q.problem)") }
            arena.reset()
        }
        out.symbols = (0..<arena.symbols.count).map { arena.symbols.text(Symbol(id: UInt32($0))) }
        out.overflowed = arena.symbols.overflowed
        out.framesApart = reader.framesReadApart
        out.stats = reader.stats
        out.recordCount = reader.recordCount
        out.clipped = reader.clippedRecords
        return out
    }

    /// Reads `path` both ways (three times on two cores) and checks they agree; the two-core read.
    @discardableResult
    private func assertSame(_ path: String, maxSymbolBytes: Int = SymbolTable.defaultMaxBytes, limits: ReaderLimits = .standard,
                            file: StaticString = #filePath, line: UInt = #line) throws -> Read {
        let one = try read(path, pipelined: false, maxSymbolBytes: maxSymbolBytes, limits: limits)
        XCTAssertEqual(one.framesApart, 0)
        var two = Read()
        for run in 0..<3 {
            two = try read(path, pipelined: true, maxSymbolBytes: maxSymbolBytes, limits: limits)
            XCTAssertEqual(one.events.count, two.events.count, "run \(run)", file: file, line: line)
            if let k = one.events.indices.first(where: { $0 < two.events.count && one.events[$0] != two.events[$0] }) {
                XCTFail("run \(run), event \(k): \(one.events[k]) / \(two.events[k])", file: file, line: line)
            }
            var same = two
            same.framesApart = 0
            XCTAssertEqual(one, same, "run \(run): symbols, statistics or counts differ", file: file, line: line)
        }
        return two
    }

    private func session(_ kind: BenchSession.Kind, _ count: Int, frameRecords: Int) throws -> String {
        try Fixtures.writeBenchSession(kind, count, to: dir + "/\(kind.rawValue)-\(count).trace.zst", frameRecords: frameRecords)
    }

    func test_aWritersFramesAreAllReadApart_andGiveTheOneThreadRecordsAndSymbols() throws {
        for kind in [BenchSession.Kind.stress, .healthy] {
            let path = try session(kind, 20_000, frameRecords: 256)
            let two = try assertSame(path)
            XCTAssertEqual(two.framesApart, two.stats.frames, "\(kind): every frame of the writer's is small")
            XCTAssertGreaterThan(two.stats.frames, 70)
            XCTAssertTrue(two.stats.endsWithEndMark)
            XCTAssertEqual(two.recordCount, 20_000)
        }
    }

    /// The symbols are made on the replaying thread in record order, so their ids, and the one strings
    /// share past the table's byte cap, are those of the one-thread read.
    func test_symbolIdsAndTheOverflowIdAreTheOneThreadOnes() throws {
        let path = try session(.stress, 8_000, frameRecords: 128)
        let two = try assertSame(path, maxSymbolBytes: 40)
        XCTAssertTrue(two.overflowed, "the cap must be reached for the test to say anything")
        XCTAssertGreaterThan(two.framesApart, 50)
    }

    /// JSON Lines compressed frame by frame from `chunks` (each its own frame, by `zstd`), read from
    /// stdin when `longWindow` says so for that chunk (the frame then declares a 32 MiB window).
    /// `skippableBefore` puts skippable frames of the given payload sizes before a chunk's frame (at
    /// `chunks.count`: after the last one).
    private func zstdTrace(_ name: String, _ chunks: [[String]], longWindow: Set<Int> = [],
                           skippableBefore: [Int: [Int]] = [:]) throws -> String {
        let path = dir + "/" + name
        var data = Data()
        func skippable(_ k: Int) {
            for (j, size) in (skippableBefore[k] ?? []).enumerated() {
                let magic = UInt32(0x184D_2A50 + j % 16), n = UInt32(size)
                data += withUnsafeBytes(of: magic.littleEndian) { Data($0) } + withUnsafeBytes(of: n.littleEndian) { Data($0) }
                data += Data(repeating: UInt8(truncatingIfNeeded: j), count: size)
            }
        }
        for (k, lines) in chunks.enumerated() {
            skippable(k)
            let plain = dir + "/chunk-\(k).jsonl"
            try (lines.joined(separator: "\n") + "\n").write(toFile: plain, atomically: true, encoding: .utf8)
            let cmd = longWindow.contains(k) ? "cat \(plain) | zstd -q --long=25 -c > \(plain).zst" : "zstd -q -f -c \(plain) > \(plain).zst"
            XCTAssertEqual(Support.sh(cmd).status, 0, cmd)
            data += try Data(contentsOf: URL(fileURLWithPath: plain + ".zst"))
        }
        skippable(chunks.count)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    private func lines(_ seqs: Range<Int>) -> [String] {
        seqs.map { s in
            s == 0 ? #"{"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc"}"#
                : #"{"seq":\#(s),"t":\#(s * 10),"type":"sdk.qualityChanged","previous":"good","overall":"good"}"#
        }
    }

    /// Problems found in frames read apart (a seq gap, time going back, an undecodable line, a misplaced
    /// header, a blank line shifting the line numbers) come in the one-thread order, with its line numbers.
    func test_problemsInFramesReadApartComeInTheOneThreadOrder() throws {
        var a = lines(0..<50), b = lines(50..<100), c = lines(100..<150)
        a[20] = #"{"seq":20,"t":5,"type":"sdk.qualityChanged","previous":"good","overall":"good"}"#
        a.insert("", at: 30)
        b[10] = #"{"seq":60,"t":600,"type":"sdk.qualityChanged","previous":"good","overall":"nope"}"#
        b.remove(at: 20)
        c[5] = #"{"seq":105,"t":1050,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc"}"#
        c[30] = "not json at all"
        let path = try zstdTrace("problems.trace.zst", [a, b, c])
        let two = try assertSame(path)
        XCTAssertEqual(two.framesApart, 3)
        let problems = two.events.filter { $0.hasPrefix("problem") }
        XCTAssertGreaterThanOrEqual(problems.count, 5, "\(problems)")
    }

    /// A frame declaring a window larger than a frame read apart may have is read by the sequential
    /// reader (holding the decompression gate), and so is everything after it.
    func test_aFrameDeclaringALargeWindowIsReadOnOneThread() throws {
        let path = try zstdTrace("window.trace.zst", [lines(0..<100), lines(100..<200), lines(200..<300)], longWindow: [1])
        let two = try assertSame(path)
        XCTAssertEqual(two.framesApart, 1, "only the frame before the large window is read apart")
        XCTAssertEqual(two.stats.frames, 3)
        XCTAssertEqual(two.recordCount, 300)
        XCTAssertFalse(two.events.contains { $0.hasPrefix("problem") }, "\(two.events.filter { $0.hasPrefix("problem") })")
    }

    /// Damage: a torn tail, a flipped byte, garbage between frames; the reading on two cores stops at the
    /// damaged frame, and the problems are the one-thread ones.
    func test_damageIsReadByTheSequentialReaderWithTheSameProblems() throws {
        let path = try session(.stress, 6_000, frameRecords: 256)
        let full = try Data(contentsOf: URL(fileURLWithPath: path))
        let (torn, flippedPath) = try Fixtures.damagedCopies(of: path)
        var garbage = full
        garbage.insert(contentsOf: [UInt8](repeating: 0x33, count: 100), at: full.count / 3)
        let garbagePath = dir + "/garbage.trace.zst"
        try garbage.write(to: URL(fileURLWithPath: garbagePath))
        for damaged in [torn, flippedPath, garbagePath] {
            let two = try assertSame(damaged)
            XCTAssertTrue(two.events.contains { $0.hasPrefix("problem") }, "\(damaged): the damage must be reported")
            XCTAssertGreaterThan(two.framesApart, 0, damaged)
            XCTAssertLessThan(two.framesApart, two.stats.frames, damaged)
        }
    }

    /// Small limits (lines and the hold of a frame): a frame over them is read by the sequential reader.
    func test_framesOverTheLimitsAreReadByTheSequentialReader() throws {
        let path = try session(.stress, 4_000, frameRecords: 512)
        let limits = ReaderLimits(maxWindowLog: 20, maxLineBytes: 64 << 10, holdBytes: 32 << 10)
        let two = try assertSame(path, limits: limits)
        XCTAssertEqual(two.framesApart, 0, "every frame holds more than 32 KiB")
    }

    /// Skippable frames between the data frames, before the first and after the last, are handed on in
    /// file order by the workers that split and check; frames of up to 3 MiB fill the input buffer with
    /// frames not yet handed on, skippable ones alone included, and the splitting waits for room.
    func test_skippableFramesAndFramesFillingTheInputBufferAreHandedOnInOrder() throws {
        let chunks = (0..<6).map { lines($0 * 100..<($0 + 1) * 100) }
        let mib = 1 << 20
        let path = try zstdTrace("skippable.trace.zst", chunks,
                                 skippableBefore: [0: [16, 3 * mib, 3 * mib], 1: [3 * mib, 3 * mib, 3 * mib], 2: [40, 40], 4: [2 * mib, 100], 6: [3 * mib, 8]])
        let two = try assertSame(path)
        XCTAssertEqual(two.framesApart, 6)
        XCTAssertEqual(two.stats.skippableFrames, 12)
        XCTAssertEqual(two.recordCount, 600)

        // Large data frames of text that compresses poorly: a few fill the input buffer before the first
        // is checked.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let big = (0..<6).map { k in (0..<20_000).map { s in
            let message = (0..<12).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return String(state >> 24, radix: 16)
            }.joined()
            return #"{"seq":\#(k * 20_000 + s),"t":\#(k * 20_000 + s),"type":"sdk.log","level":"info","message":"\#(message)"}"#
        } }
        var first = big
        first[0][0] = lines(0..<1)[0]
        let bigPath = try zstdTrace("big.trace.zst", first, skippableBefore: [3: [mib], 6: [8]])
        XCTAssertGreaterThan(try FileManager.default.attributesOfItem(atPath: bigPath)[.size] as? Int ?? 0, 6 << 20)
        let twoBig = try assertSame(bigPath)
        XCTAssertEqual(twoBig.framesApart, 6)
        XCTAssertEqual(twoBig.recordCount, 120_000)
    }

    /// An error thrown by the consumer of the batches ends the read on two cores: the workers stop (the
    /// call returns, rethrowing it) and nothing is handed on after it.
    func test_aConsumerErrorStopsTheWorkers() throws {
        struct Stop: Error {}
        let path = try session(.stress, 20_000, frameRecords: 256)
        for stopAt in [1, 3, 40] {
            let reader = try TraceReader(path: path)
            var batches = 0
            XCTAssertThrowsError(try reader.forEachBatch(pipelined: true) { _ in
                batches += 1
                if batches == stopAt { throw Stop() }
            }) { XCTAssertTrue($0 is Stop) }
            XCTAssertEqual(batches, stopAt)
            XCTAssertGreaterThanOrEqual(reader.framesReadApart, stopAt)
        }
    }
}
