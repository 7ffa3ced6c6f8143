import Glibc

/// The record types of the trace format that have a fixed schema (every type but `expect.*`
/// and unknown ones), looked up from the raw bytes of the `type` field without building a String.
enum RecordType: String, CaseIterable {
    case qualityReport = "srv.qualityReport"
    case speakers = "srv.speakers"
    case sdkActiveSpeakers = "sdk.activeSpeakers"
    case sdkQualityChanged = "sdk.qualityChanged"
    case header = "trace.header"
    case joinChannel = "api.joinChannel"
    case leaveChannel = "api.leaveChannel"
    case enterMeeting = "api.enterMeeting"
    case exitMeeting = "api.exitMeeting"
    case setDefaultRoute = "api.setDefaultRoute"
    case setRoute = "api.setRoute"
    case clearRouteOverride = "api.clearRouteOverride"
    case setAudioModuleEnabled = "api.setAudioModuleEnabled"
    case subscribe = "api.subscribe"
    case switchLayer = "api.switchLayer"
    case deviceConnected = "os.deviceConnected"
    case deviceDisconnected = "os.deviceDisconnected"
    case micPermission = "os.micPermission"
    case interruptionBegan = "os.interruptionBegan"
    case interruptionEnded = "os.interruptionEnded"
    case callState = "os.callState"
    case appState = "os.appState"
    case routeChanged = "obs.routeChanged"
    case routeSnapshot = "obs.routeSnapshot"
    case sessionActivated = "obs.sessionActivated"
    case sessionDeactivated = "obs.sessionDeactivated"
    case overrideOutput = "obs.overrideOutput"
    case sdkInterrupted = "sdk.interrupted"
    case sdkRecovered = "sdk.recovered"
    case sdkCallStateChanged = "sdk.callStateChanged"
    case sdkLayerSwitched = "sdk.layerSwitched"
    case sdkError = "sdk.error"
    case sdkLog = "sdk.log"
    case connEngine = "conn.engine"
    case connState = "conn.state"
    case srvLayerSwitched = "srv.layerSwitched"

    /// Candidates by name length, so a lookup compares a handful of names at most.
    nonisolated(unsafe) private static let byLength: [[(UnsafePointer<UInt8>, RecordType)]] = {
        var table = [[(UnsafePointer<UInt8>, RecordType)]](repeating: [], count: 64)
        for t in allCases {
            let bytes = Array(t.rawValue.utf8)
            let p = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
            p.initialize(from: bytes, count: bytes.count)
            table[bytes.count].append((UnsafePointer(p), t))
        }
        return table
    }()

    /// The type named by these bytes, if it is one of the fixed-schema types.
    @inline(__always)
    static func lookup(_ name: UnsafeBufferPointer<UInt8>) -> RecordType? {
        guard name.count < 64, let base = name.baseAddress else { return nil }
        for (p, t) in byLength[name.count] where memcmp(p, base, name.count) == 0 { return t }
        return nil
    }
}
