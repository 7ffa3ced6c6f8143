import TraceModel

// The SDK's query API, by the names the documents use (SRTC `AudioRouteSession`, SMeeting `SMeetingEngine`).
extension RouteEngine.State {
    /// SRTC `currentRoute`: the predicted five-state route.
    package var currentRoute: Route? { predictedRoute }
    /// SRTC `effectiveRouteTarget`.
    package var effectiveRouteTarget: RouteTarget { effectiveTarget }
    /// SRTC `routeOverride`.
    package var routeOverride: RouteTarget? { override }
    /// SRTC `isEngaged`.
    package var isEngaged: Bool { engaged }
    /// SMeeting `currentAudioRoute`.
    package var currentAudioRoute: Route? { predictedRoute }
    /// SMeeting `effectiveAudioRouteTarget`.
    package var effectiveAudioRouteTarget: RouteTarget { effectiveTarget }
    /// SMeeting `audioRouteOverride`.
    package var audioRouteOverride: RouteTarget? { override }
    /// SMeeting `isExternalAudioRouteActive`.
    package var isExternalAudioRouteActive: Bool { isExternalRouteActive }
    /// SMeeting `isAudioSessionActive`.
    package var isAudioSessionActive: Bool { engaged }
    /// SMeeting `isAudioModuleEnabled`.
    package var isAudioModuleEnabled: Bool { audioModuleEnabled }
    /// SMeeting `audioCallState`.
    package var audioCallState: CallState { callState }
    /// SRTC `isBluetoothAvailable`.
    package var isBluetoothAvailable: Bool { devices.contains { $0.kind == .bluetooth } }
    /// SRTC `isHeadsetAvailable`.
    package var isHeadsetAvailable: Bool { devices.contains { $0.kind == .headset } }
}
