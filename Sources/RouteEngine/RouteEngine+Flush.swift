import Contract
import TraceModel

// R15: iOS may flush the temporary setting at a device change or at the recovery from an interruption; the
// trace decides whether it did, by the first reading that settles.
extension RouteEngine {
    /// R8's route with the override (O) and without it (N), computed anew whenever a rule reads them.
    private var withAndWithout: (o: Route?, n: Route?) {
        (state.predicted(override: state.override, callKitWindow: state.callKitActionSeq != nil),
         state.predicted(override: nil, callKitWindow: state.callKitActionSeq != nil))
    }

    /// The route a reading may show without being a mismatch (X2) or needing R12's explanation: while a
    /// flush window is open and a reading has counted, N; once the override was flushed, the flushed
    /// override's route (the SDK may fall back to it late).
    package var toleratedRoute: Route? {
        guard let window = obligations.flush else { return nil }
        if let flushed = window.flushed {
            return state.predicted(override: flushed.target, callKitWindow: state.callKitActionSeq != nil)
        }
        guard window.latest != nil else { return nil }
        let (o, n) = withAndWithout
        guard let o, o != n else { return nil }
        return n
    }

    /// Whether a device change now is an opening event (R15 (a)): engaged, not interrupted, with an override
    /// set. Only an opening event closes the window in force (and opens a new one): after a flush no override
    /// is set, so a device change leaves the window open and a late fallback to the flushed override's route
    /// can still restore it.
    var opensFlushWindow: Bool { state.engaged && !state.interrupted && state.override != nil }

    /// Opens a flush window after a device change or a recovery, while engaged, not interrupted and with an
    /// override set; not at a recovery when the override was set or changed during the interruption. A
    /// reading at the opening ms counts, whatever its place; at a recovery the route in force counts as a
    /// reading taken then.
    ///
    /// Whether the override changed during the interruption is read, and forgotten, only at the recovery
    /// (and forgotten when an interruption begins while the engine was not interrupted): a device plugged or
    /// unplugged meanwhile opens no window and must not make the recovery forget it.
    mutating func openFlushWindow(openedBy: Int, t: Int64, reading: RouteReading?, atRecovery: Bool = false, into out: inout RouteSink) {
        let changedWhileInterrupted = atRecovery && obligations.overrideChangedWhileInterrupted
        if atRecovery { obligations.overrideChangedWhileInterrupted = false }
        guard state.engaged, !state.interrupted, state.override != nil, !changedWhileInterrupted else { return }
        obligations.flush = FlushWindow(openedBy: openedBy, t: t)
        guard let reading, reading.t >= t || atRecovery else { return }
        flushReading(reading, into: &out)
    }

    /// R15 at a recovery: the actual route in force counts as a reading taken then; when it is `unknown`, a
    /// reading of a route logged earlier in this ms still counts (unknown readings are ignored).
    func readingInForce(at t: Int64) -> RouteReading? {
        if let reading = state.lastReading, reading.route != .unknown { return RouteReading(route: reading.route, t: t, seq: reading.seq) }
        return sameMs(at: t)?.reading
    }

    /// Counts a reading in the open flush window; a new route starts a run that settles after the tolerance.
    mutating func flushReading(_ reading: RouteReading, into out: inout RouteSink) {
        guard var window = obligations.flush, reading.t >= window.t, reading.route != .unknown else { return }
        window.latest = reading
        if window.runStart?.route != reading.route {
            window.runStart = reading
            out.append(.timer(RouteTimer(due: reading.t.saturatingAdd(options.toleranceMs).saturatingAdd(1),
                                         kind: .flushSettle(openedBy: window.openedBy, readingSeq: reading.seq))))
        }
        obligations.flush = window
    }

    /// A reading has shown its route for longer than the tolerance: the first settled reading decides. N:
    /// the override was flushed. O or any other route: it stays and the window closes. After a flush, a
    /// settled reading of the flushed override's route restores it.
    mutating func flushReadingSettled(openedBy: Int, readingSeq: Int, t: Int64, into out: inout RouteSink) {
        guard let window = obligations.flush, window.openedBy == openedBy, let run = window.runStart, run.seq == readingSeq else { return }
        if let flushed = window.flushed {
            // Where the flushed override's route is N (a device has the route) the reading decides nothing.
            let restored = state.predicted(override: flushed.target, callKitWindow: state.callKitActionSeq != nil)
            if run.route == restored, restored != withAndWithout.n {
                state.override = flushed.target
                state.overrideSeq = flushed.seq
                state.overrideAppliedBy = flushed.appliedBy
                state.predictionSeq = run.seq
                obligations.flush = nil
            }
            return
        }
        let (o, n) = withAndWithout
        guard let o, o != n else { return }  // nothing to decide
        if run.route == n { return flush(window, reading: run, t: t, keepOpen: true, into: &out) }
        obligations.flush = nil
    }

    /// Closes the flush window at a route call, at the next opening event or at the beginning of an
    /// interruption: before any reading settled, with the latest counted reading showing N, the override is
    /// flushed now, before the closing record is applied.
    mutating func closeFlushWindow(t: Int64, into out: inout RouteSink) {
        guard let window = obligations.flush else { return }
        obligations.flush = nil
        guard window.flushed == nil, let latest = window.latest else { return }
        let (o, n) = withAndWithout
        guard let o, o != n, latest.route == n else { return }
        flush(window, reading: latest, t: t, keepOpen: false, into: &out)
    }

    /// The flush: the override is dropped from the state, and R8 follows the default. The V2 outcome of
    /// the call that set it is not changed: it took effect; iOS flushed it later, by design. A window that
    /// stays open (a settled reading flushed it) lets a late fallback to the override restore it.
    private mutating func flush(_ window: FlushWindow, reading: RouteReading, t: Int64, keepOpen: Bool, into out: inout RouteSink) {
        guard let target = state.override else { return }
        let finding = overrideFlushedFinding(window, reading: reading, target: target, callSeq: state.overrideSeq, t: t)
        var kept = window
        kept.flushed = FlushedOverride(target: target, seq: state.overrideSeq, appliedBy: state.overrideAppliedBy)
        kept.runStart = nil
        obligations.flush = keepOpen ? kept : nil
        state.override = nil
        state.overrideSeq = nil
        state.overrideAppliedBy = nil
        state.predictionSeq = reading.seq
        out.append(.finding(finding))
    }
}
