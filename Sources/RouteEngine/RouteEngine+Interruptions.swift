import Contract
import TraceModel

// I1–I4, I6, I8–I10: interruptions, system calls and recovery.
extension RouteEngine {
    /// I1: only an engaged path can be interrupted; each begin starts a new interruption (I6). Ignored during
    /// a media services reset (I5) and a CallKit hold (I11). A stale interruption (I9: wasSuspended or
    /// appWasSuspended) has already ended: it is pending at once and attempts recovery at its own record.
    mutating func interruptionBegan(_ record: Record, stale: Bool, into out: inout RouteSink) {
        // R17: an interruption takes the call path down, engaged or not, and also when a reset or a hold
        // makes the engine ignore it (iOS deactivated the session all the same).
        state.callPathUp = false
        guard state.engaged, state.interruptionKind != .reset, state.interruptionKind != .hold else { return }
        closeFlushWindow(t: record.t, into: &out)
        let wasInterrupted = state.interrupted
        state.interrupted = true
        state.interruptionKind = stale ? .stale : .system
        state.recoveryPending = false
        state.interruptionSeq = record.seq
        state.activatedSinceInterruption = false
        state.callUpDuringInterruption = state.callState.isCallUp
        state.callEndedAt = nil
        state.callKitChoice = nil
        state.callPathUp = false
        // R15 (b): an override set during an interruption that this one replaces is still to be applied at the
        // recovery (V2 decides the deferred call there).
        if !wasInterrupted { obligations.overrideChangedWhileInterrupted = false }
        obligations.callPath = []
        obligations.recoveredCallbacks = nil
        obligations.sameMs.recoveredWhileInterrupted = []
        if !wasInterrupted { obligations.silentSince = RouteReading(route: .unknown, t: record.t, seq: record.seq) }
        if stale {
            state.recoveryPending = true
            return attemptRecovery(t: record.t, triggerSeq: record.seq, decidedBy: record.seq, into: &out)
        }
        if !wasInterrupted { interruptedCallbackDue(record, into: &out) }
    }

    /// I2, I3: the end of an interruption starts pending recovery and is the first attempt.
    mutating func interruptionEnded(_ record: Record, into out: inout RouteSink) {
        guard state.interruptionKind == .system else { return }
        state.recoveryPending = true
        attemptRecovery(t: record.t, triggerSeq: record.seq, decidedBy: record.seq, into: &out)
    }

    /// I3: a call that ends while interrupted schedules an attempt D ms later (`idle` does not, decided).
    ///
    /// The timer is asked for whenever the path is interrupted, pending or not; when it fires it attempts
    /// if recovery is pending by then (I3), or recovers without the end if it never came (I6 (a)).
    mutating func callStateChanged(_ callState: CallState, _ record: Record, into out: inout RouteSink) {
        let wasUp = state.callState.isCallUp
        state.callState = callState
        guard state.interruptionKind == .system || state.interruptionKind == .stale,
              let interruptionSeq = state.interruptionSeq else { return }
        if callState.isCallUp {
            state.callUpDuringInterruption = true
        } else if wasUp {
            state.callEndedAt = record.t
        }
        guard callState == .disconnected else { return }
        let kind = RouteTimerKind.recoveryRetry(interruptionSeq: interruptionSeq, callStateSeq: record.seq)
        out.append(.timer(RouteTimer(due: record.t.saturatingAdd(options.retryDelayMs), kind: kind)))
    }

    /// I3 (attempt on return to the foreground), I6 (b) and app.missingBackgroundAudio.
    mutating func appStateChanged(_ appState: AppState, _ record: Record, into out: inout RouteSink) {
        switch appState {
        case .foreground:
            state.foreground = true
            if state.recoveryPending { return attemptRecovery(t: record.t, triggerSeq: record.seq, decidedBy: record.seq, into: &out) }
            // I6 (b): every foreground record, if no system call was up during this interruption or the last one
            // ended at least D ms before.
            guard state.interruptionKind == .system else { return }
            let callLongOver = state.callEndedAt.map { record.t - $0 >= options.retryDelayMs } ?? false
            guard !state.callUpDuringInterruption || callLongOver else { return }
            recoverWithoutEnd(t: record.t, triggerSeq: record.seq, decidedBy: record.seq, into: &out)
        case .background:
            let wasForeground = state.foreground
            state.foreground = false
            guard wasForeground, state.engaged, !state.backgroundAudio else { return }
            out.append(.finding(missingBackgroundAudioFinding(record)))
        case .unlisted:
            // T1: a state the format does not list leaves the state as it was.
            break
        }
    }

