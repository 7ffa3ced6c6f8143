// One test per speaker and layer rule (contract.md, "Active speakers" S1–S2, "Simulcast layers" L1–L3).
import TestSupport
import TraceModel
import XCTest

final class SpeakerAndLayerRuleTests: XCTestCase {
    func test_S1_mergeKeyedByUidAndTrack_laterEntryUpdatesLevel_stoppedRemoves() {
        let store = TestStore()
        store.send(100, .speakers(speaking: [speaker("a", "mic", 0.2), speaker("a", "screen", 0.1)], stopped: []),
                   [.snapshot([speaker("a", "mic", 0.2), speaker("a", "screen", 0.1)]), .timer(snapshotTimer(1, 1101))]) {
            $0.speakers = [speaker("a", "mic", 0.2), speaker("a", "screen", 0.1)]
            $0.speakersSeq = 1
        }
        // A later speaking entry for a known key updates its level (no duplicate); another key is added.
        store.send(200, .speakers(speaking: [speaker("a", "screen", 0.8), speaker("b", "mic", 0.5)], stopped: []),
                   [.snapshot([speaker("a", "screen", 0.8), speaker("b", "mic", 0.5), speaker("a", "mic", 0.2)]), .timer(snapshotTimer(2, 1201))]) {
            $0.speakers = [speaker("a", "screen", 0.8), speaker("b", "mic", 0.5), speaker("a", "mic", 0.2)]
            $0.speakersSeq = 2
        }
        // Stopped removes only that track; a key both speaking and stopped in one update ends up stopped.
        store.send(300, .speakers(speaking: [speaker("c", "mic", 0.3)], stopped: [key("a", "screen"), key("c", "mic")]),
                   [.snapshot([speaker("b", "mic", 0.5), speaker("a", "mic", 0.2)]), .timer(snapshotTimer(3, 1301))]) {
            $0.speakers = [speaker("b", "mic", 0.5), speaker("a", "mic", 0.2)]
            $0.speakersSeq = 3
        }
        // Stopping someone who is not speaking changes nothing but still emits the snapshot.
        store.send(400, .speakers(speaking: [], stopped: [key("zz", "mic")]),
                   [.snapshot([speaker("b", "mic", 0.5), speaker("a", "mic", 0.2)]), .timer(snapshotTimer(4, 1401))]) { $0.speakersSeq = 4 }
    }

    func test_S2_snapshotSortedByLevelThenUidThenTrack_andEmptySnapshotEmitted() {
        let store = TestStore()
        let sorted = [speaker("z", "mic", 0.9), speaker("a", "mic", 0.4), speaker("a", "x", 0.4),
                      speaker("b", "a", 0.4), speaker("c", "mic", 0.1)]
        store.send(100, .speakers(speaking: [speaker("c", "mic", 0.1), speaker("b", "a", 0.4), speaker("a", "x", 0.4),
                                             speaker("z", "mic", 0.9), speaker("a", "mic", 0.4)], stopped: []),
                   [.snapshot(sorted), .timer(snapshotTimer(1, 1101))]) {
            $0.speakers = sorted
            $0.speakersSeq = 1
        }
        store.send(200, .speakers(speaking: [], stopped: sorted.map(\.key)), [.snapshot([]), .timer(snapshotTimer(2, 1201))]) {
            $0.speakers = []
            $0.speakersSeq = 2
        }
    }

    func test_L1_rejectedEngineNotSupportedFirst_thenTransportNotReady() {
        let store = TestStore()
        // Just joined: transport is `connecting` until a conn.state says otherwise.
        store.send(100, .switchLayer(pubUid: "p", trackId: "cam", targetTrackId: "l"),
                   [switchVerdict(1, 100, .rejected, .transportNotReady, causeSeq: nil, rule: .L1)]) {
            $0.lastSwitchCall = 1
        }
        store.send(200, .connState(state: .reconnecting)) {
            $0.transport = .reconnecting; $0.transportSeq = 2
        }
        store.send(300, .switchLayer(pubUid: "p", trackId: "cam", targetTrackId: "l"),
                   [switchVerdict(3, 300, .rejected, .transportNotReady, causeSeq: 2, rule: .L1)]) {
            $0.lastSwitchCall = 3
        }
        // CDN is checked before the transport.
        store.send(400, .connEngine(vendor: .wangsu)) { $0.vendor = .wangsu; $0.vendorSeq = 4 }
        store.send(500, .switchLayer(pubUid: "p", trackId: "cam", targetTrackId: "l"),
                   [switchVerdict(5, 500, .rejected, .engineNotSupported, causeSeq: 4, rule: .L1)]) {
            $0.lastSwitchCall = 5
        }
        XCTAssertTrue(store.engine.state.pendingSwitches.isEmpty)
    }

