// The route engine: a pure reducer over trace records (contract.md, "Route engine").
import Contract
import TraceModel

/// The SDK's documented audio-routing contract as a pure, deterministic state machine:
/// (state, record) → (state, outputs), with time taken only from records' `t` and the timers it asks for.
public struct RouteEngine: Sendable {
    /// Replay options that the contract leaves to the replayer.
    public struct Options: Equatable, Sendable {
        /// D in rule I3: the recovery attempt this long after `os.callState` → `disconnected`.
        public var retryDelayMs: Int64
        /// How long after the engine recovered the SDK has to confirm it (interruption.notRecovered); also the
        /// window for the rebuild after a reset (I5) and for CallKit's `didActivate` (I7).
        public var recoveryWindowMs: Int64
        /// How long before an unexplained route change a record still accounts for it (R12; the replay's
        /// match window, inclusive).
        public var matchWindowMs: Int64

        /// Creates options; the defaults are the contract's.
        public init(retryDelayMs: Int64 = 2000, recoveryWindowMs: Int64 = 5000, matchWindowMs: Int64 = 1000) {
            self.retryDelayMs = retryDelayMs
            self.recoveryWindowMs = recoveryWindowMs
            self.matchWindowMs = matchWindowMs
        }
    }

    /// The most external devices the engine keeps connected at once; further connections are ignored.
    public static let deviceLimit = 1_000

    /// The options this engine replays with.
    public let options: Options
    /// The current state.
    public internal(set) var state: State
    /// `state.predictedRoute` after the last record or timer, stored so that a caller holding the engine
    /// in a class reads one field instead of copying the whole state to call the computed property.
    public private(set) var predictedRoute: Route?
    /// `state.predictionSource` after the last record or timer (X4), stored for the same reason.
    public private(set) var predictionSource: PredictionSource?
    /// When the last record that accounts for a session change was replayed (R12: `api.*`, `os.*`,
    /// `obs.sessionActivated`, `obs.sessionDeactivated`, `obs.overrideOutput`). Kept beside the state: it
    /// describes the trace, not the SDK.
    public private(set) var accountingT: Int64?
    /// The ids in `state.devices`, so that a connect or disconnect of an id the state does not hold
    /// costs no scan (a hostile trace can connect a million new ids). Derived: rebuilt whenever it
    /// disagrees with the state in size.
    private var deviceIDs: Set<String> = []

    /// Creates an engine in the contract's initial state.
    public init(options: Options = Options()) {
        self.options = options
        self.state = State()
        predictedRoute = state.predictedRoute
        predictionSource = state.predictionSource
    }

    /// Applies one record (any type; the ones that don't concern routing, `expect.*` included, are ignored).
    public mutating func apply(_ record: Record) -> [RouteOutput] {
        // A record that does not concern routing changes nothing: the prediction needs no recomputing.
        let before = predictedRoute
        guard let outputs = reduce(record) else { return [] }
        predictedRoute = state.predictedRoute
        predictionSource = state.predictionSource
        if predictedRoute != before { state.predictionSeq = record.seq }
        return outputs
    }

    /// Delivers a timer the engine asked for, at its due time.
    public mutating func fire(_ timer: RouteTimer) -> [RouteOutput] {
        defer {
            predictedRoute = state.predictedRoute
            predictionSource = state.predictionSource
        }
        switch timer.kind {
        case let .recoveryRetry(interruptionSeq, callStateSeq):
            guard state.interrupted, state.resetSeq == nil, state.interruptionSeq == interruptionSeq else { return [] }
            // I3 when the end arrived; I6 (a) when it still has not.
            if state.recoveryPending { return attemptRecovery(t: timer.due, triggerSeq: callStateSeq, decidedBy: nil) }
            return recoverWithoutEnd(t: timer.due, triggerSeq: callStateSeq, decidedBy: nil)
        case let .recoveryWindow(interruptionSeq):
            guard let pending = state.pendingConfirmation, pending.interruptionSeq == interruptionSeq else { return [] }
            state.pendingConfirmation = nil
            return [.finding(notRecoveredFinding(pending, t: timer.due))]
        case .rebuildWindow(let resetSeq):
            return rebuildWindowClosed(resetSeq: resetSeq, t: timer.due)
        case .callKitWindow(let actionSeq):
            return callKitWindowClosed(actionSeq: actionSeq, t: timer.due)
        }
    }

