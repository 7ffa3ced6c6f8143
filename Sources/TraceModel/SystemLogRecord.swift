// What the device's own log said about audio sessions (`sys.*`, since version 4): records `import-log`
// writes from a text export of the log, never the recorder. They are evidence beside the trace, not part
// of what the engines replay (contract E1): a process, the line's own time, and one of five events.

/// One line of the device's system log about an audio session, as `import-log` read it.
public struct SystemLogRecord: Equatable, Sendable {
    /// What the line says.
    public var event: Event
    /// The process the line is about (for the media server's lines, the session's owner), as logged.
    public var process: String
    /// Its process id, when logged.
    public var pid: Int?
    /// The audio session id as logged (`0x3535e`), when logged.
    public var session: String?
    /// The line's own time text, as the export wrote it.
    public var wall: String
    /// Whether `process` is the trace's app.
    public var isSelf: Bool
    /// How the line's time became the record's `t`.
    public var timeSource: SystemLogTimeSource
    /// How far the record's `t` may be from the moment the line was logged, in ms, as the import stated it
    /// (an addition of this project to the format; absent: not stated).
    public var uncertaintyMs: Int64?

    /// Creates a record's content.
    public init(_ event: Event, process: String, pid: Int? = nil, session: String? = nil, wall: String, isSelf: Bool,
                timeSource: SystemLogTimeSource = .wall, uncertaintyMs: Int64? = nil) {
        self.event = event
        self.process = process
        self.pid = pid
        self.session = session
        self.wall = wall
        self.isSelf = isSelf
        self.timeSource = timeSource
        self.uncertaintyMs = uncertaintyMs
    }

    /// The five events of the `sys.*` family, one per record type.
    public enum Event: Equatable, Sendable {
        /// The media server activated (or failed to activate) an audio session of the process;
        /// `controllingProcess` `callservicesd` is CallKit activating it.
        case sessionActivated(ok: Bool, error: String?, controllingPid: Int?, controllingProcess: String?)
        /// The process was told the route changed.
        case routeChanged(reason: RouteChangeReason?)
        /// A property of the process's audio session was set (`OverrideRoute` = `Speaker`).
        case propertySet(key: String, value: String)
        /// The process started or stopped playing.
        case playing(Bool, category: String?)
        /// The system changed the process's application state (as logged).
        case appState(state: String)

        /// The record type of the event.
        public var kind: RecordKind {
            switch self {
            case .sessionActivated: .sysSessionActivated
            case .routeChanged: .sysRouteChanged
            case .propertySet: .sysPropertySet
            case .playing: .sysPlaying
            case .appState: .sysAppState
            }
        }
    }

    /// The process's words for reports: `CommCenter (pid 98)`.
    public var processName: String {
        TextCap.clip(process) + (pid.map { " (pid \($0))" } ?? "")
    }

    /// A short description for reports, without the process.
    public var summary: String {
        switch event {
        case let .sessionActivated(ok, error, pid, controlling):
            let by = controlling.map { " by \(TextCap.clip($0))" } ?? pid.map { " by pid \($0)" } ?? ""
            return ok ? "session activated" + by : "activation failed: \(TextCap.clip(error ?? "?"))" + by
        case .routeChanged(let reason): return "route changed" + (reason.map { " (\($0.rawValue))" } ?? "")
        case let .propertySet(key, value): return "\(TextCap.clip(key)) = \(TextCap.clip(value))"
        case let .playing(playing, category): return (playing ? "started playing" : "stopped playing") + (category.map { " (\(TextCap.clip($0)))" } ?? "")
        case .appState(let state): return "app state \(TextCap.clip(state))"
        }
    }
}

/// How an imported line's time became a record's `t`: from the wall clock (the line's UTC time against
/// the trace's `startedAt`), or anchored on an activation that both the log and the trace hold.
public enum SystemLogTimeSource: String, TraceVocabulary {
    case wall, anchored
}

/// The system's own words in `sys.*` fields: what stays in clear when personal values are removed.
public enum SystemLogVocabulary {
    /// iOS's own processes that take part in audio sessions (their names are the system's, not a person's):
    /// the media servers, telephony, CallKit, Siri, the springboard, Bluetooth and accessories.
    public static let systemProcesses: Set<String> = [
        "mediaserverd", "audiomxd", "audioaccessoryd", "mediaplaybackd", "mediaremoted", "CommCenter", "callservicesd",
        "assistantd", "corespeechd", "SpringBoard", "bluetoothd", "backboardd", "coreaudiod", "avconferenced",
        "MobilePhone", "InCallService", "com.apple.mobilephone", "com.apple.InCallService", "kernel",
    ]

    /// The process that stands for a system phone call (a cellular call's audio session).
    public static let telephony: Set<String> = ["CommCenter", "MobilePhone", "com.apple.mobilephone", "InCallService", "com.apple.InCallService"]

    /// The processes that stand for Siri.
    public static let siri: Set<String> = ["assistantd", "corespeechd"]

    /// The process through which CallKit activates an app's session.
    public static let callKit = "callservicesd"

    /// Audio session properties by the names the media server logs (`set_property`).
    public static let propertyKeys: Set<String> = [
        "OverrideRoute", "Category", "Mode", "CategoryOptions", "RouteSharingPolicy", "PreferredInput", "PreferredOutput",
        "Active", "Interruptible", "AllowMixing", "DuckOthers", "PrefersNoInterruptionsFromSystemAlerts",
        "AllowHapticsAndSystemSoundsDuringRecording", "IsPlaying", "PrefersEchoCancelledInput", "OutputVolume",
        "InputGain", "PreferredSampleRate", "PreferredIOBufferDuration", "MXSessionProperty_Category",
    ]

