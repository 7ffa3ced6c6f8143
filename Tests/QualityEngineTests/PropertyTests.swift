// Property tests over seeded random traces: 500 traces × 80 records, timers delivered as the replayer does.
@testable import QualityEngine
import TraceFixtures
import TraceModel
import XCTest


final class PropertyTests: XCTestCase {
    static let traces = 500
    static let length = 80
    let uids = ["a", "b", "c"], tracks = ["mic", "cam"], layers = ["h", "m", "l", "x"]

    func randomRecord(_ rng: inout SplitMix64, seq: Int, t: Int64) -> Record {
        let level = { (r: inout SplitMix64) in r.pick(QualityLevel.allCases) }
        let body: RecordBody
        switch rng.below(100) {
        case 0..<35:
            body = .qualityReport(pub: QualitySample(level: level(&rng), mos: rng.chance(70) ? Double(rng.below(36)) / 10 + 1 : nil),
                                  sub: QualitySample(level: level(&rng), mos: rng.chance(70) ? Double(rng.below(36)) / 10 + 1 : nil))
        case 35..<50:
            let speaking = (0..<rng.below(3)).map { _ in
                Speaker(uid: rng.pick(uids), trackId: rng.pick(tracks), level: Double(rng.below(5)) / 4)
            }
            let stopped = (0..<rng.below(3)).map { _ in SpeakerKey(uid: rng.pick(uids), trackId: rng.pick(tracks)) }
            body = .speakers(speaking: speaking, stopped: stopped)
        case 50..<58: body = .connState(state: rng.pick(ConnState.allCases))
        case 58..<60: body = .connEngine(vendor: rng.chance(70) ? .seaStart : .wangsu)
        case 60..<70: body = .sdkQualityChanged(overall: level(&rng), previous: level(&rng), mos: nil)
        case 70..<76:
            body = .sdkActiveSpeakers(speakers: (0..<rng.below(3)).map { _ in
                Speaker(uid: rng.pick(uids), trackId: rng.pick(tracks), level: 0.5)
            })
        case 76..<81: body = .subscribe(pubUid: rng.pick(uids), trackId: "cam", layers: [rng.pick(layers), rng.pick(layers)])
        case 81..<90: body = .switchLayer(pubUid: rng.pick(uids), trackId: "cam", targetTrackId: rng.pick(layers))
        case 90..<96:
            body = .srvLayerSwitched(LayerSwitch(pubUid: rng.pick(uids), trackId: "cam", toTrackId: rng.pick(layers),
                                                 reason: rng.chance(70) ? "client" : "bwe_down"))
        default: body = .sdkError(api: "switchLayer", error: "webrtcError")
        }
        return Record(seq: seq, t: t, body)
    }

    /// Replays one random trace, checking per-step properties through `check`; returns every output.
    @discardableResult
    func replay(seed: UInt64, check: (QualityEngine, Record, QualityEngine, [QualityOutput]) -> Void) -> [QualityOutput] {
        var rng = SplitMix64(seed: seed)
        var engine = QualityEngine()
        var timers: [QualityTimer] = []
        var all = engine.apply(Record(seq: 0, t: 0, .header(TraceHeader(layer: rng.chance(50) ? .srtc : .smeeting))))
        var t: Int64 = 0
        for seq in 1...Self.length {
            t += Int64(rng.below(1500))
            let record = randomRecord(&rng, seq: seq, t: t)
            // A timer due at or before the record's t fires first, in due order (stable for ties).
            while let i = timers.indices.min(by: { timers[$0].due < timers[$1].due }), timers[i].due <= t {
                let out = engine.fire(timers.remove(at: i))
                timers += out.compactMap { if case .timer(let tm) = $0 { tm } else { nil } }
                all += out
            }
            let before = engine
            let out = engine.apply(record)
            check(before, record, engine, out)
            timers += out.compactMap { if case .timer(let tm) = $0 { tm } else { nil } }
            all += out
        }
        all += engine.finish(t: t, lastSeq: Self.length)
        let summary = engine.summary
        XCTAssertEqual(summary.time.total, t, "seed \(seed): time accounted")
        XCTAssertLessThanOrEqual(summary.attribution.bothBadMs, min(summary.attribution.pubBadMs, summary.attribution.subBadMs))
        XCTAssertTrue(engine.state.pendingSwitches.isEmpty && engine.state.unmatchedChanges.isEmpty, "seed \(seed)")
        return all
    }

    func forEachSeed(_ body: (UInt64) -> Void) {
        for i in 0..<Self.traces { body(0xC0FFEE &+ UInt64(i) &* 7919) }
    }

