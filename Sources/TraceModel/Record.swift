// The record model: every record type of the trace format, named once in the kind table below, with
// the one map of which of its fields hold personal values. Every switch over a record body in the
// project is exhaustive, so a new type is a compile error everywhere it must be handled.

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
    public static let maxT: Int64 = 1 << 53

    /// How far (ms) a record marked `late` may go back before the latest `t` written before it: the
    /// match window (trace-format.md, version 4); a record that would go back further is a bad record.
    public static let lateWindow: Int64 = 1000
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
    public var kind: RecordKind? {
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

    /// Whether recorders write this type many times a second in a normal call (quality, speakers, logs,
    /// the device's route traffic): the decoder reads these in one pass, and reports do not index them.
    public var isHighRate: Bool {
        switch self {
        case .qualityReport, .speakers, .sdkActiveSpeakers, .sdkQualityChanged, .sdkLog, .routeChanged, .routeSnapshot,
             .setRoute, .clearRouteOverride, .deviceConnected, .deviceDisconnected:
            true
        case .header, .dropped, .checkpoint, .report, .paused, .joinChannel, .leaveChannel, .enterMeeting, .exitMeeting, .setDefaultRoute,
             .setAudioModuleEnabled, .subscribe, .switchLayer, .micPermission, .interruptionBegan, .interruptionEnded,
             .callState, .appState, .mediaServicesReset, .callKit, .sessionActivated, .sessionDeactivated, .overrideOutput,
             .sdkInterrupted, .sdkRecovered, .sdkCallStateChanged, .sdkLayerSwitched, .sdkError, .connEngine, .connState,
             .srvLayerSwitched, .sysSessionActivated, .sysRouteChanged, .sysPropertySet, .sysPlaying, .sysAppState:
            false
        }
    }

    /// The family before the dot: who said it. A switch rather than a parse of the name, because the
    /// replay asks it of every record; a test holds it to the name's prefix.
    public var family: RecordFamily {
        switch self {
        case .header, .dropped, .checkpoint, .report, .paused: .trace
        case .joinChannel, .leaveChannel, .enterMeeting, .exitMeeting, .setDefaultRoute, .setRoute, .clearRouteOverride,
             .setAudioModuleEnabled, .subscribe, .switchLayer:
            .api
        case .deviceConnected, .deviceDisconnected, .micPermission, .interruptionBegan, .interruptionEnded, .callState,
             .appState, .mediaServicesReset, .callKit:
            .os
        case .routeChanged, .routeSnapshot, .sessionActivated, .sessionDeactivated, .overrideOutput: .obs
        case .sdkInterrupted, .sdkRecovered, .sdkCallStateChanged, .sdkQualityChanged, .sdkActiveSpeakers, .sdkLayerSwitched,
             .sdkError, .sdkLog:
            .sdk
        case .connEngine, .connState: .conn
        case .qualityReport, .speakers, .srvLayerSwitched: .srv
        case .sysSessionActivated, .sysRouteChanged, .sysPropertySet, .sysPlaying, .sysAppState: .sys
        }
    }
}

extension RecordKind {
    /// Whether the type is an app call (`api.*`, the kind's family), as a switch: the caller's path asks
    /// it for every record, and comparing the type's spelling there costs more than the rest of the call.
    @inlinable
    public var isAppCall: Bool {
        switch self {
        case .joinChannel, .leaveChannel, .enterMeeting, .exitMeeting, .setDefaultRoute, .setRoute, .clearRouteOverride,
             .setAudioModuleEnabled, .subscribe, .switchLayer:
            true
        case .header, .dropped, .checkpoint, .report, .paused, .deviceConnected, .deviceDisconnected, .micPermission, .interruptionBegan,
             .interruptionEnded, .callState, .appState, .mediaServicesReset, .callKit, .routeChanged, .routeSnapshot,
             .sessionActivated, .sessionDeactivated, .overrideOutput, .sdkInterrupted, .sdkRecovered, .sdkCallStateChanged,
             .sdkQualityChanged, .sdkActiveSpeakers, .sdkLayerSwitched, .sdkError, .sdkLog, .connEngine, .connState,
             .qualityReport, .speakers, .srvLayerSwitched, .sysSessionActivated, .sysRouteChanged, .sysPropertySet,
             .sysPlaying, .sysAppState:
            false
        }
    }
}

