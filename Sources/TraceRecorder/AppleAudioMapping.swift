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

    /// The external device kind of a port type (`AVAudioSession.Port` raw values); nil for built-in
    /// ports and virtual ones. A type this table does not know (a newer iOS's) is kept as it is, an
    /// external device of an unlisted kind (the contract's T1 and R14: it takes the route as any external
    /// device does, and the five-state route has no value for it).
    ///
    /// Bluetooth of any profile is `bluetooth`; AirPlay is `airplay` and CarPlay `carAudio` (the
    /// contract's kinds, R14: the five-state route has no value for them); every wired connection
    /// (headphones and the headset's microphone, USB, line in and out, HDMI, DisplayPort, Thunderbolt,
    /// AVB, PCI, FireWire) is `headset`.
    public static func deviceKind(portType: String) -> DeviceKind? {
        switch portType {
        case "BluetoothHFP", "BluetoothA2DPOutput", "BluetoothLE", "BluetoothLEOutput": .bluetooth
        case "AirPlay": .airplay
        case "CarAudio": .carAudio
        case "Headphones", "MicrophoneWired", "USBAudio", "LineOut", "LineIn", "HDMIOutput", "DisplayPort", "Thunderbolt",
             "AVB", "PCI", "FireWire":
            .headset
        // Built in or virtual, and `HeadsetMic` (the constant's Swift name, which iOS never reports).
        case "Speaker", "Receiver", "MicrophoneBuiltIn", "MicrophoneContinuity", "Virtual", "HeadsetMic", "": nil
        default: .unlisted(portType)
        }
    }

    /// The five-state route of an output port type: `unknown` for AirPlay, CarPlay and what this table
    /// does not know.
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

    /// A device's id in the trace: the port's uid, or its type and name when the uid is empty. A bluetooth
    /// uid is the device address plus a profile suffix (`7C:04:D0:1A:3F:22-tacl` for A2DP, `-tsco` for HFP);
    /// the suffix is dropped, so a device switching profiles (when a call session starts) stays one device.
    /// The headphone jack is one device whichever of its ports iOS lists (`Headphones` as an output,
    /// `MicrophoneWired` as an input): `WiredHeadset`.
    public static func deviceId(_ p: Port) -> String {
        if p.type == "Headphones" || p.type == "MicrophoneWired" { return "WiredHeadset" }
        if p.uid.isEmpty { return p.type + ":" + p.name }
        let u = Array(p.uid.utf8)
        if deviceKind(portType: p.type) == .bluetooth, u.count > 18, u[17] == UInt8(ascii: "-"),
           (0..<17).allSatisfy({ $0 % 3 == 2 ? u[$0] == UInt8(ascii: ":") : u[$0] != UInt8(ascii: ":") }) {
            return String(decoding: u[0..<17], as: UTF8.self)
        }
        return p.uid
    }

    /// The external devices iOS reports, across the current route's outputs and the session's available
    /// inputs (`AVAudioSession.availableInputs`): a device is seen when it is connected, not only when it
    /// takes the output route (a bluetooth headset while the SDK forces the speaker, a headset whose
    /// output an override hides, a USB microphone with no output at all).
    public struct DeviceTracker: Sendable, Equatable {
        /// The devices connected, in connection order.
        public private(set) var devices: [TraceCheckpoint.Device] = []

        /// Creates a tracker that knows no device.
        public init() {}

        /// Takes the current outputs and available inputs; returns the devices that left, then those
        /// that appeared (outputs before inputs), as records.
        public mutating func update(outputs: [Port], inputs: [Port]) -> [TraceRecorder.Event] {
            var seen: [TraceCheckpoint.Device] = []
            for p in outputs + inputs {
                guard let kind = deviceKind(portType: p.type) else { continue }
                let id = deviceId(p)
                if let i = seen.firstIndex(where: { $0.id == id }) {
                    // A headset's output names it better than its microphone.
                    if p.type == "Headphones" { seen[i] = .init(id: id, kind: kind, name: p.name.isEmpty ? nil : p.name, port: p.type) }
                    continue
                }
                seen.append(.init(id: id, kind: kind, name: p.name.isEmpty ? nil : p.name, port: p.type))
            }
            var events: [TraceRecorder.Event] = []
            for d in devices where !seen.contains(where: { $0.id == d.id }) { events.append(.deviceDisconnected(id: d.id)) }
            for d in seen where !devices.contains(where: { $0.id == d.id }) {
                events.append(.deviceConnected(id: d.id, kind: d.kind, name: d.name, port: d.port))
            }
            devices = devices.filter { d in seen.contains { $0.id == d.id } } + seen.filter { d in !devices.contains { $0.id == d.id } }
            return events
        }

        /// The records for a route change notification: the devices that left or appeared (across the new
        /// outputs and the available inputs), then the route change itself.
        public mutating func routeChange(reasonRawValue: UInt, previous: [Port], current: [Port], availableInputs: [Port]) -> [TraceRecorder.Event] {
            update(outputs: current, inputs: availableInputs)
                + [.routeChanged(route: route(outputs: current), previous: route(outputs: previous),
                                 reason: routeChangeReason(rawValue: reasonRawValue))]
        }
    }
}
