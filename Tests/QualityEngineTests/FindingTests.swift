// One test per finding code the quality engine owns.
@testable import QualityEngine
import TestSupport
import TraceModel
import XCTest

final class FindingTests: XCTestCase {
    func test_quality_spuriousChange_oneToOneWithinTheWindowBefore() {
        let store = TestStore()
        store.reportChange(1000, .good, .good)                                       // seq 1
        // Matches the derived change (same previous and overall) 1000 ms later: inclusive.
        store.send(2000, .sdkQualityChanged(overall: .good, previous: .unknown, mos: nil)) {
            $0.seen.qualityChanged = true
            $0.unmatchedChanges = []
        }
        // One-to-one: a second identical SDK event has nothing left to match.
        store.send(2000, .sdkQualityChanged(overall: .good, previous: .unknown, mos: nil),
                   [finding("quality.spuriousChange", "Q2", [3, 1], 2000)])
        // Wrong previous level: spurious even though a good → poor change is derived right here.
        store.reportChange(3000, .poor, .good)                                       // seq 4
        store.send(3000, .sdkQualityChanged(overall: .poor, previous: .excellent, mos: nil),
                   [finding("quality.spuriousChange", "Q2", [5, 4], 3000)])
        store.send(3100, .sdkQualityChanged(overall: .poor, previous: .good, mos: nil)) { $0.unmatchedChanges = [] }
        // An SDK event arriving before the change it would match is not matched by it.
        store.send(5000, .sdkQualityChanged(overall: .good, previous: .poor, mos: nil),
                   [finding("quality.spuriousChange", "Q2", [7, 4], 5000)])
        store.reportChange(5001, .good, .good)                                       // seq 8
        XCTAssertEqual(store.findings.filter { $0.code == .qualitySpuriousChange }.count, 3)
    }

    func test_quality_missedChange_afterTheWindow_heldUntilTheKindIsSeen() {
        let store = TestStore()
        store.reportChange(1000, .good, .good)                                       // seq 1
        // The window closes before any sdk.qualityChanged exists: held, not reported yet.
        store.fire(matchTimer(1, 2001)) {
            $0.unmatchedChanges = []
            $0.heldMissed = [change(1, 1000, .unknown, .good)]
        }
        store.reportChange(3000, .poor, .good)                                       // seq 2
        // The first SDK event proves the kind is recorded: the held change is judged now; this one matches.
        store.send(3500, .sdkQualityChanged(overall: .poor, previous: .good, mos: nil),
                   [finding("quality.missedChange", "Q2", [1], 3500)]) {
            $0.seen.qualityChanged = true
            $0.heldMissed = []
            $0.unmatchedChanges = []
        }
        store.reportChange(4000, .good, .good)                                       // seq 4
        store.fire(matchTimer(4, 5001), [finding("quality.missedChange", "Q2", [4], 5001)]) {
            $0.unmatchedChanges = []
        }
        // A window the trace ends inside is not judged: the SDK's event may come after the recording stops.
        store.reportChange(6000, .lost, .lost)                                       // seq 5
        store.finish(6200) { $0.unmatchedChanges = [] }
        XCTAssertEqual(store.findings.filter { $0.seqs == [5] }, [])
    }

    func test_quality_missedChange_droppedWhenTheTraceHasNoSdkQualityChanged() {
        let store = TestStore()
        store.reportChange(1000, .good, .good)
        store.fire(matchTimer(1, 2001)) {
            $0.unmatchedChanges = []
            $0.heldMissed = [change(1, 1000, .unknown, .good)]
        }
        store.reportChange(3000, .poor, .good)
        store.finish(3500) {
            $0.unmatchedChanges = []
            $0.heldMissed = []
        }
        XCTAssertTrue(store.findings.isEmpty)
    }

    func test_quality_flapping_moreThanFourChangesIn30s_oncePerEpisode() {
        let store = TestStore()
        let levels: [QualityLevel] = [.good, .poor, .good, .poor]
        for (i, level) in levels.enumerated() { store.reportChange(Int64(i) * 7000, level, level) }  // seqs 1–4
        // The fifth change, at 28 s: more than four within 30 s is flapping.
        store.reportChange(28_000, .good, .good, extra: [finding("quality.flapping", "Q2", [5, 1, 2, 3, 4], 28_000)]) {
            $0.flapping = .init(startSeq: 1, startT: 0, endSeq: 5, endT: 28_000, changes: 5)
        }
        // Still within a window of the last change: the same episode, no new finding.
        store.reportChange(40_000, .poor, .poor) {
            $0.flapping = .init(startSeq: 1, startT: 0, endSeq: 6, endT: 40_000, changes: 6)
        }
        // After a calm window (> 30 s without a change) the episode ends; one change alone is not flapping.
        store.reportChange(80_000, .good, .good) { $0.flapping = nil }
        XCTAssertEqual(store.engine.summary.flappingEpisodeCount, 1)
        XCTAssertEqual(store.engine.summary.flappingEpisodes,
                       [.init(startSeq: 1, startT: 0, endSeq: 6, endT: 40_000, changes: 6)])
        // Five changes spread over more than 30 s are not flapping.
        let calm = TestStore()
        for i in 0..<5 { calm.reportChange(Int64(i) * 7600, i % 2 == 0 ? .good : .poor, .good) }
        XCTAssertTrue(calm.findings.isEmpty)
    }