extension RecordKind {
    /// What the record does to the engagement (the call audio path the SDK sets up, R6): joining or
    /// entering engages, leaving or exiting disengages; nil for every other type.
    public var engagement: EngagementChange? {
        switch self {
        case .joinChannel, .enterMeeting: .engage
        case .leaveChannel, .exitMeeting: .disengage
        case .header, .dropped, .checkpoint, .report, .paused, .setDefaultRoute, .setRoute, .clearRouteOverride, .setAudioModuleEnabled,
             .subscribe, .switchLayer, .deviceConnected, .deviceDisconnected, .micPermission, .interruptionBegan,
             .interruptionEnded, .callState, .appState, .mediaServicesReset, .callKit, .routeChanged, .routeSnapshot,
             .sessionActivated, .sessionDeactivated, .overrideOutput, .sdkInterrupted, .sdkRecovered, .sdkCallStateChanged,
             .sdkQualityChanged, .sdkActiveSpeakers, .sdkLayerSwitched, .sdkError, .sdkLog, .connEngine, .connState,
             .qualityReport, .speakers, .srvLayerSwitched, .sysSessionActivated, .sysRouteChanged, .sysPropertySet,
             .sysPlaying, .sysAppState:
            nil
        }
    }

    /// What the record is about, as reports group records into lanes: the audio session, CallKit, resets,
    /// interruptions, the SDK's callbacks and events, its speaker snapshots, its output-port calls, the
    /// devices, the server's quality; `other` for what no lane draws as a moment of its own.
    public var topic: RecordTopic {
        switch self {
        case .sessionActivated, .sessionDeactivated: .audioSession
        case .callKit: .callKit
        case .mediaServicesReset: .reset
        case .interruptionBegan, .interruptionEnded: .interruption
        case .sdkInterrupted, .sdkRecovered, .sdkCallStateChanged, .sdkQualityChanged, .sdkLayerSwitched, .sdkError: .sdkEvent
        case .sdkActiveSpeakers: .speakerSnapshot
        case .overrideOutput: .outputPort
        case .deviceConnected, .deviceDisconnected: .device
        case .qualityReport: .quality
        case .sysSessionActivated, .sysRouteChanged, .sysPropertySet, .sysPlaying, .sysAppState: .systemLog
        case .header, .dropped, .checkpoint, .report, .paused, .joinChannel, .leaveChannel, .enterMeeting, .exitMeeting, .setDefaultRoute,
             .setRoute, .clearRouteOverride, .setAudioModuleEnabled, .subscribe, .switchLayer, .micPermission, .callState,
             .appState, .routeChanged, .routeSnapshot, .sdkLog, .connEngine, .connState, .speakers, .srvLayerSwitched:
            .other
        }
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

/// Who a record comes from: the recorder (`trace`), the app (`api`), the system (`os`), what the SDK did
/// (`obs`) or reported (`sdk`), the transport (`conn`) or the server (`srv`).
public enum RecordFamily: String, CaseIterable, Sendable {
    case trace, api, os, obs, sdk, conn, srv
    /// The device's system log, imported (`sys.*`, since version 4).
    case sys
}

// MARK: - How reports name a record

extension RecordBody {
    /// A short description of what the record says, for reports that point at it ("bluetooth \"AirPods
    /// Pro\"", "speaker → receiver (override)"); empty where the type says it all. Trace text is clipped
    /// (TextCap) and still needs the renderer's escaping.
    public var summary: String {
        switch self {
        case let .deviceConnected(id, kind, name, _): "\(kind.rawValue) \(name.map { "\"\(TextCap.clip($0))\"" } ?? TextCap.clip(id))"
        case .deviceDisconnected(let id): TextCap.clip(id)
        case let .setRoute(target, api): TextCap.clip(api ?? target.rawValue)
        case .setDefaultRoute(let target): target.rawValue
        case .micPermission(let status): status.rawValue
        case .callState(let s), .sdkCallStateChanged(let s): s.rawValue
        case .appState(let s): s.rawValue
        case .interruptionBegan(let cause, let wasSuspended):
            (cause?.rawValue ?? "") + (wasSuspended == true ? (cause == nil ? "wasSuspended" : ", wasSuspended") : "")
        case let .callKit(event, callId): event.rawValue + (callId.map { " \(TextCap.clip($0))" } ?? "")
        case let .routeChanged(route, previous, reason): "\(previous.rawValue) → \(route.rawValue) (\(reason.rawValue))"
        case .routeSnapshot(let route, _): route.rawValue
        case .setAudioModuleEnabled(let e): e ? "true" : "false"
        case .sessionActivated(let a):
            a.ok ? "\(a.category ?? "?")/\(a.mode ?? "?") [\(a.options.joined(separator: ","))]" : "failed: \(a.error ?? "?")"
        case let .sessionDeactivated(notify, ok, error):
            ok == false ? "failed: \(error ?? "?")" : notify ? "notifyOthers" : "without notifyOthers"
        case .connState(let s): s.rawValue
        case .connEngine(let v): v.rawValue
        case let .switchLayer(_, track, target): "\(TextCap.clip(track)) → \(TextCap.clip(target))"
        case let .sdkQualityChanged(overall, previous, _): "\(previous.rawValue) → \(overall.rawValue)"
        case .joinChannel(let c, _): TextCap.clip(c)
        case .enterMeeting(let r, _): TextCap.clip(r)
        case let .sdkError(api, error): "\(TextCap.clip(api)): \(TextCap.clip(error))"
        case let .dropped(count, _, _): "\(count) records"
        case let .report(id, _): TextCap.clip(id)
        case let .paused(fromT, toT, reason): "\(reason.rawValue), \(formatDuration(fromT))–\(formatDuration(toT))"
        case .system(let s): "\(s.processName): \(s.summary)"
        case .header, .leaveChannel, .exitMeeting, .clearRouteOverride, .subscribe, .mediaServicesReset, .interruptionEnded,
             .overrideOutput, .sdkInterrupted, .sdkRecovered, .sdkActiveSpeakers, .sdkLayerSwitched, .sdkLog, .qualityReport,
             .speakers, .srvLayerSwitched, .checkpoint, .expect, .unknown:
            ""
        }
    }
}

