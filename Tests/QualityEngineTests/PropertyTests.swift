// Property tests over seeded random traces: 500 traces × 80 records, timers delivered as the replayer does.
import Contract
@testable import QualityEngine
import TraceFixtures
import TraceModel
import XCTest


final class PropertyTests: XCTestCase {
    static let traces = 500
    static let length = 80
    let uids = ["a", "b", "c"], tracks = ["mic", "cam"], layers = ["h", "m", "l", "x"]

    /// A value of a quality sample: mostly inside its documented range, now and then outside it (T2).
    func value(_ rng: inout SplitMix64, _ inside: ClosedRange<Double>, outside: Double) -> Double? {
        switch rng.below(10) {
        case 0: nil
        case 1: outside
        default: inside.lowerBound + Double(rng.below(101)) / 100 * (inside.upperBound - inside.lowerBound)
        }
    }

    func sample(_ rng: inout SplitMix64) -> QualitySample {
        QualitySample(level: rng.pick(QualityLevel.allCases), score: value(&rng, 0...100, outside: 150),
                      mos: rng.chance(70) ? value(&rng, 1...4.5, outside: rng.pick([0.8, 7.2])) : nil,
                      loss: value(&rng, 0...1, outside: 12.5), rtt: value(&rng, 0...400, outside: -1),
                      jitter: value(&rng, 0...50, outside: -3), bitrate: value(&rng, 0...2000, outside: -10))
    }

