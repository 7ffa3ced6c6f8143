// Contract v3's L4 (a switchLayer whose send failed) and T2 (documented value ranges).
@testable import QualityEngine
import TestSupport
import TraceModel
import XCTest

final class QualityEngineV3LayerAndValueTests: XCTestCase {
    private let cam = QualityEngine.TrackKey(pubUid: "p", trackId: "cam")

    /// Connected (seq 1), `p/cam` subscribed with layers l and m (seq 2).
    private func connected(_ layer: Layer = .srtc) -> TestStore {
        let store = TestStore(layer: layer)
        store.send(0, .connState(state: .connected)) { $0.transport = .connected; $0.transportSeq = 1; $0.connectedBefore = true }
        store.send(0, .subscribe(pubUid: "p", trackId: "cam", layers: ["l", "m"])) {
            $0.subscriptions[.init(pubUid: "p", trackId: "cam")] = .init(seq: 2, layers: ["l", "m"])
        }
        return store
    }

    /// An accepted switch of `pub`'s camera (a newer one for the same track supersedes an unconfirmed older one).
    private func accepted(_ store: TestStore, _ seq: Int, at t: Int64, _ target: String, pub: String = "p") {
        let key = QualityEngine.TrackKey(pubUid: pub, trackId: "cam")
        store.send(t, .switchLayer(pubUid: pub, trackId: "cam", targetTrackId: target),
                   [switchVerdict(seq, t, .applied, rule: .V1), .timer(confirmTimer(seq, t + 3001))]) {
            $0.lastSwitchCall = seq
            $0.pendingSwitches.removeAll { $0.key == key }
            $0.pendingSwitches.append(.init(seq: seq, t: t, key: key, target: target, deadline: t + 3000))
        }
    }

    func test_L4_aWebrtcErrorBelongsToTheLatestAcceptedCallNotMatchedYet() {
        let store = connected()
        accepted(store, 3, at: 1000, "l")
        accepted(store, 4, at: 1100, "m", pub: "q")
        // Its verdict stays applied; its outcome becomes rejected; L3 no longer expects its confirmation.
        store.send(1500, .sdkError(api: "switchLayer(pubUid:trackId:targetTrackId:)", error: "webrtcError: send failed"), [
            switchOutcome(4, .rejected, .webrtcError, t: 1500, by: 5), finding("layer.switchNotSent", "L4", [5, 4], 1500, call: 4),
        ]) { $0.seen.error = true; $0.pendingSwitches.removeLast() }
        store.send(1600, .sdkError(api: "switchLayer", error: "webrtcError(sendFailed)"), [
            switchOutcome(3, .rejected, .webrtcError, t: 1600, by: 6), finding("layer.switchNotSent", "L4", [6, 3], 1600, call: 3),
        ]) { $0.pendingSwitches = [] }
        store.send(1700, .sdkError(api: "switchLayer", error: "webrtcError"))             // no accepted call left
        store.fire(confirmTimer(3, 4001))
        store.fire(confirmTimer(4, 4101))
    }

    func test_L4_theMatchWindowsEdges_andL3WhenNoSendFailed() {
        let store = connected(.smeeting)
        accepted(store, 3, at: 3000, "l")
        store.send(4001, .sdkError(api: "switchLayer", error: "webrtcError")) { $0.seen.error = true }   // outside 3000…4000
        store.fire(confirmTimer(3, 6001), [finding("layer.switchNotConfirmed", "L3", [3], 6001)]) { $0.pendingSwitches = [] }
        accepted(store, 5, at: 8000, "m")
        store.send(9000, .sdkError(api: "switchLayer", error: "webrtcError"), [
            switchOutcome(5, .rejected, .webrtcError, t: 9000, by: 6), finding("layer.switchNotSent", "L4", [6, 5], 9000, call: 5),
        ]) { $0.pendingSwitches = [] }
        store.fire(confirmTimer(5, 11001))
        // The same ms: the replay takes the sdk.error after the call it follows.
        accepted(store, 7, at: 12000, "l")
        store.send(12000, .sdkError(api: "switchLayer", error: "webrtcError"), [
            switchOutcome(7, .rejected, .webrtcError, t: 12000, by: 8), finding("layer.switchNotSent", "L4", [8, 7], 12000, call: 7),
        ]) { $0.pendingSwitches = [] }
    }

