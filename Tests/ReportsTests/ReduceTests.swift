import Analysis
import Foundation
import Replay
import TestSupport
import TraceCodec
import TraceModel
import XCTest

final class ReduceTests: XCTestCase {
    /// Runs the built `rtctrace`; returns its exit status and standard output.
    func run(_ args: [String]) -> (Int32, String) {
        let r = CLI.run(args)
        return (r.status, r.out)
    }

    func test_X2_longTraceWithOneUnexplainedDivergence_reducesToAFewRecordsThatCheckPasses() throws {
        let (recs, keySeq) = Fixtures.longCallWithOneDivergence()
        let original = Replay.run(records: recs)
        XCTAssertGreaterThan(recs.count, 600)
        XCTAssertEqual(original.divergences.count, 1)
        XCTAssertEqual(original.divergences.first?.explained, false)
        XCTAssertEqual(original.divergences.first?.actualSeq, keySeq)

        let dir = Fixtures.tempDir()
        let input = dir + "/long.trace.zst", output = dir + "/min.trace.zst"
        try Fixtures.write(recs, input)
        let (rc, out) = run(["reduce", input, "--divergence", "--keep-personal-data", "-o", output])
        XCTAssertEqual(rc, 0, out)
        let reduced = try TraceFiles.load(output)
        let kept = reduced.filter { if case .expect = $0.body { return false }; return true }
        XCTAssertLessThanOrEqual(kept.count, 11, "at most 10 records plus the header: \(reduced.map(\.jsonLine))")
        XCTAssertEqual(kept.first?.type, "trace.header")
        XCTAssertEqual(reduced.map(\.seq), Array(0..<reduced.count))
        XCTAssertTrue(reduced.contains { $0.type == "expect.divergences" })
        XCTAssertTrue(reduced.contains { if case .expect(let e) = $0.body, case .finding(.routeDivergence, 1) = e.kind { return true }; return false })

        // rtctrace check passes on it: its pins hold.
        let (checkStatus, checkOut) = run(["check", output])
        XCTAssertEqual(checkStatus, 0, checkOut)
        let replayed = Replay.run(records: reduced)
        XCTAssertEqual(replayed.failedExpectations.map(\.type), [])
        let divergence = try XCTUnwrap(replayed.divergences.first)
        XCTAssertFalse(divergence.explained)
        XCTAssertEqual(divergence.predicted, .speaker)
        XCTAssertEqual(divergence.actual, .receiver)

        // Without its key record (the route change the contract cannot explain) it no longer shows it.
        let key = try XCTUnwrap(divergence.actualSeq)
        XCTAssertEqual(reduced[key].body, recs[keySeq].body)
        let withoutKey = Replay.run(records: reduced.filter { $0.seq != key })
        XCTAssertEqual(withoutKey.divergences.count, 0)
        XCTAssertFalse(withoutKey.failedExpectations.isEmpty, "check fails without the key record")
        // The divergence is the original one: the same records set the prediction and the actual route.
        XCTAssertEqual(divergence.predictedSeq.map { reduced[$0].body }, original.divergences[0].predictedSeq.map { recs[$0].body })
    }

    func test_reduce_finding_keepsTheSameCause() throws {
        let recs = try TraceFiles.load(Fixtures.trace("srtc-bluetooth-blocks-speaker.jsonl"))
        let result = try Reducer(records: recs, options: ReduceOptions(goal: .finding(.routeIneffective))).run()
        XCTAssertEqual(result.records.map(\.type), ["trace.header", "api.joinChannel", "os.deviceConnected", "api.setRoute", "expect.finding"])
        let replayed = Replay.run(records: result.records)
        XCTAssertEqual(replayed.failedExpectations.count, 0)
        XCTAssertEqual(replayed.verdicts.first?.cause, .externalRouteActive)
        XCTAssertEqual(replayed.verdicts.first?.causeSeq, 2)
    }

    func test_reduce_expectFail_keepsTheFailingExpectation() throws {
        var recs = try TraceFiles.load(Fixtures.trace("srtc-bluetooth-blocks-speaker.jsonl"))
        // Pretend the contract said the speaker request applies: this expectation fails.
        recs[22].body = .expect(Expectation(.verdict(ref: 20, verdict: .applied, cause: nil), rule: .V1))
        let result = try Reducer(records: recs, options: ReduceOptions(goal: .expectFail)).run()
        let replayed = Replay.run(records: result.records)
        XCTAssertEqual(replayed.failedExpectations.count, 1)
        let failing = try XCTUnwrap(replayed.failedExpectations.first)
        XCTAssertEqual(failing.type, "expect.verdict")
        XCTAssertLessThanOrEqual(result.records.count, 6)
        guard case .expect(let e) = result.records[failing.seq].body, case .verdict(let ref, _, _) = e.kind else {
            return XCTFail("the failing record is the expect.verdict")
        }
        XCTAssertEqual(result.records[ref].type, "api.setRoute", "its ref follows the renumbering")
    }

    func test_reduce_stopsAtTheReplayBound_withATraceThatStillShowsIt() throws {
        let (recs, _) = Fixtures.longCallWithOneDivergence(minutes: 6)
        let result = try Reducer(records: recs, options: ReduceOptions(goal: .divergence, maxReplays: 12)).run()
        XCTAssertTrue(result.hitReplayBound)
        XCTAssertLessThanOrEqual(result.replays, 14, "the bound plus the final verification")
        XCTAssertEqual(Replay.run(records: result.records).failedExpectations.count, 0)
    }

