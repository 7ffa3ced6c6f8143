import Contract
import RouteEngine
import TestSupport
import TraceModel

// The route engine is tested through the shared store (Tests/TestSupport/TestStore.swift): send a
// record, assert the whole next state and the exact outputs. These are the route helpers.

/// The shared test store around a route engine.
typealias TestStore = TestSupport.TestStore<RouteEngine>

/// Blanks a finding's message and advice, which tests check on their own.
func stripProse(_ output: RouteOutput) -> RouteOutput {
    RouteEngine.withoutProse(output)
}

/// A finding to compare against (prose blanked); `call` is the call whose verdict it explains.
func finding(_ code: String, _ severity: Severity, _ rule: String?, _ seqs: [Int], t: Int64, call: Int? = nil) -> RouteOutput {
    .finding(Finding(code: FindingCode(rawValue: code)!, severity: severity, rule: rule.map { RuleID(rawValue: $0)! },
                     seqs: seqs, t: t, message: "", advice: "", call: call))
}

/// A V1 verdict to compare against, with the outcome V2 decides at the call (`pending` when deferred).
func verdict(_ seq: Int, _ call: String, _ kind: VerdictKind, _ cause: VerdictCause? = nil, causeSeq: Int? = nil,
             t: Int64, api: String? = nil) -> RouteOutput {
    var v = Verdict(seq: seq, t: t, call: RecordKind(rawValue: call)!, api: api, verdict: kind, cause: cause, causeSeq: causeSeq, rule: .V1)
    v.outcome = kind == .deferred ? Outcome(kind: .pending, t: t, seq: nil)
        : Outcome(kind: OutcomeKind(rawValue: kind.rawValue)!, cause: cause, t: t, seq: seq)
    return .verdict(v)
}

/// A later outcome decision (V2) to compare against; `by` nil for a timer.
func outcome(_ callSeq: Int, _ kind: OutcomeKind, _ cause: VerdictCause? = nil, t: Int64, by: Int?) -> RouteOutput {
    .outcome(callSeq: callSeq, Outcome(kind: kind, cause: cause, t: t, seq: by))
}

/// A timer the engine asks for, to compare against: due at `due` (a window of W ms opened at t0 falls due
/// at t0 + W + 1).
func timer(_ due: Int64, _ kind: RouteTimerKind) -> RouteOutput {
    .timer(RouteTimer(due: due, kind: kind))
}

/// A successful call-session activation (`playAndRecord`).
func callSession(_ mode: String? = "voiceChat", _ options: [String] = ["allowBluetooth"]) -> RecordBody {
    .sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: mode, options: options))
}

/// An activation that failed with `error`.
func failedActivation(_ error: String = "cannotInterruptOthers", category: String = "playAndRecord") -> RecordBody {
    .sessionActivated(SessionActivation(ok: false, error: error, category: category))
}

/// A successful activation in another category (not a call session).
func otherActivation(_ category: String = "playback", mode: String? = "default") -> RecordBody {
    .sessionActivated(SessionActivation(ok: true, category: category, mode: mode))
}

/// A deactivation; `ok` nil is the pre-v3 spelling (taken as `true`).
func deactivation(ok: Bool? = nil, error: String? = nil, notifyOthers: Bool = true) -> RecordBody {
    .sessionDeactivated(notifyOthers: notifyOthers, ok: ok, error: error)
}

/// A reading of the device's route.
func reading(_ route: Route, _ reason: RouteChangeReason = .routeConfigurationChange) -> RecordBody {
    .routeChanged(route: route, previousRoute: .unknown, reason: reason)
}

/// A header for tests.
func header(_ layer: Layer = .srtc, simulator: Bool = false, micUsage: Bool = true, backgroundAudio: Bool = true,
            initialDefault: RouteTarget? = nil) -> RecordBody {
    .header(TraceHeader(layer: layer, device: .init(simulator: simulator),
                        app: .init(micUsageDescription: micUsage, backgroundAudio: backgroundAudio),
                        initialDefaultRoute: initialDefault))
}

extension TestSupport.TestStore where Engine == RouteEngine {
    /// A store past its header (seq 0) and, when `engaged`, a join or enter at seq 1; both asserted loosely.
    static func started(_ layer: Layer = .srtc, engaged: Bool = true, initialDefault: RouteTarget? = nil,
                        simulator: Bool = false, options: RouteEngine.Options = .init()) -> Self {
        var store = Self(options: options)
        store.skip(header(layer, simulator: simulator, initialDefault: initialDefault))
        if engaged { store.skip(layer == .srtc ? .joinChannel(channel: "c") : .enterMeeting(room: "r")) }
        return store
    }
}

extension RouteEngine.State {
    /// The state change of an interruption that begins at `seq` while the engine was not interrupted (I1,
    /// I5, I11): interrupted, no prediction, the call path down (R17).
    mutating func interruptedBy(_ seq: Int, _ kind: RouteEngine.InterruptionKind = .system) {
        interrupted = true
        interruptionKind = kind
        interruptionSeq = seq
        activatedSinceInterruption = false
        callPathUp = false
        if kind == .reset { resetSeq = seq }
    }

    /// The state change of a recovery (I3, I5, I6, I8, I11) at `trigger`.
    mutating func recoveredAt(_ trigger: Int) {
        interrupted = false
        interruptionKind = nil
        recoveryPending = false
        predictionSeq = trigger
    }

    /// The state change of a successful call-session activation (R19, R17): the session that is up, the
    /// call path up.
    mutating func callSessionUp(_ seq: Int, _ mode: String?, options: [String] = [], missingAllowBluetooth: Bool = false,
                                missingDefaultToSpeaker: Bool = false) {
        callSession = .init(seq: seq, mode: mode, allowsAirPlay: mode == "videoChat" || options.contains("allowAirPlay"),
                            missingAllowBluetooth: missingAllowBluetooth, missingDefaultToSpeaker: missingDefaultToSpeaker)
        callPathUp = true
    }
}

/// Replays `records` (time and body; seqs from 1, after `header` at seq 0) through a fresh engine as the
/// replayer does: the timers due at or before a record's `t` fire before it, in the order they were set, and
/// none fires after the last record. Returns the engine after the end and every finding raised, in order.
func replayed(_ records: [(Int64, RecordBody)], header: RecordBody = header()) -> (engine: RouteEngine, findings: [Finding]) {
    var engine = RouteEngine()
    var timers: [RouteTimer] = []
    var findings: [Finding] = []
    func absorb(_ outputs: [RouteOutput]) {
        for output in outputs {
            if case .timer(let timer) = output { timers.append(timer) }
            if case .finding(let f) = output { findings.append(f) }
        }
    }
    absorb(engine.apply(Record(seq: 0, t: 0, header)))
    for (i, (t, body)) in records.enumerated() {
        while let next = timers.indices.filter({ timers[$0].due <= t }).min(by: { timers[$0].due < timers[$1].due }) {
            absorb(engine.fire(timers.remove(at: next)))
        }
        absorb(engine.apply(Record(seq: i + 1, t: t, body)))
    }
    absorb(engine.finish(t: records.last?.0 ?? 0, lastSeq: records.count))
    return (engine, findings)
}

/// The findings of `code`, each as its record seqs and its time: `"[7, 6, 3]@5501"`.
func raised(_ code: FindingCode, in findings: [Finding]) -> [String] {
    findings.filter { $0.code == code }.map { "\($0.seqs)@\($0.t)" }
}
