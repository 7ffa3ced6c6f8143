// The one record-kind table: each record type of the trace format with a fixed schema, one row per type.

/// The record types of the trace format with a fixed schema: the one table of type names (every type
/// but `expect.*`, whose kinds `Expectation.Kind` lists, and types this version does not know).
public enum RecordKind: String, CaseIterable, Sendable {
    case header = "trace.header"
    case dropped = "trace.dropped"
    case checkpoint = "trace.checkpoint"
    case report = "trace.report"
    case paused = "trace.paused"
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
    case sdkQualityChanged = "sdk.qualityChanged"
    case sdkActiveSpeakers = "sdk.activeSpeakers"
    case sdkLayerSwitched = "sdk.layerSwitched"
    case sdkError = "sdk.error"
    case sdkLog = "sdk.log"
    case connEngine = "conn.engine"
    case connState = "conn.state"
    case qualityReport = "srv.qualityReport"
    case speakers = "srv.speakers"
    case srvLayerSwitched = "srv.layerSwitched"
    case sysSessionActivated = "sys.sessionActivated"
    case sysRouteChanged = "sys.routeChanged"
    case sysPropertySet = "sys.propertySet"
    case sysPlaying = "sys.playing"
    case sysAppState = "sys.appState"

    /// The kind's row of the table: who says it, whether it comes at a high rate, what it does to the
    /// engagement, and which lane reports draw it on. Inlinable so that a caller's path asked per record
    /// reads one column as a constant of the case, not a call.
    @inlinable
    public var info: RecordKindInfo {
        switch self {
        case .header: RecordKindInfo(.trace)
        case .dropped: RecordKindInfo(.trace)
        case .checkpoint: RecordKindInfo(.trace)
        case .report: RecordKindInfo(.trace)
        case .paused: RecordKindInfo(.trace)
        case .joinChannel: RecordKindInfo(.api, engagement: .engage)
        case .leaveChannel: RecordKindInfo(.api, engagement: .disengage)
        case .enterMeeting: RecordKindInfo(.api, engagement: .engage)
        case .exitMeeting: RecordKindInfo(.api, engagement: .disengage)
        case .setDefaultRoute: RecordKindInfo(.api)
        case .setRoute: RecordKindInfo(.api, highRate: true)
        case .clearRouteOverride: RecordKindInfo(.api, highRate: true)
        case .setAudioModuleEnabled: RecordKindInfo(.api)
        case .subscribe: RecordKindInfo(.api)
        case .switchLayer: RecordKindInfo(.api)
        case .deviceConnected: RecordKindInfo(.os, highRate: true, topic: .device)
        case .deviceDisconnected: RecordKindInfo(.os, highRate: true, topic: .device)
        case .micPermission: RecordKindInfo(.os)
        case .interruptionBegan: RecordKindInfo(.os, topic: .interruption)
        case .interruptionEnded: RecordKindInfo(.os, topic: .interruption)
        case .callState: RecordKindInfo(.os)
        case .appState: RecordKindInfo(.os)
        case .mediaServicesReset: RecordKindInfo(.os, topic: .reset)
        case .callKit: RecordKindInfo(.os, topic: .callKit)
        case .routeChanged: RecordKindInfo(.obs, highRate: true)
        case .routeSnapshot: RecordKindInfo(.obs, highRate: true)
        case .sessionActivated: RecordKindInfo(.obs, topic: .audioSession)
        case .sessionDeactivated: RecordKindInfo(.obs, topic: .audioSession)
        case .overrideOutput: RecordKindInfo(.obs, topic: .outputPort)
        case .sdkInterrupted: RecordKindInfo(.sdk, topic: .sdkEvent)
        case .sdkRecovered: RecordKindInfo(.sdk, topic: .sdkEvent)
        case .sdkCallStateChanged: RecordKindInfo(.sdk, topic: .sdkEvent)
        case .sdkQualityChanged: RecordKindInfo(.sdk, highRate: true, topic: .sdkEvent)
        case .sdkActiveSpeakers: RecordKindInfo(.sdk, highRate: true, topic: .speakerSnapshot)
        case .sdkLayerSwitched: RecordKindInfo(.sdk, topic: .sdkEvent)
        case .sdkError: RecordKindInfo(.sdk, topic: .sdkEvent)
        case .sdkLog: RecordKindInfo(.sdk, highRate: true)
        case .connEngine: RecordKindInfo(.conn)
        case .connState: RecordKindInfo(.conn)
        case .qualityReport: RecordKindInfo(.srv, highRate: true, topic: .quality)
        case .speakers: RecordKindInfo(.srv, highRate: true)
        case .srvLayerSwitched: RecordKindInfo(.srv)
        case .sysSessionActivated: RecordKindInfo(.sys, topic: .systemLog)
        case .sysRouteChanged: RecordKindInfo(.sys, topic: .systemLog)
        case .sysPropertySet: RecordKindInfo(.sys, topic: .systemLog)
        case .sysPlaying: RecordKindInfo(.sys, topic: .systemLog)
        case .sysAppState: RecordKindInfo(.sys, topic: .systemLog)
        }
    }

