import Contract
import TraceModel

// V2 in the model reports read: whether a call took effect in the end, and how late.
extension Verdict {
    /// Whether the call took effect in the end: its outcome is `applied` or `noop` (V2); a call the contract
    /// gives no outcome (`api.switchLayer`) by its verdict.
    public var tookEffect: Bool { outcome?.tookEffect ?? (verdict == .applied || verdict == .noop) }

    /// A deferred call that was applied later (V2): how long after the call, and the record that applied it.
    public var lateEffect: LateEffect? {
        guard verdict == .deferred, let o = outcome, o.kind == .applied else { return nil }
        return LateEffect(delayMs: o.t - t, seq: o.seq)
    }

    /// The key calls that did not take effect are counted by: the outcome (or, without one, the verdict)
    /// and its cause; a pending call keeps the cause it was deferred for.
    public var notTakingEffectKey: OutcomeKey {
        guard let o = outcome else {
            let kind: OutcomeKind = switch verdict {
            case .applied: .applied
            case .noop: .noop
            case .deferred: .pending
            case .ineffective: .ineffective
            case .rejected: .rejected
            }
            return OutcomeKey(kind: kind, cause: cause)
        }
        return OutcomeKey(kind: o.kind, cause: o.kind == .pending ? cause : o.cause)
    }
}

/// How a deferred call took effect later (V2).
public struct LateEffect: Equatable, Sendable {
    /// Milliseconds from the call to the moment it was applied.
    public var delayMs: Int64
    /// The engagement or recovery record that applied it; nil when a timer did (I3's retry).
    public var seq: Int?

    /// Creates a late effect.
    public init(delayMs: Int64, seq: Int?) {
        self.delayMs = delayMs
        self.seq = seq
    }
}

/// A route call whose outcome is still pending, as the replayer tracks it.
struct PendingCall {
    /// The key it is counted under while it does not take effect.
    var key: OutcomeKey
    /// Its index among the kept verdicts, when kept.
    var verdict: Int?
    /// The index of its `route.ineffective` finding among the kept findings, when kept.
    var finding: Int?
}

extension Replayer {
    /// A pending call's outcome was decided at `record` (nil: a timer): the verdict, the counts and the
    /// call's `route.ineffective` finding follow.
    func decided(_ callSeq: Int, _ outcome: Outcome, at record: Record?) {
        guard let call = pendingCalls.removeValue(forKey: callSeq) else { return }
        result.notTakingEffectCounts[call.key, default: 0] -= 1
        if result.notTakingEffectCounts[call.key] == 0 { result.notTakingEffectCounts[call.key] = nil }
        var verdict: Verdict?
        if let i = call.verdict {
            result.verdicts[i].outcome = outcome
            verdict = result.verdicts[i]
        }
        if !outcome.tookEffect, let key = verdict?.notTakingEffectKey ?? Self.key(outcome) {
            result.notTakingEffectCounts[key, default: 0] += 1
        }
        if let i = call.finding, let verdict {
            result.findings[i].message += " " + OutcomeProse.sentence(verdict, at: record, words: result.words)
        }
    }

    /// At the end of the trace, the calls still waiting stay `pending`; their findings say so.
    func callsStillPending() {
        for call in pendingCalls.values {
            guard let i = call.finding else { continue }
            result.findings[i].message += " " + OutcomeProse.stillPending
        }
        pendingCalls.removeAll()
    }

    private static func key(_ o: Outcome) -> OutcomeKey? { OutcomeKey(kind: o.kind, cause: o.cause) }
}

/// What became of a deferred call, in the layer's words, for its `route.ineffective` finding.
enum OutcomeProse {
    static let stillPending = "When the trace ended it was still pending."

    /// The sentence for a decided outcome; `record` is the deciding record (nil: a timer).
    static func sentence(_ v: Verdict, at record: Record?, words w: LayerWords) -> String {
        guard let o = v.outcome else { return "" }
        let delay = "\(formatDuration(o.t - v.t)) later"
        let when: String
        switch record?.body {
        case .joinChannel?, .enterMeeting?: when = "when the app \(w.joined) the \(w.session) (seq \(record!.seq))"
        case .leaveChannel?, .exitMeeting?: when = "when the app \(w.left) the \(w.session) (seq \(record!.seq))"
        case .sessionActivated?, .callKit?: when = "when the audio session was activated again (seq \(record!.seq))"
        case let r?: when = "when the interruption recovered (seq \(record!.seq), \(r.type))"
        case nil: when = "when the interruption recovered at the retry after the system call ended"
        }
        switch o.kind {
        case .applied: return "It took effect \(delay), \(when)."
        case .ineffective:
            return "It was applied \(delay), \(when), but was ineffective then (cause: \(o.cause?.rawValue ?? "unknown"))."
        case .superseded: return "It was superseded by the call at seq \(o.seq.map(String.init) ?? "?") before it took effect."
        case .dropped: return "It was dropped, \(when), before it took effect."
        case .pending: return stillPending
        case .noop, .rejected: return ""
        }
    }
}
