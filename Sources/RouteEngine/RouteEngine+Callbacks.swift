import Contract
import TraceModel

// I14: the SDK's interrupted and recovered callbacks. Gated on their kinds: a check that falls due before
// the trace's first record of its kind is held, and raised at that record, with its time, if one comes.
extension RouteEngine {
    /// I14 (a): an interruption that begins while the engine was not interrupted makes the interrupted
    /// callback due within the match window. An `sdk.interrupted` of its ms logged before it, that met no
    /// other due callback, is in the window (same ms, v3): the callback is met at once.
    mutating func interruptedCallbackDue(_ record: Record, into out: inout RouteSink) {
        if let ms = sameMs(at: record.t), ms.unusedInterruptedCallbacks > 0 {
            obligations.sameMs.unusedInterruptedCallbacks -= 1
            return
        }
        obligations.interruptedDue.append(RouteReading(route: .unknown, t: record.t, seq: record.seq))
        out.append(.timer(RouteTimer(due: Self.due(record.t, options.matchWindowMs), kind: .interruptedCallback(seq: record.seq))))
    }

    /// `sdk.interrupted`: satisfies the oldest due interruption in whose window it falls; the first of its
    /// kind raises what was held.
    mutating func sdkInterrupted(_ record: Record, into out: inout RouteSink) {
        if !obligations.sawInterruptedCallback {
            obligations.sawInterruptedCallback = true
            for f in obligations.heldInterrupted { out.append(.finding(f.raised(at: record.t))) }
            obligations.heldInterrupted = []
        }
        if let i = obligations.interruptedDue.firstIndex(where: { record.t >= $0.t && record.t - $0.t <= options.matchWindowMs }) {
            obligations.interruptedDue.remove(at: i)
        } else {
            noteSameMs(record.t) { $0.unusedInterruptedCallbacks += 1 }
        }
    }

    /// I14 (a): no callback in the window.
    mutating func interruptedCallbackWindowClosed(seq: Int, t: Int64, into out: inout RouteSink) {
        guard let i = obligations.interruptedDue.firstIndex(where: { $0.seq == seq }) else { return }
        let due = obligations.interruptedDue.remove(at: i)
        guard obligations.sawInterruptedCallback else {
            if obligations.heldInterrupted.count < 1000 {
                obligations.heldInterrupted.append(noInterruptedCallbackFinding(interruptionSeq: due.seq, at: due.t, t: t))
            }
            return
        }
        out.finding(.interruptionNoInterruptedCallback, seq: due.seq, t: t) {
            noInterruptedCallbackFinding(interruptionSeq: due.seq, at: due.t, t: t)
        }
    }

    /// I14 (b): an activation came in the recovery window, but no recovered callback.
    mutating func noRecoveredCallback(_ window: CallbackWindow, t: Int64, into out: inout RouteSink) {
        guard obligations.sawRecoveredCallback else {
            if obligations.heldRecovered.count < 1000 { obligations.heldRecovered.append(noRecoveredCallbackFinding(window, t: t)) }
            return
        }
        out.finding(.interruptionNoRecoveredCallback, seq: window.triggerSeq ?? window.interruptionSeq, t: t) {
            noRecoveredCallbackFinding(window, t: t)
        }
    }

    /// `sdk.recovered`: meets the open I14 (b) windows; a second one after a recovery's first, before the next
    /// interruption begins, is a duplicate (c); the first of its kind raises what was held. One replayed while
    /// interrupted is kept for a recovery later in its ms (same ms, v3).
    mutating func recoveredCallbackSeen(_ record: Record, into out: inout RouteSink) {
        if !obligations.sawRecoveredCallback {
            obligations.sawRecoveredCallback = true
            for f in obligations.heldRecovered { out.append(.finding(f.raised(at: record.t))) }
            obligations.heldRecovered = []
        }
        for i in obligations.callbacks.indices where record.t - obligations.callbacks[i].t <= options.recoveryWindowMs {
            obligations.callbacks[i].called = true
        }
        let interrupted = state.interrupted
        noteSameMs(record.t) {
            $0.recoveredCallback = true
            if interrupted { $0.recoveredWhileInterrupted.append(record.seq) }
        }
        if let n = obligations.recoveredCallbacks {
            obligations.recoveredCallbacks = n + 1
            if n + 1 == 2 { out.append(.finding(duplicateRecoveredFinding(seq: record.seq, t: record.t))) }
        }
    }

    /// The records of the current millisecond so far, when `t` is it.
    func sameMs(at t: Int64) -> SameMs? {
        obligations.sameMs.t == t ? obligations.sameMs : nil
    }

    /// Notes what a record of millisecond `t` did, for the windows a later record of that ms opens.
    mutating func noteSameMs(_ t: Int64, _ change: (inout SameMs) -> Void) {
        if obligations.sameMs.t != t { obligations.sameMs = SameMs(t: t) }
        change(&obligations.sameMs)
    }
}
