import Contract
import TraceModel

// Engagement: the join or enter that sets up the call audio path (R6, R9, R17), the leave or exit that
// ends the call (R18), and the audio module switch the engagement resets (R9).
extension RouteEngine {
    /// R6, R9, R17: engagement sets up the call audio path and resets the audio module; then the calls
    /// deferred before it are decided (V2), on the state with the module enabled. A join or enter while
    /// engaged is not an engagement (R19): the SDK keeps the call it has.
    mutating func engage(_ record: Record, into out: inout RouteSink) {
        guard !state.engaged else { return }
        state.engaged = true
        state.engagedSeq = record.seq
        if state.startStateUnknown {
            state.startStateLearnt.engagement = record.seq
            learntStartState()
        }
        setAudioModule(true, seq: record.seq)
        if !state.micUsageDescription { out.append(.finding(missingMicUsageFinding(record))) }
        // R18: a quick re-join keeps the session; the deactivation is not expected any more.
        obligations.deactivation = nil
        decidePendingCalls(t: record.t, by: record.seq, into: &out)
        openCallPathWindow(record.seq, t: record.t, afterRecovery: false, into: &out)
    }

    /// R6, I1, I5, I10, I11, R15, R17, R18: leaving drops the override (and a deferred override call), keeps
    /// the default, ends any interruption, reset or hold and cancels their windows; the session must be
    /// deactivated.
    mutating func disengage(_ record: Record, into out: inout RouteSink) {
        if state.startStateUnknown {
            state.startStateLearnt.engagement = record.seq
            learntStartState()
        }
        guard state.engaged else {
            // Not engaged: a deferred override is dropped all the same (V2).
            if let call = state.pendingOverrideCall {
                out.append(.outcome(callSeq: call, Outcome(kind: .dropped, t: record.t, seq: record.seq)))
                state.pendingOverrideCall = nil
            }
            state.override = nil
            state.overrideSeq = nil
            state.overrideAppliedBy = nil
            state.leftSeq = record.seq
            return
        }
        neverRecoveredCheck(at: record, seq: record.seq, t: record.t, into: &out)
        if !state.audioModuleEnabled, !state.audioModuleLeftDisabledReported {
            state.audioModuleLeftDisabledReported = true
            out.append(.finding(leftDisabledFinding(atSeq: record.seq, t: record.t, atEnd: nil)))
        }
        if let call = state.pendingOverrideCall {
            out.append(.outcome(callSeq: call, Outcome(kind: .dropped, t: record.t, seq: record.seq)))
            state.pendingOverrideCall = nil
        }
        // R18, on the state before the leave. A successful deactivation logged earlier in its ms meets the
        // window at once (same ms, v3); a failed one is named if none follows.
        let ms = sameMs(at: record.t)
        if !state.interrupted, state.callPathUp || !state.activationsRecorded, ms?.deactivated != true {
            obligations.deactivation = DeactivationWindow(seq: record.seq, t: record.t, lastError: ms?.deactivationError)
            out.append(.timer(RouteTimer(due: Self.due(record.t, options.recoveryWindowMs), kind: .deactivationWindow(seq: record.seq))))
        }
        state.engaged = false
        state.leftSeq = record.seq
        endCall()
    }

    /// What a leave and a restart both end: the override, an interruption, reset or hold, iOS's CallKit
    /// route choice, and the windows that went with them.
    mutating func endCall() {
        state.override = nil
        state.overrideSeq = nil
        state.overrideAppliedBy = nil
        state.interrupted = false
        state.interruptionKind = nil
        state.recoveryPending = false
        state.pendingConfirmation = nil
        state.resetSeq = nil
        state.callKitChoice = nil
        obligations.hold = nil
        obligations.flush = nil
        obligations.callPath = []
        // X3 (v4): the call-path row ends with the engagement (after it R13 predicts nothing).
        obligations.callPathExplanation = nil
        obligations.callbacks = []
        obligations.latestCallbackT = nil
        obligations.silentSince = nil
    }

    mutating func setAudioModule(_ enabled: Bool, seq: Int) {
        if enabled {
            state.audioModuleEnabled = true
            state.audioModuleDisabledSeq = nil
            state.audioModuleLeftDisabledReported = false
        } else if state.audioModuleEnabled {
            state.audioModuleEnabled = false
            state.audioModuleDisabledSeq = seq
            state.audioModuleLeftDisabledReported = false
        }
    }
}
