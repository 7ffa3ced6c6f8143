import TraceFormat

// I1–I4: interruptions, system calls and recovery.
extension RouteEngine {
    /// I1: only an engaged path can be interrupted.
    mutating func interruptionBegan(_ record: Record) -> [RouteOutput] {
        guard state.engaged else { return [] }
        state.interrupted = true
        state.recoveryPending = false
        state.interruptionSeq = record.seq
        state.activatedSinceInterruption = false
        return []
    }

    /// I2, I3: the end of an interruption starts pending recovery and is the first attempt.
    mutating func interruptionEnded(_ record: Record) -> [RouteOutput] {
        guard state.interrupted else { return [] }
        state.recoveryPending = true
        return attemptRecovery(t: record.t, triggerSeq: record.seq)
    }

    /// I3: a call that ends while interrupted schedules an attempt D ms later.
    ///
    /// The timer is asked for whenever the path is interrupted, pending or not; when it fires it
    /// attempts only if recovery is pending by then (decided: "only then are attempts made").
    mutating func callStateChanged(_ callState: CallState, _ record: Record) -> [RouteOutput] {
        state.callState = callState
        guard callState == .disconnected, state.interrupted, let interruptionSeq = state.interruptionSeq else { return [] }
        let kind = RouteTimer.Kind.recoveryRetry(interruptionSeq: interruptionSeq, callStateSeq: record.seq)
        return [.timer(RouteTimer(due: record.t + options.retryDelayMs, kind: kind))]
    }

    /// I3 (attempt on return to the foreground) and app.missingBackgroundAudio.
    mutating func appStateChanged(_ appState: AppState, _ record: Record) -> [RouteOutput] {
        switch appState {
        case .foreground:
            state.foreground = true
            return attemptRecovery(t: record.t, triggerSeq: record.seq)
        case .background:
            let wasForeground = state.foreground
            state.foreground = false
            guard wasForeground, state.engaged, !state.backgroundAudio else { return [] }
            return [.finding(missingBackgroundAudioFinding(record))]
        }
    }

    /// I3: the first attempt whose conditions hold recovers, exactly once per interruption.
    mutating func attemptRecovery(t: Int64, triggerSeq: Int) -> [RouteOutput] {
        guard state.interrupted, state.recoveryPending, state.canRecover,
              let interruptionSeq = state.interruptionSeq else { return [] }
        state.interrupted = false
        state.recoveryPending = false
        state.predictionSeq = triggerSeq
        state.pendingConfirmation = PendingConfirmation(
            interruptionSeq: interruptionSeq, triggerSeq: triggerSeq, recoveredAt: t)
        let window = RouteTimer(due: t + options.recoveryWindowMs, kind: .recoveryWindow(interruptionSeq: interruptionSeq))
        return [.recovered(t: t), .timer(window)]
    }

    /// I4 (premature reactivation), recovery confirmation, and the session.* checks.
    mutating func sessionActivated(_ activation: SessionActivation, _ record: Record) -> [RouteOutput] {
        var outputs: [RouteOutput] = []
        if state.interrupted, state.callState.isCallUp {
            outputs.append(.finding(prematureReactivationFinding(record)))
        }
        if activation.ok {
            if state.activatedSinceInterruption != nil { state.activatedSinceInterruption = true }
            state.pendingConfirmation = nil
        }
        if activation.isCallSession {
            outputs += sessionFindings(activation, record)
        }
        return outputs
    }

    /// I4 (recovered without activation) and recovery confirmation.
    mutating func sdkRecovered(_ record: Record) -> [RouteOutput] {
        state.pendingConfirmation = nil
        guard state.activatedSinceInterruption == false else { return [] }
        return [.finding(recoveredWithoutActivationFinding(record))]
    }

    private func sessionFindings(_ activation: SessionActivation, _ record: Record) -> [RouteOutput] {
        var outputs: [RouteOutput] = []
        if !activation.options.contains("allowBluetooth") {
            outputs.append(.finding(missingAllowBluetoothFinding(record)))
        }
        if state.defaultTarget == .speaker, !activation.options.contains("defaultToSpeaker") {
            outputs.append(.finding(missingDefaultToSpeakerFinding(record)))
        }
        if activation.mode != "voiceChat", activation.mode != "videoChat" {
            outputs.append(.finding(wrongModeFinding(activation.mode, record)))
        }
        return outputs
    }
}
