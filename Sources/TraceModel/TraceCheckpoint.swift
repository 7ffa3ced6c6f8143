/// A `trace.checkpoint` record's content (since v3): the state the SDK knows, as its query properties
/// report it, written at the start of every part after the first and after a restart, so that a part
/// replayed alone starts from a known state.
public struct TraceCheckpoint: Equatable, Sendable {
    /// `defaultAudioRoute`.
    public var defaultRoute: RouteTarget
    /// `routeOverride`: the temporary setting, if any.
    public var override: RouteTarget?
    /// `isEngaged`: the call audio path is set up.
    public var engaged: Bool
    /// The audio module switch.
    public var audioModuleEnabled: Bool
    /// Microphone permission.
    public var micPermission: MicPermission
    /// The connected external devices, in connection order.
    public var devices: [Device]
    /// `currentRoute`, when known.
    public var currentRoute: Route?
    /// The system call state.
    public var callState: CallState
    /// The app's lifecycle state.
    public var appState: AppState
    /// Interrupted and not yet recovered.
    public var interrupted: Bool
    /// The media engine and the signalling transport's state, when known.
    public var transport: Transport?
    /// The configuration of the call session that is up, or nil for none.
    public var session: Configuration?
    /// Where its state comes from (since version 4; nil: absent, which reads as `recorder`).
    public var source: Source?

    /// Creates a checkpoint.
    public init(defaultRoute: RouteTarget = .earpiece, override: RouteTarget? = nil, engaged: Bool = false,
                audioModuleEnabled: Bool = true, micPermission: MicPermission = .undetermined, devices: [Device] = [],
                currentRoute: Route? = nil, callState: CallState = .idle, appState: AppState = .foreground,
                interrupted: Bool = false, transport: Transport? = nil, session: Configuration? = nil, source: Source? = nil) {
        self.defaultRoute = defaultRoute
        self.override = override
        self.engaged = engaged
        self.audioModuleEnabled = audioModuleEnabled
        self.micPermission = micPermission
        self.devices = devices
        self.currentRoute = currentRoute
        self.callState = callState
        self.appState = appState
        self.interrupted = interrupted
        self.transport = transport
        self.session = session
        self.source = source
    }

    /// Where a checkpoint's state comes from (since version 4).
    public enum Source: String, TraceVocabulary {
        /// The SDK's own query properties (the recorder's checkpoint provider): it can vouch for the
        /// state after records were lost.
        case sdk
        /// Derived by the recorder from the records it wrote (what an absent `source` reads as).
        case recorder
    }

    /// Whether the SDK's own query properties gave the state (`source` `sdk`).
    public var isFromSDK: Bool { source == .sdk }

    /// A connected external device.
    public struct Device: Equatable, Sendable {
        /// The device's id, as `os.deviceConnected` gave it.
        public var id: String
        /// Its kind.
        public var kind: DeviceKind
        /// The user-visible name.
        public var name: String?
        /// The system port type.
        public var port: String?
        /// Creates a device.
        public init(id: String, kind: DeviceKind, name: String? = nil, port: String? = nil) {
            self.id = id
            self.kind = kind
            self.name = name
            self.port = port
        }
    }

    /// The media engine and the transport's state.
    public struct Transport: Equatable, Sendable {
        /// `seaStart` or `wangsu`.
        public var engine: EngineVendor
        /// The signalling transport state.
        public var state: ConnState
        /// Creates a transport state.
        public init(engine: EngineVendor, state: ConnState) {
            self.engine = engine
            self.state = state
        }
    }

    /// A call session's configuration.
    public struct Configuration: Equatable, Sendable {
        /// The category, e.g. `playAndRecord`.
        public var category: String
        /// The mode, e.g. `voiceChat`.
        public var mode: String
        /// The category options.
        public var options: [String]
        /// Creates a configuration.
        public init(category: String, mode: String, options: [String] = []) {
            self.category = category
            self.mode = mode
            self.options = options
        }
    }
}
