import TraceModel

/// How the raw values iOS delivers map to trace records. Platform-neutral, so every mapping is tested
/// on any platform with the exact values AVFoundation and CallKit hand over; the Apple adapter
/// (`AppleAudioObserver`) only reads those values and calls these functions.
public enum AppleAudioMapping {
    // MARK: Ports and routes

    /// One port of an `AVAudioSessionRouteDescription`: its `portType.rawValue`, `portName` and `uid`.
    public struct Port: Equatable, Sendable {
        /// `AVAudioSession.Port` raw value, e.g. `BluetoothHFP`.
        public var type: String
        /// The user-visible name, e.g. `AirPods Pro`.
        public var name: String
        /// The port's unique id (for bluetooth, derived from the device address).
        public var uid: String
        /// Creates a port.
        public init(type: String, name: String = "", uid: String = "") {
            self.type = type
            self.name = name
            self.uid = uid
        }
    }

    /// The external device kind of a port type; nil for built-in ports.
    ///
    /// Wireless outputs (bluetooth of any profile, AirPlay) are `bluetooth`; wired ones (headphones,
    /// headsets, USB, line out, HDMI, CarPlay) are `headset`. Both take the route from the built-in outputs.
    public static func deviceKind(portType: String) -> DeviceKind? {
        switch portType {
        case "BluetoothHFP", "BluetoothA2DPOutput", "BluetoothLE", "AirPlay": .bluetooth
        case "Headphones", "HeadsetMic", "USBAudio", "CarAudio", "LineOut", "HDMIOutput", "DisplayPort": .headset
        default: nil
        }
    }

    /// The five-state route of an output port type.
    public static func route(portType: String) -> Route {
        switch portType {
        case "Speaker": .speaker
        case "Receiver": .receiver
        default: deviceKind(portType: portType)?.route ?? .unknown
        }
    }

    /// The route of a route description's outputs: the first output's (iOS lists the one in use first); `unknown` with none.
    public static func route(outputs: [Port]) -> Route {
        outputs.first.map { route(portType: $0.type) } ?? .unknown
    }

    /// `obs.routeSnapshot`'s ports: `PORTTYPE:PORTNAME`, or `PORTTYPE` when the name is empty.
    public static func snapshotPorts(_ outputs: [Port]) -> [String] {
        outputs.map { $0.name.isEmpty ? $0.type : $0.type + ":" + $0.name }
    }

    /// `AVAudioSession.RouteChangeReason` raw values: 0 unknown, 1 newDeviceAvailable, 2 oldDeviceUnavailable,
    /// 3 categoryChange, 4 override, 6 wakeFromSleep, 7 noSuitableRouteForCategory, 8 routeConfigurationChange
    /// (5 is unused); anything else is `unknown`.
    public static func routeChangeReason(rawValue: UInt) -> RouteChangeReason {
        switch rawValue {
        case 1: .newDeviceAvailable
        case 2: .oldDeviceUnavailable
        case 3: .categoryChange
        case 4: .override
        case 6: .wakeFromSleep
        case 7: .noSuitableRouteForCategory
        case 8: .routeConfigurationChange
        default: .unknown
        }
    }

    /// The records for a route change notification: external devices that left or appeared (by port
    /// uid, compared across the previous and current outputs), then the route change itself.
    public static func routeChange(reasonRawValue: UInt, previous: [Port], current: [Port]) -> [TraceRecorder.Event] {
        var events: [TraceRecorder.Event] = []
        let before = previous.filter { deviceKind(portType: $0.type) != nil }
        let after = current.filter { deviceKind(portType: $0.type) != nil }
        for p in before where !after.contains(where: { deviceId($0) == deviceId(p) }) {
            events.append(.deviceDisconnected(id: deviceId(p)))
        }
        for p in after where !before.contains(where: { deviceId($0) == deviceId(p) }) {
            events.append(.deviceConnected(id: deviceId(p), kind: deviceKind(portType: p.type)!, name: p.name.isEmpty ? nil : p.name, port: p.type))
        }
        events.append(.routeChanged(route: route(outputs: current), previous: route(outputs: previous),
                                    reason: routeChangeReason(rawValue: reasonRawValue)))
        return events
    }

    /// A device's id in the trace: the port's uid, or its type and name when the uid is empty. A bluetooth
    /// uid is the device address plus a profile suffix (`7C:04:D0:1A:3F:22-tacl` for A2DP, `-tsco` for HFP);
    /// the suffix is dropped, so a device switching profiles (when a call session starts) stays one device.
    public static func deviceId(_ p: Port) -> String {
        if p.uid.isEmpty { return p.type + ":" + p.name }
        let u = Array(p.uid.utf8)
        if deviceKind(portType: p.type) == .bluetooth, u.count > 18, u[17] == UInt8(ascii: "-"),
           (0..<17).allSatisfy({ $0 % 3 == 2 ? u[$0] == UInt8(ascii: ":") : u[$0] != UInt8(ascii: ":") }) {
            return String(decoding: u[0..<17], as: UTF8.self)
        }
        return p.uid
    }

