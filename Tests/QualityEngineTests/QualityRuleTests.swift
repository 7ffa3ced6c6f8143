// One test per quality rule (contract.md, "Quality engine", Q1–Q6).
@testable import QualityEngine
import TestSupport
import TraceModel
import XCTest

final class QualityRuleTests: XCTestCase {
    func test_Q1_overallIsTheWorseSideAndMosTheSmaller() {
        let store = TestStore()
        let s1 = store.send(1000, report(.excellent, .poor, pubMos: 4.3, subMos: 2.1),
                            [.levelChange(change(1, 1000, .unknown, .poor, mos: 2.1)), .timer(matchTimer(1, 2001))]) {
            $0.latest = .init(overall: .poor, mos: 2.1)
            $0.baseline = .poor
            $0.changes = [change(1, 1000, .unknown, .poor, mos: 2.1)]
            $0.unmatchedChanges = $0.changes
            $0.recentChanges = [.init(seq: 1, t: 1000, overall: .poor)]
        }
        XCTAssertEqual(s1, 1)
        // Uplink worse this time; only one side carries a MOS, so it is the evaluation's.
        store.send(2000, report(.lost, .good, pubMos: nil, subMos: 3.9),
                   [.levelChange(change(2, 2000, .poor, .lost, mos: 3.9)), .timer(matchTimer(2, 3001))]) {
            $0.latest = .init(overall: .lost, mos: 3.9)
            $0.baseline = .lost
            $0.changes.append(change(2, 2000, .poor, .lost, mos: 3.9))
            $0.unmatchedChanges.append(change(2, 2000, .poor, .lost, mos: 3.9))
            $0.recentChanges.append(.init(seq: 2, t: 2000, overall: .lost))
        }
        // `unknown` ranks below `excellent`: a known level wins over an unknown one.
        XCTAssertEqual(QualityEngine.evaluate(pub: sample(.unknown), sub: sample(.excellent)),
                       .init(overall: .excellent, mos: nil))
        XCTAssertEqual(QualityEngine.evaluate(pub: sample(.good, mos: 3.0), sub: sample(.good, mos: 4.0)).mos, 3.0)
    }

    func test_Q2_changeOnlyWhenOverallDiffersFromBaseline() {
        let store = TestStore()
        // unknown == baseline: no change, but `latest` is set.
        store.send(500, report(.unknown, .unknown)) { $0.latest = .init(overall: .unknown) }
        store.reportChange(1000, .good, .excellent)
        // Same overall from a different mix of sides: still no change.
        store.send(2000, report(.excellent, .good)) { $0.latest = .init(overall: .good) }
        store.reportChange(3000, .good, .poor)
        XCTAssertEqual(store.engine.state.changes.map(\.previous), [.unknown, .good])
        XCTAssertEqual(store.engine.state.changes.map(\.overall), [.good, .poor])
    }

    func test_Q3_latestIsNilUntilTheFirstReportAndUnknownIsNotNil() {
        let store = TestStore()
        store.send(100, .connState(state: .connected)) {
            $0.transport = .connected
            $0.transportSeq = 1
            $0.connectedBefore = true   // Q7: a later connected from another state is a reconnect
        }
        XCTAssertNil(store.engine.state.latest)
        store.send(200, report(.unknown, .unknown)) { $0.latest = .init(overall: .unknown, mos: nil) }
        XCTAssertNotNil(store.engine.state.latest)
        XCTAssertTrue(store.engine.state.changes.isEmpty)
    }

