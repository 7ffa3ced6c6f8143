import TraceModel

// The SDK's query API, by the names the documents use (SRTC `AudioRouteSession`, SMeeting `SMeetingEngine`).
extension RouteEngine.State {
    /// SRTC `currentRoute`: the predicted five-state route.
    public var currentRoute: Route? { predictedRoute }
    /// SRTC `effectiveRouteTarget`.
    public var effectiveRouteTarget: RouteTarget { effectiveTarget }
    /// SRTC `routeOverride`.
    public var routeOverride: RouteTarget? { override }
    /// SRTC `isEngaged`.
    public var isEngaged: Bool { engaged }
    /// SMeeting `currentAudioRoute`.
    public var currentAudioRoute: Route? { predictedRoute }
    /// SMeeting `effectiveAudioRouteTarget`.
    public var effectiveAudioRouteTarget: RouteTarget { effectiveTarget }
    /// SMeeting `audioRouteOverride`.
    public var audioRouteOverride: RouteTarget? { override }
    /// SMeeting `isExternalAudioRouteActive`.
    public var isExternalAudioRouteActive: Bool { isExternalRouteActive }
    /// SMeeting `isAudioSessionActive`.
    public var isAudioSessionActive: Bool { engaged }
    /// SMeeting `isAudioModuleEnabled`.
    public var isAudioModuleEnabled: Bool { audioModuleEnabled }
    /// SMeeting `audioCallState`.
    public var audioCallState: CallState { callState }
    /// SRTC `isBluetoothAvailable`.
    public var isBluetoothAvailable: Bool { devices.contains { $0.kind == .bluetooth } }
    /// SRTC `isHeadsetAvailable`.
    public var isHeadsetAvailable: Bool { devices.contains { $0.kind == .headset } }
}