    /// End-of-trace diagnostics (audioModule.leftDisabled), raised at the last record's `t` and `seq`.
    ///
    /// Timers are not this method's business: a window still running is reported only if the replayer
    /// delivers it through `fire(_:)`; whether to deliver timers that outlast the trace is the replayer's
    /// decision. A deferred call still waiting stays `pending` (V2).
    public mutating func finish(t: Int64, lastSeq: Int) -> [RouteOutput] {
        guard !state.audioModuleEnabled, !state.audioModuleLeftDisabledReported else { return [] }
        state.audioModuleLeftDisabledReported = true
        return [.finding(leftDisabledFinding(atSeq: lastSeq, t: t, atEnd: true))]
    }

    /// The record's effect; nil for a record that does not concern routing (state untouched).
    private mutating func reduce(_ record: Record) -> [RouteOutput]? {
        switch record.body {
        case .header(let header):
            return applyHeader(header, record)
        case .routeChanged(let route, _, let reason):
            return routeObserved(route, reason: reason, record)
        case .sdkRecovered:
            return sdkRecovered(record)
        case .qualityReport, .speakers, .sdkActiveSpeakers, .sdkLog, .sdkInterrupted, .sdkCallStateChanged, .sdkQualityChanged,
             .sdkLayerSwitched, .sdkError, .connEngine, .connState, .srvLayerSwitched, .routeSnapshot, .dropped, .checkpoint,
             .expect:
            return nil
        case .joinChannel, .enterMeeting, .leaveChannel, .exitMeeting, .setDefaultRoute, .setRoute, .clearRouteOverride,
             .setAudioModuleEnabled, .subscribe, .switchLayer, .deviceConnected, .deviceDisconnected, .micPermission,
             .interruptionBegan, .interruptionEnded, .callState, .appState, .mediaServicesReset, .callKit, .sessionActivated,
             .sessionDeactivated, .overrideOutput, .unknown:
            // Every other record the engine reads is one that accounts for a session change (R12).
            let outputs = reduceAccounting(record)
            if outputs != nil { accountingT = record.t }
            return outputs
        }
    }

    /// The records that account for a session change (R12): `api.*`, `os.*` and the SDK's own session calls.
    private mutating func reduceAccounting(_ record: Record) -> [RouteOutput]? {
        switch record.body {
        case .joinChannel, .enterMeeting:
            return engage(record)
        case .leaveChannel, .exitMeeting:
            return disengage(record)
        case .setDefaultRoute(let target):
            return routeCall(record, .setDefault(target), api: nil)
        case let .setRoute(target, api):
            return routeCall(record, .setOverride(target), api: api)
        case .clearRouteOverride:
            return routeCall(record, .clearOverride, api: nil)
        case .setAudioModuleEnabled(let enabled):
            setAudioModule(enabled, seq: record.seq)
            return []
        case let .deviceConnected(id, kind, name, _):
            return deviceConnected(ConnectedDevice(id: id, kind: kind, name: name, seq: record.seq), record)
        case .deviceDisconnected(let id):
            syncDeviceIDs()
            if deviceIDs.remove(id) != nil { state.devices.removeAll { $0.id == id } }
            return []
        case .micPermission(let status):
            if status.isListed {
                state.micPermission = status
                state.micPermissionSeq = record.seq
            }
            return []
        case .interruptionBegan:
            return interruptionBegan(record)
        case .interruptionEnded:
            return interruptionEnded(record)
        case .callState(let callState):
            return callState.isListed ? callStateChanged(callState, record) : []
        case .appState(let appState):
            return appStateChanged(appState, record)
        case .mediaServicesReset:
            return mediaServicesReset(record)
        case .callKit(let event, _):
            return callKit(event, record)
        case .sessionActivated(let activation):
            return sessionActivated(activation, record)
        case .sessionDeactivated(let notifyOthers, _, _):
            return notifyOthers ? [] : [.finding(missingNotifyOthersFinding(record))]
        case .subscribe, .switchLayer, .overrideOutput:
            return []
        case .unknown(let type, _):
            return type.hasPrefix("api.") || type.hasPrefix("os.") ? [] : nil
        case .header, .routeChanged, .sdkRecovered, .qualityReport, .speakers, .sdkActiveSpeakers, .sdkLog, .sdkInterrupted,
             .sdkCallStateChanged, .sdkQualityChanged, .sdkLayerSwitched, .sdkError, .connEngine, .connState, .srvLayerSwitched,
             .routeSnapshot, .dropped, .checkpoint, .expect:
            return nil
        }
    }