    func test_reduce_refusesATraceWithoutTheProblem() {
        let recs = Fixtures.records([(1000, .joinChannel(channel: "c"))])
        XCTAssertThrowsError(try Reducer(records: recs, options: ReduceOptions(goal: .divergence)).run()) { e in
            XCTAssertTrue("\(e)".contains("no route divergence"))
        }
    }

    /// A record of a type this version does not know is renumbered and retimed like the others, so the
    /// reduced trace passes `check` (its line used to keep the original seq and t).
    func test_reduce_renumbersAndRetimesUnknownRecords() throws {
        var recs = try TraceFiles.load(Fixtures.trace("srtc-bluetooth-blocks-speaker.jsonl"))
            .filter { if case .expect = $0.body { return false }; return true }
        recs.insert(Record(seq: 0, t: recs[2].t,
                           .unknown(type: "app.note", json: "{\"seq\":697,\"t\":232600,\"type\":\"app.note\",\"x\":1}")), at: 3)
        recs = recs.enumerated().map { Record(seq: $0.offset, t: $0.element.t, $0.element.body) }
        if case .unknown(let type, let json) = recs[3].body {
            recs[3].body = .unknown(type: type, json: json.replacingOccurrences(of: "697", with: "3"))
        }
        let result = try Reducer(records: recs, options: ReduceOptions(goal: .finding(.routeIneffective))).run()
        for r in result.records {
            guard case .unknown(_, let json) = r.body else { continue }
            XCTAssertTrue(json.contains("\"seq\":\(r.seq),"), json)
            XCTAssertTrue(json.contains("\"t\":\(r.t),"), json)
        }
        let dir = Fixtures.tempDir()
        try TraceFiles.write(result.records, to: dir + "/min.trace.zst")
        let back = try Replay.run(TraceSession(path: dir + "/min.trace.zst"))
        XCTAssertEqual(back.problemCount, 0, "\(back.problems)")
        XCTAssertEqual(back.failedExpectations.count, 0)
    }

    /// The most severe occurrence is kept by default (a warning, not an info-level deferral), and
    /// `seq` picks another.
    func test_reduce_keepsTheMostSevereOccurrence_orTheOneAsked() throws {
        let recs = Fixtures.records([
            (500, .setRoute(target: .speaker, api: nil)),                 // seq 1: deferred (info)
            (1000, .joinChannel(channel: "c")),
            (1100, .micPermission(status: .granted)),
            (2000, .deviceConnected(id: "bt", kind: .bluetooth, name: nil, port: "BluetoothHFP")),
            (3000, .setRoute(target: .earpiece, api: nil)),               // seq 5: ineffective (warning)
        ])
        let severe = try Reducer(records: recs, options: ReduceOptions(goal: .finding(.routeIneffective))).run()
        XCTAssertTrue(severe.problem.contains("seq 5"), severe.problem)
        let first = try Reducer(records: recs, options: ReduceOptions(goal: .finding(.routeIneffective), seq: 1)).run()
        XCTAssertTrue(first.problem.contains("seq 1"), first.problem)
        XCTAssertThrowsError(try Reducer(records: recs, options: ReduceOptions(goal: .finding(.routeIneffective), seq: 3)).run())
    }

    /// The result is meant for a repository: personal values are replaced unless asked not to.
    func test_reduce_redactsByDefault() throws {
        let (recs, secrets) = RedactTests.personalTrace()
        let redacted = try Reducer(records: recs, options: ReduceOptions(goal: .finding(.routeIneffective))).run()
        let text = redacted.records.map(\.jsonLine).joined(separator: "\n")
        for s in secrets { XCTAssertFalse(text.contains(s), "\(s) in the reduction") }
        XCTAssertTrue(text.contains("\"redacted\":\"redact\""))
        let kept = try Reducer(records: recs, options: ReduceOptions(goal: .finding(.routeIneffective), redact: false)).run()
        XCTAssertTrue(kept.records.map(\.jsonLine).joined().contains("Carol's AirPods Pro"))
    }

    /// A speaker mismatch after a reconnect keeps the reconnect that should have cleared the cache (Q4).
    func test_reduce_keepsTheReconnectBeforeAStaleSpeakerCache() throws {
        let alice = Speaker(uid: "a", trackId: "t", level: 0.5)
        let recs = Fixtures.records([
            (1000, .joinChannel(channel: "c")), (1100, .connState(state: .connected)),
            (2000, .speakers(speaking: [alice], stopped: [])), (2010, .sdkActiveSpeakers(speakers: [alice])),
            (3000, .connState(state: .reconnecting)), (4000, .connState(state: .connected)),
            (4100, .sdkActiveSpeakers(speakers: [alice])),
        ])
        let result = try Reducer(records: recs, options: ReduceOptions(goal: .finding(.speakersMismatch))).run()
        let states = result.records.compactMap { if case .connState(let s) = $0.body { return s } else { return nil } }
        XCTAssertEqual(states, [.connected, .reconnecting, .connected], result.records.map(\.jsonLine).joined(separator: "\n"))
    }

    func test_reduce_unknownFindingCodeIsAUsageErrorListingTheCodes() throws {
        let r = CLI.run(["reduce", Fixtures.trace("srtc-bluetooth-blocks-speaker.jsonl"), "--finding", "route.nope", "-o",
                         Fixtures.tempDir() + "/x.zst"])
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.err.contains("route.ineffective") && r.err.contains("speakers.mismatch"), r.err)
    }
}
