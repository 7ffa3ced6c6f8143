import Analysis
import Foundation
import Replay
import Reports
import TraceCodec
import TraceModel
import XCTest

/// The triage taxonomy, rows, summary, thresholds, shards and the ordered parallel runner.
final class TriageTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    func test_everyFindingCodeAndEveryVerdictCauseHasATag() {
        var reached = Set<TriageTag>()
        for code in FindingCode.allCases { reached.insert(TriageTag.tag(for: code)) }
        for cause in VerdictCause.allCases { reached.insert(TriageTag.tag(for: cause)) }
        // The tags no code or cause gives come from the trace itself.
        let fromTheTrace: Set<TriageTag> = [.unreadable, .notATrace, .damagedTrace, .incompleteSession, .unexplainedDivergence, .poorNetwork]
        XCTAssertEqual(reached.union(fromTheTrace), Set(TriageTag.allCases), "every tag has a source")
        XCTAssertTrue(reached.isDisjoint(with: fromTheTrace))
    }

    func test_tagsAreStableLayerNeutralAndDocumented() throws {
        let doc = try String(contentsOfFile: Self.root + "/docs/triage.md", encoding: .utf8)
        XCTAssertEqual(Set(TriageTag.allCases.map(\.rawValue)).count, TriageTag.allCases.count)
        for t in TriageTag.allCases {
            XCTAssertTrue(t.rawValue.allSatisfy { $0 == "-" || ("a"..."z").contains($0) }, "\(t) is kebab-case")
            XCTAssertFalse(t.summary.isEmpty)
            for word in ["channel", "meeting", "join", "enter", "leave", "exit", "member", "user"] {
                XCTAssertFalse(t.rawValue.contains(word) || t.summary.lowercased().contains(" \(word)"), "\(t) says '\(word)'")
            }
            XCTAssertTrue(doc.contains("| `\(t.rawValue)` |"), "docs/triage.md lists \(t)")
        }
    }

    func row(_ trace: String) -> TriageRow {
        let path = Self.root + "/traces/" + trace
        return Triage.row(for: TriageTrace(paths: [path], session: nil, size: 1))
    }

    func test_rowsCarryTheTagsOfTheirFindingsAndCauses() {
        let r = row("srtc-bluetooth-blocks-speaker.jsonl")
        XCTAssertEqual(r.tags, [.routeCallNotTakingEffect, .speakerBlockedByExternalDevice])
        XCTAssertEqual(r.notTakingEffectByCause, ["externalRouteActive": 1])
        XCTAssertEqual(r.layer, .srtc)
        XCTAssertEqual(r.day, "2026-11-29")
        let u = row("smeeting-default-speaker-before-enter.jsonl")
        XCTAssertEqual(u.unexplainedDivergences, 1)
        XCTAssertTrue(u.tags.contains(.unexplainedDivergence) && u.tags.contains(.routeDivergence))
        let flushed = row("smeeting-override-lost-after-unplug.jsonl")
        XCTAssertEqual(flushed.unexplainedDivergences, 0, "an unplug that lands on the default is a flush by design (R15)")
        XCTAssertTrue(flushed.tags.contains(.overrideFlushed) && !flushed.tags.contains(.routeDivergence), "\(flushed.tags)")
        XCTAssertTrue(row("srtc-bluetooth-without-allowbluetooth.jsonl").tags.contains(.sessionMissingAllowBluetooth))
        let json = TriageRowJSON.render(r)
        XCTAssertTrue(json.hasPrefix(#"{"schema":"rtctrace.triage/1","path":"#), json)
        XCTAssertTrue(json.hasSuffix(#""tags":["route-call-not-taking-effect","speaker-blocked-by-external-device"]}"#), json)
        XCTAssertEqual(json, TriageRowJSON.render(row("srtc-bluetooth-blocks-speaker.jsonl")), "deterministic")
    }

    func test_summaryRanksTagsVersionsAndTracesToOpenFirst() {
        var s = TriageSummary()
        var a = TriageRow(path: "a"); a.sdk = "SRTC 1"; a.os = "iOS 17"; a.tags = [.unexplainedDivergence, .routeDivergence]; a.unexplainedDivergences = 1
        var b = TriageRow(path: "b"); b.sdk = "SRTC 2"; b.os = "iOS 17"; b.tags = [.interruptionNotRecovered]; b.errors = 2
        var c = TriageRow(path: "c"); c.sdk = "SRTC 2"; c.tags = [.interruptionNotRecovered]; c.errors = 1
        var d = TriageRow(path: "d"); d.tags = [.notATrace]; d.unexplainable = "it holds no records"
        for r in [b, c, a, d] { s.add(r) }
        XCTAssertEqual(s.traces, 4)
        XCTAssertEqual(s.readable, 3)
        XCTAssertEqual(s.rankedTags.map(\.tag), [.interruptionNotRecovered, .notATrace, .routeDivergence, .unexplainedDivergence],
                       "most traces first, ties in taxonomy order")
        XCTAssertEqual(s.share(.interruptionNotRecovered), 2.0 / 3.0)
        XCTAssertEqual(s.share(.notATrace), 1.0 / 4.0, "tags about the input are shares of all inputs")
        XCTAssertEqual(s.openFirst.map(\.path), ["a", "b", "c"], "unexplained divergences, then errors")
        XCTAssertEqual(TriageSummary.ranked(s.bySDK).map(\.version), ["SRTC 2", "SRTC 1"])
        XCTAssertEqual(s.byOS[TriageSummary.unknownVersion]?.traces, 1)
        for i in 0..<30 { var r = TriageRow(path: "z\(i)"); r.errors = 1; r.tags = [.callkitNoDidActivate]; s.add(r) }
        XCTAssertEqual(s.openFirst.count, TriageSummary.openFirstCap, "bounded")
        let text = TriageSummaryText.render(s, thresholds: [try! TriageThreshold(parsing: "interruption-not-recovered>50%")])
        XCTAssertTrue(text.contains("ok       interruption-not-recovered>50%: 2 of 33 readable traces (6.1%) have interruption-not-recovered"), text)
    }

    func test_thresholds() throws {
        var s = TriageSummary()
        for i in 0..<200 {
            var r = TriageRow(path: "t\(i)")
            r.tags = i < 3 ? [.interruptionNotRecovered] : []
            s.add(r)
        }
        XCTAssertTrue(try TriageThreshold(parsing: "interruption-not-recovered>2").isCrossed(by: s))
        XCTAssertFalse(try TriageThreshold(parsing: "interruption-not-recovered>3").isCrossed(by: s))
        XCTAssertTrue(try TriageThreshold(parsing: "interruption-not-recovered>1%").isCrossed(by: s), "1.5% > 1%")
        XCTAssertFalse(try TriageThreshold(parsing: "interruption-not-recovered>2%").isCrossed(by: s))
        XCTAssertFalse(try TriageThreshold(parsing: "unexplained-divergence > 0").isCrossed(by: s))
        XCTAssertEqual(try TriageThreshold(parsing: "quality-flapping>2.5%").description, "quality-flapping>2.5%")
        XCTAssertEqual(try TriageThreshold(parsing: "quality-flapping>2%").description, "quality-flapping>2%")
        for bad in ["", ">", "x>1", "quality-flapping>", "quality-flapping>1.2", "quality-flapping>%", "quality-flapping>nan%",
                    "quality-flapping>inf%", "quality-flapping<1", "quality-flapping>1.2.3%"] {
            XCTAssertThrowsError(try TriageThreshold(parsing: bad), bad)
        }
    }

    func test_shardsAreStableFNV1a() {
        XCTAssertEqual(TriageShard.fnv1a64(""), 0xcbf2_9ce4_8422_2325)
        XCTAssertEqual(TriageShard.fnv1a64("a"), 0xaf63_dc4c_8601_ec8c)
        XCTAssertEqual(TriageShard.fnv1a64("foobar"), 0x8594_4171_f739_67e8)
        XCTAssertEqual(TriageShard(parsing: "2/5"), TriageShard(index: 2, count: 5))
        for bad in ["5/5", "-1/5", "1/0", "1", "1/2/3", "a/2", ""] { XCTAssertNil(TriageShard(parsing: bad), bad) }
        let keys = (0..<1000).map { "session-\($0)" }
        for n in [1, 2, 7] {
            let owners = keys.map { k in (0..<n).filter { TriageShard(index: $0, count: n).contains(key: k) } }
            XCTAssertTrue(owners.allSatisfy { $0.count == 1 }, "each key in exactly one of \(n) shards")
        }
    }

    func test_orderedParallelKeepsOrderAndBoundsItsWindow() {
        final class Meter: @unchecked Sendable {
            let lock = NSLock()
            var inFlight = 0, maxInFlight = 0
            func enter() { lock.lock(); inFlight += 1; maxInFlight = max(maxInFlight, inFlight); lock.unlock() }
            func leave() { lock.lock(); inFlight -= 1; lock.unlock() }
        }
        let meter = Meter()
        var got: [Int] = []
        OrderedParallel.run(count: 500, jobs: 4, window: 6, work: { i -> Int in
            meter.enter()
            // Early items are slow, so that later ones finish first and must wait for them.
            if i % 50 == 0 { usleep(2000) }
            return i * i
        }, emit: { i, v in
            XCTAssertEqual(v, i * i)
            got.append(i)
            meter.leave()
        })
        XCTAssertEqual(got, Array(0..<500))
        // Taking item i's result frees its place before `emit` runs, so the meter may see one more.
        XCTAssertLessThanOrEqual(meter.maxInFlight, 6 + 1, "claimed but not emitted never exceeds the window")
        struct Stop: Error {}
        var emitted = 0
        XCTAssertThrowsError(try OrderedParallel.run(count: 1000, jobs: 2, window: 4, work: { $0 }, emit: { i, _ in
            emitted += 1
            if i == 10 { throw Stop() }
        }))
        XCTAssertEqual(emitted, 11)
    }

    func test_thePartsOfASessionReplayAsOneTrace() throws {
        let dir = NSTemporaryDirectory() + "triage-parts-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let h = #"{"seq":%d,"t":%d,"type":"trace.header","format":"rtctrace","version":1,"layer":"smeeting","initialDefaultRoute":"speaker","session":{"id":"run-7","part":%d}}"#
        let p1 = dir + "/p1.jsonl", p2 = dir + "/p2.jsonl", p3 = dir + "/p3.jsonl"
        try [String(format: h, 0, 0, 1), #"{"seq":1,"t":10,"type":"api.enterMeeting","room":"r"}"#,
             #"{"seq":2,"t":20,"type":"api.setDefaultRoute","target":"earpiece"}"#].joined(separator: "\n").write(toFile: p1, atomically: true, encoding: .utf8)
        try [String(format: h, 3, 30, 2), #"{"seq":4,"t":40,"type":"api.setDefaultRoute","target":"earpiece"}"#]
            .joined(separator: "\n").write(toFile: p2, atomically: true, encoding: .utf8)
        try [String(format: h, 9, 50, 4), #"{"seq":10,"t":60,"type":"api.exitMeeting"}"#]
            .joined(separator: "\n").write(toFile: p3, atomically: true, encoding: .utf8)
        let two = Replay.run(parts: [p1, p2])
        XCTAssertEqual(two.result.records, 5)
        XCTAssertEqual(two.result.problemCount, 0, "\(two.result.problems)")
        XCTAssertEqual(two.result.verdicts.map(\.verdict), [.applied, .noop],
                       "part 2's header does not reset the default part 1 set")
        XCTAssertNil(Wording.incompleteSession(two.result))
        XCTAssertEqual(two.result.session?.parts, [1, 2])
        XCTAssertEqual(two.result.session?.isPartial, false)
        let gap = Replay.run(parts: [p1, p2, p3])
        XCTAssertEqual(gap.problemsByKind, [.seqGap: 1])
        XCTAssertEqual(gap.result.problems.first?.lost, 5...8)
        XCTAssertEqual(gap.result.session?.missing, [SessionCoverage.MissingParts(parts: 3...3, afterT: 40, beforeT: 50)])
        XCTAssertEqual(gap.result.session?.unknownState.map(\.untilSeq), [nil], "no checkpoint after the gap, nothing makes the state known")
        let why = try XCTUnwrap(Wording.incompleteSession(gap.result))
        XCTAssertTrue(why.contains("part 3 of session run-7 is missing (between 0.040s and 0.050s)"), why)
        XCTAssertEqual(gap.result.verdicts.map(\.verdict), [.applied, .noop], "the exit after the gap is no route call")
        let gapRow = TriageRow(path: p1, parts: [p1, p2, p3], session: "run-7", size: 0, replay: gap)
        XCTAssertTrue(gapRow.tags.contains(.partialSession) && gapRow.tags.contains(.incompleteSession), "\(gapRow.tags)")
        let missing = Replay.run(parts: [p1, dir + "/nope.jsonl"])
        XCTAssertEqual(missing.problemsByKind, [.io: 1])
        XCTAssertEqual(missing.partsOpened, 1)
        let row = TriageRow(path: p1, parts: [p1, dir + "/nope.jsonl"], session: "run-7", size: 0, replay: missing)
        XCTAssertTrue(row.tags.contains(.damagedTrace) && !row.tags.contains(.unreadable), "\(row.tags)")
    }
}
