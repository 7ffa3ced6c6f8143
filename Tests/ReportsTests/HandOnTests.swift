import Foundation
@testable import Replay
import Reports
import TestSupport
import TraceCodec
import TraceFixtures
import TraceModel
import XCTest

/// Records handed on past the ordering stage at once (`ReplayCore.handOn`) are replayed exactly where the
/// stage would have put them: a replay that hands records on says byte for byte what one that holds every
/// record for a match window says, on the golden corpus (late records among them), on generated sessions,
/// on damaged traces and with a symbol table that fills up.
final class HandOnTests: XCTestCase {
    /// The result JSON (golden form off, so every figure is in it), the problems, and how many records
    /// were handed on.
    private func replay(_ path: String, handsOn: Bool, options: ReplayOptions = ReplayOptions()) throws
        -> (json: String, problems: [TraceProblem], handedOn: Int) {
        var problems: [TraceProblem] = []
        let replayer = Replayer(file: path, options: options)
        replayer.core.handsOn = handsOn
        let r = try Replay.drive([path], replayer: replayer, limits: .standard, strict: false, unopened: .fails, pipelined: false,
                                 onRecord: nil, seeing: .every, onProblem: { problems.append($0) })
        return (ExplainJSON.render(r, pretty: true), problems, replayer.core.recordsHandedOn)
    }

    /// Asserts both ways say the same; returns how many records were handed on.
    @discardableResult
    private func assertSame(_ path: String, options: ReplayOptions = ReplayOptions(),
                            file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let held = try replay(path, handsOn: false, options: options)
        let handed = try replay(path, handsOn: true, options: options)
        XCTAssertEqual(held.handedOn, 0, file: file, line: line)
        XCTAssertEqual(held.json, handed.json, "\(path): the result JSON differs", file: file, line: line)
        XCTAssertEqual(held.problems, handed.problems, "\(path): the problems differ", file: file, line: line)
        return handed.handedOn
    }

    private func generated(_ kind: BenchSession.Kind, _ count: Int, frameRecords: Int = 1024) throws -> String {
        try Fixtures.writeBenchSession(kind, count, to: Fixtures.tempDir("handon") + "/\(kind.rawValue).trace.zst", frameRecords: frameRecords)
    }

    func test_goldenCorpusSaysTheSameWithRecordsHandedOn() throws {
        let names = Fixtures.goldenTraceNames()
        XCTAssertGreaterThan(names.count, 50)
        for name in names { try assertSame(Fixtures.trace(name)) }
    }

    func test_generatedSessionsSayTheSameAndMostRecordsAreHandedOn() throws {
        for (kind, count) in [(BenchSession.Kind.stress, 30_000), (.healthy, 20_000)] {
            let handed = try assertSame(try generated(kind, count))
            // A batch's last match window and its first records wait in the order as before; the rest go on.
            XCTAssertGreaterThan(handed, count / 2, "\(kind): records handed on")
        }
    }

    func test_damagedTracesSayTheSameWithRecordsHandedOn() throws {
        let path = try generated(.stress, 6_000, frameRecords: 256)
        let (torn, flipped) = try Fixtures.damagedCopies(of: path)
        for damaged in [torn, flipped] {
            XCTAssertFalse(try replay(damaged, handsOn: true).problems.isEmpty, "\(damaged): the damage must be reported")
            try assertSame(damaged)
        }
    }

    /// A symbol table that fills up part way (a new speaker every record, among quality reports and route
    /// calls): the batches that could fill it hand nothing on, and the limit is said at the same record, in
    /// the same place among the findings.
    func test_aSymbolTableFillingUpSaysTheSame() throws {
        var b = TraceBuilder(.smeeting)
        b.add(100, .enterMeeting(room: "r"))
        for i in 1...3_000 {
            let t = Int64(1_000 + i * 150)
            if i % 3 == 0 {
                b.add(t, .speakers(speaking: [Speaker(uid: "u\(i)", trackId: "mic-\(i)", level: 0.5)], stopped: []))
            } else if i % 3 == 1 {
                b.add(t, .sdkActiveSpeakers(speakers: []))
            } else {
                b.add(t, .setRoute(target: i % 2 == 0 ? .speaker : .earpiece, api: nil))
            }
        }
        let path = Fixtures.tempDir("handon") + "/symbols.trace.zst"
        try b.write(to: path, frameRecords: 256)
        XCTAssertGreaterThan(try assertSame(path), 1_000, "records handed on within the default limit")
        for limit in [300, 1_200] {
            var options = ReplayOptions()
            options.maxDistinctStrings = limit
            let json = try replay(path, handsOn: true, options: options).json
            XCTAssertTrue(json.contains(FindingCode.traceLimitExceeded.rawValue), "limit \(limit): the limit is reported")
            try assertSame(path, options: options)
        }
    }
}