    func test_L4_onlyAcceptedCalls_andOnlySwitchLayersWebrtcError() {
        let store = TestStore()
        // Not accepted: L1 rejected it (its outcome is its verdict, decided at the call).
        store.send(100, .switchLayer(pubUid: "p", trackId: "cam", targetTrackId: "l"),
                   [switchVerdict(1, 100, .rejected, .transportNotReady, rule: .L1)]) { $0.lastSwitchCall = 1 }
        store.send(150, .sdkError(api: "switchLayer", error: "webrtcError")) { $0.seen.error = true }
        store.send(200, .connState(state: .connected)) { $0.transport = .connected; $0.transportSeq = 3; $0.connectedBefore = true }
        store.send(210, .subscribe(pubUid: "p", trackId: "cam", layers: ["h"])) {
            $0.subscriptions[.init(pubUid: "p", trackId: "cam")] = .init(seq: 4, layers: ["h"])
        }
        store.send(300, .switchLayer(pubUid: "p", trackId: "cam", targetTrackId: "xl"), [
            switchVerdict(5, 300, .ineffective, .targetNotInCandidates, causeSeq: 4, rule: .L2),
            finding("layer.targetNotInCandidates", "L2", [5, 4], 300, call: 5),
        ]) { $0.lastSwitchCall = 5 }
        store.send(400, .sdkError(api: "switchLayer", error: "webrtcError"))              // the ineffective call stays so
        store.send(500, .switchLayer(pubUid: "p", trackId: "cam", targetTrackId: "h"), [switchVerdict(7, 500, .applied, rule: .V1), .timer(confirmTimer(7, 3501))]) {
            $0.lastSwitchCall = 7; $0.pendingSwitches = [.init(seq: 7, t: 500, key: self.cam, target: "h", deadline: 3500)]
        }
        store.send(600, .sdkError(api: "subscribe", error: "webrtcError"))                // another api
        // Not the case's prefix: the last call threw, nothing was sent, and no confirmation is expected (decided).
        store.send(700, .sdkError(api: "switchLayer", error: "sendWebrtcError")) { $0.pendingSwitches = [] }
    }

    func test_T2_qualityReportValuesOutsideTheDocumentedRanges_oncePerTypeAndField_usedAsRecorded() {
        let store = TestStore()
        let pub = QualitySample(level: .good, score: 50, mos: 0.8, loss: 12.5, rtt: 40, jitter: 5, bitrate: 500)
        let c1 = change(1, 1000, .unknown, .good, mos: 0.8)
        store.send(1000, .qualityReport(pub: pub, sub: QualitySample(level: .good, mos: 4.4)), [
            finding("trace.valueOutOfRange", "T2", [1], 1000), finding("trace.valueOutOfRange", "T2", [1], 1000),
            .levelChange(c1), .timer(matchTimer(1, 2001)),
        ]) {
            $0.latest = .init(overall: .good, mos: 0.8); $0.baseline = .good; $0.changes = [c1]; $0.unmatchedChanges = [c1]
            $0.recentChanges = [.init(seq: 1, t: 1000, overall: .good)]
        }
        XCTAssertEqual(store.findings.map { $0.message.contains(".mos") || $0.message.contains(".loss") }, [true, true])
        // The SDK's event is another record type: its mos is its own field.
        store.send(1500, .sdkQualityChanged(overall: .good, previous: .unknown, mos: 7.2),
                   [finding("trace.valueOutOfRange", "T2", [2], 1500)]) { $0.seen.qualityChanged = true; $0.unmatchedChanges = [] }
        // pub and sub together: a second loss is no new finding; rtt is a new field.
        store.send(2000, .qualityReport(pub: QualitySample(level: .good, rtt: -1), sub: QualitySample(level: .good, loss: 23)),
                   [finding("trace.valueOutOfRange", "T2", [3], 2000)]) { $0.latest = .init(overall: .good) }
        // Every bound is inside.
        let low = QualitySample(level: .good, score: 0, mos: 1.0, loss: 0, rtt: 0, jitter: 0, bitrate: 0)
        let high = QualitySample(level: .good, score: 100, mos: 4.5, loss: 1, rtt: 9999, jitter: 9999, bitrate: 9999)
        store.send(3000, .qualityReport(pub: low, sub: high)) { $0.latest = .init(overall: .good, mos: 1.0) }
    }

    func test_T2_speakerLevels_theServersAndTheSDKsAreTwoFields() {
        let store = TestStore(layer: .smeeting)
        let u1 = speaker("u1", "mic", 0.9), u2 = speaker("u2", "mic", 1.4), u3 = speaker("u3", "mic", 1.0)
        // Used as recorded: S2 sorts 1.4 first.
        store.send(1000, .speakers(speaking: [u1, u2], stopped: []),
                   [finding("trace.valueOutOfRange", "T2", [1], 1000), .snapshot([u2, u1]), .timer(snapshotTimer(1, 2001))]) {
            $0.speakers = [u2, u1]; $0.speakersSeq = 1
        }
        store.send(1010, .sdkActiveSpeakers(speakers: [u2, u1]), [finding("trace.valueOutOfRange", "T2", [2], 1010)]) {
            $0.seen.activeSpeakers = true
        }
        store.send(1100, .speakers(speaking: [u3, speaker("u2", "mic", 1.5)], stopped: []),
                   [.snapshot([speaker("u2", "mic", 1.5), u3, u1]), .timer(snapshotTimer(3, 2101))]) {
            $0.speakers = [speaker("u2", "mic", 1.5), u3, u1]; $0.speakersSeq = 3
        }
        store.send(1110, .sdkActiveSpeakers(speakers: [speaker("u2", "mic", -0.1), u3, u1]))
    }
}