    func test_property_overallNeverBetterThanEitherSide_andMosIsTheSmaller() {
        forEachSeed { seed in
            replay(seed: seed) { before, record, after, _ in
                guard case .qualityReport(let pub, let sub) = record.body, before.state.vendor == .seaStart else { return }
                guard let e = after.state.latest else { return XCTFail("seed \(seed): latest nil after a report") }
                XCTAssertTrue(e.overall >= pub.level && e.overall >= sub.level, "seed \(seed) seq \(record.seq)")
                XCTAssertTrue(e.overall == pub.level || e.overall == sub.level, "seed \(seed) seq \(record.seq)")
                for m in [pub.mos, sub.mos].compactMap({ $0 }) { XCTAssertLessThanOrEqual(e.mos!, m, "seed \(seed)") }
            }
        }
    }

    func test_property_changeEmittedIffLevelDiffersFromBaseline() {
        forEachSeed { seed in
            replay(seed: seed) { before, record, after, out in
                let changes = out.compactMap { if case .levelChange(let c) = $0 { c } else { nil } }
                guard case .qualityReport = record.body, before.state.vendor == .seaStart, let e = after.state.latest else {
                    return XCTAssertTrue(changes.isEmpty, "seed \(seed) seq \(record.seq): change without an SFU report")
                }
                if e.overall == before.state.baseline {
                    XCTAssertTrue(changes.isEmpty, "seed \(seed) seq \(record.seq)")
                } else {
                    XCTAssertEqual(changes.map(\.previous), [before.state.baseline], "seed \(seed) seq \(record.seq)")
                    XCTAssertEqual(changes.map(\.overall), [e.overall], "seed \(seed) seq \(record.seq)")
                }
                // The baseline is the latest overall, or `unknown` while there is no evaluation.
                XCTAssertEqual(after.state.baseline, after.state.latest?.overall ?? .unknown, "seed \(seed)")
                XCTAssertLessThanOrEqual(after.state.recentChanges.count, after.options.flappingChanges + 1)
            }
        }
    }

    func test_property_snapshotsSortedUniqueAndWithoutStoppedSpeakers() {
        forEachSeed { seed in
            replay(seed: seed) { _, record, after, out in
                for case .snapshot(let snap) in out {
                    guard case .speakers(_, let stopped) = record.body else { return XCTFail("seed \(seed): stray snapshot") }
                    for (a, b) in zip(snap, snap.dropFirst()) {  // loudest first, ties by uid then trackId
                        XCTAssertTrue(a.level > b.level || (a.level == b.level && a.key < b.key),
                                      "seed \(seed) seq \(record.seq): \(a) before \(b)")
                    }
                    XCTAssertEqual(Set(snap.map(\.key)).count, snap.count, "seed \(seed) seq \(record.seq): duplicate key")
                    XCTAssertTrue(Set(snap.map(\.key)).isDisjoint(with: stopped), "seed \(seed) seq \(record.seq)")
                    XCTAssertEqual(snap, after.state.speakers)
                }
            }
        }
    }

    func test_property_oneVerdictPerSwitchLayer_andFindingsBounded() {
        forEachSeed { seed in
            var sdkChanges = 0
            let all = replay(seed: seed) { before, record, _, out in
                let verdicts = out.filter { if case .verdict = $0 { true } else { false } }
                if case .switchLayer = record.body {
                    XCTAssertEqual(verdicts.count, 1, "seed \(seed) seq \(record.seq)")
                    if before.state.vendor == .wangsu, case .verdict(let v) = verdicts[0] {
                        XCTAssertEqual(v.cause, .engineNotSupported, "seed \(seed)")
                    }
                } else {
                    XCTAssertTrue(verdicts.isEmpty, "seed \(seed) seq \(record.seq)")
                }
                if case .sdkQualityChanged = record.body { sdkChanges += 1 }
            }
            let codes = all.compactMap { if case .finding(let f) = $0 { f.code } else { nil } }
            let derived = all.filter { if case .levelChange = $0 { true } else { false } }.count
            XCTAssertLessThanOrEqual(codes.filter { $0 == .qualitySpuriousChange }.count, sdkChanges, "seed \(seed)")
            XCTAssertLessThanOrEqual(codes.filter { $0 == .qualityMissedChange }.count, derived, "seed \(seed)")
        }
    }

    func test_property_replayIsDeterministic() {
        for seed: UInt64 in [1, 2, 3, 42, 0xDEAD_BEEF] {
            XCTAssertEqual(replay(seed: seed) { _, _, _, _ in }, replay(seed: seed) { _, _, _, _ in }, "seed \(seed)")
        }
    }
}