    /// Whether recorders write this type many times a second in a normal call (quality, speakers, logs,
    /// the device's route traffic): the decoder reads these in one pass, and reports do not index them.
    public var isHighRate: Bool { info.isHighRate }

    /// The family before the dot: who said it. A column of the table rather than a parse of the name,
    /// because the replay asks it of every record; a test holds it to the name's prefix.
    public var family: RecordFamily { info.family }

    /// Whether the type is an app call (`api.*`, the kind's family), inlined: the caller's path asks it for
    /// every record, and comparing the type's spelling there costs more than the rest of the call.
    @inlinable
    public var isAppCall: Bool { info.isAppCall }

    /// What the record does to the engagement (the call audio path the SDK sets up, R6): joining or
    /// entering engages, leaving or exiting disengages; nil for every other type.
    public var engagement: EngagementChange? { info.engagement }

    /// What the record is about, as reports group records into lanes: the audio session, CallKit, resets,
    /// interruptions, the SDK's callbacks and events, its speaker snapshots, its output-port calls, the
    /// devices, the server's quality; `other` for what no lane draws as a moment of its own.
    public var topic: RecordTopic { info.topic }
}

/// One row of the record-kind table (`RecordKind.info`).
public struct RecordKindInfo: Equatable, Sendable {
    /// Who says it: the family before the dot of the type string.
    public let family: RecordFamily
    /// Whether recorders write it many times a second in a normal call.
    public let isHighRate: Bool
    /// What it does to the engagement, if anything.
    public let engagement: EngagementChange?
    /// What it is about, for the reports' lanes.
    public let topic: RecordTopic

    /// Whether it is an app call: the `api` family.
    @inlinable
    public var isAppCall: Bool { family == .api }

    @usableFromInline
    init(_ family: RecordFamily, highRate: Bool = false, engagement: EngagementChange? = nil, topic: RecordTopic = .other) {
        self.family = family
        self.isHighRate = highRate
        self.engagement = engagement
        self.topic = topic
    }
}

/// Joining or entering (engage), leaving or exiting (disengage).
public enum EngagementChange: Sendable {
    case engage, disengage
}

/// What a record is about, for the reports' lanes (`RecordKind.topic`).
public enum RecordTopic: Sendable {
    case audioSession, callKit, reset, interruption, sdkEvent, speakerSnapshot, outputPort, device, quality, other
    /// What the device's system log said (`sys.*`): drawn beside the app's own session, never read by the engines.
    case systemLog
}

/// Who a record comes from: the recorder (`trace`), the app (`api`), the system (`os`), what the SDK did
/// (`obs`) or reported (`sdk`), the transport (`conn`) or the server (`srv`).
public enum RecordFamily: String, CaseIterable, Sendable {
    case trace, api, os, obs, sdk, conn, srv
    /// The device's system log, imported (`sys.*`, since version 4).
    case sys
}