    // MARK: Interruptions

    /// The record for an interruption notification. `typeRawValue` is `AVAudioSession.InterruptionType`
    /// (1 began, 0 ended); `optionsRawValue` is `AVAudioSession.InterruptionOptions` (bit 1 = shouldResume),
    /// present only when it ended. A began interruption while another call is up is a system call's;
    /// otherwise iOS does not say what began it. Nil for a type iOS does not define.
    public static func interruption(typeRawValue: UInt, optionsRawValue: UInt?, otherCallUp: Bool) -> TraceRecorder.Event? {
        switch typeRawValue {
        case 1: return .interruptionBegan(cause: otherCallUp ? .systemCall : .unknown)
        case 0: return .interruptionEnded(shouldResume: optionsRawValue.map { $0 & 1 != 0 })
        default: return nil
        }
    }

    // MARK: Calls

    /// The state of a `CXCall` from its flags: ended, then on hold, connected, dialing (outgoing, not
    /// yet connected), else incoming.
    public static func callState(hasConnected: Bool, hasEnded: Bool, isOutgoing: Bool, isOnHold: Bool) -> CallState {
        if hasEnded { return .disconnected }
        if hasConnected { return isOnHold ? .held : .connected }
        return isOutgoing ? .dialing : .incoming
    }

    /// Follows the calls `CXCallObserver` reports and says which `os.callState` to record: the app's own
    /// calls (those CallKit told the app about: `answer`, `start`) are left out, and a call whose state
    /// did not change records nothing.
    public struct CallTracker: Sendable {
        private var states: [String: CallState] = [:]
        private var own: Set<String> = []

        /// Creates an empty tracker.
        public init() {}

        /// Marks a call as the app's own (from CXAnswerCallAction / CXStartCallAction).
        public mutating func markOwn(_ callId: String) {
            own.insert(callId)
            states[callId] = nil
        }

        /// A call changed; returns the state to record, if any.
        public mutating func changed(callId: String, state: CallState) -> CallState? {
            guard !own.contains(callId), states[callId] != state else { return nil }
            states[callId] = state
            if state == .disconnected { states[callId] = nil }
            return state
        }

        /// Whether another call is up (incoming, dialing, connected or held).
        public var otherCallUp: Bool { states.values.contains { $0.isCallUp } }
    }

    // MARK: Permission and session configuration

    /// `AVAudioSession.RecordPermission` / `AVAudioApplication.recordPermission` raw values, four-char
    /// codes: `'grnt'` 1735552628, `'deny'` 1684369017, `'undt'` 1970168948.
    public static func micPermission(rawValue: UInt) -> MicPermission {
        switch rawValue {
        case 0x6772_6E74: .granted
        case 0x6465_6E79: .denied
        default: .undetermined
        }
    }

    /// The short Swift spelling of an `AVAudioSession.Category` raw value (`AVAudioSessionCategoryPlayAndRecord` → `playAndRecord`).
    public static func category(rawValue: String) -> String { shortName(rawValue, prefix: "AVAudioSessionCategory") }

    /// The short Swift spelling of an `AVAudioSession.Mode` raw value (`AVAudioSessionModeVoiceChat` → `voiceChat`).
    public static func mode(rawValue: String) -> String { shortName(rawValue, prefix: "AVAudioSessionMode") }

    /// The names of `AVAudioSession.CategoryOptions` bits, in bit order.
    public static func categoryOptions(rawValue: UInt) -> [String] {
        let names: [(UInt, String)] = [(0x1, "mixWithOthers"), (0x2, "duckOthers"), (0x4, "allowBluetooth"), (0x8, "defaultToSpeaker"),
                                       (0x10, "interruptSpokenAudioAndMixWithOthers"), (0x20, "allowBluetoothA2DP"),
                                       (0x40, "allowAirPlay"), (0x80, "overrideMutedMicrophoneInterruption")]
        return names.filter { rawValue & $0.0 != 0 }.map(\.1)
    }

    private static func shortName(_ raw: String, prefix: String) -> String {
        guard raw.hasPrefix(prefix), raw.count > prefix.count else { return raw }
        let rest = raw.dropFirst(prefix.count)
        return rest.prefix(1).lowercased() + rest.dropFirst()
    }
}
