import Contract
@testable import LogImport
import Replay
import TestSupport
import TraceFixtures
import TraceModel
import XCTest

/// E1: records of the system log never change an engine's state, a prediction, a verdict, an outcome, a
/// divergence or a finding. Every golden trace is replayed alone and with `sys.*` records merged in at
/// random times (ties included); the two replays must conclude exactly the same, seqs mapped.
final class E1InvarianceTests: XCTestCase {
    /// A random `sys.*` record of any of the five types, of the app or of another process.
    static func systemRecord(_ g: inout SplitMix64) -> RecordBody {
        let processes = ["CommCenter", "assistantd", "Meet", "com.apple.WebKit.GPU", "callservicesd", "Spotify"]
        let process = processes[g.below(processes.count)]
        let event: SystemLogRecord.Event
        switch g.below(5) {
        case 0: event = .sessionActivated(ok: g.below(4) != 0, error: g.below(3) == 0 ? "insufficientPriority" : nil,
                                          controllingPid: g.below(2) == 0 ? 150 : nil, controllingProcess: g.below(2) == 0 ? "callservicesd" : nil)
        case 1: event = .routeChanged(reason: [RouteChangeReason.categoryChange, .override, .newDeviceAvailable, .oldDeviceUnavailable][g.below(4)])
        case 2: event = .propertySet(key: ["OverrideRoute", "Category"][g.below(2)], value: ["Speaker", "Playback", "None"][g.below(3)])
        case 3: event = .playing(g.below(2) == 0, category: g.below(2) == 0 ? "PlayAndRecord" : nil)
        default: event = .appState(state: ["Foreground Running", "Background Suspended"][g.below(2)])
        }
        return .system(SystemLogRecord(event, process: process, pid: 100 + g.below(900), session: "0x3535e", wall: "10:00:00.000+0000",
                                       isSelf: process == "Meet", timeSource: g.below(2) == 0 ? .wall : .anchored, uncertaintyMs: Int64(g.below(1500))))
    }

    /// The trace's records with `count` system-log records merged in at the times of its records (and between them).
    static func withSystemRecords(_ records: [Record], count: Int, seed: UInt64) throws -> (records: [Record], seqs: [Int: Int]) {
        var g = SplitMix64(seed: seed)
        let first = records.first?.t ?? 0, last = records.last?.t ?? 0
        var added: [(t: Int64, body: RecordBody)] = (0..<count).map { _ in
            // Within the trace's time, as the import keeps them: at a record's time, or anywhere from the first to
            // before the last.
            let t = min(g.below(2) == 0 ? records[g.below(records.count)].t : first + Int64(g.below(Int(max(1, last - first)))), max(first, last - 1))
            return (t, systemRecord(&g))
        }
        added.sort { $0.t < $1.t }
        let merged = try TraceMerge.merge(records, added)
        return (merged.records, merged.seqs)
    }

    /// What a replay concludes, its seqs read back through `back` (the merged trace's seq → the trace's).
    static func conclusions(_ r: ReplayResult, _ back: (Int) -> Int) -> [String] {
        func s(_ v: Int?) -> String { v.map { String(back($0)) } ?? "-" }
        var out: [String] = ["verdicts \(r.verdictCount)", "divergences \(r.divergenceCount) unexplained \(r.unexplainedDivergenceCount)"]
        for v in r.verdicts {
            out.append("verdict \(s(v.seq)) \(v.t) \(v.call) \(v.verdict) \(v.cause?.rawValue ?? "-") \(s(v.causeSeq)) \(v.rule) "
                + "\(v.outcome.map { "\($0.kind) \($0.cause?.rawValue ?? "-") \($0.t) \(s($0.seq))" } ?? "no outcome") \(v.finding.map(String.init) ?? "-")")
        }
        for d in r.divergences {
            out.append("divergence \(d.start) \(d.end) \(d.openAtEnd) \(d.predicted) \(d.actual) \(s(d.predictedSeq)) \(s(d.startSeq)) "
                + "\(d.predictedBy.map { "\($0.rule) \(s($0.seq)) \(s($0.appliedBy))" } ?? "-") \(s(d.actualSeq)) \(s(d.afterAppliedCall)) "
                + "\(d.explainedBy?.rawValue ?? "-") \(s(d.explainedBySeq)) \(d.finding.map(String.init) ?? "-") \(d.startStateUnknown)")
        }
        for f in r.findings { out.append("finding \(f.code) \(f.severity) \(f.rule?.rawValue ?? "-") \(f.seqs.map { s($0) }) \(f.t) \(s(f.call))") }
        out.append("counts " + r.findingCounts.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))
        out.append("expectations " + r.expectations.map { "\(s($0.seq)):\($0.passed)" }.joined(separator: ","))
        out.append("quality \(r.quality.map { "\($0.reports) \($0.levelChanges) \($0.time) \($0.attribution)" } ?? "-") recoveries \(r.recoveries)")
        out.append("gaps " + (r.quality?.gaps ?? []).map { "\($0.startT)-\($0.endT) \(s($0.startSeq))-\(s($0.endSeq))" }.joined(separator: ","))
        out.append("duration \(r.firstT ?? -1)-\(r.lastT ?? -1) end \(r.end)")
        return out
    }

    func test_E1_systemLogRecordsChangeNoVerdictOutcomeDivergenceOrFinding_overTheGoldenCorpus() throws {
        var checked = 0
        for (i, name) in Fixtures.goldenTraceNames().enumerated() where !name.contains("/") {
            let (records, problems) = try Fixtures.readAll(Fixtures.trace(name))
            guard problems.allSatisfy({ !$0.isDamage }), records.count > 2 else { continue }
            let alone = Replay.run(records: records)
            let merged = try Self.withSystemRecords(records, count: 5 + records.count / 4, seed: UInt64(i))
            let back = Dictionary(uniqueKeysWithValues: merged.seqs.map { ($1, $0) })
            let both = Replay.run(records: merged.records)
            XCTAssertEqual(Self.conclusions(alone) { $0 }, Self.conclusions(both) { back[$0] ?? -1 }, name)
            XCTAssertEqual(both.records, alone.records + merged.records.count - records.count, name)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 150)
    }
}