    func test_L2_targetOutsideCandidatesIsIneffective_withoutSubscribeIsApplied() {
        let store = TestStore()
        store.send(10, .connState(state: .connected)) { $0.transport = .connected; $0.transportSeq = 1; $0.connectedBefore = true }
        store.send(20, .subscribe(pubUid: "p", trackId: "cam", layers: ["h", "m"])) {
            $0.subscriptions[.init(pubUid: "p", trackId: "cam")] = .init(seq: 2, layers: ["h", "m"])
        }
        store.send(30, .switchLayer(pubUid: "p", trackId: "cam", targetTrackId: "l"),
                   [switchVerdict(3, 30, .ineffective, .targetNotInCandidates, causeSeq: 2, rule: .L2),
                    finding("layer.targetNotInCandidates", "L2", [3, 2], 30, call: 3)]) { $0.lastSwitchCall = 3 }
        // Same target on another publisher's track that was never subscribed: candidates unknown, so applied.
        store.send(40, .switchLayer(pubUid: "q", trackId: "cam", targetTrackId: "l"),
                   [switchVerdict(4, 40, .applied, rule: .V1), .timer(confirmTimer(4, 3041))]) {
            $0.lastSwitchCall = 4
            $0.pendingSwitches = [.init(seq: 4, t: 40, key: .init(pubUid: "q", trackId: "cam"), target: "l",
                                        deadline: 3040)]
        }
        // A later subscribe replaces the candidates.
        store.send(50, .subscribe(pubUid: "p", trackId: "cam", layers: ["h", "l"])) {
            $0.subscriptions[.init(pubUid: "p", trackId: "cam")] = .init(seq: 5, layers: ["h", "l"])
        }
        store.send(60, .switchLayer(pubUid: "p", trackId: "cam", targetTrackId: "l"),
                   [switchVerdict(6, 60, .applied, rule: .V1), .timer(confirmTimer(6, 3061))]) {
            $0.lastSwitchCall = 6
            $0.pendingSwitches.append(.init(seq: 6, t: 60, key: .init(pubUid: "p", trackId: "cam"), target: "l",
                                            deadline: 3060))
        }
    }

    func test_L3_clientConfirmationWithinTimeoutClearsThePendingSwitch() {
        let store = TestStore()
        store.send(0, .connState(state: .connected)) { $0.transport = .connected; $0.transportSeq = 1; $0.connectedBefore = true }
        store.send(0, .subscribe(pubUid: "p", trackId: "cam", layers: ["h", "l"])) {
            $0.subscriptions[.init(pubUid: "p", trackId: "cam")] = .init(seq: 2, layers: ["h", "l"])
        }
        store.send(1000, .switchLayer(pubUid: "p", trackId: "cam", targetTrackId: "l"),
                   [switchVerdict(3, 1000, .applied, rule: .V1), .timer(confirmTimer(3, 4001))]) {
            $0.lastSwitchCall = 3
            $0.pendingSwitches = [.init(seq: 3, t: 1000, key: .init(pubUid: "p", trackId: "cam"), target: "l",
                                        deadline: 4000)]
        }
        // Server-driven switches, another track, and the wrong target do not confirm it.
        store.send(2000, .srvLayerSwitched(LayerSwitch(pubUid: "p", trackId: "cam", toTrackId: "l", reason: "bwe_down")))
        store.send(2100, .srvLayerSwitched(LayerSwitch(pubUid: "p", trackId: "mic", toTrackId: "l", reason: "client")))
        store.send(2200, .srvLayerSwitched(LayerSwitch(pubUid: "p", trackId: "cam", toTrackId: "h", reason: "client")))
        // Exactly at the timeout still counts: the window is inclusive.
        store.send(4000, .srvLayerSwitched(LayerSwitch(pubUid: "p", trackId: "cam", fromTrackId: "h", toTrackId: "l",
                                                       reason: "client", latencyMs: 120))) {
            $0.pendingSwitches = []
        }
        store.fire(confirmTimer(3, 4001))
        store.finish(5000)
        XCTAssertTrue(store.findings.isEmpty)
    }
}
