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

    /// Continues from the state the SDK reported (the checkpoint provider's), after records were lost.
    mutating func adopt(_ known: TraceCheckpoint) {
        var c = known
        c.source = nil
        checkpoint = c
    }

    /// Follows one written record. Only the types that move the state the SDK knows are read (an `if case`
    /// each, so that a new record type is no edit here unless it moves that state).
    mutating func observe(_ body: RecordBody) {
        var c = checkpoint
        if case .setDefaultRoute(let target) = body { c.defaultRoute = target }
        if case .setRoute(let target, _) = body { c.override = target }
        if case .clearRouteOverride = body { c.override = nil }
        switch body.kind?.engagement {
        case .engage?:
            c.engaged = true
            c.audioModuleEnabled = true
        case .disengage?:
            c.engaged = false
            c.override = nil
            c.interrupted = false
        case nil: break
        }
        if case .setAudioModuleEnabled(let enabled) = body { c.audioModuleEnabled = enabled }
        if case .micPermission(let status) = body { c.micPermission = status }
        if case let .deviceConnected(id, kind, name, port) = body {
            c.devices.removeAll { $0.id == id }
            c.devices.append(TraceCheckpoint.Device(id: id, kind: DeviceKind.of(kind: kind, port: port), name: name, port: port))
        }
        if case .deviceDisconnected(let id) = body { c.devices.removeAll { $0.id == id } }
        if case .routeChanged(let route, _, _) = body { c.currentRoute = route }
        if case .routeSnapshot(let route, _) = body { c.currentRoute = route }
        if case .callState(let state) = body { c.callState = state }
        if case .appState(let state) = body { c.appState = state }
        if case .interruptionBegan = body, c.engaged { c.interrupted = true }
        if case .sdkInterrupted = body { c.interrupted = true }
        if case .sdkRecovered = body { c.interrupted = false }
        if case .mediaServicesReset = body {
            if c.engaged { c.interrupted = true }
            c.session = nil
        }
        if case .callKit(let event, _) = body {
            switch event {
            case .didDeactivate: if c.engaged { c.interrupted = true }
            case .didActivate: c.interrupted = false
            case .answer, .start, .end, .hold, .unhold, .unlisted: break
            }
        }
        if case .sessionActivated(let a) = body, a.ok {
            if a.category == "playAndRecord" {
                c.session = TraceCheckpoint.Configuration(category: "playAndRecord", mode: a.mode ?? "default", options: a.options)
                // The SDK reactivating its call session with no other call up is how it recovers.
                if !c.callState.isCallUp { c.interrupted = false }
            } else {
                c.session = nil
            }
        }
        if case .sessionDeactivated(_, let ok, _) = body, ok != false { c.session = nil }
        if case .connEngine(let vendor) = body {
            c.transport = TraceCheckpoint.Transport(engine: vendor, state: c.transport?.state ?? .connecting)
        }
        if case .connState(let state) = body {
            c.transport = TraceCheckpoint.Transport(engine: c.transport?.engine ?? .seaStart, state: state)
        }
        if c != checkpoint { checkpoint = c }
    }
}