    func test_Q4_reconnectClearsLatestBaselineAndSpeakersWithoutEmitting() {
        let store = TestStore()
        store.send(10, .connState(state: .connected)) { $0.transport = .connected; $0.transportSeq = 1; $0.connectedBefore = true }
        store.reportChange(1000, .poor, .good)
        store.send(1100, .speakers(speaking: [speaker("a", "mic", 0.5)], stopped: []),
                   [.snapshot([speaker("a", "mic", 0.5)]), .timer(snapshotTimer(3, 2101))]) {
            $0.speakers = [speaker("a", "mic", 0.5)]
            $0.speakersSeq = 3
        }
        // A repeated `connected` is no reconnect (Q7).
        store.send(1200, .connState(state: .connected)) { $0.transportSeq = 4 }
        XCTAssertNotNil(store.engine.state.latest)
        store.send(2000, .connState(state: .reconnecting)) {
            $0.transport = .reconnecting; $0.transportSeq = 5
        }
        XCTAssertEqual(store.engine.state.latest?.overall, .poor, "reconnecting alone keeps the cache")
        store.send(3000, .connState(state: .connected)) {
            $0.transport = .connected; $0.transportSeq = 6
            $0.latest = nil
            $0.baseline = .unknown
            $0.speakers = []
            $0.speakersSeq = nil
        }
        // The first change after the reconnect starts again from `unknown`, even at the old level.
        store.reportChange(4000, .poor, .good)
        XCTAssertEqual(store.engine.state.changes.last?.previous, .unknown)
        XCTAssertEqual(store.engine.summary.reconnects, 1)
    }

    func test_Q5_cdnHasNoQualitySpeakerOrLayerEvents() {
        let store = TestStore()
        store.reportChange(500, .good, .good)
        store.send(600, .connEngine(vendor: .wangsu)) {
            $0.vendor = .wangsu; $0.vendorSeq = 2
            $0.latest = nil; $0.baseline = .unknown
        }
        store.send(700, .connState(state: .connected)) { $0.transport = .connected; $0.transportSeq = 3; $0.connectedBefore = true }
        store.send(1000, report(.poor, .lost))
        store.send(1100, .speakers(speaking: [speaker("a", "mic", 0.9)], stopped: []))
        store.send(1200, .subscribe(pubUid: "p", trackId: "cam", layers: ["h", "l"])) {
            $0.subscriptions[.init(pubUid: "p", trackId: "cam")] = .init(seq: 6, layers: ["h", "l"])
        }
        store.send(1300, .switchLayer(pubUid: "p", trackId: "cam", targetTrackId: "l"),
                   [switchVerdict(7, 1300, .rejected, .engineNotSupported, causeSeq: 2, rule: .L1)]) {
            $0.lastSwitchCall = 7
        }
        store.send(1400, .srvLayerSwitched(LayerSwitch(pubUid: "p", trackId: "cam", toTrackId: "l", reason: "client")))
        XCTAssertNil(store.engine.state.latest)
        XCTAssertEqual(store.engine.summary.reports, 1, "only the SFU report was evaluated")
    }

    func test_Q6_attributionSeparatesUplinkFromDownlink() {
        let store = TestStore()
        store.reportChange(0, .poor, .good)        // uplink bad 0–4000
        store.send(4000, report(.good, .poor)) { $0.latest = .init(overall: .poor) }  // downlink bad 4000–5000
        store.reportChange(5000, .lost, .poor)     // both bad 5000–7000
        // No sdk.qualityChanged in this trace: unmatched changes are dropped, not reported.
        store.finish(7000) { $0.unmatchedChanges = [] }
        let a = store.engine.summary.attribution
        XCTAssertEqual(a, .init(pubBadMs: 6000, subBadMs: 3000, bothBadMs: 2000))
        XCTAssertEqual(a.side, .uplink)
        XCTAssertEqual(QualitySummary.Attribution(pubBadMs: 10, subBadMs: 0).side, .uplink)
        XCTAssertEqual(QualitySummary.Attribution(pubBadMs: 0, subBadMs: 10).side, .downlinkOrRemote)
        XCTAssertEqual(QualitySummary.Attribution(pubBadMs: 10, subBadMs: 15, bothBadMs: 5).side, .both)
        XCTAssertEqual(QualitySummary.Attribution().side, .none)
        XCTAssertTrue(store.engine.summary.attributionSentence.contains("user's own uplink"))
    }
}
