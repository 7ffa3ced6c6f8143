import Contract
import RouteEngine
import TestSupport
import TraceModel
import XCTest

/// Invariants over random record sequences, delivered the way the replayer does (timers due at or
/// before a record's `t` fire before it, in the order they were set; `sdk.*` records after the other records
/// of their ms), against an independent model of the contract (RouteModel.swift) that keeps its own timers:
/// R8's prediction and its branch, V1's verdicts and causes, the state they read (R15's flushes and restores
/// included), the recoveries, the gates and once-only rules of v3's findings, and the findings of R15, R17,
/// R18, I10, I11 and I14 with their times and the records they name.
final class RouteEnginePropertyTests: XCTestCase {
    private let sequences: UInt64 = 500
    private let length = 60
    private let sessionCount: UInt64 = 3000
    private let sessionLength = 80

    /// What one replay produced, for determinism checks and coverage counts.
    private struct Run: Equatable {
        var outputs: [[RouteOutput]] = []
        var finalState = RouteEngine.State()
        var routeCalls = 0
        var recoveries = 0
        var verdictKinds: Set<String> = []
        var outcomeKinds: Set<String> = []
        var codes: [FindingCode: Int] = [:]
        var resets = 0
        /// Findings the model timed itself and the engine matched.
        var modelled = 0
        /// The branches of the model's R15 and same-ms windows the replay took, and how often.
        var reached: [String: Int] = [:]
    }

    /// The order a replay takes records in (contract v3, "Same ms"): every `sdk.*` record after the other records
    /// of its ms; `expect.*` records keep their place, and the `sdk.*` records held before one go before it.
    static func replayOrder(_ records: [Record]) -> [Record] {
        var ordered: [Record] = [], held: [Record] = []
        for record in records {
            if let t = held.first?.t, record.t != t { ordered += held; held = [] }
            if record.body.kind?.family == .sdk { held.append(record); continue }
            if case .expect = record.body { ordered += held; held = [] }
            ordered.append(record)
        }
        return ordered + held
    }

    /// The record a finding the model times names, as the model names it: the opening record of a flush
    /// window (R15), the window's record (R17: the engagement or the recovering record; R18: the leave; I11:
    /// the unhold), the interruption (I10: its first beginning; I14 a, b), the second callback (I14 c).
    static func modelledKey(_ f: Finding) -> Int?? {
        switch f.code {
        case .routeOverrideFlushed: .some(f.seqs.dropFirst().first)
        case .sessionCallPathNotUp, .sessionNotDeactivated, .interruptionNeverRecovered, .callkitNoReactivation,
             .interruptionNoInterruptedCallback, .interruptionDuplicateRecovered: .some(f.seqs.first)
        case .interruptionNoRecoveredCallback: .some(f.seqs.last)
        default: .none
        }
    }

    /// Route-family findings a macOS trace never raises (R16).
    private static let offOnMacOS: Set<String> = ["route", "interruption", "session", "callkit", "audioModule", "app", "device"]

