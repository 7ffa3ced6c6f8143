import Contract
import TraceModel

// A part of a session that begins without the parts before it: the state from its checkpoint
// (`trace.checkpoint`, since version 3 of the format), or an unknown state until the part's records or a
// checkpoint make it known again.
extension RouteEngine {
    /// The fields of a checkpoint the route engine knows.
    package enum CheckpointField: String, CaseIterable, Sendable {
        case defaultRoute, override, engaged, audioModuleEnabled, micPermission, devices, currentRoute, callState
        case appState, interrupted, session

        /// Whether iOS holds it, so it survives a restart of the app's process (RS1): compared at a resumed
        /// part's checkpoint, where the others (the SDK's own) are taken from it.
        package var survivesRestart: Bool {
            switch self {
            case .micPermission, .devices, .currentRoute, .callState, .appState: true
            case .defaultRoute, .override, .engaged, .audioModuleEnabled, .interrupted, .session: false
            }
        }
    }

    /// Starts afresh from a checkpoint at `seq` (a part replayed without the parts before it, or after a
    /// missing part): what the recorder's SDK knew there replaces what the replay knew, and nothing the
    /// engine waited for carries over. The header's facts stay. An interruption open at the checkpoint
    /// began before the part: no I10 check names it, and its recovery waits for its end as usual.
    package mutating func start(from cp: TraceCheckpoint, seq: Int, t: Int64) {
        startAfresh()
        state.defaultTarget = cp.defaultRoute
        state.defaultSeq = seq
        state.override = cp.override
        state.overrideSeq = cp.override == nil ? nil : seq
        state.engaged = cp.engaged
        state.engagedSeq = cp.engaged ? seq : nil
        state.audioModuleEnabled = cp.audioModuleEnabled
        state.audioModuleDisabledSeq = cp.audioModuleEnabled ? nil : seq
        if cp.micPermission.isListed {
            state.micPermission = cp.micPermission
            state.micPermissionSeq = seq
        }
        state.devices = cp.devices.map {
            ConnectedDevice(id: $0.id, kind: DeviceKind.of(kind: $0.kind, port: $0.port), name: $0.name, seq: seq)
        }
        state.lastReading = cp.currentRoute.map { RouteReading(route: $0, t: t, seq: seq) }
        if cp.callState.isListed { state.callState = cp.callState }
        if cp.appState.isListed { state.foreground = cp.appState == .foreground }
        if cp.interrupted, cp.engaged {
            state.interrupted = true
            state.interruptionKind = .system
            state.interruptionSeq = seq
            state.activatedSinceInterruption = false
        }
        if let session = cp.session {
            state.activationsRecorded = true
            if session.category == "playAndRecord" {
                state.callSession = CallSession(seq: seq, mode: session.mode,
                                                allowsAirPlay: session.mode == "videoChat" || session.options.contains("allowAirPlay"))
                state.callPathUp = !state.interrupted
            }
        }
        stateReplaced()
    }

    /// Starts with an unknown state (a part replayed without the parts before it and without a checkpoint,
    /// or after a missing part): nothing carries over but the header's facts, nothing is predicted until
    /// an engagement, and no verdict is derived from the state until it is known again: until the part's
    /// records have told whether the call is up and which external device, if any, has the route
    /// (`StartStateLearnt`), or a checkpoint has told everything. Route calls meanwhile are `undetermined`.
    package mutating func startWithUnknownState() {
        startAfresh()
        state.startStateUnknown = true
        stateReplaced()
    }

    /// The state as the header left it; every obligation dropped.
    private mutating func startAfresh() {
        var fresh = State()
        fresh.layer = state.layer
        fresh.simulator = state.simulator
        fresh.micUsageDescription = state.micUsageDescription
        fresh.backgroundAudio = state.backgroundAudio
        fresh.headerSeq = state.headerSeq
        fresh.macOS = state.macOS
        fresh.deviceLimitReported = state.deviceLimitReported
        state = fresh
        let reported = obligations.notIOSReported
        obligations = Obligations()
        obligations.notIOSReported = reported
    }

    /// The fields of a checkpoint that disagree with the state derived from the records before it (a
    /// replay of the whole session). A field the trace has recorded nothing about (the microphone
    /// permission, the route, the session) is not compared.
    /// With `restart`, only the fields that survive a restart are compared (RS1, checkpoints as v4 reads them).
    package func checkpointDifferences(_ cp: TraceCheckpoint, restart: Bool = false) -> [CheckpointDifference] {
        var out: [CheckpointDifference] = []
        func differ(_ field: CheckpointField, _ checkpoint: String, _ derived: String) {
            if checkpoint != derived { out.append(CheckpointDifference(field: field.rawValue, checkpoint: checkpoint, derived: derived)) }
        }
        // Checkpoints (v4): `idle` and `disconnected` both say that no other call is up.
        func call(_ s: CallState) -> String { s == .idle || s == .disconnected ? FindingWords.noOtherCall : s.rawValue }
        for field in CheckpointField.allCases where !restart || field.survivesRestart {
            switch field {
            case .defaultRoute: differ(field, cp.defaultRoute.rawValue, state.defaultTarget.rawValue)
            case .override: differ(field, cp.override?.rawValue ?? "none", state.override?.rawValue ?? "none")
            case .engaged: differ(field, "\(cp.engaged)", "\(state.engaged)")
            case .audioModuleEnabled: differ(field, "\(cp.audioModuleEnabled)", "\(state.audioModuleEnabled)")
            case .micPermission:
                if state.micPermissionSeq != nil { differ(field, cp.micPermission.rawValue, state.micPermission.rawValue) }
            case .devices:
                func ids(_ list: [String]) -> String { list.isEmpty ? "none" : list.joined(separator: ", ") }
                differ(field, ids(cp.devices.map(\.id)), ids(state.devices.map(\.id)))
            case .currentRoute:
                if let reading = state.lastReading, let route = cp.currentRoute { differ(field, route.rawValue, reading.route.rawValue) }
            case .callState: differ(field, call(cp.callState), call(state.callState))
            case .appState:
                if cp.appState.isListed { differ(field, cp.appState == .foreground ? "foreground" : "not foreground", state.foreground ? "foreground" : "not foreground") }
            case .interrupted: differ(field, "\(cp.interrupted)", "\(state.interrupted)")
            case .session:
                if state.activationsRecorded {
                    let mine = state.callSession.map { "playAndRecord/\($0.mode ?? "?")" } ?? "none"
                    let theirs = cp.session.map { $0.category == "playAndRecord" ? "playAndRecord/\($0.mode)" : "none" } ?? "none"
                    differ(field, theirs, mine)
                }
            }
        }
        return out
    }

    /// Whether a route snapshot listing its ports, while the state before the part is unknown, tells which
    /// external device has the route: none when it shows the built-in speaker or receiver; the one the
    /// replay knows when it shows that device's route. A device the part never connected may have it
    /// otherwise (its id, kind and connection order are unknown), and an `unknown` route tells nothing.
    func snapshotAccountsForDevices(_ route: Route) -> Bool {
        switch route {
        case .speaker, .receiver: true
        case .bluetooth, .headset: state.routeDevice?.kind.route == route
        case .unknown: false
        }
    }

    /// The state before the part is known again once the part's records have told whether the call is up
    /// and which external device, if any, has the route.
    mutating func learntStartState() {
        guard state.startStateLearnt.engagement != nil, state.startStateLearnt.devices != nil else { return }
        state.startStateUnknown = false
        state.startStateLearnt = StartStateLearnt()
    }
}
