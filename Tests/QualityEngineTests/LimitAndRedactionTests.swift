// The engine limits of contract v2 (trace.limitExceeded) and speakers.mismatch in traces redacted at the source.
import Contract
@testable import QualityEngine
import TestSupport
import TraceModel
import XCTest

final class LimitAndRedactionTests: XCTestCase {
    private func limitFinding(_ seq: Int, _ t: Int64) -> QualityOutput {
        .finding(Finding(code: .traceLimitExceeded, severity: .warning, rule: nil, seqs: [seq], t: t, message: "", advice: ""))
    }

    func test_finding_trace_limitExceeded_speakersBeyondTheLimitAreIgnored_oncePerLimit() {
        var engine = QualityEngine()
        _ = engine.apply(Record(seq: 0, t: 0, .header(TraceHeader(layer: .smeeting))))
        let full = (0..<QualityEngine.speakerLimit).map { speaker("m\($0)", "mic", 0.5) }
        engine.state.speakers = full.sorted(by: QualityEngine.speakerOrder)
        var out = engine.apply(Record(seq: 1, t: 10, .speakers(speaking: [speaker("late", "mic", 0.9), speaker("m7", "mic", 0.6)], stopped: [])))
        // The snapshot, its S3 window and the finding.
        XCTAssertEqual(out.count, 3)
        XCTAssertEqual(out[1], .timer(QualityTimer(due: 1011, kind: .snapshotWindow(snapshotSeq: 1))))
        XCTAssertEqual(out.last.map(QualityEngine.withoutProse), limitFinding(1, 10))
        XCTAssertEqual(engine.state.speakers.count, QualityEngine.speakerLimit, "the addition is ignored")
        XCTAssertFalse(engine.state.speakers.contains { $0.uid == "late" })
        XCTAssertEqual(engine.state.speakers.first?.uid, "m7", "updates of known speakers still apply")
        if case .finding(let f)? = out.last {
            XCTAssertTrue(f.message.contains("speakers") && !f.message.contains("channel"), f.message)
        }
        out = engine.apply(Record(seq: 2, t: 20, .speakers(speaking: [speaker("later", "mic", 0.9)], stopped: [])))
        XCTAssertEqual(out.count, 2, "raised once per limit: the snapshot and its S3 window only")
        XCTAssertTrue(engine.state.speakerLimitReported)
    }

    func test_finding_trace_limitExceeded_subscriptionsBeyondTheLimitAreIgnored() {
        var engine = QualityEngine()
        for i in 0..<QualityEngine.subscriptionLimit {
            engine.state.subscriptions[.init(pubUid: "u\(i)", trackId: "cam")] = .init(seq: 0, layers: ["h", "l"])
        }
        let out = engine.apply(Record(seq: 5, t: 50, .subscribe(pubUid: "new", trackId: "cam", layers: ["h"])))
        XCTAssertEqual(out.map(QualityEngine.withoutProse), [limitFinding(5, 50)])
        XCTAssertNil(engine.state.subscriptions[.init(pubUid: "new", trackId: "cam")])
        // Re-subscribing a known track is no addition.
        XCTAssertEqual(engine.apply(Record(seq: 6, t: 60, .subscribe(pubUid: "u1", trackId: "cam", layers: ["l"]))), [])
        XCTAssertEqual(engine.state.subscriptions[.init(pubUid: "u1", trackId: "cam")]?.layers, ["l"])
        XCTAssertEqual(engine.apply(Record(seq: 7, t: 70, .subscribe(pubUid: "new2", trackId: "cam", layers: ["h"]))), [])
    }

    /// A subscription keeps its candidates within a count and a size (the engine keeps 10,000 of them):
    /// 10,000 candidates of 100 bytes keep the first few, and a target beyond them is not judged out of range.
    func test_L2_aSubscriptionKeepsItsCandidatesWithinASize_andJudgesNoTargetBeyondThem() {
        let layers = (0..<10_000).map { "layer-\($0)-" + String(repeating: "x", count: 100) }
        let s = QualityEngine.Subscription(seq: 1, layers: layers)
        XCTAssertGreaterThan(s.layers.count, 0)
        XCTAssertLessThanOrEqual(s.layers.count, QualityEngine.Subscription.layerLimit)
        XCTAssertLessThanOrEqual(s.layers.reduce(0) { $0 + $1.utf8.count }, QualityEngine.Subscription.layerBytesLimit)
        XCTAssertEqual(s.layers, Array(layers.prefix(s.layers.count)))
        XCTAssertEqual(s.declared, 10_000)
        XCTAssertFalse(s.isComplete)

        func ineffective(_ out: [QualityOutput]) -> Bool {
            out.contains { if case .verdict(let v) = $0 { return v.verdict == .ineffective && v.cause == .targetNotInCandidates }; return false }
        }
        var engine = QualityEngine()
        engine.state.vendor = .seaStart
        engine.state.transport = .connected
        let key = QualityEngine.TrackKey(pubUid: "p", trackId: "cam")
        engine.state.subscriptions[key] = s
        XCTAssertFalse(ineffective(engine.apply(Record(seq: 2, t: 20, .switchLayer(pubUid: "p", trackId: "cam", targetTrackId: layers[9_999])))))
        engine.state.subscriptions[key] = .init(seq: 3, layers: ["cam_h", "cam_l"])
        XCTAssertTrue(ineffective(engine.apply(Record(seq: 4, t: 40, .switchLayer(pubUid: "p", trackId: "cam", targetTrackId: "cam_m")))))
    }

    func test_S2_redactedAtTheSourceIgnoresTheOrderOfEqualLevels() {
        let tied = [speaker("tok-b", "mic", 0.5), speaker("tok-a", "mic", 0.5), speaker("tok-c", "mic", 0.2)]
        let derived = tied.sorted(by: QualityEngine.speakerOrder)
        let plain = TestStore()
        plain.send(10, .speakers(speaking: tied, stopped: []), [.snapshot(derived), .timer(snapshotTimer(1, 1011))]) { $0.speakers = derived; $0.speakersSeq = 1 }
        plain.send(20, .sdkActiveSpeakers(speakers: tied), [finding("speakers.mismatch", "S2", [2, 1], 20)]) {
            $0.seen.activeSpeakers = true
        }

        let redacted = TestStore()
        redacted.send(1, .header(TraceHeader(layer: .srtc, redacted: .source))) { $0.tieOrderUnknown = true }
        redacted.send(10, .speakers(speaking: tied, stopped: []), [.snapshot(derived), .timer(snapshotTimer(2, 1011))]) { $0.speakers = derived; $0.speakersSeq = 2 }
        redacted.send(20, .sdkActiveSpeakers(speakers: tied)) { $0.seen.activeSpeakers = true }
        // Different levels still keep their order; a missing or extra speaker is still a mismatch.
        let swapped = [tied[2], tied[0], tied[1]]
        redacted.send(30, .sdkActiveSpeakers(speakers: swapped), [finding("speakers.mismatch", "S2", [4, 2], 30)])
        redacted.send(40, .sdkActiveSpeakers(speakers: Array(tied.prefix(2))), [finding("speakers.mismatch", "S2", [5, 2], 40)])
        XCTAssertTrue(QualityEngine.sameSnapshot(tied, derived, ignoringTieOrder: true))
        XCTAssertFalse(QualityEngine.sameSnapshot([tied[0], tied[2], tied[1]], derived, ignoringTieOrder: true))
    }
}