    /// I3: the first attempt whose conditions hold recovers, exactly once per interruption.
    mutating func attemptRecovery(t: Int64, triggerSeq: Int, decidedBy: Int?, into out: inout RouteSink) {
        guard state.interruptionKind == .system || state.interruptionKind == .stale, state.recoveryPending,
              state.canRecover else { return }
        recover(t: t, triggerSeq: triggerSeq, decidedBy: decidedBy, into: &out)
    }

    /// I6: an interruption whose end never came recovers as if it had ended, when I2's conditions hold.
    mutating func recoverWithoutEnd(t: Int64, triggerSeq: Int, decidedBy: Int?, into out: inout RouteSink) {
        guard state.interruptionKind == .system, !state.recoveryPending, state.canRecover,
              let interruptionSeq = state.interruptionSeq else { return }
        let finding = endNeverArrivedFinding(interruptionSeq: interruptionSeq, triggerSeq: triggerSeq,
                                             byTimer: decidedBy == nil, t: t)
        recover(t: t, triggerSeq: triggerSeq, decidedBy: decidedBy, into: &out)
        out.append(.finding(finding))
    }

    /// I8: a successful call-session activation while an I1 interruption is open (engaged, no system call
    /// up) is the recovery. In the background it came early; without an end, the end never arrived.
    mutating func recoverByActivation(_ record: Record, into out: inout RouteSink) {
        guard state.interruptionKind == .system, state.engaged, !state.callState.isCallUp,
              let interruptionSeq = state.interruptionSeq else { return }
        let early = !state.foreground, endless = !state.recoveryPending
        recover(t: record.t, triggerSeq: record.seq, decidedBy: record.seq, activated: true, into: &out)
        if early { out.append(.finding(recoveredEarlyFinding(record, interruptionSeq: interruptionSeq))) }
        if endless {
            out.append(.finding(endNeverArrivedFinding(interruptionSeq: interruptionSeq, triggerSeq: record.seq,
                                                       byTimer: false, t: record.t, byActivation: true)))
        }
    }

    /// The recovery itself (I3, I6, I8, I9): interrupted clears, the route is re-applied per R8, the
    /// recovered callback is due (not after I9), the recovery window opens (met at once by the recovering
    /// activation, or by one that came while a stale interruption was pending), the calls deferred
    /// meanwhile are decided (V2), the call path must come up (R17) and a flush window may open (R15).
    private mutating func recover(t: Int64, triggerSeq: Int, decidedBy: Int?, activated: Bool = false, into out: inout RouteSink) {
        guard let interruptionSeq = state.interruptionSeq else { return }
        let stale = state.interruptionKind == .stale
        let pathUp = activated || state.callPathUp
        // Same ms (v3): an activation or a recovered callback logged earlier in this ms is in the windows
        // the recovery opens.
        let ms = sameMs(at: t)
        state.interrupted = false
        state.interruptionKind = nil
        state.recoveryPending = false
        state.predictionSeq = triggerSeq
        out.append(.recovered(t: t))
        if pathUp {
            state.pendingConfirmation = nil
            state.activatedSinceInterruption = true
        } else if ms?.activation != nil || ms?.recoveredCallback == true {
            state.pendingConfirmation = nil
        } else {
            state.pendingConfirmation = PendingConfirmation(interruptionSeq: interruptionSeq, triggerSeq: triggerSeq, recoveredAt: t)
        }
        if stale {
            obligations.latestCallbackT = nil
        } else {
            obligations.callbacks.append(CallbackWindow(interruptionSeq: interruptionSeq, triggerSeq: decidedBy, t: t,
                                                        activated: activated || ms?.activation != nil, called: ms?.recoveredCallback == true))
            obligations.latestCallbackT = t
        }
        recoveredCallbacksBefore(ms, t: t, into: &out)
        obligations.silentSince = nil
        if obligations.recoveryExplanation?.from == nil { obligations.recoveryExplanation?.from = t }
        if !pathUp || !stale {
            out.append(.timer(RouteTimer(due: Self.due(t, options.recoveryWindowMs), kind: .recoveryWindow(interruptionSeq: interruptionSeq))))
        }
        decidePendingCalls(t: t, by: decidedBy, into: &out)
        if !pathUp { openCallPathWindow(decidedBy ?? triggerSeq, t: t, afterRecovery: true, into: &out) }
        openFlushWindow(openedBy: interruptionSeq, t: t, reading: readingInForce(at: t), atRecovery: true, into: &out)
    }

