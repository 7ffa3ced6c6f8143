import TraceModel

// I1–I4 and I6: interruptions, system calls and recovery.
extension RouteEngine {
    /// I1: only an engaged path can be interrupted; each begin starts a new interruption (I6). Ignored until
    /// the rebuild after a media services reset (I5).
    mutating func interruptionBegan(_ record: Record) -> [RouteOutput] {
        guard state.engaged, state.resetSeq == nil else { return [] }
        state.interrupted = true
        state.recoveryPending = false
        state.interruptionSeq = record.seq
        state.activatedSinceInterruption = false
        state.callUpDuringInterruption = state.callState.isCallUp
        state.callEndedAt = nil
        return []
    }

    /// I2, I3: the end of an interruption starts pending recovery and is the first attempt.
    mutating func interruptionEnded(_ record: Record) -> [RouteOutput] {
        guard state.interrupted, state.resetSeq == nil else { return [] }
        state.recoveryPending = true
        return attemptRecovery(t: record.t, triggerSeq: record.seq, decidedBy: record.seq)
    }

    /// I3: a call that ends while interrupted schedules an attempt D ms later (`idle` does not, decided).
    ///
    /// The timer is asked for whenever the path is interrupted, pending or not; when it fires it attempts
    /// if recovery is pending by then (I3), or recovers without the end if it never came (I6 (a)).
    mutating func callStateChanged(_ callState: CallState, _ record: Record) -> [RouteOutput] {
        let wasUp = state.callState.isCallUp
        state.callState = callState
        guard state.interrupted, state.resetSeq == nil, let interruptionSeq = state.interruptionSeq else { return [] }
        if callState.isCallUp {
            state.callUpDuringInterruption = true
        } else if wasUp {
            state.callEndedAt = record.t
        }
        guard callState == .disconnected else { return [] }
        let kind = RouteTimerKind.recoveryRetry(interruptionSeq: interruptionSeq, callStateSeq: record.seq)
        return [.timer(RouteTimer(due: record.t.saturatingAdd(options.retryDelayMs), kind: kind))]
    }

    /// I3 (attempt on return to the foreground), I6 (b) and app.missingBackgroundAudio.
    mutating func appStateChanged(_ appState: AppState, _ record: Record) -> [RouteOutput] {
        switch appState {
        case .foreground:
            state.foreground = true
            if state.recoveryPending { return attemptRecovery(t: record.t, triggerSeq: record.seq, decidedBy: record.seq) }
            // I6 (b): every foreground record, if no system call was up during this interruption or the last one
            // ended at least D ms before.
            guard state.interrupted, state.resetSeq == nil else { return [] }
            let callLongOver = state.callEndedAt.map { record.t - $0 >= options.retryDelayMs } ?? false
            guard !state.callUpDuringInterruption || callLongOver else { return [] }
            return recoverWithoutEnd(t: record.t, triggerSeq: record.seq, decidedBy: record.seq)
        case .background:
            let wasForeground = state.foreground
            state.foreground = false
            guard wasForeground, state.engaged, !state.backgroundAudio else { return [] }
            return [.finding(missingBackgroundAudioFinding(record))]
        case .unlisted:
            // T1: a state the format does not list leaves the state as it was.
            return []
        }
    }

    /// I3: the first attempt whose conditions hold recovers, exactly once per interruption.
    mutating func attemptRecovery(t: Int64, triggerSeq: Int, decidedBy: Int?) -> [RouteOutput] {
        guard state.interrupted, state.recoveryPending, state.canRecover else { return [] }
        return recover(t: t, triggerSeq: triggerSeq, decidedBy: decidedBy)
    }

    /// I6: an interruption whose end never came recovers as if it had ended, when I2's conditions hold.
    mutating func recoverWithoutEnd(t: Int64, triggerSeq: Int, decidedBy: Int?) -> [RouteOutput] {
        guard state.interrupted, !state.recoveryPending, state.canRecover, let interruptionSeq = state.interruptionSeq
        else { return [] }
        let finding = endNeverArrivedFinding(interruptionSeq: interruptionSeq, triggerSeq: triggerSeq,
                                             byTimer: decidedBy == nil, t: t)
        return recover(t: t, triggerSeq: triggerSeq, decidedBy: decidedBy) + [.finding(finding)]
    }

    /// The recovery itself (I3, I6): interrupted clears, the route is re-applied per R8, the recovered
    /// callback is due, the recovery window opens, and the calls deferred meanwhile are decided (V2).
    private mutating func recover(t: Int64, triggerSeq: Int, decidedBy: Int?) -> [RouteOutput] {
        guard let interruptionSeq = state.interruptionSeq else { return [] }
        state.interrupted = false
        state.recoveryPending = false
        state.predictionSeq = triggerSeq
        state.pendingConfirmation = PendingConfirmation(
            interruptionSeq: interruptionSeq, triggerSeq: triggerSeq, recoveredAt: t)
        let window = RouteTimer(due: t.saturatingAdd(options.recoveryWindowMs), kind: .recoveryWindow(interruptionSeq: interruptionSeq))
        return [.recovered(t: t), .timer(window)] + decidePendingCalls(t: t, by: decidedBy)
    }

    /// A successful activation, or CallKit's `didActivate` (I7): it confirms a recovery, counts for I4's
    /// second half, and is the rebuild after a media services reset (I5).
    mutating func activationSucceeded(_ record: Record) -> [RouteOutput] {
        if state.activatedSinceInterruption != nil { state.activatedSinceInterruption = true }
        state.pendingConfirmation = nil
        return state.resetSeq == nil ? [] : rebuilt(record)
    }

    /// I4 (recovered without activation) and recovery confirmation.
    mutating func sdkRecovered(_ record: Record) -> [RouteOutput] {
        state.pendingConfirmation = nil
        guard state.activatedSinceInterruption == false else { return [] }
        return [.finding(recoveredWithoutActivationFinding(record))]
    }
}
