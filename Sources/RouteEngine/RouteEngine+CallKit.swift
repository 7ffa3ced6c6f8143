import Contract
import TraceModel

// The app's own call through CallKit: I7 (CallKit owns activation), I11 (hold), I12 (no prediction while
// CallKit activates), I13 (CallKit picks the built-in route).
extension RouteEngine {
    /// The `os.callKit` events. `callId` is not matched (decided): a `didActivate` or `end` closes every
    /// open window.
    mutating func callKit(_ event: CallKitEvent, _ record: Record, into out: inout RouteSink) {
        switch event {
        case .answer, .start:
            // I7, I12; I13 ends at an answer or start.
            state.ownCallEnded = false
            state.callKitChoice = nil
            if sameMs(at: record.t)?.didActivate == true {
                // Same ms (v3): a `didActivate` logged before the action at its ms is in the action's window:
                // CallKit has activated, so neither I7's window nor I12's stretch stays open, and an answer's
                // `didActivate` opens I13's match window.
                if event == .answer { obligations.answeredActivationAt = record.t }
                return
            }
            state.callKitActionSeq = record.seq
            if event == .answer { obligations.answeredWindow = true }
            state.callKitWindows.append(CallKitWindow(actionSeq: record.seq, t: record.t, answered: event == .answer))
            out.append(.timer(RouteTimer(due: Self.due(record.t, options.recoveryWindowMs), kind: .callKitWindow(actionSeq: record.seq))))
        case .end:
            state.ownCallEnded = true
            state.callKitWindows.removeAll()
            state.callKitActionSeq = nil
            state.callKitChoice = nil
            obligations.answeredWindow = false
            // I11: the call's end ends the hold's obligation (nothing to reactivate), not the hold.
            obligations.hold?.obligationEnded = true
            obligations.hold?.unholds = []
        case .didActivate:
            didActivate(record, into: &out)
        case .didDeactivate:
            didDeactivate(record, into: &out)
        case .unhold:
            // I11: each unhold during a hold opens a reactivation window (once reported per hold).
            guard let hold = obligations.hold, !hold.obligationEnded, !hold.reported else { return }
            obligations.hold?.unholds.append(record.seq)
            out.append(.timer(RouteTimer(due: Self.due(record.t, options.recoveryWindowMs), kind: .reactivationWindow(unholdSeq: record.seq))))
        case .hold:
            // `hold` changes nothing: `didDeactivate` is what interrupts (I11).
            break
        case .unlisted:
            // T1: an event the format does not list; no rule applies.
            break
        }
    }

    /// `didActivate`: closes every CallKit window (I7) and I12's, counts as a successful activation (I4,
    /// I5, I14 b, R17), ends a hold at once (I11), and opens I13's match window after an answered call.
    private mutating func didActivate(_ record: Record, into out: inout RouteSink) {
        // I13 reads I12's window, which I7's noDidActivate does not close.
        let answered = obligations.answeredWindow
        obligations.answeredWindow = false
        state.ownCallEnded = false
        state.callKitWindows.removeAll()
        state.callKitActionSeq = nil
        if answered { obligations.answeredActivationAt = record.t }
        if state.interruptionKind == .hold { unheld(record, into: &out) }
        activationSucceeded(record, into: &out)
        callPathCameUp(record)
        noteSameMs(record.t) {
            $0.pathCameUp = true
            $0.didActivate = true
        }
    }

