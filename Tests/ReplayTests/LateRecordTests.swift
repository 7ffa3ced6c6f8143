import Contract
import Replay
import TestSupport
import TraceCodec
import TraceModel
import XCTest

/// Records marked `late` (trace format version 4: made at their `t`, written after later ones, within the
/// match window) are replayed in time order, so that a trace written that way says what the same trace
/// written in order says.
final class LateRecordTests: XCTestCase {
    private let voice = SessionActivation(ok: true, category: "playAndRecord", mode: "voiceChat",
                                          options: ["allowBluetooth"])

    /// A meeting interrupted at 8 s (the SDK's interrupted callback at 8.010 s), a speaker tap deferred
    /// meanwhile, recovered at 14 s.
    private func interrupted() -> TraceBuilder {
        var b = TraceBuilder(.smeeting)
        b.add(1000, .enterMeeting(room: "r"))
        b.add(1035, .micPermission(status: .granted))
        b.add(1060, .sessionActivated(voice))
        b.add(1075, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange))
        b.add(8000, .interruptionBegan(cause: .otherApp, wasSuspended: nil))
        b.add(8010, .sdkInterrupted)
        b.add(8500, .micPermission(status: .granted))
        b.add(9500, .setRoute(target: .speaker, api: nil))
        b.add(14000, .interruptionEnded(shouldResume: true))
        b.add(14030, .sessionActivated(voice))
        b.add(14060, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .override))
        b.add(14070, .sdkRecovered)
        b.add(20000, .exitMeeting)
        return b
    }

    /// The records of `b` written in the order `order` gives (indices into its records), numbered afresh in
    /// that order, those written after a later `t` marked late.
    private func written(_ b: TraceBuilder, _ order: [Int]) -> [Record] {
        var latest = Int64.min
        return order.enumerated().map { seq, i in
            var r = b.records[i]
            r.seq = seq
            r.late = r.t < latest
            latest = max(latest, r.t)
            return r
        }
    }

    /// What a reader is told, seqs aside: verdicts, outcomes, findings and divergences.
    private func summary(_ r: ReplayResult) -> [String] {
        r.verdicts.map { "\($0.call) \($0.verdict) \(String(describing: $0.cause)) \(String(describing: $0.outcome?.kind))" }
            + r.findings.map { "\($0.code) \(String(describing: $0.rule)) \($0.t)" }.sorted()
            + ["divergences \(r.divergenceCount) unexplained \(r.unexplainedDivergenceCount)"]
    }

    func test_aLateInterruptionWrittenAfterTheCallbackReplaysAsIfWrittenInOrder() throws {
        let b = interrupted()
        let began = b.records.firstIndex { $0.body.kind == .interruptionBegan }!
        // The interruption is written after the SDK's callback and the record after it, marked late.
        var order = Array(b.records.indices)
        order.remove(at: began)
        order.insert(began, at: began + 2)
        let late = written(b, order)
        XCTAssertEqual(late.filter(\.late).map(\.t), [8000])
        let inOrder = Replay.run(records: b.records), replayed = Replay.run(records: late)
        XCTAssertFalse(inOrder.findings.contains { $0.code == .interruptionNoInterruptedCallback })
        XCTAssertEqual(summary(replayed), summary(inOrder))
        // The seqs stay as written: the deferred call names the interruption by its own seq.
        let deferred = try XCTUnwrap(replayed.verdicts.first { $0.verdict == .deferred })
        XCTAssertEqual(deferred.causeSeq, late.first { $0.late }?.seq)

        // Read from a file, through the reader's batches, the same.
        let dir = Fixtures.tempDir("late")
        let path = dir + "/late.jsonl"
        var file = b
        file.records = late
        try file.write(to: path)
        XCTAssertEqual(summary(try Replay.run(TraceSession(path: path))), summary(inOrder))
    }

    func test_withoutOrderingTheLateInterruptionWouldReadAsAMissingCallback() {
        // The guard on the test above: the same records with the late mark dropped and their times kept in
        // the order written (the interruption moved after the callback) do raise I14's finding.
        var b = interrupted()
        let began = b.records.firstIndex { $0.body.kind == .interruptionBegan }!
        b.records[began].t = 8600
        b.records.sort { $0.t < $1.t }
        for i in b.records.indices { b.records[i].seq = i }
        XCTAssertTrue(Replay.run(records: b.records).findings.contains { $0.code == .interruptionNoInterruptedCallback })
    }

    func test_recordsOfOneMsKeepTheirOrderAndSdkRecordsComeAfterTheOthers() {
        var b = interrupted()
        // Two records at 8010 beside the callback: the callback is taken after both, whatever the writing order.
        let cb = b.records.firstIndex { $0.body.kind == .sdkInterrupted }!
        b.records.insert(Record(seq: 0, t: 8010, .micPermission(status: .granted)), at: cb + 1)
        b.records.insert(Record(seq: 0, t: 8010, .routeSnapshot(route: .receiver, ports: ["Receiver"])), at: cb + 2)
        for i in b.records.indices { b.records[i].seq = i }
        var kinds: [(Int, RecordKind?)] = []
        let replayer = Replayer(file: "<memory>")
        replayer.observer = { step in if let r = step.record { kinds.append((r.seq, r.body.kind)) } }
        for r in b.records { replayer.feed(r) }
        _ = replayer.finish()
        let at8010 = kinds.filter { s in b.records[s.0].t == 8010 }
        XCTAssertEqual(at8010.map(\.0), [cb + 1, cb + 2, cb], "other records in writing order, then the SDK's")
        XCTAssertEqual(kinds.map(\.0).filter { b.records[$0].t != 8010 }, b.records.indices.filter { b.records[$0].t != 8010 })
    }

    func test_aLongDenseTraceWithALateRecordNearTheEndReplaysItInOrder() {
        // A record a ms for 20 s (many windows, more than the held cap), then the interruption of
        // the first test written late: the records held stay bounded and the late one still goes first.
        var b = TraceBuilder(.smeeting)
        b.add(1000, .enterMeeting(room: "r"))
        b.add(1035, .micPermission(status: .granted))
        b.add(1060, .sessionActivated(voice))
        for t in stride(from: Int64(1100), to: 21_000, by: 1) where t % 100 != 0 {
            b.add(t, .routeSnapshot(route: .receiver, ports: ["Receiver"]))
        }
        b.add(21_000, .interruptionBegan(cause: .otherApp, wasSuspended: nil))
        b.add(21_010, .sdkInterrupted)
        b.add(21_300, .micPermission(status: .granted))
        let began = b.records.firstIndex { $0.body.kind == .interruptionBegan }!
        var order = Array(b.records.indices)
        order.remove(at: began)
        order.insert(began, at: began + 2)
        let late = written(b, order)
        XCTAssertEqual(late.filter(\.late).count, 1)
        let inOrder = Replay.run(records: b.records), replayed = Replay.run(records: late)
        XCTAssertEqual(summary(replayed), summary(inOrder))
        XCTAssertFalse(replayed.findings.contains { $0.code == .interruptionNoInterruptedCallback })
    }
}