extension RecordBody {
    /// The fields that identify the record when two traces of one scenario are compared (targets,
    /// device ids, states, events, layer ids), never its time or free text such as log lines.
    public var identity: String {
        switch self {
        case .setDefaultRoute(let target), .setRoute(let target, _): target.rawValue
        case .setAudioModuleEnabled(let enabled): enabled ? "true" : "false"
        case let .subscribe(pubUid, trackId, _): "\(pubUid)/\(trackId)"
        case let .switchLayer(pubUid, trackId, target): "\(pubUid)/\(trackId) → \(target)"
        case let .deviceConnected(id, kind, _, _): "\(kind.rawValue) \(id)"
        case .deviceDisconnected(let id): id
        case .micPermission(let status): status.rawValue
        case .interruptionBegan(let cause, _): cause?.rawValue ?? ""
        case .callState(let s), .sdkCallStateChanged(let s): s.rawValue
        case .appState(let s): s.rawValue
        case let .routeChanged(route, _, reason): "\(route.rawValue) (\(reason.rawValue))"
        case .routeSnapshot(let route, _): route.rawValue
        case .sessionActivated(let a): a.ok ? "\(a.category ?? "?")/\(a.mode ?? "?")" : "failed"
        case let .sessionDeactivated(n, ok, _): ok == false ? "failed" : n ? "notifyOthers" : "without notifyOthers"
        case .overrideOutput(let port): port.rawValue
        case let .sdkQualityChanged(overall, previous, _): "\(previous.rawValue) → \(overall.rawValue)"
        case .sdkLayerSwitched(let s), .srvLayerSwitched(let s): "\(s.pubUid)/\(s.trackId) → \(s.toTrackId)"
        case let .sdkError(api, error): "\(api) \(error)"
        case .connEngine(let v): v.rawValue
        case .connState(let s): s.rawValue
        case let .qualityReport(pub, sub): "\(pub.level.rawValue)/\(sub.level.rawValue)"
        case .system(let s): "\(s.process) \(s.summary)"
        case .header, .joinChannel, .leaveChannel, .enterMeeting, .exitMeeting, .clearRouteOverride, .mediaServicesReset,
             .interruptionEnded, .callKit, .sdkInterrupted, .sdkRecovered, .sdkActiveSpeakers, .sdkLog, .speakers, .dropped,
             .checkpoint, .paused, .expect, .unknown:
            ""
        case .report(let id, _): id
        }
    }
}