    /// I11: `didDeactivate` while engaged holds the call, replacing an open I1 or I5 interruption; not
    /// after the app's own call ended, not while not engaged, and a second one changes nothing. It also
    /// meets R18's deactivation window and takes the call path down (R17).
    private mutating func didDeactivate(_ record: Record, into out: inout RouteSink) {
        if obligations.deactivation != nil { obligations.deactivation = nil }
        noteSameMs(record.t) { $0.deactivated = true }
        state.callPathUp = false
        guard state.engaged, !state.ownCallEnded, state.interruptionKind != .hold else { return }
        closeFlushWindow(t: record.t, into: &out)
        if !state.interrupted { obligations.overrideChangedWhileInterrupted = false }
        state.interrupted = true
        state.interruptionKind = .hold
        state.interruptionSeq = record.seq
        state.recoveryPending = false
        state.resetSeq = nil
        state.callKitChoice = nil
        state.activatedSinceInterruption = false
        obligations.hold = Hold(seq: record.seq)
        obligations.callPath = []
        obligations.recoveredCallbacks = nil
        obligations.sameMs.recoveredWhileInterrupted = []
        obligations.silentSince = nil
    }

    /// I11: the `didActivate` after a hold recovers at once (no I2 conditions), the route is re-applied per
    /// R8, deferred calls are decided with it (V2), the call path is up (it counts in its own R17 window),
    /// and a flush window may open (R15). No SDK callback is checked for a hold (I14).
    private mutating func unheld(_ record: Record, into out: inout RouteSink) {
        guard let hold = obligations.hold else { return }
        state.interrupted = false
        state.interruptionKind = nil
        state.predictionSeq = record.seq
        obligations.hold = nil
        out.append(.recovered(t: record.t))
        decidePendingCalls(t: record.t, by: record.seq, into: &out)
        openFlushWindow(openedBy: hold.seq, t: record.t, reading: readingInForce(at: record.t), atRecovery: true, into: &out)
    }

    /// I11: an unhold with no `didActivate` in its window: the call stays silent (once per hold).
    mutating func reactivationWindowClosed(unholdSeq: Int, t: Int64, into out: inout RouteSink) {
        guard let hold = obligations.hold, hold.unholds.contains(unholdSeq), !hold.reported, !hold.obligationEnded else { return }
        obligations.hold?.reported = true
        obligations.hold?.unholds = []
        out.append(.finding(noReactivationFinding(holdSeq: hold.seq, unholdSeq: unholdSeq, t: t)))
    }

    /// I7, first half: a successful activation inside an open window races CallKit (once per window).
    mutating func raceCallKit(_ record: Record, into out: inout RouteSink) {
        for i in state.callKitWindows.indices where !state.callKitWindows[i].raced {
            state.callKitWindows[i].raced = true
            out.append(.finding(activatedBeforeDidActivateFinding(record, window: state.callKitWindows[i])))
        }
    }

    /// I7, second half: no `didActivate` within the recovery window after the action. I12's window stays
    /// open: CallKit still owns activation.
    mutating func callKitWindowClosed(actionSeq: Int, t: Int64, into out: inout RouteSink) {
        guard let index = state.callKitWindows.firstIndex(where: { $0.actionSeq == actionSeq }) else { return }
        let window = state.callKitWindows.remove(at: index)
        out.append(.finding(noDidActivateFinding(window, t: t)))
    }

    /// I13: a mismatch that starts within the match window after the `didActivate` of an answered call,
    /// with R8 predicting bluetooth from R4 and the device on the receiver or the speaker, is iOS's choice,
    /// not a divergence: from that reading the devices do not have the route, and the prediction is the
    /// route iOS chose until the next route call.
    mutating func callKitChoiceCheck(t: Int64, into out: inout RouteSink) {
        guard let at = obligations.answeredActivationAt else { return }
        guard t - at <= options.matchWindowMs else {
            obligations.answeredActivationAt = nil
            return
        }
        guard state.callKitChoice == nil, let reading = state.lastReading, reading.route == .receiver || reading.route == .speaker,
              let device = state.routeDevice, device.kind == .bluetooth, state.predictedRoute == .bluetooth else { return }
        state.callKitChoice = CallKitChoice(route: reading.route, readingSeq: reading.seq)
        obligations.answeredActivationAt = nil
        out.append(.finding(builtInRouteChosenFinding(reading: reading, device: device, t: t)))
    }
}