    // swiftlint:disable:next function_body_length cyclomatic_complexity
    private func replay(seed: UInt64, sessions: Bool = false) -> Run {
        let name = sessions ? "session \(seed)" : "seed \(seed)"
        var engine = RouteEngine()
        var model = RouteModel()
        var timers: [RouteTimer] = []
        var run = Run()
        var recoveredPerInterruption: [Int: Int] = [:]
        var outcomes: [Int: Outcome] = [:]
        var seen: Set<String> = []            // record types the trace contained so far
        var firstCallback: [String: Int64] = [:]
        let generated = sessions ? RandomSessions.trace(seed: seed, length: sessionLength) : RandomTraces.trace(seed: seed, length: length)
        let records = Self.replayOrder(generated)
        let layer = records.first.flatMap { if case .header(let h) = $0.body { h.layer } else { nil } } ?? .srtc

        func check(_ outputs: [RouteOutput], record: Record?, expected: RouteModel.ExpectedVerdict?, now: Int64, step: String) {
            let s = engine.state
            let at = "\(name), \(step)"
            run.outputs.append(outputs)
            XCTAssertEqual(s.predictedRoute, model.predicted(), "R8 (v3), \(at)")
            XCTAssertEqual(s.predictionSource?.rule, model.predictedBy, "X4's branch, \(at)")
            XCTAssertEqual(engine.predictionSource, s.predictionSource, at)
            XCTAssertEqual(s.engaged, model.engaged, "R6, R19, \(at)")
            if !model.macOS {
                XCTAssertEqual(s.interrupted, model.interrupted, "I1, I3, I5, I6, I8, I9, I11, \(at)")
                XCTAssertEqual(s.override, model.override, "R3, R6, R15, \(at)")
                XCTAssertEqual(s.overrideSeq, model.overrideSeq, at)
                XCTAssertEqual(s.defaultTarget, model.defaultTarget, at)
                XCTAssertEqual(s.audioModuleEnabled, model.moduleEnabled, "R9, \(at)")
                XCTAssertEqual(s.micPermission, model.mic, "T1, \(at)")
                XCTAssertEqual(s.devices.map(\.id), model.devices.map(\.id), "R4, \(at)")
                XCTAssertEqual(s.devices.map(\.kind), model.devices.map(\.kind), "R14, \(at)")
                XCTAssertEqual(s.callSession?.seq, model.session?.seq, "R19, \(at)")
                XCTAssertEqual(s.callKitActionSeq != nil, model.callKitWindow, "I12, \(at)")
                XCTAssertEqual(s.callKitChoice?.route, model.choice?.route, "I13, \(at)")
                XCTAssertEqual(s.callKitChoice?.readingSeq, model.choice?.seq, "I13, \(at)")
            }
            XCTAssertTrue(!s.interrupted || s.engaged, "interrupted only while engaged, \(at)")
            XCTAssertTrue(!s.recoveryPending || s.interrupted, "pending implies interrupted, \(at)")
            XCTAssertEqual(s.predictionSource == nil, s.predictedRoute == nil, "a prediction has a source (X4), \(at)")

            let verdicts = outputs.compactMap { if case .verdict(let v) = $0 { v } else { nil } }
            XCTAssertEqual(verdicts.count, expected == nil ? 0 : 1, "one verdict per route call, none on macOS (R16), \(at)")
            if let v = verdicts.first, let record, let expected {
                run.routeCalls += 1
                run.verdictKinds.insert(v.verdict.rawValue + "/" + (v.cause?.rawValue ?? "-"))
                XCTAssertEqual(v.seq, record.seq, at)
                XCTAssertEqual(v.rule, .V1, at)
                XCTAssertEqual(RouteModel.ExpectedVerdict(kind: v.verdict, cause: v.cause, causeSeq: v.cause == nil ? nil : v.causeSeq),
                               expected, "V1's order (R14, I12, I13), \(at)")
                let explained = outputs.filter { if case .finding(let f) = $0 { f.code == .routeIneffective } else { false } }
                let expectFinding = v.verdict == .deferred || v.verdict == .ineffective
                XCTAssertEqual(explained.count, expectFinding ? 1 : 0, "one route.ineffective per ineffective call, \(at)")
                guard let o = v.outcome else { return XCTFail("a route call without an outcome, \(at)") }
                XCTAssertEqual(o.kind == .pending, v.verdict == .deferred, "deferred ⇔ pending at the call, \(at)")
                XCTAssertNil(outcomes[v.seq], at)
                outcomes[v.seq] = o
            }
            let recovered = outputs.filter { if case .recovered = $0 { true } else { false } }.count
            XCTAssertEqual(recovered, model.recoveredNow, "the recoveries, \(at)")
            for output in outputs {
                switch output {
                case .recovered(let t):
                    run.recoveries += 1
                    XCTAssertEqual(t, now, at)
                    let key = s.interruptionSeq ?? -1
                    recoveredPerInterruption[key, default: 0] += 1
                    XCTAssertEqual(recoveredPerInterruption[key], 1, "recovered twice for one interruption, \(at)")
                case .timer(let timer):
                    XCTAssertGreaterThan(timer.due, now, at)
                    timers.append(timer)
                case .finding(let f):
                    assertLayerWords(f, layer: layer)
                    XCTAssertFalse(f.seqs.isEmpty, at)
                    run.codes[f.code, default: 0] += 1
                    checkGates(f, at: at)
                case .verdict:
                    break
                case .counted:
                    XCTFail("a sink that keeps findings gets them built, \(at)")
                case let .outcome(callSeq, o):
                    run.outcomeKinds.insert(o.kind.rawValue)
                    XCTAssertEqual(outcomes[callSeq]?.kind, .pending, "only a pending outcome changes, \(at)")
                    XCTAssertNotEqual(o.kind, .pending, at)
                    if o.kind == .superseded || o.kind == .dropped {
                        XCTAssertNil(o.cause, at)
                        XCTAssertGreaterThan(o.seq ?? -1, callSeq, "\(o.kind) names a later record, \(at)")
                    }
                    XCTAssertEqual(o.seq, record?.seq, "the deciding record (nil: a timer), \(at)")
                    outcomes[callSeq] = o
                }
            }
        }

        /// The gates on record kinds (I5, R17, R18 before the due time; I14 at or after the first callback)
        /// and the findings a macOS trace does not raise.
        func checkGates(_ f: Finding, at: String) {
            switch f.code {
            case .sessionCallPathNotUp, .sessionNotRebuiltAfterReset:
                XCTAssertTrue(seen.contains("obs.sessionActivated"), "\(f.code) without an activation recorded, \(at)")
            case .sessionNotDeactivated:
                XCTAssertTrue(seen.contains("obs.sessionDeactivated"), "\(f.code) without a deactivation recorded, \(at)")
            case .interruptionNoInterruptedCallback:
                XCTAssertGreaterThanOrEqual(f.t, firstCallback["sdk.interrupted"] ?? .max, "I14 a's gate, \(at)")
            case .interruptionNoRecoveredCallback:
                XCTAssertGreaterThanOrEqual(f.t, firstCallback["sdk.recovered"] ?? .max, "I14 b's gate, \(at)")
            default:
                break
            }
            if model.macOS, f.code != .appMissingMicUsageDescription, f.code != .deviceNotIOS {
                XCTAssertFalse(Self.offOnMacOS.contains(f.code.rawValue.split(separator: ".")[0].description), "R16: \(f.code), \(at)")
            }
        }

        /// The engine's findings of the codes the model times itself, against the model's.
        func compareFindings(_ outputs: [RouteOutput], at: String) {
            let engineSide = outputs.compactMap { output -> RouteModel.ModelFinding? in
                guard case .finding(let f) = output, let key = Self.modelledKey(f) else { return nil }
                return RouteModel.ModelFinding(code: f.code, t: f.t, seq: key)
            }
            run.modelled += model.raised.count
            XCTAssertEqual(engineSide.sorted(), model.raised.sorted(), "R15, R17, R18, I10, I11, I14: the findings, \(name), \(at)")
        }

        for record in records {
            // The timers of both sides due at or before the record, one ms at a time.
            while let due = ([timers.map(\.due).min(), model.nextDue].compactMap { $0 }.filter { $0 <= record.t }).min() {
                var outputs: [RouteOutput] = []
                while let i = timers.firstIndex(where: { $0.due == due }) {
                    outputs += engine.fire(timers.remove(at: i))
                }
                model.fire(at: due)
                let step = "timers at \(due) before seq \(record.seq)"
                check(outputs, record: nil, expected: nil, now: due, step: step)
                compareFindings(outputs, at: step)
            }
            if case .mediaServicesReset = record.body, engine.state.engaged { run.resets += 1 }
            let outputs = engine.apply(record)
            let isCall: Bool = switch record.body {
            case .setRoute, .setDefaultRoute, .clearRouteOverride: !model.macOS
            default: false
            }
            let expected = model.step(record)
            XCTAssertEqual(expected != nil, isCall, "\(name), seq \(record.seq)")
            if let kind = record.body.kind?.rawValue {
                if kind.hasPrefix("sdk."), firstCallback[kind] == nil { firstCallback[kind] = record.t }
                defer { seen.insert(kind) }
                check(outputs, record: record, expected: expected, now: record.t, step: "seq \(record.seq)")
            } else {
                check(outputs, record: record, expected: expected, now: record.t, step: "seq \(record.seq)")
            }
            compareFindings(outputs, at: "seq \(record.seq)")
        }
        let last = records[records.count - 1]
        model.recoveredNow = 0
        model.finish(t: last.t)
        let end = engine.finish(t: last.t, lastSeq: last.seq)
        check(end, record: nil, expected: nil, now: last.t, step: "finish")
        compareFindings(end, at: "finish")
        XCTAssertTrue(model.retries.allSatisfy { $0.due > last.t }, "\(name): a retry the engine did not ask for")
        XCTAssertEqual(outcomes.count, run.routeCalls, "every route call has exactly one outcome at the end, \(name)")
        XCTAssertLessThanOrEqual(run.codes[.deviceNotIOS] ?? 0, 1, "R16 once, \(name)")
        XCTAssertLessThanOrEqual(run.codes[.traceUnknownValue] ?? 0, 8, "T1 once per field and value, \(name)")
        XCTAssertLessThanOrEqual(run.codes[.interruptionDuplicateRecovered] ?? 0, run.recoveries, "I14 c once per recovery, \(name)")
        run.finalState = engine.state
        run.reached = model.reached
        return run
    }

