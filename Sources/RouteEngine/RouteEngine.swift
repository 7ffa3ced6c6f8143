// The route engine: a pure reducer over trace records (contract.md, "Route engine").
import TraceFormat

/// The SDK's documented audio-routing contract as a pure, deterministic state machine:
/// (state, record) → (state, outputs), with time taken only from records' `t` and the timers it asks for.
public struct RouteEngine: Sendable {
    /// Replay options that the contract leaves to the replayer.
    public struct Options: Equatable, Sendable {
        /// D in rule I3: the recovery attempt this long after `os.callState` → `disconnected`.
        public var retryDelayMs: Int64
        /// How long after the engine recovered the SDK has to confirm it (interruption.notRecovered).
        public var recoveryWindowMs: Int64

        /// Creates options; the defaults are the contract's.
        public init(retryDelayMs: Int64 = 2000, recoveryWindowMs: Int64 = 5000) {
            self.retryDelayMs = retryDelayMs
            self.recoveryWindowMs = recoveryWindowMs
        }
    }

    /// The options this engine replays with.
    public let options: Options
    /// The current state.
    public internal(set) var state: State
    /// `state.predictedRoute` after the last record or timer, stored so that a caller holding the engine
    /// in a class reads one field instead of copying the whole state to call the computed property.
    public private(set) var predictedRoute: Route?

    /// Creates an engine in the contract's initial state.
    public init(options: Options = Options()) {
        self.options = options
        self.state = State()
        predictedRoute = state.predictedRoute
    }

    /// Applies one record (any type; the ones that don't concern routing, `expect.*` included, are ignored).
    public mutating func apply(_ record: Record) -> [RouteOutput] {
        // A record that does not concern routing changes nothing: the prediction needs no recomputing.
        let before = predictedRoute
        guard let outputs = reduce(record) else { return [] }
        predictedRoute = state.predictedRoute
        if predictedRoute != before { state.predictionSeq = record.seq }
        return outputs
    }

    /// Delivers a timer the engine asked for, at its due time.
    public mutating func fire(_ timer: RouteTimer) -> [RouteOutput] {
        defer { predictedRoute = state.predictedRoute }
        switch timer.kind {
        case let .recoveryRetry(interruptionSeq, callStateSeq):
            guard state.interrupted, state.interruptionSeq == interruptionSeq else { return [] }
            return attemptRecovery(t: timer.due, triggerSeq: callStateSeq)
        case let .recoveryWindow(interruptionSeq):
            guard let pending = state.pendingConfirmation, pending.interruptionSeq == interruptionSeq else { return [] }
            state.pendingConfirmation = nil
            return [.finding(notRecoveredFinding(pending, t: timer.due))]
        }
    }

    /// End-of-trace diagnostics (audioModule.leftDisabled), raised at the last record's `t` and `seq`.
    ///
    /// Timers are not this method's business: a recovery window still running is reported only if the
    /// replayer delivers it through `fire(_:)`; whether to deliver timers that outlast the trace is the
    /// replayer's decision.
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
            state.devices.removeAll { $0.id == id }
            state.devices.append(ConnectedDevice(id: id, kind: kind, name: name, seq: record.seq))
            return []
        case .deviceDisconnected(let id):
            state.devices.removeAll { $0.id == id }
            return []
        case .micPermission(let status):
            state.micPermission = status
            state.micPermissionSeq = record.seq
            return []
        case .interruptionBegan:
            return interruptionBegan(record)
        case .interruptionEnded:
            return interruptionEnded(record)
        case .callState(let callState):
            return callStateChanged(callState, record)
        case .appState(let appState):
            return appStateChanged(appState, record)
        case .sessionActivated(let activation):
            return sessionActivated(activation, record)
        case .sessionDeactivated(let notifyOthers):
            return notifyOthers ? [] : [.finding(missingNotifyOthersFinding(record))]
        case .sdkRecovered:
            return sdkRecovered(record)
        default:
            return nil
        }
    }

    private mutating func applyHeader(_ header: TraceHeader, _ record: Record) -> [RouteOutput] {
        state.layer = header.layer
        state.simulator = header.device.simulator
        state.micUsageDescription = header.app.micUsageDescription
        state.backgroundAudio = header.app.backgroundAudio
        state.defaultTarget = header.initialDefaultRoute ?? .earpiece
        state.defaultSeq = record.seq
        state.headerSeq = record.seq
        // R10: raised once, at the header, so it is there even for a trace that never engages (decided).
        return header.device.simulator ? [.finding(simulatorFinding(record))] : []
    }

    /// R6, R9: engagement sets up the call audio path and resets the audio module.
    private mutating func engage(_ record: Record) -> [RouteOutput] {
        let wasEngaged = state.engaged
        state.engaged = true
        state.engagedSeq = record.seq
        setAudioModule(true, seq: record.seq)
        guard !wasEngaged, !state.micUsageDescription else { return [] }
        return [.finding(missingMicUsageFinding(record))]
    }

    /// R6, I1: leaving drops the override, keeps the default and ends any interruption.
    private mutating func disengage(_ record: Record) -> [RouteOutput] {
        var outputs: [RouteOutput] = []
        if !state.audioModuleEnabled, !state.audioModuleLeftDisabledReported {
            state.audioModuleLeftDisabledReported = true
            outputs.append(.finding(leftDisabledFinding(atSeq: record.seq, t: record.t, atEnd: false)))
        }
        state.engaged = false
        state.leftSeq = record.seq
        state.override = nil
        state.overrideSeq = nil
        state.interrupted = false
        state.recoveryPending = false
        state.pendingConfirmation = nil
        return outputs
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