    /// A random record; `current` is the engine's snapshot, which an SDK that answers right echoes (S3).
    func randomRecord(_ rng: inout SplitMix64, seq: Int, t: Int64, current: [Speaker]) -> Record {
        let level = { (r: inout SplitMix64) in r.pick(QualityLevel.allCases) }
        let body: RecordBody
        switch rng.below(100) {
        case 0..<33: body = .qualityReport(pub: sample(&rng), sub: sample(&rng))
        case 33..<48:
            let speaking = (0..<rng.below(3)).map { _ in
                Speaker(uid: rng.pick(uids), trackId: rng.pick(tracks), level: rng.chance(5) ? 1.4 : Double(rng.below(5)) / 4)
            }
            let stopped = (0..<rng.below(3)).map { _ in SpeakerKey(uid: rng.pick(uids), trackId: rng.pick(tracks)) }
            body = .speakers(speaking: speaking, stopped: stopped)
        case 48..<56: body = .connState(state: rng.pick([.connected, .connected, .connecting, .reconnecting, .disconnected]))
        case 56..<58: body = .connEngine(vendor: rng.chance(70) ? .seaStart : .wangsu)
        case 58..<66: body = .sdkQualityChanged(overall: level(&rng), previous: level(&rng), mos: rng.chance(10) ? 7.2 : nil)
        case 66..<76:
            body = .sdkActiveSpeakers(speakers: rng.chance(60) ? current : (0..<rng.below(3)).map { _ in
                Speaker(uid: rng.pick(uids), trackId: rng.pick(tracks), level: rng.chance(5) ? -0.1 : 0.5)
            })
        case 76..<80: body = .subscribe(pubUid: rng.pick(uids), trackId: "cam", layers: [rng.pick(layers), rng.pick(layers)])
        case 80..<89: body = .switchLayer(pubUid: rng.pick(uids), trackId: "cam", targetTrackId: rng.pick(layers))
        case 89..<92:
            body = .srvLayerSwitched(LayerSwitch(pubUid: rng.pick(uids), trackId: "cam", toTrackId: rng.pick(layers),
                                                 reason: rng.chance(70) ? "client" : "bwe_down"))
        default:
            body = .sdkError(api: rng.pick(["switchLayer", "switchLayer(pubUid:trackId:targetTrackId:)", "subscribe"]),
                             error: rng.pick(["webrtcError", "webrtcError: send failed", "webrtcError(sendFailed)", "transportNotReady", "invalidParameter"]))
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
            let record = randomRecord(&rng, seq: seq, t: t, current: engine.state.speakers)
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

    /// Q7, S3, L1, L2, L4, L3 (as L4 reads it) and T2 against the independent model (QualityModel.swift).
    func test_property_v3RulesAgainstAModel() {
        var reached: [String: Int] = [:]
        forEachSeed { seed in
            var model = QualityModel()
            var notConfirmed: Set<Int> = []
            var end: Int64 = 0
            let all = replay(seed: seed) { before, record, after, out in
                end = record.t
                let e = model.apply(record)
                notConfirmed.formUnion(e.notConfirmed)
                let at = "seed \(seed) seq \(record.seq)"
                let verdicts = out.compactMap { if case .verdict(let v) = $0 { v } else { nil } }
                if let expected = e.verdict, let v = verdicts.first {
                    XCTAssertEqual(v.verdict, expected.kind, "L1, L2, \(at)")
                    XCTAssertEqual(v.cause, expected.cause, "L1, L2, \(at)")
                    XCTAssertEqual(v.outcome?.kind.rawValue, expected.kind.rawValue, "V2 at the call, \(at)")
                }
                let outcomes = out.compactMap { if case let .outcome(call, o) = $0 { (call, o) } else { nil } }
                XCTAssertEqual(outcomes.map(\.0), e.rejected.map { [$0] } ?? [], "L4, \(at)")
                if let (call, o) = outcomes.first {
                    reached["L4", default: 0] += 1
                    XCTAssertEqual(o, Outcome(kind: .rejected, cause: .webrtcError, t: record.t, seq: record.seq), at)
                    XCTAssertTrue(out.contains { if case .finding(let f) = $0 { f.code == .layerSwitchNotSent && f.seqs == [record.seq, call] } else { false } }, at)
                }
                let ranges = out.compactMap { if case .finding(let f) = $0, f.code == .traceValueOutOfRange { f } else { nil } }
                XCTAssertEqual(ranges.count, e.outOfRange.count, "T2 once per record type and field, \(at)")
                XCTAssertTrue(ranges.allSatisfy { $0.seqs == [record.seq] }, at)
                reached["T2", default: 0] += ranges.count
                if case .connState = record.body {
                    if e.reconnect {
                        reached["Q7", default: 0] += 1
                        XCTAssertNil(after.state.latest, "Q7, Q4, \(at)")
                        XCTAssertEqual(after.state.baseline, .unknown, at)
                        XCTAssertEqual(after.state.speakers, [], at)
                        XCTAssertEqual(after.summary.reconnects, before.summary.reconnects + 1, at)
                    } else {
                        XCTAssertEqual(after.state.latest, before.state.latest, "not a reconnect, \(at)")
                        XCTAssertEqual(after.state.speakers, before.state.speakers, at)
                    }
                }
                // No snapshot is derived but by an update (S2), and each has its window (S3).
                let snapshots = out.filter { if case .snapshot = $0 { true } else { false } }.count
                let windows = out.filter { if case .timer(let tm) = $0, case .snapshotWindow = tm.kind { true } else { false } }.count
                XCTAssertEqual(snapshots, windows, at)
                if case .speakers = record.body, before.state.vendor == .seaStart { XCTAssertEqual(snapshots, 1, at) } else { XCTAssertEqual(snapshots, 0, at) }
            }
            notConfirmed.formUnion(model.expire(before: end + 1))
            let missed = all.compactMap { if case .finding(let f) = $0, f.code == .speakersMissedSnapshot { f.seqs[0] } else { nil } }
            XCTAssertEqual(missed.sorted(), model.missed(end: end), "S3, seed \(seed)")
            reached["S3", default: 0] += missed.count
            let unconfirmed = all.compactMap { if case .finding(let f) = $0, f.code == .layerSwitchNotConfirmed { f.seqs[0] } else { nil } }
            XCTAssertEqual(Set(unconfirmed), notConfirmed, "L3 not after a send failure, seed \(seed)")
            XCTAssertEqual(unconfirmed.count, Set(unconfirmed).count, "seed \(seed)")
        }
        for rule in ["Q7", "S3", "L4", "T2"] { XCTAssertGreaterThan(reached[rule] ?? 0, 20, "the random traces rarely reach \(rule)") }
    }

    func test_property_replayIsDeterministic() {
        for seed: UInt64 in [1, 2, 3, 42, 0xDEAD_BEEF] {
            XCTAssertEqual(replay(seed: seed) { _, _, _, _ in }, replay(seed: seed) { _, _, _, _ in }, "seed \(seed)")
        }
    }
}