    func test_properties_overRandomTraces() {
        var calls = 0, recoveries = 0, resets = 0
        var kinds: Set<String> = [], outcomes: Set<String> = [], codes: Set<FindingCode> = []
        for seed in 1...sequences {
            let run = replay(seed: seed)
            calls += run.routeCalls
            recoveries += run.recoveries
            resets += run.resets
            kinds.formUnion(run.verdictKinds)
            outcomes.formUnion(run.outcomeKinds)
            codes.formUnion(run.codes.keys)
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
        let v3: [FindingCode] = [.routeOverrideFlushed, .sessionCallPathNotUp, .sessionNotDeactivated, .interruptionRecoveredEarly,
                                 .interruptionNeverRecovered, .callkitNoReactivation, .callkitBuiltInRouteChosen,
                                 .interruptionNoInterruptedCallback, .interruptionNoRecoveredCallback,
                                 .interruptionDuplicateRecovered, .traceUnknownValue, .deviceNotIOS]
        for code in v3 { XCTAssertTrue(codes.contains(code), "no random trace raised \(code)") }
    }

    /// R15 and the due times of R17, R18, I10, I11 and I14 against the model's own reading (RouteModel+Flush,
    /// RouteModel+Windows), over call sessions that reach the windows' edges; every step also checks R8 and V1.
    func test_properties_flushAndWindowFindingsAgainstTheModel() {
        var codes: [FindingCode: Int] = [:], reached: [String: Int] = [:], modelled = 0
        for seed in 1...sessionCount {
            let run = replay(seed: seed, sessions: true)
            codes.merge(run.codes, uniquingKeysWith: +)
            reached.merge(run.reached, uniquingKeysWith: +)
            modelled += run.modelled
        }
        // The sessions must reach each finding, and R15's restore, often enough for the comparison to matter.
        let modelledCodes: [FindingCode] = [.routeOverrideFlushed, .sessionCallPathNotUp, .sessionNotDeactivated, .interruptionNeverRecovered,
                                            .callkitNoReactivation, .interruptionNoInterruptedCallback, .interruptionNoRecoveredCallback,
                                            .interruptionDuplicateRecovered]
        for code in modelledCodes { XCTAssertGreaterThan(codes[code] ?? 0, 20, "the sessions raised \(code) too rarely") }
        for branch in ["window opened at a device change", "window opened at a recovery", "nothing to decide", "flush when N settles",
                       "O or another route settles", "flush at the closing record", "restore", "callback logged before its interruption",
                       "recovered callback logged before its recovery", "other category logged before its recovery",
                       "deactivation logged before its leave"] {
            XCTAssertGreaterThan(reached[branch] ?? 0, 10, "the sessions reached \(branch) too rarely")
        }
        XCTAssertEqual(modelled, modelledCodes.reduce(0) { $0 + (codes[$1] ?? 0) }, "every finding the model times was compared")
    }

    func test_properties_replayIsDeterministic() {
        for seed in stride(from: UInt64(7), to: 7 + 50 * 13, by: 13) {
            XCTAssertEqual(replay(seed: seed), replay(seed: seed), "seed \(seed)")
        }
    }
}