    private mutating func applyHeader(_ header: TraceHeader, _ record: Record) -> [RouteOutput] {
        state.layer = header.layer
        state.simulator = header.device.simulator
        state.micUsageDescription = header.app.micUsageDescription
        state.backgroundAudio = header.app.backgroundAudio
        state.defaultTarget = header.initialDefaultRoute ?? .earpiece
        // X4: the header is the record behind the default only when it names one.
        state.defaultSeq = header.initialDefaultRoute == nil ? nil : record.seq
        state.headerSeq = record.seq
        // R10: raised once, at the header, so it is there even for a trace that never engages (decided).
        return header.device.simulator ? [.finding(simulatorFinding(record))] : []
    }

    /// R6, R9: engagement sets up the call audio path and resets the audio module; then the calls deferred
    /// before it are decided (V2), on the state with the module enabled.
    private mutating func engage(_ record: Record) -> [RouteOutput] {
        let wasEngaged = state.engaged
        state.engaged = true
        state.engagedSeq = record.seq
        setAudioModule(true, seq: record.seq)
        guard !wasEngaged else { return [] }
        state.videoChatSeq = nil
        var outputs: [RouteOutput] = state.micUsageDescription ? [] : [.finding(missingMicUsageFinding(record))]
        outputs += decidePendingCalls(t: record.t, by: record.seq)
        return outputs
    }

    /// R6, I1, I5: leaving drops the override (and a deferred override call), keeps the default and ends any
    /// interruption or reset.
    private mutating func disengage(_ record: Record) -> [RouteOutput] {
        var outputs: [RouteOutput] = []
        if !state.audioModuleEnabled, !state.audioModuleLeftDisabledReported {
            state.audioModuleLeftDisabledReported = true
            outputs.append(.finding(leftDisabledFinding(atSeq: record.seq, t: record.t, atEnd: false)))
        }
        if let call = state.pendingOverrideCall {
            outputs.append(.outcome(callSeq: call, Outcome(kind: .dropped, t: record.t, seq: record.seq)))
            state.pendingOverrideCall = nil
        }
        state.engaged = false
        state.leftSeq = record.seq
        state.override = nil
        state.overrideSeq = nil
        state.overrideAppliedBy = nil
        state.interrupted = false
        state.recoveryPending = false
        state.pendingConfirmation = nil
        state.resetSeq = nil
        state.videoChatSeq = nil
        return outputs
    }

    /// R4, with the engine's device limit.
    private mutating func deviceConnected(_ device: ConnectedDevice, _ record: Record) -> [RouteOutput] {
        syncDeviceIDs()
        if deviceIDs.contains(device.id) { state.devices.removeAll { $0.id == device.id } }
        guard state.devices.count < Self.deviceLimit else {
            deviceIDs.remove(device.id)
            guard !state.deviceLimitReported else { return [] }
            state.deviceLimitReported = true
            return [.finding(deviceLimitFinding(record))]
        }
        state.devices.append(device)
        deviceIDs.insert(device.id)
        return []
    }

    /// Rebuilds the id index when the state's devices were changed from outside (or by a leave).
    private mutating func syncDeviceIDs() {
        if deviceIDs.count != state.devices.count { deviceIDs = Set(state.devices.map(\.id)) }
    }

    private mutating func setAudioModule(_ enabled: Bool, seq: Int) {
        if enabled {
            state.audioModuleEnabled = true
            state.audioModuleDisabledSeq = nil
            state.audioModuleLeftDisabledReported = false
        } else if state.audioModuleEnabled {
            state.audioModuleEnabled = false
            state.audioModuleDisabledSeq = seq
            state.audioModuleLeftDisabledReported = false
        }
    }
}
