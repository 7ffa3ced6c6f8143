import Contract
import RouteEngine
import TestSupport
import TraceModel
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
        var outcomeKinds: Set<String> = []
        var resets = 0
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

    // swiftlint:disable:next function_body_length
    private func replay(seed: UInt64) -> Run {
        var engine = RouteEngine()
        var shadow = Shadow()
        var timers: [RouteTimer] = []
        var run = Run()
        var recoveredPerInterruption: [Int: Int] = [:]
        var endedSinceBegin = false
        var awaitingRebuild = false
        var outcomes: [Int: Outcome] = [:]
        let records = RandomTraces.trace(seed: seed, length: length)
        let layer = records.first.flatMap { if case .header(let h) = $0.body { h.layer } else { nil } } ?? .srtc

        func check(_ outputs: [RouteOutput], record: Record?, predictedBefore: Route?, now: Int64, step: String) {
            let s = engine.state
            let where_ = "seed \(seed), \(step)"
            run.outputs.append(outputs)
            XCTAssertEqual(s.defaultTarget, shadow.defaultTarget, where_)
            XCTAssertEqual(s.override, shadow.override, where_)
            XCTAssertEqual(s.effectiveTarget, shadow.override ?? shadow.defaultTarget, where_)
            if s.micPermission == .denied || s.simulator || s.videoChatSeq != nil {
                XCTAssertNotEqual(s.predictedRoute, .receiver, "receiver while mic denied, simulator or videoChat, \(where_)")
            }
            if let last = shadow.devices.last {
                let expected: Route? = s.interrupted || !s.audioModuleEnabled ? nil : last.kind.route
                XCTAssertEqual(s.predictedRoute, expected, "external device wins, \(where_)")
                XCTAssertEqual(s.activeDevice?.id, last.id, where_)
            }
            XCTAssertTrue(!s.interrupted || s.engaged, "interrupted only while engaged, \(where_)")
            XCTAssertTrue(!s.recoveryPending || s.interrupted, "pending implies interrupted, \(where_)")
            XCTAssertEqual(s.predictionSource == nil, s.predictedRoute == nil, "a prediction has a source (X4), \(where_)")
            XCTAssertEqual(engine.predictionSource, s.predictionSource, where_)
            if awaitingRebuild { XCTAssertTrue(s.interrupted, "a reset with no activation never recovers, \(where_)") }

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
                guard let o = v.outcome else { return XCTFail("a route call without an outcome, \(where_)") }
                XCTAssertEqual(o.kind == .pending, v.verdict == .deferred, "deferred ⇔ pending at the call, \(where_)")
                XCTAssertNil(outcomes[v.seq], where_)
                outcomes[v.seq] = o
            }
            let endsNeverArrived = outputs.contains { if case .finding(let f) = $0 { f.code == .interruptionEndNeverArrived } else { false } }
            for output in outputs {
                switch output {
                case .recovered(let t):
                    run.recoveries += 1
                    XCTAssertEqual(t, now, where_)
                    XCTAssertFalse(s.interrupted, where_)
                    XCTAssertFalse(awaitingRebuild, "a reset with no activation never recovers, \(where_)")
                    let key = s.interruptionSeq ?? -1
                    recoveredPerInterruption[key, default: 0] += 1
                    XCTAssertEqual(recoveredPerInterruption[key], 1, "recovered twice for one interruption, \(where_)")
                    if case .mediaServicesReset? = records.first(where: { $0.seq == key })?.body {
                        // I5: the rebuild is a successful activation or CallKit's didActivate.
                    } else {
                        XCTAssertTrue(endedSinceBegin || endsNeverArrived, "recovered without an end or I6, \(where_)")
                        XCTAssertTrue(s.canRecover, "recovered only when the conditions hold, \(where_)")
                    }
                case .timer(let timer):
                    XCTAssertGreaterThan(timer.due, now, where_)
                    timers.append(timer)
                case .finding(let f):
                    assertLayerWords(f, layer: layer)
                    XCTAssertFalse(f.seqs.isEmpty, where_)
                case .verdict:
                    break
                case let .outcome(callSeq, o):
                    run.outcomeKinds.insert(o.kind.rawValue)
                    XCTAssertEqual(outcomes[callSeq]?.kind, .pending, "only a pending outcome changes, \(where_)")
                    XCTAssertNotEqual(o.kind, .pending, where_)
                    if o.kind == .superseded || o.kind == .dropped {
                        XCTAssertNil(o.cause, where_)
                        XCTAssertGreaterThan(o.seq ?? -1, callSeq, "\(o.kind) names a later record, \(where_)")
                    }
                    XCTAssertEqual(o.seq, record?.seq, "the deciding record (nil: a timer), \(where_)")
                    outcomes[callSeq] = o
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
            let wasEngaged = engine.state.engaged
            switch record.body {
            case .interruptionEnded: endedSinceBegin = true
            case .interruptionBegan where engine.state.resetSeq == nil: endedSinceBegin = false
            case .mediaServicesReset where wasEngaged:
                awaitingRebuild = true
                run.resets += 1
            case .sessionActivated(let a) where a.ok: awaitingRebuild = false
            case .callKit(.didActivate, _), .leaveChannel, .exitMeeting: awaitingRebuild = false
            default: break
            }
            let before = engine.state.predictedRoute
            check(engine.apply(record), record: record, predictedBefore: before, now: record.t, step: "seq \(record.seq)")
        }
        let last = records[records.count - 1]
        check(engine.finish(t: last.t, lastSeq: last.seq), record: nil, predictedBefore: nil, now: last.t, step: "finish")
        XCTAssertEqual(outcomes.count, run.routeCalls, "every route call has exactly one outcome at the end, seed \(seed)")
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
        var calls = 0, recoveries = 0, resets = 0
        var kinds: Set<String> = [], outcomes: Set<String> = []
        for seed in 1...sequences {
            let run = replay(seed: seed)
            calls += run.routeCalls
            recoveries += run.recoveries
            resets += run.resets
            kinds.formUnion(run.verdictKinds)
            outcomes.formUnion(run.outcomeKinds)
        }
        // The generator must actually reach what the invariants are about.
        XCTAssertGreaterThan(calls, Int(sequences) * 5)
        XCTAssertGreaterThan(recoveries, 50)
        XCTAssertGreaterThan(resets, 50)
        for kind in ["applied/-", "noop/-", "deferred/notEngaged", "deferred/interrupted", "ineffective/audioModuleDisabled",
                     "ineffective/externalRouteActive", "ineffective/overrideActive", "ineffective/simulator",
                     "ineffective/micDenied", "ineffective/videoChatMode"] {
            XCTAssertTrue(kinds.contains(kind), "no random trace produced \(kind)")
        }
        for kind in ["applied", "ineffective", "superseded", "dropped"] {
            XCTAssertTrue(outcomes.contains(kind), "no random trace decided a deferred call as \(kind)")
        }
    }

    func test_properties_replayIsDeterministic() {
        for seed in stride(from: UInt64(7), to: 7 + 50 * 13, by: 13) {
            XCTAssertEqual(replay(seed: seed), replay(seed: seed), "seed \(seed)")
        }
    }
}
