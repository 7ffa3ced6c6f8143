import TraceModel

/// The state the SDK knows, as far as the records this process has written say it: what a part after
/// a rotation begins with (`trace.checkpoint`), consistent by construction with the records before it.
///
/// It follows the records the way the SDK's query properties do (seed 001: `defaultAudioRoute`,
/// `routeOverride`, `isEngaged`, `currentRoute`, …): a route call sets the default or the override, an
/// engagement sets up the call path and re-enables the audio module, a leave drops the override and
/// any interruption, devices come and go in connection order, and the call session is the latest
/// successful `playAndRecord` activation until a deactivation, another category or a reset.
struct SessionState {
    private(set) var checkpoint: TraceCheckpoint

    /// The state at the start of a process: the persistent default the configuration names, nothing else.
    init(initialDefaultRoute: RouteTarget?) {
        checkpoint = TraceCheckpoint(defaultRoute: initialDefaultRoute ?? .earpiece)
    }

    /// Follows one written record.
    mutating func observe(_ body: RecordBody) {
        var c = checkpoint
        switch body {
        case .setDefaultRoute(let target): c.defaultRoute = target
        case .setRoute(let target, _): c.override = target
        case .clearRouteOverride: c.override = nil
        case .joinChannel, .enterMeeting:
            c.engaged = true
            c.audioModuleEnabled = true
        case .leaveChannel, .exitMeeting:
            c.engaged = false
            c.override = nil
            c.interrupted = false
        case .setAudioModuleEnabled(let enabled): c.audioModuleEnabled = enabled
        case .micPermission(let status): c.micPermission = status
        case let .deviceConnected(id, kind, name, port):
            c.devices.removeAll { $0.id == id }
            c.devices.append(TraceCheckpoint.Device(id: id, kind: DeviceKind.of(kind: kind, port: port), name: name, port: port))
        case .deviceDisconnected(let id): c.devices.removeAll { $0.id == id }
        case .routeChanged(let route, _, _), .routeSnapshot(let route, _): c.currentRoute = route
        case .callState(let state): c.callState = state
        case .appState(let state): c.appState = state
        case .interruptionBegan:
            if c.engaged { c.interrupted = true }
        case .sdkInterrupted: c.interrupted = true
        case .sdkRecovered: c.interrupted = false
        case .mediaServicesReset:
            if c.engaged { c.interrupted = true }
            c.session = nil
        case .callKit(let event, _):
            switch event {
            case .didDeactivate: if c.engaged { c.interrupted = true }
            case .didActivate: c.interrupted = false
            case .answer, .start, .end, .hold, .unhold, .unlisted: break
            }
        case .sessionActivated(let a):
            guard a.ok else { break }
            if a.category == "playAndRecord" {
                c.session = TraceCheckpoint.Configuration(category: "playAndRecord", mode: a.mode ?? "default", options: a.options)
                // The SDK reactivating its call session with no other call up is how it recovers.
                if !c.callState.isCallUp { c.interrupted = false }
            } else {
                c.session = nil
            }
        case .sessionDeactivated(_, let ok, _):
            if ok != false { c.session = nil }
        case .connEngine(let vendor):
            c.transport = TraceCheckpoint.Transport(engine: vendor, state: c.transport?.state ?? .connecting)
        case .connState(let state):
            c.transport = TraceCheckpoint.Transport(engine: c.transport?.engine ?? .seaStart, state: state)
        case .header, .subscribe, .switchLayer, .interruptionEnded, .overrideOutput, .sdkCallStateChanged, .sdkQualityChanged,
             .sdkActiveSpeakers, .sdkLayerSwitched, .sdkError, .sdkLog, .qualityReport, .speakers, .srvLayerSwitched, .dropped,
             .checkpoint, .expect, .unknown:
            return
        }
        checkpoint = c
    }
}
