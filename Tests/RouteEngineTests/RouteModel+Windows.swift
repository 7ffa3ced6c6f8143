import TraceModel

// When the window findings of contract v3 fall due, read from contract.md and contract-notes.md: R17's
// call-path windows, R18's deactivation windows, I10 at a leave/exit and at the end, I11's reactivation
// windows, and I14's callbacks (a, b, c) with their gates. A window of W ms opened at t0 holds the records
// with t0 ≤ t ≤ t0+W, also those of t0 logged before its opening record, and falls due at t0+W+1.
extension RouteModel {
    struct Window {
        var seq: Int
        var due: Int64
    }

    /// R17: opened by an engagement or a recovery.
    struct PathWindow {
        var seq: Int
        var due: Int64
        var afterRecovery: Bool
        /// A successful activation in another category came in it.
        var other: Bool
    }

    /// I14 (b): the recovery window of an I3, I5, I6 or I8 recovery.
    struct RecoveryWindow {
        var seq: Int
        var due: Int64
        var activation: Bool
        var recovered: Bool
    }

    // MARK: records that meet windows

    /// A successful activation (`obs.sessionActivated` or `didActivate`): `pathUp` when it brings the call
    /// path up (R17: playAndRecord, not a premature reactivation; or CallKit's), `other` in another category.
    mutating func activated(pathUp up: Bool, other: Bool) {
        msActivated = true
        if up {
            pathUp = true
            msPathUp = true
            pathWindows.removeAll()
        } else if other {
            pathUp = false
            msOtherActivation = true
            for i in pathWindows.indices { pathWindows[i].other = true }
        }
        for i in recoveryWindows.indices { recoveryWindows[i].activation = true }
    }

    /// R18: a successful `obs.sessionDeactivated` or CallKit's `didDeactivate`.
    mutating func deactivated() {
        msDeactivated = true
        deactivationWindows.removeAll()
    }

    /// I14 (a): an `sdk.interrupted` meets the oldest open callback window; the gate opens at the first one.
    mutating func interruptedCallback(t: Int64, seq: Int) {
        if !seenInterruptedCallback {
            seenInterruptedCallback = true
            for s in heldInterrupted { raised.append(ModelFinding(code: .interruptionNoInterruptedCallback, t: t, seq: s)) }
            heldInterrupted = []
        }
        if callbackWindows.isEmpty { msUnusedInterrupted += 1 } else { callbackWindows.removeFirst() }
    }

    /// I14 (b) and (c): an `sdk.recovered`.
    mutating func recoveredCallback(t: Int64, seq: Int) {
        if !seenRecoveredCallback {
            seenRecoveredCallback = true
            for s in heldRecovered { raised.append(ModelFinding(code: .interruptionNoRecoveredCallback, t: t, seq: s)) }
            heldRecovered = []
        }
        msRecovered += 1
        for i in recoveryWindows.indices { recoveryWindows[i].recovered = true }
        if interrupted { msRecoveredWhileInterrupted.append(seq) }
        guard var e = epoch else { return }
        e.count += 1
        if e.count == 2, !e.reported {
            e.reported = true
            raised.append(ModelFinding(code: .interruptionDuplicateRecovered, t: t, seq: seq))
        }
        epoch = e
    }

    /// I11: an `unhold` during a hold whose call has not ended opens a reactivation window.
    mutating func unhold(t: Int64, seq: Int) {
        guard interruption == .hold, let h = hold, !h.obligationEnded else { return }
        reactivationWindows.append(Window(seq: seq, due: t + recoveryWindow + 1))
    }

    /// I11: an `end` ends what the hold owes (not the hold).
    mutating func ended() {
        guard interruption == .hold, hold != nil else { return }
        hold?.obligationEnded = true
        reactivationWindows = []
    }

    // MARK: beginnings, engagements, leaves and recoveries

    /// An interruption begins (read before the state changes): R17's windows are cancelled, I14 (c)'s
    /// recovery ends, I14 (a)'s callback falls due for an I1 or I5 interruption that begins while the engine
    /// was not interrupted, and I10 measures from the first beginning since then.
    mutating func interruptionBegins(_ kind: Interruption, seq: Int, t: Int64) {
        pathWindows.removeAll()
        epoch = nil
        msRecoveredWhileInterrupted = []
        // A new hold, or a reset that replaces the hold (I5 then owns the rebuild), ends what a hold owed: a
        // hold's reactivation windows end with it, as at a leave or exit.
        if kind == .hold || interruption == .hold {
            hold = kind == .hold ? (seq, false) : nil
            reactivationWindows = []
        }
        guard !interrupted else { return }
        stretchStart = (seq, t)
        overrideChangedWhileInterrupted = false
        guard kind == .system || kind == .reset else { return }
        if msUnusedInterrupted > 0 {
            reached["callback logged before its interruption", default: 0] += 1
            msUnusedInterrupted -= 1
        } else {
            callbackWindows.append(Window(seq: seq, due: t + matchWindow + 1))
        }
    }

