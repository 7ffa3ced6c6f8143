import Foundation
import TestSupport
import TraceFixtures
import TraceModel
import XCTest

/// The generated fleets the summary's tests triage: a week with a regression planted in each layer and an
/// old-version problem in each, the same week with nothing planted, and the next week with a new
/// regression and one fixed. Every fleet has what made false entries before: a tag common in one layer's
/// SDK and absent from the other's (SMeeting's audio module left disabled), simulator and Mac traces, and
/// one device model whose traces are copies of one upload.
enum PlantedFleet {
    typealias Version = SyntheticFleet.Version

    /// Week 1: SRTC 4.6.2 does not recover from 9 % of its interruptions (4.6.1: 1 %), SMeeting 3.2.1
    /// deactivates without notifyOthers in 10 % (3.2.0: never); the oldest versions, SRTC 4.6.0 and
    /// SMeeting 3.1.4, have problems the later versions fixed (notifyOthers, a wrong session mode).
    static let week1: [Version] = [
        Version(sdk: "SRTC 4.6.0", traces: 300, planted: [(.deactivatedWithoutNotifyOthers, 7), (.interruptionNotRecovered, 1)]),
        Version(sdk: "SRTC 4.6.1", traces: 400, notRecoveredPercent: 1),
        Version(sdk: "SRTC 4.6.2", traces: 400, notRecoveredPercent: 9),
        Version(sdk: "SMeeting 3.1.4", traces: 400, planted: [(.wrongSessionMode, 7), (.interruptionNotRecovered, 2)]),
        Version(sdk: "SMeeting 3.2.0", traces: 400, notRecoveredPercent: 2),
        Version(sdk: "SMeeting 3.2.1", traces: 400, planted: [(.deactivatedWithoutNotifyOthers, 10), (.interruptionNotRecovered, 2)]),
    ]

    /// Week 1's versions and sizes with nothing planted: every version of a product the same.
    static let even: [Version] = week1.map { Version(sdk: $0.sdk, traces: $0.traces, notRecoveredPercent: 2) }

    /// Week 2: SRTC 4.6.3 is new and its device ignores 8 % of its speaker requests with nothing recorded
    /// to say why (unexplained divergences: new escalations); SMeeting 3.2.2 replaced 3.2.1 and fixed
    /// notifyOthers. Everything else as in week 1.
    static let week2: [Version] = Array(week1.prefix(3)) + [
        Version(sdk: "SRTC 4.6.3", traces: 400, planted: [(.speakerIgnored, 8), (.interruptionNotRecovered, 9)]),
        week1[3], week1[4],
        Version(sdk: "SMeeting 3.2.2", traces: 400, notRecoveredPercent: 2),
    ]

    /// The device model whose traces are copies of one upload, and how many copies there are.
    static let copiedModel = "iPhone10,3", copies = 12

    /// Writes a fleet into `dir` (created), with `copies` copies of one trace that does not recover from an
    /// interruption, its device model set to `copiedModel`, named so that they spread over any shards.
    @discardableResult
    static func write(_ versions: [Version], seed: UInt64, day: String = "2026-11-29", to dir: String) throws -> [SyntheticFleet.Trace] {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let fleet = SyntheticFleet.make(seed: seed, versions: versions, day: day)
        for t in fleet { try t.jsonLines.write(toFile: dir + "/" + t.name, atomically: false, encoding: .utf8) }
        let original = try XCTUnwrap(fleet.first { $0.scenario == .interruptionNotRecovered && !$0.jsonLines.contains("\"simulator\":true") })
        let header: TraceHeader? = if case .header(let h) = original.records[0].body { h } else { nil }
        let model = try XCTUnwrap(header?.device.model, "the generated trace starts with its header")
        let copy = original.jsonLines.replacingOccurrences(of: "\"model\":\"\(model)\"", with: "\"model\":\"\(copiedModel)\"")
        XCTAssertNotEqual(copy, original.jsonLines)
        for i in 0..<copies { try copy.write(toFile: dir + "/upload-\(i)-\(original.name)", atomically: false, encoding: .utf8) }
        return fleet
    }

    /// Week 1 triaged once for every test that reads it (a full run of two thousand traces costs seconds):
    /// the fleet, its rows in four shards (`shard-I.jsonl.zst`), the rows of the golden corpus as a
    /// baseline, and one unsharded run over the fleet with that baseline, its rows (`whole.jsonl.zst`) and
    /// its JSON summary. The folder is removed when the test process ends.
    struct Runs: @unchecked Sendable {
        /// The folder everything is in.
        var dir: String
        /// The fleet's folder.
        var fleet: String { dir + "/fleet" }
        /// The four shards' rows files.
        var shards: [String] { (0..<4).map { dir + "/shard-\($0).jsonl.zst" } }
        /// The golden corpus's rows: the baseline of the unsharded run.
        var baseline: String { dir + "/golden.jsonl.zst" }
        /// The unsharded run's rows.
        var whole: String { dir + "/whole.jsonl.zst" }
        /// The unsharded run's JSON summary, as printed.
        var summaryText: String
        /// The same, parsed.
        var summary: [String: Any]
    }

    nonisolated(unsafe) private static var cached: Runs?

    /// The week-1 runs, made by the first test that asks.
    static func week1Runs() throws -> Runs {
        if let cached { return cached }
        let dir = Fixtures.tempDir("planted-fleet")
        atexit { PlantedFleet.removeRuns() }
        try write(week1, seed: 24, to: dir + "/fleet")
        let golden = CLI.runInProcess(["triage", CLI.root + "/traces", "-o", dir + "/golden.jsonl.zst"])
        XCTAssertEqual(golden.status, 0, golden.err)
        for i in 0..<4 {
            let shard = CLI.runInProcess(["triage", dir + "/fleet", "--shard", "\(i)/4", "-o", dir + "/shard-\(i).jsonl.zst"])
            XCTAssertEqual(shard.status, 0, shard.err)
        }
        let r = CLI.runInProcess(["triage", dir + "/fleet", "--json", "--baseline", dir + "/golden.jsonl.zst", "-o", dir + "/whole.jsonl.zst"])
        XCTAssertEqual(r.status, 0, r.err)
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.err.utf8)) as? [String: Any], r.err)
        let runs = Runs(dir: dir, summaryText: r.err, summary: summary)
        cached = runs
        return runs
    }

    private static func removeRuns() {
        if let dir = cached?.dir { try? FileManager.default.removeItem(atPath: dir) }
    }
}