// MARK: - The personal-field map

/// What a string field of a record holds, as the one personal-field map below declares it.
public enum FieldPrivacy: Equatable, Sendable {
    /// A personal value of this kind: replaced by `redact` and by the recorder's source redaction.
    case personal(PersonalValue.Kind)
    /// Left in clear, for this reason.
    case clear(ClearReason)

    /// Why a string field is not personal.
    public enum ClearReason: String, Sendable {
        /// Words of the SDK's or the system's vocabulary: a value an open vocabulary lists or documents
        /// (a category, a mode, an option, a device kind, a call state, …) or a call spelled as Swift
        /// spells it (`setAudioRoute(.speaker)`). Any other value of such a field is personal.
        case vocabulary
        /// A record type the format does not define that follows the naming rule (`CustomRecordName`:
        /// `x.rtpStats`), a name an SDK chose.
        case recordName
        /// The SDK's product and version, or the device's model and OS.
        case product
        /// A wall-clock time.
        case time
        /// A problem report's id, which the app shows its user to paste into a ticket: what support joins on.
        case reportId
    }
}

/// One string field of a record: where it is, what it holds, and how private it is.
public struct StringField: Sendable {
    /// The field's path, e.g. `speakers[].uid`.
    public let path: StaticString
    /// The field's privacy.
    public let privacy: FieldPrivacy

    @usableFromInline init(_ path: StaticString, _ privacy: FieldPrivacy) {
        self.path = path
        self.privacy = privacy
    }
}

