import RouteEngine
import TraceFormat
import XCTest

/// Invariants over random record sequences, delivered the way the replayer does (timers due at or
/// before a record's `t` fire before it).
final class RouteEnginePropertyTests: XCTestCase {
    private let sequences: UInt64 = 500
    private let length = 60

    /// What one replay produced, for determinism checks and coverage counts.
    private struct Run: Equatable {
        var outputs: [[RouteOutput]] = []
        var finalState = RouteEngine.State()
        var routeCalls = 0
        var recoveries = 0
        var verdictKinds: Set<String> = []
    }

    /// The default and override a plain reading of R2, R3 and R6 gives, kept apart from the engine.
    private struct Shadow {
        var defaultTarget: RouteTarget = .earpiece
        var override: RouteTarget?
        var devices: [(id: String, kind: DeviceKind)] = []

        mutating func apply(_ body: RecordBody) {
            switch body {
            case .header(let h): defaultTarget = h.initialDefaultRoute ?? .earpiece
            case .setDefaultRoute(let target): defaultTarget = target
            case .setRoute(let target, _): override = target
            case .clearRouteOverride, .leaveChannel, .exitMeeting: override = nil
            case let .deviceConnected(id, kind, _, _): devices.removeAll { $0.id == id }; devices.append((id, kind))
            case .deviceDisconnected(let id): devices.removeAll { $0.id == id }
            default: break
            }
        }
    }

    private func replay(seed: UInt64) -> Run {
        var engine = RouteEngine()
        var shadow = Shadow()
        var timers: [RouteTimer] = []
        var run = Run()
        var recoveredPerInterruption: [Int: Int] = [:]
        var lastEndedSeq = -1
        let records = RandomTraces.trace(seed: seed, length: length)
        let layer = records.first.flatMap { if case .header(let h) = $0.body { h.layer } else { nil } } ?? .srtc

        func check(_ outputs: [RouteOutput], record: Record?, predictedBefore: Route?, now: Int64, step: String) {
            let s = engine.state
            let where_ = "seed \(seed), \(step)"
            run.outputs.append(outputs)
            XCTAssertEqual(s.defaultTarget, shadow.defaultTarget, where_)
            XCTAssertEqual(s.override, shadow.override, where_)
            XCTAssertEqual(s.effectiveTarget, shadow.override ?? shadow.defaultTarget, where_)
            if s.micPermission == .denied || s.simulator {
                XCTAssertNotEqual(s.predictedRoute, .receiver, "receiver while mic denied or simulator, \(where_)")
            }
            if let last = shadow.devices.last {
                let expected: Route? = s.interrupted || !s.audioModuleEnabled ? nil : last.kind.route
                XCTAssertEqual(s.predictedRoute, expected, "external device wins, \(where_)")
                XCTAssertEqual(s.activeDevice?.id, last.id, where_)
            }
            XCTAssertTrue(!s.interrupted || s.engaged, "interrupted only while engaged, \(where_)")
            XCTAssertTrue(!s.recoveryPending || s.interrupted, "pending implies interrupted, \(where_)")

            let verdicts = outputs.compactMap { if case .verdict(let v) = $0 { v } else { nil } }
            let isCall = record.map { isRouteCall($0.body) } ?? false
            XCTAssertEqual(verdicts.count, isCall ? 1 : 0, "one verdict per route call, \(where_)")
            if let v = verdicts.first, let record {
                run.routeCalls += 1
                run.verdictKinds.insert(v.verdict.rawValue + "/" + (v.cause?.rawValue ?? "-"))
                XCTAssertEqual(v.seq, record.seq, where_)
                XCTAssertEqual(v.rule, .V1, where_)
                if v.verdict == .applied { XCTAssertNotEqual(s.predictedRoute, predictedBefore, "applied ⇒ route changed, \(where_)") }
                let explained = outputs.filter { if case .finding(let f) = $0 { f.code == .routeIneffective } else { false } }
                let expectFinding = v.verdict == .deferred || v.verdict == .ineffective
                XCTAssertEqual(explained.count, expectFinding ? 1 : 0, "one route.ineffective per ineffective call, \(where_)")
                XCTAssertEqual(v.cause != nil, expectFinding, where_)
            }
            for output in outputs {
                switch output {
                case .recovered(let t):
                    run.recoveries += 1
                    XCTAssertEqual(t, now, where_)
                    XCTAssertFalse(s.interrupted, where_)
                    XCTAssertTrue(s.canRecover, "recovered only when the conditions hold, \(where_)")
                    let key = s.interruptionSeq ?? -1
                    recoveredPerInterruption[key, default: 0] += 1
                    XCTAssertEqual(recoveredPerInterruption[key], 1, "recovered twice for one interruption, \(where_)")
                    XCTAssertGreaterThan(lastEndedSeq, key, "recovered before os.interruptionEnded, \(where_)")
                case .timer(let timer):
                    XCTAssertGreaterThan(timer.due, now, where_)
                    timers.append(timer)
                case .finding(let f):
                    assertLayerWords(f, layer: layer)
                    XCTAssertFalse(f.seqs.isEmpty, where_)
                case .verdict:
                    break
                }
            }
        }

        for record in records {
            while let next = timers.enumerated().filter({ $0.element.due <= record.t }).min(by: { $0.element.due < $1.element.due }) {
                timers.remove(at: next.offset)
                let before = engine.state.predictedRoute
                check(engine.fire(next.element), record: nil, predictedBefore: before, now: next.element.due,
                      step: "timer \(next.element) before seq \(record.seq)")
            }
            shadow.apply(record.body)
            if case .interruptionEnded = record.body { lastEndedSeq = record.seq }
            let before = engine.state.predictedRoute
            check(engine.apply(record), record: record, predictedBefore: before, now: record.t, step: "seq \(record.seq)")
        }
        let last = records[records.count - 1]
        check(engine.finish(t: last.t, lastSeq: last.seq), record: nil, predictedBefore: nil, now: last.t, step: "finish")
        run.finalState = engine.state
        return run
    }

    private func isRouteCall(_ body: RecordBody) -> Bool {
        switch body {
        case .setRoute, .setDefaultRoute, .clearRouteOverride: true
        default: false
        }
    }

    func test_properties_overRandomTraces() {
        var calls = 0, recoveries = 0
        var kinds: Set<String> = []
        for seed in 1...sequences {
            let run = replay(seed: seed)
            calls += run.routeCalls
            recoveries += run.recoveries
            kinds.formUnion(run.verdictKinds)
        }
        // The generator must actually reach what the invariants are about.
        XCTAssertGreaterThan(calls, Int(sequences) * 5)
        XCTAssertGreaterThan(recoveries, 50)
        for kind in ["applied/-", "noop/-", "deferred/notEngaged", "deferred/interrupted", "ineffective/audioModuleDisabled",
                     "ineffective/externalRouteActive", "ineffective/overrideActive", "ineffective/simulator",
                     "ineffective/micDenied"] {
            XCTAssertTrue(kinds.contains(kind), "no random trace produced \(kind)")
        }
    }

    func test_properties_replayIsDeterministic() {
        for seed in stride(from: UInt64(7), to: 7 + 50 * 13, by: 13) {
            XCTAssertEqual(replay(seed: seed), replay(seed: seed), "seed \(seed)")
        }
    }
}
