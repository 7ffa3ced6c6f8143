import Analysis
import Contract
import Foundation
import Replay
import Reports
import TraceCodec
import TraceFixtures
import TraceModel
import XCTest

/// The triage taxonomy, rows, summary, thresholds, shards and the ordered parallel runner.
final class TriageTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    func test_everyFindingCodeAndEveryVerdictCauseHasATag() {
        var reached = Set<TriageTag>()
        for code in FindingCode.allCases where code != .routeIneffective { reached.insert(try! XCTUnwrap(code.tag, "\(code)")) }
        XCTAssertNil(FindingCode.routeIneffective.tag, "raised for every call that waited: the tags of calls follow outcomes")
        for cause in VerdictCause.allCases { reached.insert(cause.tag) }
        // The tags no code or cause gives come from the trace itself, or from what became of its calls.
        let fromTheTrace: Set<TriageTag> = [.unreadable, .notATrace, .damagedTrace, .recorderDroppedRecords, .incompleteSession, .duplicateUpload, .unexplainedDivergence, .uncertainDivergence,
                                            .poorNetwork, .routeCallNotTakingEffect, .tookEffectLate]
        XCTAssertEqual(reached.union(fromTheTrace), Set(TriageTag.allCases), "every tag has a source")
        XCTAssertTrue(reached.isDisjoint(with: fromTheTrace))
        XCTAssertEqual(Set(TriageTag.allCases.filter(\.followsOutcomes)),
                       Set(VerdictCause.allCases.map { $0.tag }).union([.routeCallNotTakingEffect, .tookEffectLate]))
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
        // The page says which tags follow outcomes, and they are those that do.
        let paragraph = try XCTUnwrap(doc.components(separatedBy: "**Tags that follow outcomes.**").dropFirst().first?
            .components(separatedBy: "A trace gets the umbrella tag").first)
        let named = paragraph.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        XCTAssertEqual(Set(named), Set(TriageTag.allCases.filter(\.followsOutcomes).map(\.rawValue)))
    }

    func row(_ trace: String) -> TriageRow {
        let path = Self.root + "/traces/" + trace
        return Triage.row(for: TraceSession(paths: [path], size: 1))
    }

    /// A what-if's three outcomes in a row: advice that cannot be placed (the row's tags all remain), a trace
    /// without the advice's item (nothing to change, no error) and advice placed (what it resolves).
    func test_whatifRowsSayWhetherTheAdviceWasPlacedAndWhatItResolved() throws {
        func change(_ trace: String, _ advice: String) throws -> (row: TriageRow, whatif: TriageWhatIf) {
            let edits = try XCTUnwrap(TriageEdits(advice: advice))
            let r = Triage.row(for: TraceSession(paths: [Self.root + "/traces/" + trace], size: 1), whatif: edits)
            return (r, try XCTUnwrap(r.whatif, "every row of a what-if carries its change"))
        }
        let unplaced = try change("srtc-bluetooth-blocks-speaker.jsonl", "advice:route.ineffective")
        XCTAssertEqual(unplaced.whatif.error, "the advice cannot be placed in this trace")
        XCTAssertEqual(unplaced.whatif.remainingTags, unplaced.row.tags)
        XCTAssertEqual(unplaced.whatif.resolvedTags, [])
        XCTAssertFalse(unplaced.whatif.improves)
        let nothing = try change("srtc-bluetooth-blocks-speaker.jsonl", "advice:interruption.notRecovered")
        XCTAssertNil(nothing.whatif.error)
        XCTAssertNil(nothing.whatif.historyEndsAt)
        XCTAssertEqual(nothing.whatif.remainingTags, nothing.row.tags)
        let placed = try change("srtc-interruption-not-recovered.jsonl", "advice:interruption.notRecovered")
        XCTAssertNil(placed.whatif.error)
        XCTAssertTrue(placed.whatif.improves)
        XCTAssertEqual(placed.whatif.historyEndsAt, 13000)
        XCTAssertEqual(placed.whatif.findingsRemoved, 1)
        XCTAssertEqual(placed.whatif.resolvedTags, [.interruptionNotRecovered])
        XCTAssertEqual(placed.whatif.remainingTags, [])
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
        XCTAssertTrue(json.hasPrefix(#"{"schema":"rtctrace.triage/2","path":"#), json)
        XCTAssertTrue(json.hasSuffix(#""tags":["route-call-not-taking-effect","speaker-blocked-by-external-device"],"recorderPauses":0,"reportIds":[],"signature":null,"command":"rtctrace explain "#
                                     + Self.root + #"/traces/srtc-bluetooth-blocks-speaker.jsonl"}"#), json)
        let errorRow = TriageRowJSON.render(row("srtc-interruption-not-recovered.jsonl"))
        XCTAssertTrue(errorRow.contains(#""signature":"interruption.notRecovered","#), errorRow)
        XCTAssertEqual(json, TriageRowJSON.render(row("srtc-bluetooth-blocks-speaker.jsonl")), "deterministic")
    }

    func test_summaryRanksTagsVersionsAndOpensOneTracePerProblem() {
        var s = TriageSummary()
        var a = TriageRow(path: "a"); a.sdk = "SRTC 1"; a.os = "iOS 17"; a.tags = [.unexplainedDivergence, .routeDivergence]; a.unexplainedDivergences = 1
        var b = TriageRow(path: "b"); b.sdk = "SRTC 2"; b.os = "iOS 17"; b.tags = [.interruptionNotRecovered]; b.errors = 2
        b.findings = [.interruptionNotRecovered: 2]
        var c = b; c.path = "c"; c.os = nil; c.errors = 1
        var d = TriageRow(path: "d"); d.tags = [.notATrace]; d.unexplainable = "it holds no records"
        var e = b; e.path = "e"; e.tags = [.damagedTrace, .interruptionNotRecovered]
        for r in [b, c, a, d, e] { s.add(r) }
        XCTAssertEqual(s.traces, 5)
        XCTAssertEqual(s.readable, 4)
        XCTAssertEqual(s.rankedTags.map(\.tag), [.interruptionNotRecovered, .notATrace, .damagedTrace, .routeDivergence, .unexplainedDivergence],
                       "most traces first, ties in taxonomy order")
        XCTAssertEqual(s.share(.interruptionNotRecovered), 3.0 / 4.0)
        XCTAssertEqual(s.share(.notATrace), 1.0 / 5.0, "tags about the input are shares of all inputs")
        XCTAssertEqual(s.openFirst.map(\.example.path), ["a", "b", "e"],
                       "one example per signature: unexplained divergences, then errors; the damaged one last")
        XCTAssertEqual(s.openFirst.map(\.traces), [1, 2, 1], "b and c share a signature")
        XCTAssertEqual(TriageSummary.ranked(s.bySDK).map(\.version), ["SRTC 2", "SRTC 1"])
        XCTAssertEqual(s.byOS[TriageSummary.unknownVersion]?.traces, 1)
        for i in 0..<30 { var r = TriageRow(path: "z\(i)"); r.errors = 1; r.findings = [.callkitNoDidActivate: 1]; r.tags = [.callkitNoDidActivate]; s.add(r) }
        XCTAssertEqual(s.openFirst.map(\.example.path), ["a", "z0", "b", "e"], "thirty traces of one problem are one entry, first by count")
        XCTAssertEqual(s.openFirst[1].traces, 30)
        let text = TriageSummaryReport.render(s, thresholds: [try! TriageThreshold(parsing: "interruption-not-recovered>50%")])
        XCTAssertTrue(text.contains("ok       interruption-not-recovered>50%: 3 of 34 readable traces (8.8%) have interruption-not-recovered"), text)
        XCTAssertTrue(text.contains("  2. 30 traces: callkit.noDidActivate\n     e.g. z0: 1 error\n     rtctrace explain z0\n"), text)
        XCTAssertTrue(text.contains("  4. 1 trace: interruption.notRecovered (damaged or partial)\n"), text)
    }

    /// A session recorded as several files is opened whole: the command names its folder when the folder
    /// holds those parts and nothing else, and every part otherwise; never the first part alone. The row
    /// carries the command, so that a summary made from rows alone names the same.
    func test_openFirstNamesEveryPartOfASession() throws {
        let dir = Fixtures.tempDir("open-first")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let session = dir + "/session", other = dir + "/other"
        for folder in [session, other] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let parts = [session + "/part-1.jsonl", session + "/part-2.jsonl"]
        for p in parts + [other + "/part-3.jsonl"] { try Data("{}\n".utf8).write(to: URL(fileURLWithPath: p)) }
        func open(_ paths: [String]) -> (text: String, json: String, row: String) {
            var s = TriageSummary()
            var row = TriageRow(path: paths[0]); row.parts = paths; row.errors = 1
            row.findings = [.interruptionNotRecovered: 1]; row.tags = [.interruptionNotRecovered]
            row.command = Triage.command(naming: paths, folders: TraceFolders())
            s.add(row)
            return (TriageSummaryReport.render(s), TriageSummaryReport.json(s), TriageRowJSON.render(row))
        }
        let whole = open(parts)
        XCTAssertTrue(whole.text.contains("     rtctrace explain \(session)\n"), whole.text)
        XCTAssertTrue(whole.json.contains("\"command\":\"rtctrace explain \(session)\""), whole.json)
        XCTAssertTrue(whole.row.hasSuffix("\"command\":\"rtctrace explain \(session)\"}"), whole.row)
        // Two folders: every part is named.
        let spread = open([parts[0], parts[1], other + "/part-3.jsonl"])
        XCTAssertTrue(spread.text.contains("     rtctrace explain \(parts[0]) \(parts[1]) \(other)/part-3.jsonl\n"), spread.text)
        // A folder that holds another trace too: every part is named, not the folder.
        try Data("{}\n".utf8).write(to: URL(fileURLWithPath: session + "/unrelated.jsonl"))
        let crowded = open(parts)
        XCTAssertTrue(crowded.text.contains("     rtctrace explain \(parts[0]) \(parts[1])\n"), crowded.text)
        XCTAssertTrue(crowded.json.contains("\"command\":\"rtctrace explain \(parts[0]) \(parts[1])\""), crowded.json)
        // Without a folder walk (a row of an earlier version, read back), every part.
        XCTAssertEqual(Triage.command(naming: parts), "rtctrace explain \(parts[0]) \(parts[1])")
        XCTAssertEqual(Triage.command(naming: ["/a b/it's.jsonl"]), #"rtctrace explain '/a b/it'\''s.jsonl'"#)
    }

    /// A trace whose recorder dropped records is tagged (it had no tag) and, in "open first", is listed
    /// with the damaged and partial traces, after the intact ones, whatever its count.
    func test_droppedRecordsAreTaggedAndOpenedAfterIntactTraces() {
        var s = TriageSummary()
        for i in 0..<3 {
            var lossy = TriageRow(path: "lossy\(i)"); lossy.droppedRecords = 40; lossy.errors = 1
            lossy.findings = [.callkitNoDidActivate: 1]; lossy.tags = [.recorderDroppedRecords, .callkitNoDidActivate]
            s.add(lossy)
        }
        var intact = TriageRow(path: "intact"); intact.errors = 1; intact.findings = [.interruptionNotRecovered: 1]; intact.tags = [.interruptionNotRecovered]
        s.add(intact)
        XCTAssertEqual(s.openFirst.map(\.example.path), ["intact", "lossy0"])
        XCTAssertEqual(s.openFirst.map(\.signature.compromised), [false, true])
        XCTAssertTrue(TriageSummaryReport.json(s).contains(#""damagedOrPartial":true"#))
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
        let two = try Replay.run(TraceSession(paths: [p1, p2]), unopened: .isAProblem)
        XCTAssertEqual(two.records, 5)
        XCTAssertEqual(two.problemCount, 0, "\(two.problems)")
        XCTAssertEqual(two.verdicts.map(\.verdict), [.applied, .noop],
                       "part 2's header does not reset the default part 1 set")
        XCTAssertNil(Wording.incompleteSession(two))
        XCTAssertEqual(two.session?.parts, [1, 2])
        XCTAssertEqual(two.session?.isPartial, false)
        let gap = try Replay.run(TraceSession(paths: [p1, p2, p3]), unopened: .isAProblem)
        XCTAssertEqual(gap.problemsByKind, [.seqGap: 1])
        XCTAssertEqual(gap.problems.first?.lost, 5...8)
        XCTAssertEqual(gap.session?.missing, [SessionCoverage.MissingParts(parts: 3...3, afterT: 40, beforeT: 50)])
        XCTAssertEqual(gap.session?.unknownState.map(\.untilSeq), [nil], "no checkpoint after the gap, nothing makes the state known")
        let why = try XCTUnwrap(Wording.incompleteSession(gap))
        XCTAssertTrue(why.contains("part 3 of session run-7 is missing (between 0.040s and 0.050s)"), why)
        XCTAssertEqual(gap.verdicts.map(\.verdict), [.applied, .noop], "the exit after the gap is no route call")
        let gapRow = TriageRow(TraceSession(paths: [p1, p2, p3], id: "run-7"), result: gap)
        XCTAssertTrue(gapRow.tags.contains(.partialSession) && gapRow.tags.contains(.incompleteSession), "\(gapRow.tags)")
        let missing = try Replay.run(TraceSession(paths: [p1, dir + "/nope.jsonl"]), unopened: .isAProblem)
        XCTAssertEqual(missing.problemsByKind, [.io: 1])
        XCTAssertEqual(missing.partsOpened, 1)
        let row = TriageRow(TraceSession(paths: [p1, dir + "/nope.jsonl"], id: "run-7"), result: missing)
        XCTAssertTrue(row.tags.contains(.damagedTrace) && !row.tags.contains(.unreadable), "\(row.tags)")
    }

    // MARK: - Tags that follow outcomes

    func test_V2_aCallThatTookEffectLateHasNoUmbrellaTag() {
        let r = row("srtc-setroute-before-join.jsonl")
        XCTAssertEqual(r.tags, [.tookEffectLate, .routeRequestBeforeCall], "explain says 'Nothing is wrong' of this trace")
        XCTAssertEqual(r.notTakingEffect, 0)
        XCTAssertEqual(r.tookEffectLate, 1)
        XCTAssertEqual(r.causes(notTaking: false), ["notEngaged": 1])
        let field = row("srtc-field-default-speaker-deferred-then-superseded.jsonl.zst")
        XCTAssertEqual(field.tags, [.routeCallNotTakingEffect, .tookEffectLate, .routeRequestBeforeCall, .routeRequestDuringInterruption],
                       "the superseded call keeps its cause's tag once its outcome is decided")
        XCTAssertEqual(field.causes(notTaking: true), ["interrupted": 1])
        XCTAssertEqual(field.causes(notTaking: false), ["interrupted": 1, "notEngaged": 1])
    }

    /// Every call of the corpus that did not take effect carries its cause's tag (the verdict's and, where
    /// different, the outcome's); the umbrella tag is there exactly when a route call did not take effect,
    /// `took-effect-late` exactly when a deferred call took effect later.
    func test_everyCallThatDidNotTakeEffectInTheCorpusHasItsCauseTag() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.root + "/traces")
            .filter { $0.hasSuffix(".jsonl") || $0.hasSuffix(".zst") }.sorted()
        XCTAssertGreaterThan(names.count, 100)
        var checked = 0
        for name in names {
            let path = Self.root + "/traces/" + name
            let r = row(name)
            guard r.unexplainable == nil else { continue }
            let result = try Replay.run(TraceSession(path: path))
            XCTAssertEqual(result.verdictsDropped, 0, name)
            var umbrella = false, late = false
            for v in result.verdicts where v.verdict != .undetermined {
                let causes = [v.cause, v.outcome?.cause].compactMap { $0 }
                if v.didNotTakeEffect {
                    checked += 1
                    if v.call != .switchLayer { umbrella = true }
                    for c in causes { XCTAssertTrue(r.tags.contains(c.tag), "\(name): seq \(v.seq) \(c): \(r.tags)") }
                } else if v.verdict == .deferred {
                    late = true
                    for c in causes { XCTAssertTrue(r.tags.contains(c.tag), "\(name): seq \(v.seq) \(c): \(r.tags)") }
                }
            }
            XCTAssertEqual(r.tags.contains(.routeCallNotTakingEffect), umbrella, "\(name): \(r.tags)")
            XCTAssertEqual(r.tags.contains(.tookEffectLate), late, "\(name): \(r.tags)")
            XCTAssertEqual(r.notTakingEffect, result.notTakingEffectCount, name)
        }
        XCTAssertGreaterThan(checked, 40)
    }

    func test_aFileWithNothingToJudgeGetsNoJudgementTags() throws {
        let dir = NSTemporaryDirectory() + "triage-headerless-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The bluetooth trace without its header: still records to replay, but no layer, device or start.
        let text = try String(contentsOfFile: Self.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl", encoding: .utf8)
        let path = dir + "/headerless.jsonl"
        try text.split(separator: "\n").dropFirst().joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let r = Triage.row(for: TraceSession(paths: [path], size: 1))
        XCTAssertNotNil(r.unexplainable)
        XCTAssertTrue(r.tags.contains(.notATrace), "\(r.tags)")
        XCTAssertTrue(r.tags.allSatisfy { [.notATrace, .damagedTrace].contains($0) }, "no verdict or finding tags: \(r.tags)")
    }

    // MARK: - Rows an operations lead joins and divides

    func test_rowsCarryTheFactsToJoinAndDivideBy() throws {
        let unkeyed = row("srtc-bluetooth-blocks-speaker.jsonl")
        XCTAssertNil(unkeyed.channel, "no token without a key")
        XCTAssertNil(unkeyed.uid)
        let r = Triage.row(for: TraceSession(paths: [Self.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl"], size: 1),
                           keys: TriageKeys(salt: "k"))
        XCTAssertEqual(r.bundleId, "com.example.rtcdemo")
        XCTAssertEqual(r.channel, PersonalValue.token(key: Array("k".utf8), kind: .channel, value: "support-7781"),
                       "the token redact writes with the same key")
        XCTAssertEqual(r.channel, Redactor(salt: "k").token(.channel, "support-7781"))
        XCTAssertNil(r.room)
        XCTAssertEqual(r.callsByKind, ["api.setRoute": 1])
        XCTAssertEqual(r.startedAtUTC, "2026-11-29T10:00:00.000Z")
        XCTAssertEqual(r.partCount, 1)
        XCTAssertEqual(r.contentHash?.count, 64)
        XCTAssertNotNil(r.mos)
        let salted = Triage.row(for: TraceSession(paths: [Self.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl"], size: 1),
                                keys: TriageKeys(salt: "case-4711"))
        XCTAssertEqual(salted.channel, Redactor(salt: "case-4711").token(.channel, "support-7781"))
        XCTAssertNotEqual(salted.channel, r.channel)
        let json = TriageRowJSON.render(r)
        XCTAssertFalse(json.contains("support-7781"), "no channel name in a row")
        let meeting = Triage.row(for: TraceSession(paths: [Self.root + "/traces/smeeting-field-service-10min.jsonl.zst"], size: 1),
                                 keys: TriageKeys(salt: "k"))
        XCTAssertNotNil(meeting.room)
        XCTAssertNil(meeting.channel)
        XCTAssertGreaterThan(meeting.interruptions, 0)
        // Records the recorder dropped, a local uid, an app version and an offset start.
        let dir = NSTemporaryDirectory() + "triage-facts-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/dropped.jsonl"
        try [#"{"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"smeeting","sdk":"SMeeting 3.2.1","app":{"bundleId":"com.example.meet","version":"5.1.0"},"startedAt":"2026-11-30T01:30:00+08:00"}"#,
             #"{"seq":1,"t":10,"type":"api.enterMeeting","room":"board","uid":"member-42"}"#,
             #"{"seq":2,"t":20,"type":"os.interruptionBegan","cause":"siri"}"#,
             #"{"seq":3,"t":30,"type":"os.interruptionBegan"}"#,
             #"{"seq":4,"t":900,"type":"trace.dropped","count":17,"fromT":100,"toT":800}"#,
             #"{"seq":5,"t":1000,"type":"api.exitMeeting"}"#].joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let d = Triage.row(for: TraceSession(paths: [path], size: 1), keys: TriageKeys(salt: "k"))
        XCTAssertEqual(d.droppedRecords, 17)
        XCTAssertTrue(d.tags.contains(.recorderDroppedRecords), "\(d.tags)")
        XCTAssertTrue(d.compromised, "what it says around the gap is uncertain")
        XCTAssertEqual(d.appVersion, "5.1.0")
        XCTAssertEqual(d.room, Redactor(salt: "k").token(.room, "board"))
        XCTAssertEqual(d.uid, Redactor(salt: "k").token(.uid, "member-42"), "the redacted token without its rank")
        XCTAssertEqual(d.interruptionsByCause, ["siri": 1, "unspecified": 1])
        XCTAssertEqual(d.dayUTC, "2026-11-29")
        XCTAssertEqual(d.day, "2026-11-30")
        let dj = TriageRowJSON.render(d)
        for name in ["board", "member-42"] { XCTAssertFalse(dj.contains(name), "\(name) in \(dj)") }
    }

    func test_UTCTimesAndDays() {
        XCTAssertEqual(UTCTime.normalised("2026-11-29T10:00:00+08:00"), "2026-11-29T02:00:00.000Z")
        XCTAssertEqual(UTCTime.normalised("2026-11-30T01:30:00+08:00"), "2026-11-29T17:30:00.000Z", "the UTC day is the day before")
        XCTAssertEqual(UTCTime.normalised("2026-12-31T23:30:00.1234-0130"), "2027-01-01T01:00:00.123Z")
        XCTAssertEqual(UTCTime.normalised("2024-03-01T00:10:00+01:00"), "2024-02-29T23:10:00.000Z", "leap day")
        XCTAssertEqual(UTCTime.normalised("2026-11-29T10:00:00Z"), "2026-11-29T10:00:00.000Z")
        XCTAssertEqual(UTCTime.normalised("2026-11-29 10:00Z"), "2026-11-29T10:00:00.000Z")
        // No offset: the writer's local time in a zone it does not name, so no UTC time (it was taken as UTC, hours off).
        XCTAssertNil(UTCTime.normalised("2026-11-29T10:00:00"))
        XCTAssertNil(UTCTime.normalised("2026-11-29 10:00"))
        XCTAssertEqual(UTCTime.milliseconds("2026-11-29T10:00:01"), UTCTime.milliseconds("2026-11-29T10:00:00")! + 1000,
                       "still comparable with a time written the same way (the parts of one session)")
        for bad in ["", "yesterday", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-11-29T10:00:00+8", "2026-11-29T10:00:00Zjunk"] {
            XCTAssertNil(UTCTime.normalised(bad), bad)
        }
        var r = TriageRow(path: "x")
        r.startedAt = "2026-11-30T01:30:00+08:00"
        r.startedAtUTC = UTCTime.normalised(r.startedAt!)
        XCTAssertEqual(r.day, "2026-11-30", "day: the date as written (rtctrace.triage/1)")
        XCTAssertEqual(r.dayUTC, "2026-11-29")
    }

    /// A header's `startedAt` without a zone gives a row with `startedAt` and `day` as written and no
    /// `startedAtUtc` or `dayUtc`: they were the local time read as UTC, silently wrong by the offset.
    func test_aStartWithoutAZoneHasNoUTCTimeInTheRow() throws {
        let source = try String(contentsOfFile: Self.root + "/traces/srtc-setroute-before-join.jsonl", encoding: .utf8)
        var lines = source.split(separator: "\n").map(String.init)
        let header = try XCTUnwrap(lines.first)
        let start = try XCTUnwrap(header.range(of: #""startedAt":"[^"]*""#, options: .regularExpression))
        lines[0] = header.replacingCharacters(in: start, with: #""startedAt":"2026-11-29T23:30:00""#)
        let path = NSTemporaryDirectory() + "/zoneless-\(UUID().uuidString).jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = Triage.row(for: TraceSession(paths: [path], size: 1))
        XCTAssertEqual(r.startedAt, "2026-11-29T23:30:00")
        XCTAssertEqual(r.day, "2026-11-29", "the date as written")
        XCTAssertNil(r.startedAtUTC)
        XCTAssertNil(r.dayUTC)
        let json = TriageRowJSON.render(r)
        XCTAssertTrue(json.contains(#""startedAtUtc":null,"day":"2026-11-29","dayUtc":null"#), json)
    }

    func test_streamedSHA256() {
        XCTAssertEqual(SHA256.hex(SHA256.hash(Array("abc".utf8))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(SHA256.hash([])), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let long = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var h = SHA256.Hasher()
        for chunk in stride(from: 0, to: long.count, by: 37) { h.update(long[chunk..<min(chunk + 37, long.count)]) }
        XCTAssertEqual(h.finish(), SHA256.hash(long), "pieces of any size give the digest of the whole")
        XCTAssertEqual(SHA256.hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    // MARK: - Regressions and clusters

    func test_twoProportionTest() {
        XCTAssertEqual(TwoProportionTest.exp(1), 2.718281828459045, accuracy: 1e-15)
        XCTAssertEqual(TwoProportionTest.exp(-20), 2.061153622438558e-09, accuracy: 1e-22)
        XCTAssertEqual(TwoProportionTest.exp(-700) / 9.85967654375977e-305, 1, accuracy: 1e-12)
        XCTAssertEqual(TwoProportionTest.erfc(1.959963984540054 / 2.0.squareRoot()), 0.05, accuracy: 1e-7)
        XCTAssertEqual(TwoProportionTest.erfc(0), 1, accuracy: 1e-7)
        // Fisher's tea-tasting table: 3 of 4 against 1 of 4, two-sided p = 34/70.
        XCTAssertEqual(TwoProportionTest.fisherTwoSided(a: 3, n1: 4, k: 4, n: 8), 34.0 / 70.0, accuracy: 1e-12)
        let small = TwoProportionTest(tagged: 3, traces: 4, baselineTagged: 1, baselineTraces: 4)
        XCTAssertEqual(small.method, .fisher, "expected counts below 5")
        // 41 of 500 against 5 of 500: pooled p = 0.046, se = 0.013249, z = 0.072 / se = 5.4344, p = erfc(z/√2).
        let big = TwoProportionTest(tagged: 41, traces: 500, baselineTagged: 5, baselineTraces: 500)
        XCTAssertEqual(big.method, .z)
        XCTAssertEqual(big.z, 5.4344, accuracy: 1e-3)
        XCTAssertEqual(big.p, 5.50e-8, accuracy: 0.01e-8)
        XCTAssertEqual(TwoProportionTest(tagged: 50, traces: 500, baselineTagged: 50, baselineTraces: 500).p, 1, accuracy: 1e-9)
        XCTAssertEqual(TwoProportionTest(tagged: 0, traces: 10, baselineTagged: 0, baselineTraces: 10).p, 1)
        XCTAssertEqual(TriageSummaryReport.scientific(5.4989e-8), "5.5e-08")
        XCTAssertEqual(TriageSummaryReport.scientific(0.0042), "0.0042")
    }

    func test_previousVersionOfTheSameProduct() {
        let groups = ["SRTC 4.6.1", "SRTC 4.6.2", "SRTC 4.10.0", "SMeeting 3.2.0", "SMeeting 3.2.1", "iOS 17.4", "iOS 17.4.1", "weird"]
        XCTAssertEqual(TriageRegressions.previous(of: "SRTC 4.6.2", in: groups), "SRTC 4.6.1")
        XCTAssertEqual(TriageRegressions.previous(of: "SRTC 4.10.0", in: groups), "SRTC 4.6.2", "numeric, not text, order")
        XCTAssertNil(TriageRegressions.previous(of: "SRTC 4.6.1", in: groups))
        XCTAssertEqual(TriageRegressions.previous(of: "SMeeting 3.2.1", in: groups), "SMeeting 3.2.0")
        XCTAssertEqual(TriageRegressions.previous(of: "iOS 17.4.1", in: groups), "iOS 17.4")
        XCTAssertNil(TriageRegressions.previous(of: "weird", in: groups))
    }

    /// Rows of a fleet where every tag has the same rate everywhere (noise only), but for one planted
    /// difference: only the planted one is listed, and nothing at all without it.
    func test_onlyThePlantedRegressionIsListed() {
        func fleet(planted: Bool) -> TriageSummary {
            var rng = SplitMix64(seed: 2026)
            var s = TriageSummary()
            let noise: [(TriageTag, Int)] = [(.routeCallNotTakingEffect, 20), (.speakerBlockedByExternalDevice, 12), (.tookEffectLate, 15),
                                             (.routeRequestBeforeCall, 10), (.poorNetwork, 8), (.qualityFlapping, 3), (.sessionWrongMode, 1),
                                             (.routeDivergence, 4), (.callkitNoDidActivate, 2)]
            for (sdk, n) in [("SRTC 4.6.1", 2000), ("SRTC 4.6.2", 2000), ("SMeeting 3.2.0", 1500), ("SMeeting 3.2.1", 1500)] {
                for i in 0..<n {
                    var r = TriageRow(path: "\(sdk)-\(i)")
                    r.sdk = sdk
                    r.os = rng.pick(["iOS 16.7.2", "iOS 17.4.1", "iOS 17.5.1", "iOS 18.1"])
                    r.device = rng.pick(["iPhone13,3", "iPhone14,2", "iPhone15,2", "iPhone16,1", "iPhone12,1"])
                    var tags = Set<TriageTag>()
                    for (tag, percent) in noise where rng.below(1000) < percent * 10 { tags.insert(tag) }
                    let rate = planted && sdk == "SRTC 4.6.2" ? 82 : 10
                    if rng.below(1000) < rate { tags.insert(.interruptionNotRecovered) }
                    r.tags = tags.sorted()
                    s.add(r)
                }
            }
            return s
        }
        let regressions = fleet(planted: true).regressions
        XCTAssertEqual(regressions.entries.map { "\($0.dimension.rawValue) \($0.group) \($0.tag)" }, ["sdk SRTC 4.6.2 interruption-not-recovered"])
        let e = regressions.entries[0]
        XCTAssertEqual(e.baseline, .previousVersion("SRTC 4.6.1"))
        XCTAssertGreaterThan(e.test.rate, 0.06)
        XCTAssertLessThan(e.test.baselineRate, 0.02)
        XCTAssertGreaterThan(regressions.tests, 100, "every group against every tag is a test")
        XCTAssertEqual(fleet(planted: false).regressions.entries.map(\.tag), [], "noise alone lists nothing")
        let json = TriageSummaryReport.json(fleet(planted: true))
        XCTAssertTrue(json.contains(#""entries":[{"dimension":"sdk","group":"SRTC 4.6.2","tag":"interruption-not-recovered","baseline":"SRTC 4.6.1""#), json)
    }

    func test_duplicatesAreCountedOnce() {
        var s = TriageSummary()
        var a = TriageRow(path: "a"); a.tags = [.interruptionNotRecovered]; a.contentHash = "h"
        var b = a; b.path = "b"; b.markDuplicate(of: "a")
        XCTAssertEqual(b.tags, [.duplicateUpload, .interruptionNotRecovered])
        s.add(a); s.add(b)
        XCTAssertEqual(s.traces, 2)
        XCTAssertEqual(s.duplicates, 1)
        XCTAssertEqual(s.readable, 1)
        XCTAssertEqual(s.count(.interruptionNotRecovered), 1, "the duplicate's tags are not counted again")
        XCTAssertEqual(s.count(.duplicateUpload), 1)
        XCTAssertTrue(TriageSummaryReport.render(s).contains("1 duplicate upload (counted once)"))
    }

    /// A reader takes what a closed one left (its decompression context and buffers), and a replay the arena
    /// (buffers and symbol table) of one that finished: nothing of the trace read before shows in the next one's row. Each trace's row, triaged after another one, is the row it has
    /// when its reader's and its replay's are new, whatever was read before it (a long trace, a session's parts,
    /// a trace that gaps).
    func test_aTraceTriagedAfterAnotherHasTheRowItHasAlone() throws {
        let names = ["srtc-long-call-20min.jsonl.zst", "srtc-bluetooth-blocks-speaker.jsonl", "smeeting-quality-flapping.jsonl.zst",
                     "srtc-v4-x5-seq-gap-hides-headset.jsonl", "srtc-layer-switch-not-confirmed.trace.zst",
                     "smeeting-default-speaker-before-enter.jsonl", "smeeting-field-service-10min.jsonl.zst", "srtc-device-limit.jsonl.zst"]
        var traces = names.map { TraceSession(paths: [Self.root + "/traces/" + $0], size: 1) }
        let weekly = Self.root + "/traces/smeeting-session-weekly/"
        traces.append(TraceSession(paths: ["part-1.jsonl", "part-2.jsonl", "part-3.jsonl"].map { weekly + $0 }, id: "weekly", size: 3))
        var alone: [TriageRow] = []
        for t in traces {
            TraceReader.dropKeptBuffers()
            ReplayArenaPool.shared.drop()
            alone.append(Triage.row(for: t))
            XCTAssertGreaterThan(TraceReader.keptBuffers, 0, "the closed reader's buffers are kept for the next one")
            XCTAssertEqual(ReplayArenaPool.shared.count, 1, "the replay's arena is kept for the next one")
        }
        for a in traces.indices {
            for b in traces.indices where b != a {
                TraceReader.dropKeptBuffers()
                ReplayArenaPool.shared.drop()
                let first = Triage.row(for: traces[a])
                let between = Triage.row(for: traces[b])
                let again = Triage.row(for: traces[a])
                XCTAssertEqual(first, alone[a], "\(names.indices.contains(a) ? names[a] : "weekly")")
                XCTAssertEqual(between, alone[b], "\(names.indices.contains(b) ? names[b] : "weekly") after another")
                XCTAssertEqual(again, alone[a], "\(names.indices.contains(a) ? names[a] : "weekly") again")
            }
        }
    }
}
