// The values of a record's open vocabularies that the format does not list (T1).

extension RecordBody {
    /// The values of its open vocabulary fields that the format does not list (T1), with the field:
    /// `os.interruptionBegan.cause`, `os.deviceConnected.kind`, `os.callState.state`, `os.appState.state`,
    /// `os.micPermission.status`, `os.callKit.event`, `obs.sessionActivated` `category` and `mode`.
    public var unlistedValues: [(field: String, value: String)] {
        switch self {
        case .interruptionBegan(let cause?, _): cause.unlistedValue.map { [("os.interruptionBegan.cause", $0)] } ?? []
        case .deviceConnected(_, let kind, _, _): kind.unlistedValue.map { [("os.deviceConnected.kind", $0)] } ?? []
        case .callState(let s): s.unlistedValue.map { [("os.callState.state", $0)] } ?? []
        case .appState(let s): s.unlistedValue.map { [("os.appState.state", $0)] } ?? []
        case .micPermission(let s): s.unlistedValue.map { [("os.micPermission.status", $0)] } ?? []
        case .callKit(let e, _): e.unlistedValue.map { [("os.callKit.event", $0)] } ?? []
        case .sessionActivated(let a):
            (a.category.flatMap { SessionActivation.listedCategories.contains($0) ? nil : ("obs.sessionActivated.category", $0) }.map { [$0] } ?? [])
                + (a.mode.flatMap { SessionActivation.listedModes.contains($0) ? nil : ("obs.sessionActivated.mode", $0) }.map { [$0] } ?? [])
        case .interruptionBegan(nil, _), .header, .joinChannel, .leaveChannel, .enterMeeting, .exitMeeting, .setDefaultRoute,
             .setRoute, .clearRouteOverride, .setAudioModuleEnabled, .subscribe, .switchLayer, .deviceDisconnected,
             .interruptionEnded, .mediaServicesReset, .routeChanged, .routeSnapshot, .sessionDeactivated, .overrideOutput,
             .sdkInterrupted, .sdkRecovered, .sdkCallStateChanged, .sdkQualityChanged, .sdkActiveSpeakers, .sdkLayerSwitched,
             .sdkError, .sdkLog, .connEngine, .connState, .qualityReport, .speakers, .srvLayerSwitched, .dropped, .checkpoint,
             .report, .paused, .system, .expect, .unknown:
            // A pause's reason is open too, but the recorder writes it, not iOS: nothing to warn a reader about.
            []
        }
    }
}
