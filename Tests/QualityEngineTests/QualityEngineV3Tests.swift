// Contract v3's quality and speaker rules: Q7 (what a reconnect is) and S3 (snapshots are not skipped).
@testable import QualityEngine
import TestSupport
import TraceModel
import XCTest

final class QualityEngineV3Tests: XCTestCase {
    func test_Q7_connectedAfterAnyOtherState_onceConnectedBefore_isAReconnect() {
        let store = TestStore()
        store.send(100, .connState(state: .connected)) { $0.transport = .connected; $0.transportSeq = 1; $0.connectedBefore = true }
        store.reportChange(1000, .good, .good)                                           // seq 2
        // A leave and a later join take the transport through disconnected and connecting: one reconnect.
        store.send(2000, .connState(state: .disconnected)) { $0.transport = .disconnected; $0.transportSeq = 3 }
        store.send(2500, .connState(state: .connecting)) { $0.transport = .connecting; $0.transportSeq = 4 }
        XCTAssertEqual(store.engine.state.latest?.overall, .good, "the cache is cleared at the reconnect, not before")
        store.send(3000, .connState(state: .connected)) {
            $0.transport = .connected; $0.transportSeq = 5; $0.latest = nil; $0.baseline = .unknown
        }
        store.reportChange(4000, .good, .good)                                           // unknown → good again
        XCTAssertEqual(store.engine.state.changes.map(\.previous), [.unknown, .unknown])
        XCTAssertEqual(store.engine.summary.reconnects, 1)
    }

    func test_Q7_aRepeatedConnectedIsNone_norAFirstConnectedAfterReconnecting() {
        let store = TestStore()
        // Never connected before in the trace: not a reconnect, whatever came before.
        store.send(100, .connState(state: .reconnecting)) { $0.transport = .reconnecting; $0.transportSeq = 1 }
        store.reportChange(200, .poor, .good)                                            // seq 2
        store.send(300, .connState(state: .connected)) { $0.transport = .connected; $0.transportSeq = 3; $0.connectedBefore = true }
        store.send(400, .connState(state: .connected)) { $0.transportSeq = 4 }           // repeated
        XCTAssertEqual(store.engine.state.latest?.overall, .poor)
        XCTAssertEqual(store.engine.summary.reconnects, 0)
    }

    func test_Q7_theClearingAtAReconnectDerivesNoSnapshot() {
        let store = TestStore()
        store.send(0, .connState(state: .connected)) { $0.transport = .connected; $0.transportSeq = 1; $0.connectedBefore = true }
        store.send(1000, .speakers(speaking: [speaker("u2", "mic", 0.5)], stopped: []),
                   [.snapshot([speaker("u2", "mic", 0.5)]), .timer(snapshotTimer(2, 2001))]) {
            $0.speakers = [speaker("u2", "mic", 0.5)]; $0.speakersSeq = 2
        }
        store.send(1010, .sdkActiveSpeakers(speakers: [speaker("u2", "mic", 0.5)])) { $0.seen.activeSpeakers = true }
        store.send(2000, .connState(state: .reconnecting)) { $0.transport = .reconnecting; $0.transportSeq = 4 }
        // No snapshot output and no S3 window: the SDK owes no empty sdk.activeSpeakers for it.
        store.send(3000, .connState(state: .connected)) {
            $0.transport = .connected; $0.transportSeq = 5; $0.speakers = []; $0.speakersSeq = nil
        }
        store.fire(snapshotTimer(2, 2001))
        store.finish(8000)
        XCTAssertTrue(store.findings.isEmpty)
    }

    func test_R16_theQualityRulesApplyAsUsualOnMacOS() {
        let store = TestStore()
        store.send(1, .header(TraceHeader(layer: .srtc, device: .init(model: "Mac14,2", os: "macOS 14.5"))))
        store.reportChange(1000, .good, .excellent)                                      // seq 2
        store.send(2000, .speakers(speaking: [speaker("u1", "mic", 0.5)], stopped: []),
                   [.snapshot([speaker("u1", "mic", 0.5)]), .timer(snapshotTimer(3, 3001))]) {
            $0.speakers = [speaker("u1", "mic", 0.5)]; $0.speakersSeq = 3
        }
    }

    func test_S3_everyDerivedSnapshotMustBeAnswered_theEmptyOneIncluded_theWindowsEndInclusive() {
        let store = TestStore()
        store.send(1000, .speakers(speaking: [speaker("u1", "mic", 0.5)], stopped: []),
                   [.snapshot([speaker("u1", "mic", 0.5)]), .timer(snapshotTimer(1, 2001))]) {
            $0.speakers = [speaker("u1", "mic", 0.5)]; $0.speakersSeq = 1
        }
        store.send(2000, .sdkActiveSpeakers(speakers: [speaker("u1", "mic", 0.4)])) { $0.seen.activeSpeakers = true }   // t0 + W
        store.fire(snapshotTimer(1, 2001))
        // The event is not skipped when nobody speaks: the empty snapshot must come too.
        store.send(3000, .speakers(speaking: [], stopped: [key("u1", "mic")]), [.snapshot([]), .timer(snapshotTimer(3, 4001))]) {
            $0.speakers = []; $0.speakersSeq = 3
        }
        store.send(4000, .sdkLog(level: "info", message: "tick"))
        store.fire(snapshotTimer(3, 4001), [finding("speakers.missedSnapshot", "S3", [3], 4001)])
        // An answer after the window's end answers nothing (it equals the current snapshot: no mismatch either).
        store.send(4001, .sdkActiveSpeakers(speakers: []))
    }

