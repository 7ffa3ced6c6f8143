import Contract
import TraceModel

// I5: a media services reset.
extension RouteEngine {
    /// I5: a reset while engaged is an interruption that only the next successful activation ends; it
    /// replaces an interruption or a hold in progress, and ends the call session (R19). A reset while not
    /// engaged has no effect.
    ///
    /// Same ms (v3): a successful activation logged before the reset at the reset's ms is in its rebuild
    /// window, so it is the rebuild: the reset recovers at once, with the session and the call path that
    /// activation left (it counts as coming after the reset).
    mutating func mediaServicesReset(_ record: Record, into out: inout RouteSink) {
        let earlier = sameMs(at: record.t)?.activation
        let session = state.callSession, pathUp = state.callPathUp
        // R15 first ("order within a record"): the flush window closes on the state before the reset, with
        // the call session that is up still deciding O and N (R11, R14).
        closeFlushWindow(t: record.t, into: &out)
        state.callSession = nil
        // R17: a reset takes the call path down, engaged or not.
        guard state.engaged else {
            state.callPathUp = false
            return
        }
        let wasInterrupted = state.interrupted
        state.interrupted = true
        state.interruptionKind = .reset
        state.recoveryPending = false
        state.resetSeq = record.seq
        state.interruptionSeq = record.seq
        state.activatedSinceInterruption = false
        state.callKitChoice = nil
        state.callPathUp = false
        obligations.hold = nil
        obligations.callPath = []
        obligations.recoveredCallbacks = nil
        obligations.sameMs.recoveredWhileInterrupted = []
        obligations.silentSince = nil
        if !wasInterrupted { obligations.overrideChangedWhileInterrupted = false }
        if let activation = earlier {
            if !wasInterrupted { interruptedCallbackDue(record, into: &out) }
            // The call session that is up survives only if that activation set it (R19: a reset ends any other).
            state.callSession = session?.seq == activation.seq ? session : nil
            state.callPathUp = pathUp
            state.activatedSinceInterruption = true
            return rebuilt(activation: activation.seq, decidedBy: record.seq, t: record.t, into: &out)
        }
        // Window edges are inclusive: an activation at exactly the end still counts.
        out.append(.timer(RouteTimer(due: Self.due(record.t, options.recoveryWindowMs), kind: .rebuildWindow(resetSeq: record.seq))))
        if !wasInterrupted { interruptedCallbackDue(record, into: &out) }
    }

    /// I5: the rebuild (a successful `obs.sessionActivated` or CallKit's `didActivate`) recovers at once (no
    /// I2 conditions, no I3 attempts), the route is re-applied per R8, the recovered callback is due once (the
    /// rebuild counts in its I14 (b) window), the calls deferred meanwhile are decided (V2), and the call
    /// path must be up (R17: the rebuild counts in its own window). No flush window opens (R15).
    ///
    /// `activation` is the rebuilding activation; `decidedBy` the record replayed when it rebuilds (the
    /// activation itself, or a reset of its ms logged after it), which decides the deferred calls.
    mutating func rebuilt(activation: Int, decidedBy: Int, t: Int64, into out: inout RouteSink) {
        guard let resetSeq = state.resetSeq else { return }
        state.resetSeq = nil
        state.interrupted = false
        state.interruptionKind = nil
        state.recoveryPending = false
        // Same ms (v3): a recovered callback logged earlier in this ms is in the window.
        let ms = sameMs(at: t)
        obligations.callbacks.append(CallbackWindow(interruptionSeq: resetSeq, triggerSeq: activation, t: t, activated: true,
                                                    called: ms?.recoveredCallback == true))
        obligations.latestCallbackT = t
        out.append(.recovered(t: t))
        out.append(.timer(RouteTimer(due: Self.due(t, options.recoveryWindowMs), kind: .recoveryWindow(interruptionSeq: resetSeq))))
        recoveredCallbacksBefore(ms, t: t, into: &out)
        decidePendingCalls(t: t, by: decidedBy, into: &out)
        if !state.callPathUp { openCallPathWindow(decidedBy, t: t, afterRecovery: true, into: &out) }
    }

    /// I5: no rebuild within the recovery window, in a trace whose recorder captures activations.
    mutating func rebuildWindowClosed(resetSeq: Int, t: Int64, into out: inout RouteSink) {
        guard state.resetSeq == resetSeq, state.activationsRecorded else { return }
        out.append(.finding(notRebuiltFinding(resetSeq: resetSeq, t: t)))
    }
}
