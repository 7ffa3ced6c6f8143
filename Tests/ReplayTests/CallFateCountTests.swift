import Contract
@testable import Replay
import TraceFixtures
import TraceModel
import XCTest

/// The calls' fates the result counts (`callFates`) are what counting each verdict into a dictionary gives,
/// with calls that a later outcome moves from one fate to another, and more distinct fates than the builder
/// finds by a scan (`ResultBuilder.fatesScanned`).
final class CallFateCountTests: XCTestCase {
    func test_callFatesEqualADictionaryCountOfEveryVerdictAndOutcome() {
        var g = SplitMix64(seed: 11)
        let calls: [RecordKind] = [.setRoute, .setDefaultRoute]
        let kinds = VerdictKind.allCases, causes = VerdictCause.allCases
        let outcomes: [OutcomeKind] = [.applied, .ineffective, .superseded, .dropped]
        var builder = ResultBuilder(file: "calls", options: ReplayOptions())
        var expected: [CallFate: Int] = [:]
        var pending: [(seq: Int, fate: CallFate)] = []
        for seq in 1...800 {
            let kind = kinds[Int(g.next() % UInt64(kinds.count))]
            var v = Verdict(seq: seq, t: Int64(seq), call: calls[Int(g.next() % 2)], verdict: kind,
                            cause: kind == .applied || kind == .noop ? nil : causes[Int(g.next() % UInt64(causes.count))], rule: .V1)
            if kind == .deferred {
                v.outcome = Outcome(kind: .pending, t: v.t, seq: nil)
                pending.append((seq, CallFate(v)))
            }
            builder.add(v)
            expected[CallFate(v), default: 0] += 1
            // Some pending calls are decided later: they leave the pending fate for the decided one.
            if g.next() % 3 == 0, !pending.isEmpty {
                let (callSeq, before) = pending.removeFirst()
                let outcome = Outcome(kind: outcomes[Int(g.next() % UInt64(outcomes.count))],
                                      cause: g.next() % 2 == 0 ? nil : .interrupted, t: Int64(seq), seq: seq)
                builder.decided(callSeq, outcome)
                expected[before, default: 0] -= 1
                if expected[before] == 0 { expected[before] = nil }
                var after = before
                after.outcome = outcome.kind
                after.outcomeCause = outcome.cause
                expected[after, default: 0] += 1
            }
        }
        builder.settleFindingCounts()
        XCTAssertGreaterThan(expected.count, ResultBuilder.fatesScanned)
        XCTAssertEqual(builder.result.callFates, expected)
        XCTAssertEqual(builder.result.verdictCount, 800)
    }
}