    func test_S3_anUpdateThatChangesNothingStillDerives_andOneEqualAnswerAnswersEveryOneItEquals() {
        let store = TestStore(layer: .smeeting)
        store.send(3000, .speakers(speaking: [speaker("u1", "mic", 0.5)], stopped: []),
                   [.snapshot([speaker("u1", "mic", 0.5)]), .timer(snapshotTimer(1, 4001))]) {
            $0.speakers = [speaker("u1", "mic", 0.5)]; $0.speakersSeq = 1
        }
        store.send(3200, .speakers(speaking: [speaker("u1", "mic", 0.6)], stopped: []),
                   [.snapshot([speaker("u1", "mic", 0.6)]), .timer(snapshotTimer(2, 4201))]) {
            $0.speakers = [speaker("u1", "mic", 0.6)]; $0.speakersSeq = 2
        }
        store.send(4000, .sdkActiveSpeakers(speakers: [speaker("u1", "mic", 0.6)])) { $0.seen.activeSpeakers = true }
        store.fire(snapshotTimer(1, 4001))
        store.fire(snapshotTimer(2, 4201))
        XCTAssertTrue(store.findings.isEmpty)
    }

    func test_S3_aCoalescedAnswerAnswersOnlyTheSnapshotItEquals() {
        let store = TestStore()
        let u1 = speaker("u1", "mic", 0.5), u3 = speaker("u3", "mic", 0.3), u4 = speaker("u4", "mic", 0.9)
        store.send(6000, .speakers(speaking: [u1, u3], stopped: []), [.snapshot([u1, u3]), .timer(snapshotTimer(1, 7001))]) {
            $0.speakers = [u1, u3]; $0.speakersSeq = 1
        }
        store.send(6050, .speakers(speaking: [u4], stopped: []), [.snapshot([u4, u1, u3]), .timer(snapshotTimer(2, 7051))]) {
            $0.speakers = [u4, u1, u3]; $0.speakersSeq = 2
        }
        store.send(6060, .sdkActiveSpeakers(speakers: [u4, u1, u3])) { $0.seen.activeSpeakers = true }
        store.fire(snapshotTimer(1, 7001), [finding("speakers.missedSnapshot", "S3", [1], 7001)])
        store.fire(snapshotTimer(2, 7051))
    }

    func test_S3_anAnswerThatRaisedMismatchAnswersEveryUnansweredSnapshotInItsWindow() {
        let store = TestStore()
        let u1 = speaker("u1", "mic", 0.9), u2 = speaker("u2", "mic", 0.4)
        store.send(3000, .speakers(speaking: [u1], stopped: []), [.snapshot([u1]), .timer(snapshotTimer(1, 4001))]) {
            $0.speakers = [u1]; $0.speakersSeq = 1
        }
        store.send(3010, .speakers(speaking: [u2], stopped: []), [.snapshot([u1, u2]), .timer(snapshotTimer(2, 4011))]) {
            $0.speakers = [u1, u2]; $0.speakersSeq = 2
        }
        // A wrong snapshot is reported once, as the mismatch.
        store.send(3020, .sdkActiveSpeakers(speakers: [u2, u1]), [finding("speakers.mismatch", "S2", [3, 2], 3020)]) {
            $0.seen.activeSpeakers = true
        }
        store.fire(snapshotTimer(1, 4001))
        store.fire(snapshotTimer(2, 4011))
    }

    func test_S3_heldUntilTheTracesFirstActiveSpeakers_andRaisedThenWithItsTime() {
        let store = TestStore(layer: .smeeting)
        let u1 = speaker("u1", "mic", 0.5), u3 = speaker("u3", "mic", 0.3)
        store.send(2000, .speakers(speaking: [u1], stopped: []), [.snapshot([u1]), .timer(snapshotTimer(1, 3001))]) {
            $0.speakers = [u1]; $0.speakersSeq = 1
        }
        store.fire(snapshotTimer(1, 3001))                                               // held: no sdk.activeSpeakers yet
        store.send(6000, .speakers(speaking: [u3], stopped: []), [.snapshot([u1, u3]), .timer(snapshotTimer(2, 7001))]) {
            $0.speakers = [u1, u3]; $0.speakersSeq = 2
        }
        store.send(6100, .sdkActiveSpeakers(speakers: [u1, u3]), [finding("speakers.missedSnapshot", "S3", [1], 6100)]) {
            $0.seen.activeSpeakers = true
        }
        store.fire(snapshotTimer(2, 7001))
        // A recorder that never captures the kind: nothing, ever.
        let never = TestStore()
        never.send(2000, .speakers(speaking: [u1], stopped: []), [.snapshot([u1]), .timer(snapshotTimer(1, 3001))]) {
            $0.speakers = [u1]; $0.speakersSeq = 1
        }
        never.fire(snapshotTimer(1, 3001))
        never.finish(9000)
        XCTAssertTrue(never.findings.isEmpty)
    }
}