extension RecordBody {
    /// The body with each string field that `transform` answers replaced by its answer (nil keeps it); nil
    /// when nothing changed. This is the one place that says which fields of which record hold personal
    /// values: every string field of every type is named here with its privacy (identifiers are
    /// personal; a field is clear only with the reason), so redaction, source redaction and any size
    /// estimate walk the same fields. Nothing is allocated when nothing changes.
    public func mapStrings(_ transform: (String, StringField) -> String?) -> RecordBody? {
        func t(_ s: String, _ path: StaticString, _ p: FieldPrivacy) -> String? { transform(s, StringField(path, p)) }
        func t(_ s: String?, _ path: StaticString, _ p: FieldPrivacy) -> String?? { s.map { transform($0, StringField(path, p)) } }
        func list<T>(_ items: [T], _ each: (T) -> T?) -> [T]? {
            var out: [T]?
            for (i, item) in items.enumerated() {
                guard let new = each(item) else { out?.append(item); continue }
                if out == nil { out = Array(items[..<i]) }
                out!.append(new)
            }
            return out
        }
        func speaker(_ s: Speaker) -> Speaker? {
            let u = t(s.uid, "speakers[].uid", .personal(.uid)), k = t(s.trackId, "speakers[].trackId", .personal(.trackId))
            return u == nil && k == nil ? nil : Speaker(uid: u ?? s.uid, trackId: k ?? s.trackId, level: s.level)
        }
        func key(_ s: SpeakerKey) -> SpeakerKey? {
            let u = t(s.uid, "stopped[].uid", .personal(.uid)), k = t(s.trackId, "stopped[].trackId", .personal(.trackId))
            return u == nil && k == nil ? nil : SpeakerKey(uid: u ?? s.uid, trackId: k ?? s.trackId)
        }
        func layer(_ s: LayerSwitch) -> LayerSwitch? {
            var o = s
            var changed = false
            if let v = t(s.pubUid, "pubUid", .personal(.uid)) { o.pubUid = v; changed = true }
            if let v = t(s.trackId, "trackId", .personal(.trackId)) { o.trackId = v; changed = true }
            if let v = t(s.fromTrackId, "fromTrackId", .personal(.trackId)), let v { o.fromTrackId = v; changed = true }
            if let v = t(s.toTrackId, "toTrackId", .personal(.trackId)) { o.toTrackId = v; changed = true }
            if let v = t(s.reason, "reason", .personal(.layerReason)) { o.reason = v; changed = true }
            return changed ? o : nil
        }
        func changed(_ values: String?...) -> Bool { values.contains { $0 != nil } }
        // An open vocabulary's value (T1) is in clear when the format lists or documents it; any other
        // value may be anyone's text.
        func open<V: OpenVocabulary>(_ v: V, _ path: StaticString) -> V? {
            t(v.rawValue, path, v.keptInClear ? .clear(.vocabulary) : .personal(.unlistedValue)).map(V.init(rawValue:))
        }
        func word(_ v: String, _ path: StaticString, listed: Bool) -> String? { t(v, path, listed ? .clear(.vocabulary) : .personal(.unlistedValue)) }
        func word(_ v: String?, _ path: StaticString, listed: (String) -> Bool) -> String?? { v.map { word($0, path, listed: listed($0)) } }
        func options(_ o: [String], _ path: StaticString) -> [String]? {
            list(o) { word($0, path, listed: SystemVocabulary.isCategoryOption($0)) }
        }
        func api(_ v: String, _ path: StaticString) -> String? {
            t(v, path, SystemVocabulary.isCallSpelling(v) ? .clear(.vocabulary) : .personal(.apiCall))
        }
        switch self {
        case .header(let h):
            var o = h
            let sdk = t(h.sdk, "sdk", .clear(.product)), model = t(h.device.model, "device.model", .clear(.product))
            let os = t(h.device.os, "device.os", .clear(.product)), bundle = t(h.app.bundleId, "app.bundleId", .personal(.bundleId))
            let version = t(h.app.version, "app.version", .clear(.product)), started = t(h.startedAt, "startedAt", .clear(.time))
            let session = h.session.map { t($0.id, "session.id", .personal(.sessionId)) }
            guard changed(sdk ?? nil, model ?? nil, os ?? nil, bundle ?? nil, version ?? nil, started ?? nil, session ?? nil) else { return nil }
            // Each is nil when unchanged (an absent field, or one the transform kept): only answers replace.
            if let sdk = sdk ?? nil { o.sdk = sdk }
            if let model = model ?? nil { o.device.model = model }
            if let os = os ?? nil { o.device.os = os }
            if let bundle = bundle ?? nil { o.app.bundleId = bundle }
            if let version = version ?? nil { o.app.version = version }
            if let started = started ?? nil { o.startedAt = started }
            if let id = session ?? nil { o.session?.id = id }
            return .header(o)
        case let .joinChannel(channel, uid):
            let c = t(channel, "channel", .personal(.channel)), u = t(uid, "uid", .personal(.uid))
            guard changed(c, u ?? nil) else { return nil }
            return .joinChannel(channel: c ?? channel, uid: (u ?? nil) ?? uid)
        case let .enterMeeting(room, uid):
            let r = t(room, "room", .personal(.room)), u = t(uid, "uid", .personal(.uid))
            guard changed(r, u ?? nil) else { return nil }
            return .enterMeeting(room: r ?? room, uid: (u ?? nil) ?? uid)
        case .setRoute(let target, let call):
            return call.flatMap { api($0, "api") }.map { .setRoute(target: target, api: $0) }
        case let .subscribe(pub, track, layers):
            let p = t(pub, "pubUid", .personal(.uid)), k = t(track, "trackId", .personal(.trackId))
            let l = list(layers) { t($0, "layers[]", .personal(.trackId)) }
            guard p != nil || k != nil || l != nil else { return nil }
            return .subscribe(pubUid: p ?? pub, trackId: k ?? track, layers: l ?? layers)
        case let .switchLayer(pub, track, target):
            let p = t(pub, "pubUid", .personal(.uid)), k = t(track, "trackId", .personal(.trackId))
            let g = t(target, "targetTrackId", .personal(.trackId))
            guard changed(p, k, g) else { return nil }
            return .switchLayer(pubUid: p ?? pub, trackId: k ?? track, targetTrackId: g ?? target)
        case let .deviceConnected(id, kind, name, port):
            let i = t(id, "id", .personal(.deviceId)), n = t(name, "name", .personal(.deviceName)), p = t(port, "port", .personal(.port))
            let k = open(kind, "kind")
            guard changed(i, n ?? nil, p ?? nil) || k != nil else { return nil }
            return .deviceConnected(id: i ?? id, kind: k ?? kind, name: (n ?? nil) ?? name, port: (p ?? nil) ?? port)
        case .deviceDisconnected(let id): return t(id, "id", .personal(.deviceId)).map { .deviceDisconnected(id: $0) }
        case let .callKit(event, callId):
            let e = open(event, "event"), c = t(callId, "callId", .personal(.callId))
            guard e != nil || (c ?? nil) != nil else { return nil }
            return .callKit(event: e ?? event, callId: (c ?? nil) ?? callId)
        case .micPermission(let status): return open(status, "status").map { .micPermission(status: $0) }
        case let .interruptionBegan(cause, wasSuspended):
            return cause.flatMap { open($0, "cause") }.map { .interruptionBegan(cause: $0, wasSuspended: wasSuspended) }
        case .callState(let state): return open(state, "state").map { .callState(state: $0) }
        case .appState(let state): return open(state, "state").map { .appState(state: $0) }
        case let .paused(fromT, toT, reason): return open(reason, "reason").map { .paused(fromT: fromT, toT: toT, reason: $0) }
        case let .routeSnapshot(route, ports):
            guard let ports, let p = list(ports, { t($0, "ports[]", .personal(.portEntry)) }) else { return nil }
            return .routeSnapshot(route: route, ports: p)
        case .sessionActivated(let a):
            var o = a
            let e = t(a.error, "error", .personal(.errorText))
            let c = word(a.category, "category") { SessionActivation.listedCategories.contains($0) }
            let m = word(a.mode, "mode") { SessionActivation.listedModes.contains($0) }, opts = options(a.options, "options[]")
            guard changed(e ?? nil, c ?? nil, m ?? nil) || opts != nil else { return nil }
            if let e = e ?? nil { o.error = e }
            if let c = c ?? nil { o.category = c }
            if let m = m ?? nil { o.mode = m }
            if let opts { o.options = opts }
            return .sessionActivated(o)
        case let .sessionDeactivated(notify, ok, error):
            return t(error, "error", .personal(.errorText)).flatMap { $0 }.map { .sessionDeactivated(notifyOthers: notify, ok: ok, error: $0) }
        case .sdkActiveSpeakers(let speakers): return list(speakers, speaker).map { .sdkActiveSpeakers(speakers: $0) }
        case let .speakers(speaking, stopped):
            let a = list(speaking, speaker), b = list(stopped, key)
            guard a != nil || b != nil else { return nil }
            return .speakers(speaking: a ?? speaking, stopped: b ?? stopped)
        case .sdkLayerSwitched(let s): return layer(s).map { .sdkLayerSwitched($0) }
        case .srvLayerSwitched(let s): return layer(s).map { .srvLayerSwitched($0) }
        case let .sdkError(call, error):
            let a = api(call, "api"), e = t(error, "error", .personal(.errorText))
            guard changed(a, e) else { return nil }
            return .sdkError(api: a ?? call, error: e ?? error)
        case let .sdkLog(level, message):
            let l = t(level, "level", .personal(.logLevel)), m = t(message, "message", .personal(.logMessage))
            guard changed(l, m) else { return nil }
            return .sdkLog(level: l ?? level, message: m ?? message)
        case .checkpoint(let c):
            var o = c
            let devices = list(c.devices) { d -> TraceCheckpoint.Device? in
                let i = t(d.id, "devices[].id", .personal(.deviceId)), n = t(d.name, "devices[].name", .personal(.deviceName))
                let p = t(d.port, "devices[].port", .personal(.port)), k = open(d.kind, "devices[].kind")
                guard changed(i, n ?? nil, p ?? nil) || k != nil else { return nil }
                return TraceCheckpoint.Device(id: i ?? d.id, kind: k ?? d.kind, name: (n ?? nil) ?? d.name, port: (p ?? nil) ?? d.port)
            }
            let category = c.session.map { word($0.category, "session.category", listed: SessionActivation.listedCategories.contains($0.category)) }
            let mode = c.session.map { word($0.mode, "session.mode", listed: SessionActivation.listedModes.contains($0.mode)) }
            let options = c.session.map { s in options(s.options, "session.options[]") }
            let mic = open(c.micPermission, "micPermission"), call = open(c.callState, "callState"), app = open(c.appState, "appState")
            guard devices != nil || changed((category ?? nil) ?? nil, (mode ?? nil) ?? nil) || (options ?? nil) != nil
                || mic != nil || call != nil || app != nil else { return nil }
            if let devices { o.devices = devices }
            if let mic { o.micPermission = mic }
            if let call { o.callState = call }
            if let app { o.appState = app }
            if let v = (category ?? nil) ?? nil { o.session?.category = v }
            if let v = (mode ?? nil) ?? nil { o.session?.mode = v }
            if let v = options ?? nil { o.session?.options = v }
            return .checkpoint(o)
        case let .report(id, note):
            let i = t(id, "id", .clear(.reportId)), n = t(note, "note", .personal(.logMessage))
            guard changed(i, n ?? nil) else { return nil }
            return .report(id: i ?? id, note: (n ?? nil) ?? note)
        case .system(let s):
            return s.mapStrings(transform).map { .system($0) }
        case .expect(let e):
            guard case .speakers(let keys) = e.kind, let k = list(keys, key) else { return nil }
            var o = e
            o.kind = .speakers(k)
            return .expect(o)
        case .unknown(let type, let json):
            // The fields of a type this version does not know cannot be judged: all of them are personal.
            // Its type name is an SDK's name when it follows the naming rule, else anyone's text.
            let n = t(type, "type", CustomRecordName.follows(type) ? .clear(.recordName) : .personal(.recordType))
            let j = t(json, "(unknown record fields)", .personal(.unknownRecord))
            guard changed(n, j) else { return nil }
            return .unknown(type: n ?? type, json: j ?? json)
        case .leaveChannel, .exitMeeting, .setDefaultRoute, .clearRouteOverride, .setAudioModuleEnabled,
             .interruptionEnded, .mediaServicesReset, .routeChanged,
             .overrideOutput, .sdkInterrupted, .sdkRecovered, .sdkCallStateChanged, .sdkQualityChanged, .connEngine,
             .connState, .qualityReport, .dropped:
            // No string field but values of closed vocabularies (enums), numbers and booleans.
            return nil
        }
    }

    /// Calls `visit` for every string field of the body (the fields `mapStrings` walks).
    public func forEachString(_ visit: (String, StringField) -> Void) {
        _ = mapStrings { s, f in visit(s, f); return nil }
    }
}