    /// The end of the recovery window: nothing came (interruption.notRecovered), or an activation came but
    /// no recovered callback (I14 b).
    mutating func recoveryWindowClosed(interruptionSeq: Int, t: Int64, into out: inout RouteSink) {
        if let pending = state.pendingConfirmation, pending.interruptionSeq == interruptionSeq {
            state.pendingConfirmation = nil
            if obligations.recoveryExplanation == nil {
                obligations.recoveryExplanation = RecoveryExplanation(code: .interruptionNotRecovered, from: pending.recoveredAt,
                                                                      seq: pending.triggerSeq)
            }
            out.append(.finding(notRecoveredFinding(pending, t: t)))
        }
        if let i = obligations.callbacks.firstIndex(where: { $0.interruptionSeq == interruptionSeq }) {
            let window = obligations.callbacks.remove(at: i)
            if obligations.callbacks.isEmpty { obligations.latestCallbackT = nil }
            if window.activated && !window.called { noRecoveredCallback(window, t: t, into: &out) }
        }
    }

    /// A successful activation, or CallKit's `didActivate` (I7): it confirms a recovery, counts for I4's
    /// second half and I14 (b), and is the rebuild after a media services reset (I5).
    mutating func activationSucceeded(_ record: Record, into out: inout RouteSink) {
        if state.activatedSinceInterruption != nil { state.activatedSinceInterruption = true }
        if state.pendingConfirmation != nil { state.pendingConfirmation = nil }
        for i in obligations.callbacks.indices { obligations.callbacks[i].activated = true }
        noteSameMs(record.t) { $0.activation = Activation(seq: record.seq, t: record.t) }
        obligations.recoveryExplanation = nil
        if state.interruptionKind == .reset { rebuilt(activation: record.seq, decidedBy: record.seq, t: record.t, into: &out) }
    }

    /// I4 (recovered without activation), recovery confirmation, I14 (b) and (c).
    mutating func sdkRecovered(_ record: Record, into out: inout RouteSink) {
        recoveredCallbackSeen(record, into: &out)
        state.pendingConfirmation = nil
        guard state.activatedSinceInterruption == false else { return }
        // X3: it explains divergences from the recovery it names (a callback before the recovery: from that
        // recovery) until the next successful activation; the earlier raised of the two findings names it.
        if obligations.recoveryExplanation == nil {
            obligations.recoveryExplanation = RecoveryExplanation(code: .interruptionRecoveredWithoutActivation,
                                                                  from: state.interrupted ? nil : obligations.latestCallbackT ?? record.t,
                                                                  seq: record.seq)
        }
        out.append(.finding(recoveredWithoutActivationFinding(record)))
    }

    /// I10: an interruption still open at a leave or at the end, lasting longer than the recovery window,
    /// with no system call up and the app in the foreground: the call was silent from it on.
    mutating func neverRecoveredCheck(at record: Record?, seq: Int, t: Int64, end: TraceEnd = .end, into out: inout RouteSink) {
        guard state.interruptionKind == .system || state.interruptionKind == .stale, let since = obligations.silentSince,
              t - since.t > options.recoveryWindowMs, !state.callState.isCallUp, state.foreground else { return }
        obligations.silentSince = nil
        out.append(.finding(neverRecoveredFinding(beganSeq: since.seq, beganAt: since.t, endSeq: record?.seq, t: t, end: end)))
    }

    /// I14 (c) at a recovery: the recovered callbacks logged earlier in its ms, after the interruption began,
    /// are its first ones (same ms, v3); a second among them is a duplicate.
    mutating func recoveredCallbacksBefore(_ ms: SameMs?, t: Int64, into out: inout RouteSink) {
        let before = ms?.recoveredWhileInterrupted ?? []
        obligations.recoveredCallbacks = before.count
        obligations.sameMs.recoveredWhileInterrupted = []
        if before.count >= 2 { out.append(.finding(duplicateRecoveredFinding(seq: before[1], t: t))) }
    }
}
