// L1–L3: verdicts on api.switchLayer and the server's confirmation of accepted switches.
import Contract
import TraceModel

extension QualityEngine {
    /// The most subscriptions the engine keeps; a new one beyond it is ignored.
    package static let subscriptionLimit = 10_000

    mutating func subscribed(_ key: TrackKey, _ subscription: Subscription, t: Int64, into out: inout QualitySink) {
        guard state.subscriptions[key] != nil || state.subscriptions.count < Self.subscriptionLimit else {
            guard !state.subscriptionLimitReported else { return }
            state.subscriptionLimitReported = true
            out.append(.finding(findings.limitExceeded("subscriptions", limit: Self.subscriptionLimit, seq: subscription.seq, t: t)))
            return
        }
        state.subscriptions[key] = subscription
    }

    mutating func switchRequested(_ key: TrackKey, target: String, seq: Int, t: Int64, into out: inout QualitySink) {
        func verdict(_ kind: VerdictKind, _ cause: VerdictCause?, causeSeq: Int?, rule: RuleID) -> QualityOutput {
            var v = Verdict(seq: seq, t: t, call: .switchLayer, verdict: kind, cause: cause, causeSeq: causeSeq, rule: rule)
            // V2 extends to switchLayer (L4): the outcome is the verdict, decided at the call, unless its send fails.
            v.outcome = Outcome(kind: OutcomeKind(rawValue: kind.rawValue) ?? .applied, cause: cause, t: t, seq: seq)
            return .verdict(v)
        }
        state.lastSwitchCall = seq
        // L1, checked in this order; not on an engine or transport state from before a part replayed
        // without the parts before it, which no record has said: the call is undetermined.
        if state.vendorFromBefore {
            return out.append(verdict(.undetermined, .stateUnknown, causeSeq: nil, rule: .L1))
        }
        if state.vendor != .seaStart {
            return out.append(verdict(.rejected, .engineNotSupported, causeSeq: state.vendorSeq, rule: .L1))
        }
        if state.transportFromBefore {
            return out.append(verdict(.undetermined, .stateUnknown, causeSeq: nil, rule: .L1))
        }
        if state.transport != .connected {
            return out.append(verdict(.rejected, .transportNotReady, causeSeq: state.transportSeq, rule: .L1))
        }
        // L2. Without a matching api.subscribe the candidates are unknown, so the call cannot be judged
        // out of range (decided): it is taken as sent and L3 still expects a confirmation.
        // A subscription that declared more candidates than it keeps cannot say a target is not among them.
        if let subscription = state.subscriptions[key], subscription.isComplete, !subscription.layers.contains(target) {
            out.append(verdict(.ineffective, .targetNotInCandidates, causeSeq: subscription.seq, rule: .L2))
            out.append(.finding(findings.targetNotInCandidates(key: key, target: target, seq: seq, t: t,
                                                               subscription: subscription)))
            return
        }
        // A newer request for the same subscription supersedes an unconfirmed older one (decided).
        state.pendingSwitches.removeAll { $0.key == key }
        let deadline = t.saturatingAdd(options.layerConfirmTimeoutMs)
        state.pendingSwitches.append(PendingSwitch(seq: seq, t: t, key: key, target: target, deadline: deadline))
        obligations.sentSwitches.removeAll { t - $0.t > options.matchWindowMs }
        obligations.sentSwitches.append(SentSwitch(seq: seq, t: t))
        out.append(verdict(.applied, nil, causeSeq: nil, rule: .V1))
        setDeadline(.layerConfirm(callSeq: seq), due: deadline.saturatingAdd(1), into: &out)
    }

    mutating func serverSwitched(_ info: LayerSwitch) {
        guard state.vendor == .seaStart, info.reason == "client" else { return }
        let key = TrackKey(pubUid: info.pubUid, trackId: info.trackId)
        if let index = state.pendingSwitches.firstIndex(where: { $0.key == key && $0.target == info.toTrackId }) {
            state.pendingSwitches.remove(at: index)  // L3: confirmed
        }
    }

    /// L4: an `sdk.error` for `switchLayer` beginning with `webrtcError`, within the match window after an
    /// accepted call, belongs to the latest such call not matched yet: its send failed, its outcome becomes
    /// `rejected` (webrtcError), and no confirmation is expected for it. Another error for `switchLayer`
    /// after the last call means that call threw: nothing was sent, so no confirmation is expected (decided).
    mutating func sdkErrorObserved(api: String, error: String, seq: Int, t: Int64, into out: inout QualitySink) {
        state.seen.error = true
        guard api.hasPrefix("switchLayer") else { return }
        if error.hasPrefix("webrtcError") {
            obligations.sentSwitches.removeAll { t - $0.t > options.matchWindowMs }
            guard let i = obligations.sentSwitches.lastIndex(where: { $0.t <= t }) else { return }
            let call = obligations.sentSwitches.remove(at: i)
            let pending = state.pendingSwitches.first { $0.seq == call.seq }
            state.pendingSwitches.removeAll { $0.seq == call.seq }
            out.append(.outcome(callSeq: call.seq, Outcome(kind: .rejected, cause: .webrtcError, t: t, seq: seq)))
            out.append(.finding(findings.switchNotSent(callSeq: call.seq, callT: call.t, pending: pending, errorSeq: seq, error: error, t: t)))
            return
        }
        if let last = state.pendingSwitches.last, last.seq == state.lastSwitchCall {
            state.pendingSwitches.removeLast()
            obligations.sentSwitches.removeAll { $0.seq == last.seq }
        }
    }

    mutating func confirmationTimedOut(callSeq: Int, t: Int64, into out: inout QualitySink) {
        guard let index = state.pendingSwitches.firstIndex(where: { $0.seq == callSeq }) else { return }
        let pending = state.pendingSwitches.remove(at: index)
        out.finding(.layerSwitchNotConfirmed, seq: pending.seq, t: t) { findings.switchNotConfirmed(pending, t: t) }
    }
}
