// The route engine: a pure reducer over trace records (contract.md, "Route engine").
import Contract
import TraceModel

/// The SDK's documented audio-routing contract as a pure, deterministic state machine:
/// (state, record) → (state, outputs), with time taken only from records' `t` and the timers it asks for.
@usableFromInline
package struct RouteEngine: Sendable {
    /// Replay options that the contract leaves to the replayer.
    package struct Options: Equatable, Sendable {
        /// D in rule I3: the recovery attempt this long after `os.callState` → `disconnected`.
        package var retryDelayMs: Int64
        /// The recovery window: how long after the engine recovered the SDK has to confirm it
        /// (interruption.notRecovered, I14 b); also the window for the rebuild after a reset (I5), CallKit's
        /// `didActivate` (I7), the call path (R17), the deactivation (R18), a lasting interruption (I10) and
        /// the reactivation after an unhold (I11).
        package var recoveryWindowMs: Int64
        /// The match window: how long before an unexplained route change a record still accounts for it (R12),
        /// how long after an interruption its callback may come (I14 a), and after a CallKit `didActivate` iOS
        /// may pick the built-in route (I13). Inclusive.
        package var matchWindowMs: Int64
        /// The tolerance (X2): how long a reading must last to settle a flush window (R15).
        package var toleranceMs: Int64

        /// Creates options; the defaults are the contract's.
        package init(retryDelayMs: Int64 = 2000, recoveryWindowMs: Int64 = 5000, matchWindowMs: Int64 = 1000,
                    toleranceMs: Int64 = 500) {
            self.retryDelayMs = retryDelayMs
            self.recoveryWindowMs = recoveryWindowMs
            self.matchWindowMs = matchWindowMs
            self.toleranceMs = toleranceMs
        }
    }

    /// The most external devices the engine keeps connected at once; further connections are ignored.
    package static let deviceLimit = 1_000

    /// The options this engine replays with.
    package let options: Options
    /// The current state.
    @usableFromInline package internal(set) var state: State
    /// The windows the contract checks and the findings it raises once (contract v3).
    package internal(set) var obligations = Obligations()
    /// `state.predictedRoute` after the last record or timer, stored so that a caller holding the engine
    /// in a class reads one field instead of copying the whole state to call the computed property.
    package private(set) var predictedRoute: Route?
    /// `state.predictionSource` after the last record or timer (X4), stored for the same reason.
    package private(set) var predictionSource: PredictionSource?
    /// Counts the calls that may have changed the engine (records that concern routing, timers, the end):
    /// a caller that derives something from the engine's state (the replayer's prediction) derives it again
    /// only when this moves. A record that does not concern routing leaves it, and the state, untouched.
    package private(set) var revision = 0
    /// When the last record that accounts for a session change was replayed (R12: `api.*`, `os.*`,
    /// `obs.sessionActivated`, `obs.sessionDeactivated`, `obs.overrideOutput`). Kept beside the state: it
    /// describes the trace, not the SDK.
    package private(set) var accountingT: Int64?
    /// The ids in `state.devices`, so that a connect or disconnect of an id the state does not hold
    /// costs no scan (a hostile trace can connect a million new ids). Derived: rebuilt whenever it
    /// disagrees with the state in size.
    var deviceIDs: Set<String> = []

    /// Creates an engine in the contract's initial state.
    package init(options: Options = Options()) {
        self.options = options
        self.state = State()
        predictedRoute = state.predictedRoute
        predictionSource = state.predictionSource
    }

    /// Applies one record (any type; the ones that don't concern routing, `expect.*` included, are ignored).
    /// The rules read the record as the record model has it (`arena` makes it, its strings from the
    /// replay's symbols, for the types routing reads); the high-rate types nothing here reads cost nothing.
    @usableFromInline package mutating func apply(_ r: ReplayRecord, in arena: ReplayArena, into out: inout RouteSink) {
        switch r.kind {
        case .qualityReport?, .speakers?, .sdkActiveSpeakers?, .sdkQualityChanged?, .sdkLog?, .report?, .paused?:
            // No routing in them, and no value of an open vocabulary (T1): the engine is untouched.
            return
        case .sysSessionActivated?, .sysRouteChanged?, .sysPropertySet?, .sysPlaying?, .sysAppState?:
            // E1: the system log names causes in the explanation; it never changes the state, a prediction or a
            // finding, and never accounts for a session change (R12) in the engine.
            return
        case .header?, .dropped?, .checkpoint?, .joinChannel?, .leaveChannel?, .enterMeeting?, .exitMeeting?, .setDefaultRoute?,
             .setRoute?, .clearRouteOverride?, .setAudioModuleEnabled?, .subscribe?, .switchLayer?, .deviceConnected?,
             .deviceDisconnected?, .micPermission?, .interruptionBegan?, .interruptionEnded?, .callState?, .appState?,
             .mediaServicesReset?, .callKit?, .routeChanged?, .routeSnapshot?, .sessionActivated?, .sessionDeactivated?,
             .overrideOutput?, .sdkInterrupted?, .sdkRecovered?, .sdkCallStateChanged?, .sdkLayerSwitched?, .sdkError?,
             .connEngine?, .connState?, .srvLayerSwitched?, nil:
            apply(whole: arena.record(r), into: &out)
        }
    }

    /// Applies one whole record.
    mutating func apply(whole record: Record, into out: inout RouteSink) {
        // A record that does not concern routing changes nothing: the prediction needs no recomputing.
        let before = predictedRoute, seqBefore = state.predictionSeq
        guard reduce(record, into: &out) else { return }
        revision &+= 1
        callKitChoiceCheck(t: record.t, into: &out)
        predictedRoute = state.predictedRoute
        predictionSource = state.predictionSource
        // A change inside the record counts even when the route ends where it began (R15: a flush at a route
        // call that asks for the flushed route again): the record is the one at which it last changed.
        if predictedRoute != before || state.predictionSeq != seqBefore { state.predictionSeq = record.seq }
    }

    /// The state was replaced outside a record (a part's start, a restart, a checkpoint): the stored
    /// prediction is derived again and the revision moves, so a caller derives its own again too.
    mutating func stateReplaced() {
        revision &+= 1
        predictedRoute = state.predictedRoute
        predictionSource = state.predictionSource
    }

    /// Delivers a timer the engine asked for, at its due time.
    @usableFromInline package mutating func fire(_ timer: RouteTimer, into out: inout RouteSink) {
        revision &+= 1
        defer {
            predictedRoute = state.predictedRoute
            predictionSource = state.predictionSource
        }
        let t = timer.due
        switch timer.kind {
        case let .recoveryRetry(interruptionSeq, callStateSeq):
            guard state.interruptionKind == .system || state.interruptionKind == .stale,
                  state.interruptionSeq == interruptionSeq else { return }
            // I3 when the end arrived; I6 (a) when it still has not.
            if state.recoveryPending { return attemptRecovery(t: t, triggerSeq: callStateSeq, decidedBy: nil, into: &out) }
            recoverWithoutEnd(t: t, triggerSeq: callStateSeq, decidedBy: nil, into: &out)
        case let .recoveryWindow(interruptionSeq):
            recoveryWindowClosed(interruptionSeq: interruptionSeq, t: t, into: &out)
        case .rebuildWindow(let resetSeq):
            rebuildWindowClosed(resetSeq: resetSeq, t: t, into: &out)
        case .callKitWindow(let actionSeq):
            callKitWindowClosed(actionSeq: actionSeq, t: t, into: &out)
        case .callPathWindow(let seq):
            callPathWindowClosed(seq: seq, t: t, into: &out)
        case .deactivationWindow(let seq):
            deactivationWindowClosed(seq: seq, t: t, into: &out)
        case .interruptedCallback(let seq):
            interruptedCallbackWindowClosed(seq: seq, t: t, into: &out)
        case let .flushSettle(openedBy, readingSeq):
            flushReadingSettled(openedBy: openedBy, readingSeq: readingSeq, t: t, into: &out)
        case .reactivationWindow(let unholdSeq):
            reactivationWindowClosed(unholdSeq: unholdSeq, t: t, into: &out)
        }
    }

    /// End-of-trace diagnostics (audioModule.leftDisabled, I10), raised at the last record's `t` and `seq`.
    ///
    /// Timers are not this method's business: a window still running is reported only if the replayer
    /// delivers it through `fire(_:)`; whether to deliver timers that outlast the trace is the replayer's
    /// decision, and a window still open when the trace ends raises nothing. A deferred call still
    /// waiting stays `pending` (V2).
    @usableFromInline package mutating func finish(t: Int64, lastSeq: Int, end: TraceEnd = .end, into out: inout RouteSink) {
        revision &+= 1
        guard !state.macOS else { return }
        neverRecoveredCheck(at: nil, seq: lastSeq, t: t, end: end, into: &out)
        if !state.audioModuleEnabled, !state.audioModuleLeftDisabledReported {
            state.audioModuleLeftDisabledReported = true
            out.append(.finding(leftDisabledFinding(atSeq: lastSeq, t: t, atEnd: end)))
        }
    }

    /// The record's effect, into `out`; false for a record that does not concern routing (state untouched).
    private mutating func reduce(_ record: Record, into out: inout RouteSink) -> Bool {
        if state.macOS { return reduceOffContract(record, into: &out) }
        switch record.body {
        case .header(let header):
            applyHeader(header, record, into: &out)
        case .routeChanged(let route, _, let reason):
            routeRead(route, reason: reason, record, into: &out)
        case let .routeSnapshot(route, ports):
            if state.startStateUnknown, !(ports ?? []).isEmpty, snapshotAccountsForDevices(route) {
                state.startStateLearnt.devices = record.seq
                learntStartState()
            }
            routeRead(route, reason: nil, record, into: &out)
        case .sdkRecovered:
            sdkRecovered(record, into: &out)
        case .sdkInterrupted:
            sdkInterrupted(record, into: &out)
        case .qualityReport, .speakers, .sdkActiveSpeakers, .sdkLog, .sdkCallStateChanged, .sdkQualityChanged,
             .sdkLayerSwitched, .sdkError, .connEngine, .connState, .srvLayerSwitched, .dropped, .checkpoint, .report, .paused, .expect:
            return false
        case .system:
            // E1: the system log names causes in the explanation; it never changes the state, a prediction or a
            // finding, and never accounts for a session change (R12) in the engine.
            return false
        case .joinChannel, .enterMeeting, .leaveChannel, .exitMeeting, .setDefaultRoute, .setRoute, .clearRouteOverride,
             .setAudioModuleEnabled, .subscribe, .switchLayer, .deviceConnected, .deviceDisconnected, .micPermission,
             .interruptionBegan, .interruptionEnded, .callState, .appState, .mediaServicesReset, .callKit, .sessionActivated,
             .sessionDeactivated, .overrideOutput, .unknown:
            // Every other record the engine reads is one that accounts for a session change (R12).
            let unknown = unknownValueCheck(record, into: &out)
            let concerns = reduceAccounting(record, into: &out)
            if concerns { accountingT = record.t }
            return concerns || unknown
        }
        return true
    }

    /// The records that account for a session change (R12): `api.*`, `os.*` and the SDK's own session calls.
    /// False for a record that does not concern routing.
    private mutating func reduceAccounting(_ record: Record, into out: inout RouteSink) -> Bool {
        switch record.body {
        case .joinChannel, .enterMeeting:
            engage(record, into: &out)
        case .leaveChannel, .exitMeeting:
            disengage(record, into: &out)
        case .setDefaultRoute(let target):
            routeCall(record, .setDefault(target), api: nil, into: &out)
        case let .setRoute(target, api):
            routeCall(record, .setOverride(target), api: api, into: &out)
        case .clearRouteOverride:
            routeCall(record, .clearOverride, api: nil, into: &out)
        case .setAudioModuleEnabled(let enabled):
            setAudioModule(enabled, seq: record.seq)
        case let .deviceConnected(id, kind, name, port):
            deviceConnected(ConnectedDevice(id: id, kind: DeviceKind.of(kind: kind, port: port), name: name, seq: record.seq), record, into: &out)
        case .deviceDisconnected(let id):
            deviceDisconnected(id, record, into: &out)
        case .micPermission(let status):
            if status.isListed {
                state.micPermission = status
                state.micPermissionSeq = record.seq
            }
        case .interruptionBegan(let cause, let wasSuspended):
            interruptionBegan(record, stale: wasSuspended == true || cause == .appWasSuspended, into: &out)
        case .interruptionEnded:
            interruptionEnded(record, into: &out)
        case .callState(let callState):
            if callState.isListed { callStateChanged(callState, record, into: &out) }
        case .appState(let appState):
            appStateChanged(appState, record, into: &out)
        case .mediaServicesReset:
            mediaServicesReset(record, into: &out)
        case .callKit(let event, _):
            callKit(event, record, into: &out)
        case .sessionActivated(let activation):
            sessionActivated(activation, record, into: &out)
        case let .sessionDeactivated(notifyOthers, ok, error):
            sessionDeactivated(notifyOthers: notifyOthers, ok: ok ?? true, error: error, record, into: &out)
        case .subscribe, .switchLayer, .overrideOutput:
            break
        case .unknown(let type, _):
            return type.hasPrefix("api.") || type.hasPrefix("os.")
        case .header, .routeChanged, .sdkRecovered, .qualityReport, .speakers, .sdkActiveSpeakers, .sdkLog, .sdkInterrupted,
             .sdkCallStateChanged, .sdkQualityChanged, .sdkLayerSwitched, .sdkError, .connEngine, .connState, .srvLayerSwitched,
             .routeSnapshot, .dropped, .checkpoint, .report, .paused, .system, .expect:
            return false
        }
        return true
    }

    private mutating func applyHeader(_ header: TraceHeader, _ record: Record, into out: inout RouteSink) {
        state.layer = header.layer
        state.simulator = header.device.simulator
        state.micUsageDescription = header.app.micUsageDescription
        state.backgroundAudio = header.app.backgroundAudio
        state.defaultTarget = header.initialDefaultRoute ?? .earpiece
        // X4: the header is the record behind the default only when it names one.
        state.defaultSeq = header.initialDefaultRoute == nil ? nil : record.seq
        state.headerSeq = record.seq
        // R16: the iOS route contract does not apply to a macOS trace; said once, at the header.
        if header.isMacOS {
            state.macOS = true
            obligations.notIOSReported = true
            out.append(.finding(notIOSFinding(record, os: header.device.os ?? "macOS")))
            return
        }
        // R10: raised once, at the header, so it is there even for a trace that never engages (decided).
        if header.device.simulator { out.append(.finding(simulatorFinding(record))) }
    }

    /// A window of W ms opened at t0 holds the records with t0 ≤ t ≤ t0 + W; its finding falls due at t0 + W + 1.
    static func due(_ t0: Int64, _ w: Int64) -> Int64 { t0.saturatingAdd(w).saturatingAdd(1) }
}
