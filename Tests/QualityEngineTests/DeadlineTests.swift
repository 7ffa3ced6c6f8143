// The windows of fixed length as deadlines the engine keeps (what the replayer drives) against the same
// windows as timers delivered back (what the test store drives): the same outputs and the same state.
import Contract
@testable import QualityEngine
import TraceFixtures
import TraceModel
import XCTest

extension PropertyTests {
    func test_property_deadlinesCloseAsTheirTimersFire() {
        var closed = 0
        forEachSeed { seed in
            var rng = SplitMix64(seed: seed)
            var timed = QualityEngine(), kept = QualityEngine()
            var timers: [QualityTimer] = []
            var asTimers = QualitySink(observed: true, deadlinesAsTimers: true), asDeadlines = QualitySink(observed: true)
            let arena = ReplayArena(keepsWhole: true)
            let header = arena.take(Record(seq: 0, t: 0, .header(TraceHeader(layer: rng.chance(50) ? .srtc : .smeeting))))
            timed.apply(header, in: arena, into: &asTimers)
            kept.apply(header, in: arena, into: &asDeadlines)
            var t: Int64 = 0
            func compare(_ what: String) {
                let a = asTimers.outputs.filter { if case .timer = $0 { false } else { true } }
                XCTAssertEqual(a, asDeadlines.outputs, "seed \(seed): \(what)")
                timers += asTimers.outputs.compactMap { if case .timer(let tm) = $0 { tm } else { nil } }
                asTimers.removeAll()
                asDeadlines.removeAll()
            }
            compare("header")
            for seq in 1...Self.length {
                t += Int64(rng.below(4) == 0 ? 0 : rng.below(1500))
                let record = randomRecord(&rng, seq: seq, t: t, current: timed.state.speakers)
                while let i = timers.indices.min(by: { timers[$0].due < timers[$1].due }), timers[i].due <= t {
                    let timer = timers.remove(at: i)
                    timed.fire(timer, into: &asTimers)
                    let deadline = kept.closeDeadline(through: t, into: &asDeadlines)
                    XCTAssertEqual(deadline, timer, "seed \(seed): the deadline that closes is the timer that fires")
                    compare("timer \(timer)")
                    closed += 1
                }
                XCTAssertNil(kept.closeDeadline(through: t, into: &asDeadlines), "seed \(seed): no deadline before its timer")
                let r = arena.take(record)
                timed.apply(r, in: arena, into: &asTimers)
                kept.apply(r, in: arena, into: &asDeadlines)
                compare("seq \(seq)")
                XCTAssertEqual(timed.state, kept.state, "seed \(seed): seq \(seq)")
                XCTAssertEqual(timers.count, kept.deadlines.count, "seed \(seed): one deadline per timer")
            }
            timed.finish(t: t, lastSeq: Self.length, end: .end, into: &asTimers)
            kept.finish(t: t, lastSeq: Self.length, end: .end, into: &asDeadlines)
            compare("finish")
            XCTAssertEqual(timed.summary, kept.summary, "seed \(seed)")
        }
        XCTAssertGreaterThan(closed, 1000, "the traces reach their windows' deadlines")
    }
}
