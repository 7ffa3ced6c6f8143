import Replay
import TestSupport
import TraceFixtures
import TraceModel
import XCTest

/// Properties of X5 (lost evidence) and RS1 (restarts) over random traces: lost records never make a
/// divergence unexplained where they could hide its cause, the counts add up, and a restarted session's
/// reconnect count is the same replayed whole or in parts.
final class LostEvidencePropertyTests: XCTestCase {
    /// A random call: devices come and go, the route is read, calls and the transport change.
    static func randomTrace(seed: UInt64, length: Int) -> [Record] {
        var rng = SplitMix64(seed: seed)
        var b = TraceBuilder(.srtc, defaultRoute: .earpiece)
        b.add(100, .joinChannel(channel: "c"))
        b.add(110, .micPermission(status: .granted))
        b.add(150, .sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: "voiceChat", options: ["allowBluetooth"])))
        var t: Int64 = 200
        let routes: [Route] = [.speaker, .receiver, .bluetooth, .headset]
        for _ in 0..<length {
            t += Int64(rng.next() % 3000) + 1
            switch rng.next() % 6 {
            case 0: b.add(t, .deviceConnected(id: "d\(rng.next() % 2)", kind: rng.next() % 2 == 0 ? .bluetooth : .headset, name: nil, port: nil))
            case 1: b.add(t, .deviceDisconnected(id: "d\(rng.next() % 2)"))
            case 2: b.add(t, .setRoute(target: rng.next() % 2 == 0 ? .speaker : .earpiece, api: nil))
            case 3: b.add(t, .connState(state: [.connecting, .connected, .reconnecting, .disconnected][Int(rng.next() % 4)]))
            default: b.add(t, .routeSnapshot(route: routes[Int(rng.next() % 4)], ports: nil))
            }
        }
        b.add(t + 100, .leaveChannel)
        return b.records
    }

    func test_X5_aDivergenceOpenBesideLostRecordsIsNeverUnexplained() {
        for seed in UInt64(1)...60 {
            let all = Self.randomTrace(seed: seed, length: 40)
            var rng = SplitMix64(seed: seed &* 7919)
            let from = 4 + Int(rng.next() % UInt64(all.count - 8)), count = 1 + Int(rng.next() % 4)
            let lost = from...min(from + count - 1, all.count - 2)
            let replayer = Replayer(file: "<random \(seed)>")
            for r in all where !lost.contains(r.seq) {
                if r.seq == lost.upperBound + 1 { replayer.lost(seqs: lost, cause: .seqGap) }
                replayer.feed(r)
            }
            let result = replayer.finish()
            let fromT = all[lost.lowerBound - 1].t
            XCTAssertEqual(result.lost.count, 1, "seed \(seed)")
            XCTAssertEqual(result.divergenceCount, result.divergences.filter(\.explained).count + result.unexplainedDivergenceCount
                           + result.uncertainDivergenceCount, "seed \(seed): explained + unexplained + uncertain = total")
            for d in result.divergences where d.end > fromT {
                XCTAssertFalse(d.unexplained, "seed \(seed): a divergence open after the loss at \(fromT) is unexplained: \(d)")
                if !d.explained, let f = d.finding {
                    XCTAssertFalse(result.findings[f].advice.contains("Escalate"), "seed \(seed)")
                    XCTAssertEqual(result.findings[f].rule, .X5, "seed \(seed)")
                }
            }
            // Nothing lost: the same records replay with no uncertain divergence.
            let whole = Replay.run(records: all)
            XCTAssertEqual(whole.uncertainDivergenceCount, 0, "seed \(seed)")
            XCTAssertTrue(result.hasIssues, "seed \(seed): no all-clear when records were lost")
        }
    }

    func test_RS1_reconnectsAreCountedTheSameWholeOrInParts() throws {
        for seed in UInt64(1)...40 {
            var rng = SplitMix64(seed: seed)
            var first = TraceHeader(layer: .srtc, sdk: "test", device: .init(model: "iPhone15,2", os: "iOS 17.4", simulator: false))
            first.session = .init(id: "s\(seed)", part: 1)
            var b = TraceBuilder(header: first)
            var t: Int64 = 100
            func transport(_ n: Int) {
                for _ in 0..<n {
                    t += 100
                    b.add(t, .connState(state: [.connecting, .connected, .reconnecting, .disconnected][Int(rng.next() % 4)]))
                }
            }
            b.add(t, .joinChannel(channel: "c"))
            transport(6)
            var second = first
            second.session = .init(id: "s\(seed)", part: 2, resumed: true)
            t += 5000
            let split = b.add(t, .header(second))
            b.add(t, .checkpoint(TraceCheckpoint(transport: .init(engine: .seaStart, state: .disconnected))))
            b.add(t + 10, .joinChannel(channel: "c"))
            t += 10
            transport(6)
            let whole = Replay.run(records: b.records).quality?.reconnects ?? 0
            let part1 = Replay.run(records: Array(b.records[..<split])).quality?.reconnects ?? 0
            let part2 = Replay.run(records: Array(b.records[split...])).quality?.reconnects ?? 0
            XCTAssertEqual(whole, part1 + part2, "seed \(seed): one trace, one count (Q7 with RS1)")
            let r = Replay.run(records: b.records)
            XCTAssertEqual(r.resumedParts, [2], "seed \(seed)")
            XCTAssertFalse(r.findings.contains { $0.code == .traceCheckpointMismatch }, "seed \(seed): \(r.findings.map(\.message))")
        }
    }
}
