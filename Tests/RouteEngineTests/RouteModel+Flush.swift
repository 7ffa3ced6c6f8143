import TraceModel

// R15 read from contract.md and contract-notes.md: the flush window, its readings, the decision between N
// and O, the flush, the restore of the flushed override and the events that close the window.
extension RouteModel {
    /// A flush window (R15). While `flushed` is nil it decides between N and O; after a flush it waits for the
    /// SDK's late fallback to the flushed override's route.
    struct FlushWindow {
        /// The record named by `route.overrideFlushed`: the device change, or the interruption's beginning.
        var openedBy: Int
        var flushed: (target: RouteTarget, seq: Int?)?
        /// The route the counted readings show and since when (a run of readings of one route).
        var shown: (route: Route, since: Int64)?
        /// When the run settles (`since` + tolerance + 1); nil once it has settled.
        var settleDue: Int64?
    }

    /// O: R8 with the override (or the flushed one put back); N: R8 without it.
    func withOverride(_ target: RouteTarget?) -> Route? {
        var m = self
        m.override = target
        return m.predicted()
    }

    /// (a): a device change that changes the connected devices while engaged, not interrupted, with an
    /// override set. Read on the state before the record: after a flush no override is set, so a device
    /// change leaves the flushed window open (contract-notes, "which device change closes the window").
    func opensFlushWindow(_ body: RecordBody) -> Bool {
        guard engaged, !interrupted, override != nil else { return false }
        switch body {
        case .deviceConnected: return true
        case .deviceDisconnected(let id): return devices.contains { $0.id == id }
        default: return false
        }
    }

    /// Opens a window at `t`: the readings of this ms logged before count, and at a recovery the route in
    /// force counts as a reading taken then. `unknown` readings are ignored.
    mutating func openFlushWindow(by seq: Int, t: Int64, atRecovery: Bool) {
        var window = FlushWindow(openedBy: seq)
        reached[atRecovery ? "window opened at a recovery" : "window opened at a device change", default: 0] += 1
        let readings = (atRecovery ? [lastReading?.route].compactMap { $0 } : []) + msReadings.map(\.route)
        if let route = readings.last(where: { $0 != .unknown }) {
            window.shown = (route, t)
            window.settleDue = t + tolerance + 1
        }
        flush = window
    }

    /// A reading while the window is open: a new route starts a run; the same route continues it.
    mutating func read(_ route: Route, seq: Int, t: Int64) {
        msReadings.append((route, seq))
        guard var window = flush, route != .unknown, window.shown?.route != route else { return }
        window.shown = (route, t)
        window.settleDue = t + tolerance + 1
        flush = window
    }

    /// The run has shown its route for longer than the tolerance: the first settled reading decides.
    mutating func settle(t: Int64) {
        guard var window = flush, let shown = window.shown else { return }
        window.settleDue = nil
        flush = window
        let n = withOverride(nil)
        if let back = window.flushed {
            // After a flush: the flushed override's route restores it (nothing to decide where it is N).
            guard let f = withOverride(back.target), f != n, shown.route == f else { return }
            override = back.target
            overrideSeq = back.seq
            flush = nil
            reached["restore", default: 0] += 1
            return
        }
        // O null or O = N: nothing to decide (contract-notes, "R15, O = N"); the window stays open.
        guard let o = withOverride(override), o != n else { reached["nothing to decide", default: 0] += 1; return }
        reached[shown.route == n ? "flush when N settles" : "O or another route settles", default: 0] += 1
        if shown.route == n { flushOverride(t: t) } else { flush = nil }
    }

    private mutating func flushOverride(t: Int64) {
        guard var window = flush, let target = override else { return }
        raised.append(ModelFinding(code: .routeOverrideFlushed, t: t, seq: window.openedBy))
        window.flushed = (target, overrideSeq)
        window.settleDue = nil
        flush = window
        override = nil
        overrideSeq = nil
    }

    /// The window closes at a route call, at an opening device change and at an interruption's beginning
    /// (flushing first when nothing has decided yet and the latest counted reading shows N), and at a
    /// leave or exit.
    mutating func closeFlushWindow(before record: Record, opening: Bool) {
        guard let window = flush else { return }
        switch record.body {
        case .setRoute, .setDefaultRoute, .clearRouteOverride:
            break
        case .leaveChannel, .exitMeeting:
            flush = nil
            return
        default:
            guard opening || begins(record.body) != nil else { return }
        }
        if window.flushed == nil, let shown = window.shown, let o = withOverride(override), o != withOverride(nil),
           shown.route == withOverride(nil) {
            reached["flush at the closing record", default: 0] += 1
            flushOverride(t: record.t)
        }
        flush = nil
    }
}
