// The record model: every record type of the trace format as a case of its body, named once in the kind
// table (RecordKind.swift), its string fields in the one personal-field map (RecordBody+PersonalFields.swift).
// Every switch over a record body in the project is exhaustive, so a new type is a compile error everywhere
// it must be handled.

/// One line of a trace: its position, its time and what happened.
public struct Record: Equatable, Sendable {
    /// Position in the trace; strictly increasing by 1.
    public var seq: Int
    /// Milliseconds since the trace started (monotonic clock).
    public var t: Int64
    /// The typed content of the record.
    public var body: RecordBody
    /// Made at its `t` but written after records with a later `t` (`"late": true`, since version 4): at
    /// most the match window earlier than the latest `t` before it; readers put it in time order.
    public var late: Bool

    /// Creates a record.
    public init(seq: Int, t: Int64, _ body: RecordBody, late: Bool = false) {
        self.seq = seq
        self.t = t
        self.body = body
        self.late = late
    }

    /// The record's `type` string, e.g. `api.setRoute`.
    public var type: String { body.type }

    /// The largest `t` a record may carry: 2^53 ms, the largest integer every JSON reader holds exactly
    /// (contract v2: a record outside 0…2^53 is undecodable).
    @inlinable public static var maxT: Int64 { 1 << 53 }

    /// How far (ms) a record marked `late` may go back before the latest `t` written before it: the
    /// match window (trace-format.md, version 4); a record that would go back further is a bad record.
    @inlinable public static var lateWindow: Int64 { 1000 }
}

/// The typed content of a record, one case per record type of the trace format.
public enum RecordBody: Equatable, Sendable {
    indirect case header(TraceHeader)
    // api.*
    /// `uid`: the local user's uid, when the recorder knows it (optional).
    case joinChannel(channel: String, uid: String? = nil)
    case leaveChannel
    /// `uid`: the local member's uid, when the recorder knows it (optional).
    case enterMeeting(room: String, uid: String? = nil)
    case exitMeeting
    case setDefaultRoute(target: RouteTarget)
    case setRoute(target: RouteTarget, api: String?)
    case clearRouteOverride
    case setAudioModuleEnabled(enabled: Bool)
    case subscribe(pubUid: String, trackId: String, layers: [String])
    case switchLayer(pubUid: String, trackId: String, targetTrackId: String)
    // os.*
    case deviceConnected(id: String, kind: DeviceKind, name: String?, port: String?)
    case deviceDisconnected(id: String)
    case micPermission(status: MicPermission)
    /// `wasSuspended` (since v3): AVAudioSessionInterruptionWasSuspendedKey; absent reads as false.
    case interruptionBegan(cause: InterruptionCause?, wasSuspended: Bool?)
    case interruptionEnded(shouldResume: Bool?)
    case callState(state: CallState)
    case appState(state: AppState)
    case mediaServicesReset
    case callKit(event: CallKitEvent, callId: String?)
    // obs.*
    case routeChanged(route: Route, previousRoute: Route, reason: RouteChangeReason)
    case routeSnapshot(route: Route, ports: [String]?)
    case sessionActivated(SessionActivation)
    /// `ok` and `error` since v3 (absent `ok` reads as true).
    case sessionDeactivated(notifyOthers: Bool, ok: Bool?, error: String?)
    case overrideOutput(port: OverridePort)
    // sdk.*
    case sdkInterrupted
    case sdkRecovered
    case sdkCallStateChanged(state: CallState)
    case sdkQualityChanged(overall: QualityLevel, previous: QualityLevel, mos: Double?)
    case sdkActiveSpeakers(speakers: [Speaker])
    indirect case sdkLayerSwitched(LayerSwitch)
    case sdkError(api: String, error: String)
    case sdkLog(level: String, message: String)
    // conn.*, srv.*
    case connEngine(vendor: EngineVendor)
    case connState(state: ConnState)
    case qualityReport(pub: QualitySample, sub: QualitySample)
    case speakers(speaking: [Speaker], stopped: [SpeakerKey])
    indirect case srvLayerSwitched(LayerSwitch)
    // trace.*
    /// The recorder dropped `count` records made between `fromT` and `toT` (its queue was full); since version 2.
    case dropped(count: Int, fromT: Int64, toT: Int64)
    /// The state the SDK knows at the start of a part after the first, or after a restart; since version 3.
    indirect case checkpoint(TraceCheckpoint)
    /// The app marked a user's problem report here (`id` as the app shows it; `note`, free text); since version 4.
    case report(id: String, note: String?)
    /// The recorder recorded nothing from `fromT` to `toT` for `reason` (written when it resumed); since version 4.
    case paused(fromT: Int64, toT: Int64, reason: PauseReason)
    // sys.*
    /// A line of the device's system log about an audio session, imported by `import-log` (since version 4).
    indirect case system(SystemLogRecord)
    // expect.*
    indirect case expect(Expectation)
    /// A record whose `type` this version does not know; kept whole as its JSON text.
    case unknown(type: String, json: String)

    /// The record's type in the kind table; nil for an expectation or a type this version does not know.
    public var kind: RecordKind? { inlinedKind }

    /// `kind`, compiled into its caller in every module (one table for both): for a path that pays for a
    /// call across modules, the recorder's caller path, where the compiler would otherwise keep the call
    /// for a switch of this size.
    @inlinable @inline(__always)
    public var inlinedKind: RecordKind? {
        switch self {
        case .header: .header
        case .joinChannel: .joinChannel
        case .leaveChannel: .leaveChannel
        case .enterMeeting: .enterMeeting
        case .exitMeeting: .exitMeeting
        case .setDefaultRoute: .setDefaultRoute
        case .setRoute: .setRoute
        case .clearRouteOverride: .clearRouteOverride
        case .setAudioModuleEnabled: .setAudioModuleEnabled
        case .subscribe: .subscribe
        case .switchLayer: .switchLayer
        case .deviceConnected: .deviceConnected
        case .deviceDisconnected: .deviceDisconnected
        case .micPermission: .micPermission
        case .interruptionBegan: .interruptionBegan
        case .interruptionEnded: .interruptionEnded
        case .callState: .callState
        case .appState: .appState
        case .mediaServicesReset: .mediaServicesReset
        case .callKit: .callKit
        case .routeChanged: .routeChanged
        case .routeSnapshot: .routeSnapshot
        case .sessionActivated: .sessionActivated
        case .sessionDeactivated: .sessionDeactivated
        case .overrideOutput: .overrideOutput
        case .sdkInterrupted: .sdkInterrupted
        case .sdkRecovered: .sdkRecovered
        case .sdkCallStateChanged: .sdkCallStateChanged
        case .sdkQualityChanged: .sdkQualityChanged
        case .sdkActiveSpeakers: .sdkActiveSpeakers
        case .sdkLayerSwitched: .sdkLayerSwitched
        case .sdkError: .sdkError
        case .sdkLog: .sdkLog
        case .connEngine: .connEngine
        case .connState: .connState
        case .qualityReport: .qualityReport
        case .speakers: .speakers
        case .srvLayerSwitched: .srvLayerSwitched
        case .dropped: .dropped
        case .checkpoint: .checkpoint
        case .report: .report
        case .paused: .paused
        case .system(let s): s.event.kind
        case .expect, .unknown: nil
        }
    }

    /// The record's `type` string.
    public var type: String {
        if let kind { return kind.rawValue }
        if case .expect(let e) = self { return e.type }
        if case .unknown(let type, _) = self { return type }
        return "" // unreachable: every other body has a kind
    }
}
