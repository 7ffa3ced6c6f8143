import TraceModel

// I5 (media services reset) and I7 (CallKit owns activation).
extension RouteEngine {
    /// I5: a reset while engaged is an interruption that only the next successful activation ends; it
    /// replaces an interruption in progress. A reset while not engaged has no effect.
    mutating func mediaServicesReset(_ record: Record) -> [RouteOutput] {
        guard state.engaged else { return [] }
        state.interrupted = true
        state.recoveryPending = false
        state.resetSeq = record.seq
        state.interruptionSeq = record.seq
        state.activatedSinceInterruption = false
        // Window edges are inclusive: an activation at exactly the end still counts.
        let window = RouteTimer(due: record.t.saturatingAdd(options.recoveryWindowMs).saturatingAdd(1), kind: .rebuildWindow(resetSeq: record.seq))
        return [.timer(window)]
    }

    /// I5: the rebuild (a successful `obs.sessionActivated` or CallKit's `didActivate`) recovers at once (no
    /// I2 conditions, no I3 attempts), the route is re-applied per R8, the recovered callback is due once, and
    /// the calls deferred meanwhile are decided (V2).
    mutating func rebuilt(_ record: Record) -> [RouteOutput] {
        state.resetSeq = nil
        state.interrupted = false
        state.recoveryPending = false
        return [.recovered(t: record.t)] + decidePendingCalls(t: record.t, by: record.seq)
    }

    /// I5: no rebuild within the recovery window, in a trace whose recorder captures activations.
    mutating func rebuildWindowClosed(resetSeq: Int, t: Int64) -> [RouteOutput] {
        guard state.resetSeq == resetSeq, state.activationsRecorded else { return [] }
        return [.finding(notRebuiltFinding(resetSeq: resetSeq, t: t))]
    }

    /// I7: `answer` and `start` open a window that `didActivate`, `end` or the timeout closes; `callId` is not
    /// matched, so `didActivate` and `end` close every open window (decided).
    mutating func callKit(_ event: CallKitEvent, _ record: Record) -> [RouteOutput] {
        switch event {
        case .answer, .start:
            state.callKitWindows.append(CallKitWindow(actionSeq: record.seq, t: record.t))
            let due = record.t.saturatingAdd(options.recoveryWindowMs).saturatingAdd(1)
            return [.timer(RouteTimer(due: due, kind: .callKitWindow(actionSeq: record.seq)))]
        case .end:
            state.callKitWindows.removeAll()
            return []
        case .didActivate:
            state.callKitWindows.removeAll()
            return activationSucceeded(record)
        case .didDeactivate, .hold, .unhold, .unlisted:
            return []
        }
    }

    /// I7, first half: a successful activation inside an open window races CallKit (once per window).
    mutating func raceCallKit(_ record: Record) -> [RouteOutput] {
        var outputs: [RouteOutput] = []
        for i in state.callKitWindows.indices where !state.callKitWindows[i].raced {
            state.callKitWindows[i].raced = true
            outputs.append(.finding(activatedBeforeDidActivateFinding(record, window: state.callKitWindows[i])))
        }
        return outputs
    }

    /// I7, second half: no `didActivate` within the recovery window after the action.
    mutating func callKitWindowClosed(actionSeq: Int, t: Int64) -> [RouteOutput] {
        guard let index = state.callKitWindows.firstIndex(where: { $0.actionSeq == actionSeq }) else { return [] }
        let window = state.callKitWindows.remove(at: index)
        return [.finding(noDidActivateFinding(window, t: t))]
    }
}
