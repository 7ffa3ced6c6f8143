import Contract
import TraceModel

// A restart: a session part begun by a recorder restarted after a crash (`session.resumed`).
extension RouteEngine {
    /// What lived only in the SDK's process that died starts afresh at `record`, the resumed part's header
    /// (trace-format, since version 3): the SDK's route settings (the override and the persistent default,
    /// which starts again from the header's `initialDefaultRoute`), the engagement and the call session
    /// (iOS ends a dead process's audio session), the audio module switch (enabled, silently: the module
    /// was not left disabled by the app), an interruption the dead SDK was waiting out and every window it
    /// owed something in. A call still deferred there is dropped: the process that was to apply it is
    /// gone. What iOS holds survives: connected devices, the route, other calls, the app state and the
    /// microphone permission. The part's checkpoint, when it follows, says what the new SDK knows
    /// (`restartCheckpoint`).
    package mutating func processRestarted(at record: Record, header: TraceHeader, into out: inout RouteSink) {
        for call in [state.pendingOverrideCall, state.pendingDefaultCall].compactMap({ $0 }).sorted() {
            out.append(.outcome(callSeq: call, Outcome(kind: .dropped, cause: .restarted, t: record.t, seq: record.seq)))
        }
        state.pendingOverrideCall = nil
        state.pendingDefaultCall = nil
        endCall()
        state.defaultTarget = header.initialDefaultRoute ?? .earpiece
        state.defaultSeq = header.initialDefaultRoute == nil ? nil : record.seq
        state.defaultAppliedBy = nil
        if state.engaged { state.leftSeq = record.seq }
        state.engaged = false
        state.engagedSeq = nil
        state.audioModuleEnabled = true
        state.audioModuleDisabledSeq = nil
        state.audioModuleLeftDisabledReported = false
        state.callKitActionSeq = nil
        state.callKitWindows = []
        state.callSession = nil
        state.callPathUp = false
        obligations.deactivation = nil
        obligations.sameMs = SameMs(t: -1)
        obligations.interruptedDue = []
        obligations.recoveredCallbacks = nil
        obligations.overrideChangedWhileInterrupted = false
        obligations.answeredWindow = false
        obligations.answeredActivationAt = nil
        obligations.recoveryExplanation = nil
        stateReplaced()
    }

    /// The checkpoint that begins a resumed part: what the new process's SDK reports of its own settings
    /// (default, override, engagement, audio module) replaces what the restart assumed; the system's state
    /// is not taken from it (the replay knows it from the records).
    package mutating func restartCheckpoint(_ cp: TraceCheckpoint, seq: Int) {
        if cp.defaultRoute != state.defaultTarget {
            state.defaultTarget = cp.defaultRoute
            state.defaultSeq = seq
        }
        state.override = cp.override
        state.overrideSeq = cp.override == nil ? nil : seq
        if cp.engaged, !state.engaged {
            state.engaged = true
            state.engagedSeq = seq
        }
        state.audioModuleEnabled = cp.audioModuleEnabled
        state.audioModuleDisabledSeq = cp.audioModuleEnabled ? nil : seq
        stateReplaced()
    }
}
