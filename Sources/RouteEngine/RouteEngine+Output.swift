import Contract

/// A timer the route engine asks the replayer to deliver back through `RouteEngine.fire(_:)` at `due`.
@usableFromInline package typealias RouteTimer = EngineTimer<RouteTimerKind>

/// Where the route engine writes what a record, timer or end produced.
@usableFromInline package typealias RouteSink = OutputSink<RouteOutput>

/// What a route engine timer is for; each carries the records it belongs to, so a stale timer does nothing.
@usableFromInline
package enum RouteTimerKind: Equatable, Sendable {
    /// The recovery attempt D ms after `os.callState` → `disconnected` (I3).
    case recoveryRetry(interruptionSeq: Int, callStateSeq: Int)
    /// The end of the recovery window after the engine recovered (interruption.notRecovered).
    case recoveryWindow(interruptionSeq: Int)
    /// The end of the recovery window after a media services reset (session.notRebuiltAfterReset, I5).
    case rebuildWindow(resetSeq: Int)
    /// The end of the recovery window after a CallKit answer or start (callkit.noDidActivate, I7).
    case callKitWindow(actionSeq: Int)
    /// The end of the call-path window of an engagement or recovery (session.callPathNotUp, R17).
    case callPathWindow(seq: Int)
    /// The end of the deactivation window after a leave or exit (session.notDeactivated, R18).
    case deactivationWindow(seq: Int)
    /// The end of the match window for an interruption's interrupted callback (I14 a).
    case interruptedCallback(seq: Int)
    /// A reading in a flush window has shown its route for longer than the tolerance (R15).
    case flushSettle(openedBy: Int, readingSeq: Int)
    /// The end of the reactivation window after an `unhold` (callkit.noReactivation, I11).
    case reactivationWindow(unholdSeq: Int)
}

/// What applying a record to the route engine produces: data, never side effects.
@usableFromInline
package enum RouteOutput: Equatable, Sendable {
    /// The verdict on a route call (V1), exactly one per `api.setRoute` / `api.setDefaultRoute` / `api.clearRouteOverride`.
    case verdict(Verdict)
    /// A diagnostic.
    case finding(Finding)
    /// A diagnostic counted, not built: its driver keeps no more findings and nobody observes.
    case counted(FindingCount)
    /// A timer to deliver back through `fire(_:)` at its due time.
    case timer(RouteTimer)
    /// The engine recovered from an interruption (I3, I5, I6): the SDK's recovered callback is due now.
    case recovered(t: Int64)
    /// A deferred route call's outcome was decided after its verdict (V2): applied or ineffective at the
    /// engagement or recovery, superseded by a later call, or dropped by a leave or exit. The verdict itself
    /// carries the outcome decided at the call (`pending` for a deferred call).
    case outcome(callSeq: Int, Outcome)
}

extension RouteOutput: FindingOutput {}

extension RouteEngine: Engine {
    @inlinable
    package static func role(of output: RouteOutput) -> EngineOutputRole<RouteTimerKind> {
        switch output {
        case .verdict(let v): .verdict(v)
        case .finding(let f): .finding(f)
        case .counted(let c): .counted(c)
        case .timer(let t): .timer(t)
        case .recovered(let t): .recovered(t: t)
        case let .outcome(callSeq, outcome): .outcome(callSeq: callSeq, outcome)
        }
    }
}
