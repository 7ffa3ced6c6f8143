/// The first record of every trace.
public struct TraceHeader: Equatable, Sendable {
    /// Always `rtctrace`.
    public var format: String
    /// Format version; this reader knows version 1.
    public var version: Int
    /// The product layer the app is written against.
    public var layer: Layer
    /// The SDK name and version, free text.
    public var sdk: String?
    /// The device the trace was recorded on.
    public var device: Device
    /// The app that recorded it.
    public var app: App
    /// Wall-clock start, ISO 8601, as written.
    public var startedAt: String?
    /// The persistent default before any `api.setDefaultRoute` (absent: earpiece).
    public var initialDefaultRoute: RouteTarget?
    /// Who replaced personal values before this file was written, if anyone (absent: nobody).
    public var redacted: RedactedBy?
    /// The app run this file is a part of, for a recorder that rotates files.
    public var session: Session?

    /// Creates a header with the spec's defaults for absent fields.
    public init(format: String = "rtctrace", version: Int = 1, layer: Layer, sdk: String? = nil,
                device: Device = Device(), app: App = App(), startedAt: String? = nil,
                initialDefaultRoute: RouteTarget? = nil, redacted: RedactedBy? = nil, session: Session? = nil) {
        self.format = format
        self.version = version
        self.layer = layer
        self.sdk = sdk
        self.device = device
        self.app = app
        self.startedAt = startedAt
        self.initialDefaultRoute = initialDefaultRoute
        self.redacted = redacted
        self.session = session
    }

    /// Whether the route contract applies: a trace whose `device.os` begins with `macOS` (any case) is
    /// not an iOS trace (R16); any other value, or none, is iOS.
    public var isMacOS: Bool { device.os.map { $0.lowercased().hasPrefix("macos") } ?? false }

    /// Whether the recorder replaced personal values on the device, so that the order of the original
    /// uids is unknown (`speakers.mismatch` then ignores the order of equal levels).
    public var redactedAtSource: Bool { redacted == .source }

    /// Ties the files of one app run together: part 1 starts the run, part N+1 continues part N.
    public struct Session: Equatable, Sendable {
        /// The run's identifier, the same in every part.
        public var id: String
        /// The part number, from 1.
        public var part: Int
        /// Whether a recorder restarted after a crash began this part (since v3): what lived only in the
        /// dead process starts afresh here (contract: the process state).
        public var resumed: Bool
        /// Creates a session part.
        public init(id: String, part: Int, resumed: Bool = false) {
            self.id = id
            self.part = part
            self.resumed = resumed
        }
    }

    /// The recording device.
    public struct Device: Equatable, Sendable {
        /// Hardware model, e.g. `iPhone15,2`.
        public var model: String?
        /// OS name and version.
        public var os: String?
        /// Whether this is a simulator (no earpiece, no bluetooth; R10).
        public var simulator: Bool
        /// Creates a device description.
        public init(model: String? = nil, os: String? = nil, simulator: Bool = false) {
            self.model = model
            self.os = os
            self.simulator = simulator
        }
    }

    /// The recording app's relevant Info.plist facts.
    public struct App: Equatable, Sendable {
        /// Bundle identifier.
        public var bundleId: String?
        /// The app's version (CFBundleShortVersionString), when the recorder knows it.
        public var version: String?
        /// Info.plist has NSMicrophoneUsageDescription.
        public var micUsageDescription: Bool
        /// UIBackgroundModes contains `audio`.
        public var backgroundAudio: Bool
        /// Creates an app description.
        public init(bundleId: String? = nil, version: String? = nil, micUsageDescription: Bool = true, backgroundAudio: Bool = true) {
            self.bundleId = bundleId
            self.version = version
            self.micUsageDescription = micUsageDescription
            self.backgroundAudio = backgroundAudio
        }
    }
}