    func test_speakers_mismatch_comparesKeysInOrder() {
        let store = TestStore()
        store.send(100, .speakers(speaking: [speaker("a", "mic", 0.3), speaker("b", "mic", 0.6)], stopped: []),
                   [.snapshot([speaker("b", "mic", 0.6), speaker("a", "mic", 0.3)]), .timer(snapshotTimer(1, 1101))]) {
            $0.speakers = [speaker("b", "mic", 0.6), speaker("a", "mic", 0.3)]
            $0.speakersSeq = 1
        }
        // Same keys, same order, different levels: not a mismatch (levels are not compared).
        store.send(110, .sdkActiveSpeakers(speakers: [speaker("b", "mic", 0.5), speaker("a", "mic", 0.1)])) {
            $0.seen.activeSpeakers = true
        }
        // Same keys, wrong order: a mismatch.
        store.send(120, .sdkActiveSpeakers(speakers: [speaker("a", "mic", 0.3), speaker("b", "mic", 0.6)]),
                   [finding("speakers.mismatch", "S2", [3, 1], 120)])
        // The SDK kept a speaker the server said stopped.
        store.send(200, .speakers(speaking: [], stopped: [key("a", "mic")]), [.snapshot([speaker("b", "mic", 0.6)]), .timer(snapshotTimer(4, 1201))]) {
            $0.speakers = [speaker("b", "mic", 0.6)]
            $0.speakersSeq = 4
        }
        store.send(210, .sdkActiveSpeakers(speakers: [speaker("b", "mic", 0.6), speaker("a", "mic", 0.3)]),
                   [finding("speakers.mismatch", "S2", [5, 4], 210)])
        XCTAssertTrue(store.findings.last!.message.contains("[b/mic, a/mic]"))
        XCTAssertTrue(store.findings.last!.message.contains("derives [b/mic]"))
    }

    func test_layer_targetNotInCandidates_namesTheSubscribe() {
        let store = TestStore(layer: .smeeting)
        store.send(0, .connState(state: .connected)) { $0.transport = .connected; $0.transportSeq = 1; $0.connectedBefore = true }
        store.send(0, .subscribe(pubUid: "p", trackId: "cam", layers: ["cam_h", "cam_m"])) {
            $0.subscriptions[.init(pubUid: "p", trackId: "cam")] = .init(seq: 2, layers: ["cam_h", "cam_m"])
        }
        store.send(500, .switchLayer(pubUid: "p", trackId: "cam", targetTrackId: "cam_l"),
                   [switchVerdict(3, 500, .ineffective, .targetNotInCandidates, causeSeq: 2, rule: .L2),
                    finding("layer.targetNotInCandidates", "L2", [3, 2], 500, call: 3)]) { $0.lastSwitchCall = 3 }
        let f = store.findings[0]
        XCTAssertTrue(f.message.contains("[cam_h, cam_m]") && f.message.contains("seq 2"))
        XCTAssertTrue(f.advice.contains("member"))
    }

    func test_layer_switchNotConfirmed_timeoutSupersedeErrorAndEnd() {
        let store = TestStore()
        store.send(0, .connState(state: .connected)) { $0.transport = .connected; $0.transportSeq = 1; $0.connectedBefore = true }
        let cam = QualityEngine.TrackKey(pubUid: "p", trackId: "cam")
        store.send(100, .switchLayer(pubUid: "p", trackId: "cam", targetTrackId: "l"),
                   [switchVerdict(2, 100, .applied, rule: .V1), .timer(confirmTimer(2, 3101))]) {
            $0.lastSwitchCall = 2
            $0.pendingSwitches = [.init(seq: 2, t: 100, key: cam, target: "l", deadline: 3100)]
        }
        store.fire(confirmTimer(2, 3101), [finding("layer.switchNotConfirmed", "L3", [2], 3101)]) {
            $0.pendingSwitches = []
        }
        // A newer request for the same track supersedes the older one.
        store.send(4000, .switchLayer(pubUid: "p", trackId: "cam", targetTrackId: "l"),
                   [switchVerdict(3, 4000, .applied, rule: .V1), .timer(confirmTimer(3, 7001))]) {
            $0.lastSwitchCall = 3
            $0.pendingSwitches = [.init(seq: 3, t: 4000, key: cam, target: "l", deadline: 7000)]
        }
        store.send(4100, .switchLayer(pubUid: "p", trackId: "cam", targetTrackId: "h"),
                   [switchVerdict(4, 4100, .applied, rule: .V1), .timer(confirmTimer(4, 7101))]) {
            $0.lastSwitchCall = 4
            $0.pendingSwitches = [.init(seq: 4, t: 4100, key: cam, target: "h", deadline: 7100)]
        }
        store.fire(confirmTimer(3, 7001))
        // The call threw (an sdk.error other than L4's webrtcError): nothing was sent, so nothing is expected.
        store.send(4110, .sdkError(api: "switchLayer", error: "invalidParameter")) {
            $0.seen.error = true
            $0.pendingSwitches = []
        }
        store.fire(confirmTimer(4, 7101))
        // Still pending when the trace ends inside its window: not judged.
        store.send(8000, .switchLayer(pubUid: "p", trackId: "cam", targetTrackId: "l"),
                   [switchVerdict(6, 8000, .applied, rule: .V1), .timer(confirmTimer(6, 11001))]) {
            $0.lastSwitchCall = 6
            $0.pendingSwitches = [.init(seq: 6, t: 8000, key: cam, target: "l", deadline: 11000)]
        }
        store.finish(8500) { $0.pendingSwitches = [] }
        XCTAssertFalse(store.findings.contains { $0.seqs == [6] })
        XCTAssertTrue(store.findings.first!.message.contains("within 3.000s"))
    }
}