    /// R6 / R17 / R18: an engagement cancels the deactivation window and opens a call-path window unless the
    /// path is up or a CallKit window is open (I7's), or (R17, v4 reading) I12's stretch is, also after
    /// `callkit.noDidActivate` closed I7's.
    mutating func engagement(t: Int64, seq: Int) {
        deactivationWindows.removeAll()
        guard !pathUp, !callKitDues.contains(where: { $0 > t }), !callKitWindow, !msPathUp else { return }
        pathWindows.append(PathWindow(seq: seq, due: t + recoveryWindow + 1, afterRecovery: false, other: msOtherActivation))
    }

    /// A leave or exit, on the state before it: I10, R18; then it cancels R17's, I11's and I14 (b)'s windows.
    mutating func leaving(t: Int64, seq: Int) {
        neverRecoveredCheck(t: t)
        if msDeactivated { reached["deactivation logged before its leave", default: 0] += 1 }
        if engaged, !interrupted, pathUp || !seenActivation, !msDeactivated {
            deactivationWindows.append(Window(seq: seq, due: t + recoveryWindow + 1))
        }
        pathWindows.removeAll()
        recoveryWindows.removeAll()
        reactivationWindows.removeAll()
        hold = nil
        stretchStart = nil
    }

    /// I10 at the end of the trace.
    mutating func finish(t: Int64) {
        raised = []
        guard !macOS else { return }
        neverRecoveredCheck(t: t)
    }

    /// I10: an I1 interruption still open, longer than the recovery window since the first beginning, with
    /// no system call up and the app in the foreground.
    private mutating func neverRecoveredCheck(t: Int64) {
        guard interruption == .system || interruption == .stale, let start = stretchStart, t - start.t > recoveryWindow,
              !callUp, foreground else { return }
        raised.append(ModelFinding(code: .interruptionNeverRecovered, t: t, seq: start.seq))
    }

    /// The windows a recovery opens on the state after it: R17, I14 (b), I14 (c)'s count, R15 (b).
    mutating func recovered(t: Int64, by seq: Int) {
        for (kind, interruptionSeq) in recoveries {
            stretchStart = nil
            // docs/contract.md's R17: no window while a CallKit window is open, at a recovery too.
            if msOtherActivation { reached["other category logged before its recovery", default: 0] += 1 }
            if !pathUp, !msPathUp, !callKitDues.contains(where: { $0 > t }) {
                pathWindows.append(PathWindow(seq: seq, due: t + recoveryWindow + 1, afterRecovery: true, other: msOtherActivation))
            }
            if msRecovered > 0 { reached["recovered callback logged before its recovery", default: 0] += 1 }
            if kind == .system || kind == .reset, let iseq = interruptionSeq {
                recoveryWindows.append(RecoveryWindow(seq: iseq, due: t + recoveryWindow + 1, activation: msActivated,
                                                      recovered: msRecovered > 0))
            }
            if kind != .hold {
                let before = msRecoveredWhileInterrupted
                epoch = (before.count, before.count >= 2)
                if before.count >= 2 { raised.append(ModelFinding(code: .interruptionDuplicateRecovered, t: t, seq: before[1])) }
            }
            if kind != .reset, engaged, !interrupted, override != nil, !overrideChangedWhileInterrupted, let iseq = interruptionSeq {
                openFlushWindow(by: iseq, t: t, atRecovery: true)
            }
        }
        recoveries = []
    }

    // MARK: due windows

    mutating func windowsDue(_ t: Int64) {
        for w in pathWindows where w.due == t {
            // After a recovery only an activation in another category is this finding's (the others are
            // interruption.notRecovered's or recoveredWithoutActivation's).
            if seenActivation, !w.afterRecovery || w.other {
                raised.append(ModelFinding(code: .sessionCallPathNotUp, t: t, seq: w.seq))
            }
        }
        pathWindows.removeAll { $0.due == t }
        for w in deactivationWindows where w.due == t && seenDeactivation {
            raised.append(ModelFinding(code: .sessionNotDeactivated, t: t, seq: w.seq))
        }
        deactivationWindows.removeAll { $0.due == t }
        for w in reactivationWindows where w.due == t {
            guard let h = hold, !reactivationReported.contains(h.seq) else { continue }
            reactivationReported.insert(h.seq)
            raised.append(ModelFinding(code: .callkitNoReactivation, t: t, seq: w.seq))
        }
        reactivationWindows.removeAll { $0.due == t }
        for w in callbackWindows where w.due == t {
            if seenInterruptedCallback {
                raised.append(ModelFinding(code: .interruptionNoInterruptedCallback, t: t, seq: w.seq))
            } else {
                heldInterrupted.append(w.seq)
            }
        }
        callbackWindows.removeAll { $0.due == t }
        for w in recoveryWindows where w.due == t && w.activation && !w.recovered {
            if seenRecoveredCallback {
                raised.append(ModelFinding(code: .interruptionNoRecoveredCallback, t: t, seq: w.seq))
            } else {
                heldRecovered.append(w.seq)
            }
        }
        recoveryWindows.removeAll { $0.due == t }
    }
}
