import TraceModel

/// How a recorder writes: what goes into every header, when frames are written and made durable, how
/// much it may hold and keep, what it hides, and whom it tells when something goes wrong.
///
/// The defaults and their reasons are in docs/recorder.md.
public struct RecorderConfiguration: Sendable {
    /// The folder the recorder owns: the open trace, `outbox/` (closed traces an uploader takes) and
    /// `local/` (closed traces kept until promoted, in the on-demand upload mode).
    public var directory: String
    /// The product layer the app is written against.
    public var layer: Layer
    /// The SDK name and version, e.g. `SMeeting 3.2.1`.
    public var sdk: String?
    /// The device (model, OS, simulator).
    public var device: TraceHeader.Device
    /// The app's relevant Info.plist facts.
    public var app: TraceHeader.App
    /// The persistent default route before any `api.setDefaultRoute` (nil: earpiece).
    public var initialDefaultRoute: RouteTarget?
    /// The session id; nil makes a random one. ASCII letters, digits, `.`, `_` and `-` are kept, other characters
    /// become `_` (the id is part of file names).
    public var sessionId: String?

    /// When a frame is written.
    public var frame = FramePolicy()
    /// When written frames are made durable.
    public var sync = SyncPolicy.interval(seconds: 30)
    /// How much the queue between callers and the writer may hold.
    public var queue = QueueLimits()
    /// File rotation and the folder's caps.
    public var files = FileLimits()
    /// Whether personal values are replaced by keyed hashes before they reach the disk.
    public var privacy = Privacy.off
    /// The share of sessions recorded, 0–1; a session not sampled records nothing.
    public var sampleRate = 1.0
    /// Where closed traces go.
    public var upload = UploadMode.automatic
    /// Whether a recorder started after a crash continues the crashed session.
    public var resume = ResumePolicy.never
    /// Receives what went wrong (and a few notes), on the writer thread; never called with a lock held.
    public var log: (@Sendable (RecorderLog) -> Void)?
    /// Where time comes from.
    public var clock: any RecorderClock = SystemClock()


    /// A configuration with the defaults.
    public init(directory: String, layer: Layer, sdk: String? = nil, device: TraceHeader.Device = .init(),
                app: TraceHeader.App = .init(), initialDefaultRoute: RouteTarget? = nil, sessionId: String? = nil) {
        self.directory = directory
        self.layer = layer
        self.sdk = sdk
        self.device = device
        self.app = app
        self.initialDefaultRoute = initialDefaultRoute
        self.sessionId = sessionId
    }

    /// A frame is written when `records` records are waiting or the oldest waiting record is
    /// `milliseconds` old, whichever comes first, and on `flush()`.
    public struct FramePolicy: Sendable, Equatable {
        /// Records per frame at most.
        public var records: Int
        /// Age of the oldest unwritten record that forces a frame, in ms: what a crash loses at most.
        public var milliseconds: Int64
        /// The defaults: 256 records or 2 seconds.
        public init(records: Int = 256, milliseconds: Int64 = 2000) {
            self.records = max(1, records)
            self.milliseconds = max(1, milliseconds)
        }
    }

    /// When written frames are forced to stable storage (`fsync`). A written frame survives the app
    /// crashing or being killed either way; only a power cut or a kernel panic loses unsynced frames.
    public enum SyncPolicy: Sendable, Equatable {
        /// After every frame.
        case everyFrame
        /// At most every `seconds`, after a frame; also at `flush()`, rotation and close.
        case interval(seconds: Double)
        /// Never (the system writes the data back in its own time).
        case never
    }

    /// The queue's bounds: a record that would exceed either is dropped and counted.
    public struct QueueLimits: Sendable, Equatable {
        /// Records waiting at most.
        public var records: Int
        /// Estimated memory of the waiting records at most, in bytes.
        public var bytes: Int
        /// The defaults: 4,096 records or 1 MiB.
        public init(records: Int = 4096, bytes: Int = 1 << 20) {
            self.records = max(1, records)
            self.bytes = max(1024, bytes)
        }
    }

    /// Rotation and the folder's caps.
    public struct FileLimits: Sendable, Equatable {
        /// A file at least this big (compressed) is closed after its frame and the session continues in
        /// the next part.
        public var maxFileBytes: Int
        /// All trace files of the folder together at most; the oldest closed files are deleted first.
        public var maxDirectoryBytes: Int
        /// Closed files older than this (from the start of their part) are deleted, in seconds.
        public var maxAgeSeconds: Double
        /// The defaults: 1 MiB files, 20 MiB in all, 7 days.
        public init(maxFileBytes: Int = 1 << 20, maxDirectoryBytes: Int = 20 << 20, maxAgeSeconds: Double = 7 * 86_400) {
            self.maxFileBytes = max(1024, maxFileBytes)
            self.maxDirectoryBytes = maxDirectoryBytes
            self.maxAgeSeconds = maxAgeSeconds
        }
    }

    /// Whether personal values reach the disk.
    public enum Privacy: Sendable, Equatable {
        /// Values are written as given.
        case off
        /// Names, uids, track ids, rooms and channels, device labels and ids, log lines and error text
        /// are replaced by keyed hashes (the keying of `rtctrace redact`) under this per-install salt.
        case hashed(salt: [UInt8])
    }

    /// Where a closed trace goes.
    public enum UploadMode: Sendable, Equatable {
        /// Into `outbox/` at once.
        case automatic
        /// Into `local/`, until `promoteKeptTraces()` moves it (and every later part of the session) to `outbox/`.
        case onDemand
    }

    /// What a recorder does with a trace left open by a process that died.
    public enum ResumePolicy: Sendable, Equatable {
        /// It is repaired, closed and handed on; this run starts a new session.
        case never
        /// If its last record is at most `seconds` old, this run continues its session as the next
        /// part; otherwise as `never`. Use it when the SDK knows the app restarted inside the same call.
        case leftOpen(withinSeconds: Double)
    }
}

/// A message for the SDK's log.
public struct RecorderLog: Sendable, Equatable, CustomStringConvertible {
    /// How serious it is.
    public enum Level: String, Sendable {
        case info, warning, error
    }

    /// How serious it is.
    public var level: Level
    /// What happened, naming the file and what the recorder does about it.
    public var message: String

    /// Creates a message.
    public init(_ level: Level, _ message: String) {
        self.level = level
        self.message = message
    }

    /// `rtctrace recorder: LEVEL: message`.
    public var description: String { "rtctrace recorder: \(level.rawValue): \(message)" }
}