    /// Property values, categories and modes as the media server logs them.
    public static let values: Set<String> = [
        "Speaker", "None", "Receiver", "Default", "true", "false", "YES", "NO", "0", "1",
        "PlayAndRecord", "Playback", "Record", "Ambient", "SoloAmbient", "MultiRoute", "AudioProcessing",
        "PlayAndRecord_WithBluetooth", "PlayAndRecord_DefaultToSpeaker", "VoiceChat", "VideoChat", "GameChat", "Measurement",
        "MoviePlayback", "SpokenAudio", "VideoRecording", "VoicePrompt", "playAndRecord", "playback", "record", "ambient",
        "soloAmbient", "multiRoute", "voiceChat", "videoChat", "gameChat", "measurement", "moviePlayback", "spokenAudio",
        "videoRecording", "voicePrompt", "default", "PhoneCall", "Alarm", "MediaPlayback", "VoiceCommand",
    ]

    /// Application states as the media server logs them.
    public static let appStates: Set<String> = [
        "Foreground Running", "Background Running", "Background Suspended", "Foreground Obscured", "Not Running",
        "Terminated", "Unknown", "foreground", "background", "suspended", "running", "ForegroundRunning",
        "BackgroundRunning", "BackgroundSuspended", "NotRunning", "Foreground", "Background", "Suspended",
    ]

    /// What kind of personal value a process field holds when it is not the system's: a path, a bundle id, a name.
    public static func processKind(_ text: String) -> PersonalValue.Kind {
        if text.hasPrefix("/") { return .path }
        if text.contains("."), !text.contains(" ") { return .bundleId }
        return .processName
    }

    /// What kind of personal value a logged value holds when it is not a word of the system's: a Bluetooth
    /// address, a path, or a value that may name a device or a person.
    public static func valueKind(_ text: String) -> PersonalValue.Kind {
        if isBluetoothAddress(text) { return .bluetoothAddress }
        if text.hasPrefix("/") { return .path }
        return .unlistedValue
    }

    /// Whether `text` is a 48-bit address written as six hex pairs (`a4:83:e7:12:34:56`, `-` also).
    public static func isBluetoothAddress(_ text: String) -> Bool {
        let u = Array(text.utf8)
        guard u.count == 17 else { return false }
        for (i, c) in u.enumerated() {
            if i % 3 == 2 {
                guard c == 0x3A || c == 0x2D else { return false }
            } else {
                guard (0x30...0x39).contains(c) || (0x41...0x46).contains(c) || (0x61...0x66).contains(c) else { return false }
            }
        }
        return true
    }
}

extension SystemLogRecord {
    /// `RecordBody.mapStrings` for a `sys.*` record (nil when nothing changed): iOS's own process names and
    /// the words the media server logs stay; another process's name, a bundle id, a path, a Bluetooth
    /// address, a session id and any value that is not a word of the system's (it may name a device or a
    /// person) are personal.
    public func mapStrings(_ transform: (String, StringField) -> String?) -> SystemLogRecord? {
        let s = self
        typealias V = SystemLogVocabulary
        func t(_ v: String, _ path: StaticString, _ p: FieldPrivacy) -> String? { transform(v, StringField(path, p)) }
        func process(_ v: String, _ path: StaticString) -> String? {
            t(v, path, V.systemProcesses.contains(v) ? .clear(.vocabulary) : .personal(V.processKind(v)))
        }
        func word(_ v: String, _ path: StaticString, _ listed: Set<String>, _ other: PersonalValue.Kind) -> String? {
            t(v, path, listed.contains(v) ? .clear(.vocabulary) : .personal(other))
        }
        var o = s
        var changed = false
        func set<T>(_ new: T?, _ apply: (T) -> Void) { if let new { apply(new); changed = true } }
        set(process(s.process, "process")) { o.process = $0 }
        set(s.session.flatMap { t($0, "session", .personal(.sessionId)) }) { o.session = $0 }
        set(t(s.wall, "wall", .clear(.time))) { o.wall = $0 }
        switch s.event {
        case let .sessionActivated(ok, error, pid, controlling):
            let e = error.flatMap { t($0, "error", .personal(.errorText)) }
            let c = controlling.flatMap { process($0, "controllingProcess") }
            if e != nil || c != nil {
                o.event = .sessionActivated(ok: ok, error: e ?? error, controllingPid: pid, controllingProcess: c ?? controlling)
                changed = true
            }
        case .routeChanged:
            break
        case let .propertySet(key, value):
            let k = word(key, "key", V.propertyKeys, .unlistedValue), v = word(value, "value", V.values, V.valueKind(value))
            if k != nil || v != nil {
                o.event = .propertySet(key: k ?? key, value: v ?? value)
                changed = true
            }
        case let .playing(playing, category):
            set(category.flatMap { word($0, "category", V.values, .unlistedValue) }) { o.event = .playing(playing, category: $0) }
        case .appState(let state):
            set(word(state, "state", V.appStates, .unlistedValue)) { o.event = .appState(state: $0) }
        }
        return changed ? o : nil
    }
}
