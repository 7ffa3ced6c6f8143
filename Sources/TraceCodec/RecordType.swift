import SystemLayer

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
    case mediaServicesReset = "os.mediaServicesReset"
    case callKit = "os.callKit"
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
    case dropped = "trace.dropped"

    /// A name of the table below: its bytes and its type.
    private struct Entry {
        var bytes: UnsafePointer<UInt8>
        var type: RecordType
    }

    /// Candidates grouped by name length, so a lookup compares a handful of names at most. Plain
    /// allocations, made once and never freed: a lookup touches no reference count, so threads
    /// decoding at the same time do not contend on a shared array's header.
    nonisolated(unsafe) private static let table: (entries: UnsafeMutablePointer<Entry>, starts: UnsafeMutablePointer<Int>) = {
        let sorted = allCases.map { (Array($0.rawValue.utf8), $0) }.sorted { $0.0.count < $1.0.count }
        let entries = UnsafeMutablePointer<Entry>.allocate(capacity: sorted.count)
        let starts = UnsafeMutablePointer<Int>.allocate(capacity: 65)
        var next = 0
        for length in 0...64 {
            starts[length] = next
            while next < sorted.count && sorted[next].0.count == length {
                let p = UnsafeMutablePointer<UInt8>.allocate(capacity: length)
                p.initialize(from: sorted[next].0, count: length)
                entries[next] = Entry(bytes: UnsafePointer(p), type: sorted[next].1)
                next += 1
            }
        }
        return (entries, starts)
    }()

    /// The type named by these bytes, if it is one of the fixed-schema types.
    @inline(__always)
    static func lookup(_ name: UnsafeBufferPointer<UInt8>) -> RecordType? {
        guard name.count < 64, let base = name.baseAddress else { return nil }
        let t = table
        for i in t.starts[name.count]..<t.starts[name.count + 1] where Memory.equal(t.entries[i].bytes, base, count: name.count) {
            return t.entries[i].type
        }
        return nil
    }
}
