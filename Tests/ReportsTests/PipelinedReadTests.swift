import Foundation
import Replay
import Reports
import TestSupport
import TraceCodec
import TraceFixtures
import TraceModel
import XCTest

/// Reading on a thread of its own (`Replay.run(pipelined:)`, `TraceReader.forEach(pipelined:)`) gives the
/// same result as reading on the replaying thread, byte for byte, on the golden corpus, on a generated
/// session and on damaged traces; whatever the threads' timing, since the reading thread runs the same
/// sequential reader and the queue only carries its events in order.
final class PipelinedReadTests: XCTestCase {
    /// The result JSON (golden form off, so every figure is in it) and the problems of one replay.
    private func replay(_ path: String, pipelined: Bool) throws -> (json: String, problems: [TraceProblem]) {
        var problems: [TraceProblem] = []
        let r = try Replay.run(TraceSession(path: path), pipelined: pipelined, onProblem: { problems.append($0) })
        return (ExplainJSON.render(r, pretty: true), problems)
    }

    private func assertSame(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let one = try replay(path, pipelined: false)
        // Several runs: the threads' timing differs from run to run, the result must not.
        for run in 0..<3 {
            let two = try replay(path, pipelined: true)
            XCTAssertEqual(one.json, two.json, "\(path) run \(run): the result JSON differs", file: file, line: line)
            XCTAssertEqual(one.problems, two.problems, "\(path) run \(run): the problems differ", file: file, line: line)
        }
    }

    func test_goldenCorpusReplaysTheSamePipelined() throws {
        let names = Fixtures.goldenTraceNames()
        XCTAssertGreaterThan(names.count, 50)
        for name in names { try assertSame(Fixtures.trace(name)) }
    }

    /// A generated session long enough for many batches and a full queue.
    private func generated(_ kind: BenchSession.Kind, _ count: Int, frameRecords: Int = 1024) throws -> String {
        try Fixtures.writeBenchSession(kind, count, to: Fixtures.tempDir("pipeline") + "/\(kind.rawValue).trace.zst", frameRecords: frameRecords)
    }

    func test_generatedSessionsReplayTheSamePipelined() throws {
        try assertSame(try generated(.stress, 40_000))
        try assertSame(try generated(.healthy, 20_000))
    }

    func test_damagedTracesGiveTheSameProblemsPipelined() throws {
        let path = try generated(.stress, 6_000, frameRecords: 256)
        let (torn, flipped) = try Fixtures.damagedCopies(of: path)
        for damaged in [torn, flipped] {
            let one = try replay(damaged, pipelined: false)
            XCTAssertFalse(one.problems.isEmpty, "\(damaged): the damage must be reported")
            try assertSame(damaged)
        }
    }

    /// The reader's own events, both ways, and stopping early: an error thrown by the consumer ends the
    /// reading thread (no hang, no lost error).
    func test_readerEventsAreTheSameAndAConsumerErrorStopsTheReadingThread() throws {
        let path = try generated(.stress, 30_000)
        var a: [TraceEvent] = [], b: [TraceEvent] = []
        try TraceReader(path: path).forEach(pipelined: false, record: { a.append(.record($0)) }, problem: { a.append(.problem($0)) })
        try TraceReader(path: path).forEach(pipelined: true, record: { b.append(.record($0)) }, problem: { b.append(.problem($0)) })
        XCTAssertEqual(a.count, 30_000)
        XCTAssertEqual(a.count, b.count)
        for (x, y) in zip(a, b) {
            switch (x, y) {
            case let (.record(r), .record(s)): XCTAssertEqual(r, s)
            case let (.problem(p), .problem(q)): XCTAssertEqual(p, q)
            case (.record, .problem), (.problem, .record): XCTFail("events differ: \(x) vs \(y)")
            }
        }
        struct Stop: Error {}
        var seen = 0
        XCTAssertThrowsError(try TraceReader(path: path).forEach(pipelined: true, record: { _ in
            seen += 1
            if seen == 1_000 { throw Stop() }
        }, problem: { _ in })) { XCTAssertTrue($0 is Stop) }
        XCTAssertEqual(seen, 1_000)
    }
}
