import TraceFrames
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
    /// How large one string and one record may be.
    public var records = RecordLimits()
    /// File rotation and the folder's caps.
    public var files = FileLimits()
    /// How frames are compressed.
    public var compression = Compression.automatic
    /// Whether personal values are replaced by keyed hashes before they reach the disk.
    public var privacy = Privacy.off
    /// The share of sessions recorded, 0–1; a session not sampled records nothing.
    public var sampleRate = 1.0
    /// Where closed traces go.
    public var upload = UploadMode.automatic
    /// The data protection class of the folder and of every file the recorder makes (iOS; elsewhere
    /// there is none to set). The default lets a call on a locked screen go on being recorded.
    public var fileProtection = FileProtection.completeUntilFirstUserAuthentication
    /// Whether a recorder started after a crash continues the crashed session.
    public var resume = ResumePolicy.never
    /// Sees every event before it is queued, on the caller's thread: returns it (changed or not) to
    /// record it, nil to leave it out (counted in `statistics.filtered`). Must be quick, must not call
    /// the recorder, and on a real-time thread must not allocate or wait.
    public var filter: (@Sendable (TraceRecorder.Event) -> TraceRecorder.Event?)?
    /// The state the SDK knows (its query properties), for the checkpoint that begins a part a restarted
    /// process continues; called on the writer thread when that part opens. Nil, or returning nil: the
    /// state this process has recorded (docs/recorder.md, "Restarts"). Must not wait on the main thread.
    public var checkpoint: (@Sendable () -> TraceCheckpoint?)?
    /// Told the path of every closed trace moved into `outbox/`, on the writer thread (e.g. to start an upload).
    public var onOutbox: (@Sendable (String) -> Void)?
    /// Receives what went wrong (and a few notes), on the writer thread; never called with a lock held.
    public var log: (@Sendable (RecorderLog) -> Void)?
    /// Where time comes from.
    public var clock: any RecorderClock = SystemClock()
    /// Whether records are stamped with the processor's counter where it can stand in for the system
    /// clock (`TickCounter.isUsable`); false stamps them with the monotonic clock itself (the path taken
    /// where there is no such counter; tests take it on purpose).
    var counterStamps = true


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

    /// A frame is written when `records` records are waiting or the oldest unwritten record is about
    /// to be `milliseconds` old, whichever comes first, at once after an app call (`api.*`) when
    /// `writeThroughAppCalls`, and on `flush()`. Whatever the sync policy, a new record wakes the writer,
    /// so no record waits longer than `milliseconds` before it is in the file.
    public struct FramePolicy: Sendable, Equatable {
        /// Records per frame at most.
        public var records: Int
        /// The longest a record waits before its frame is written, in ms: what a crash loses at most.
        public var milliseconds: Int64
        /// Whether an `api.*` record (the app's calls: rare, and what support needs most) is written in a
        /// frame at once, with what waits before it.
        public var writeThroughAppCalls: Bool
        /// The defaults: 256 records or 2 seconds; app calls written through.
        public init(records: Int = 256, milliseconds: Int64 = 2000, writeThroughAppCalls: Bool = true) {
            self.records = max(1, records)
            self.milliseconds = max(1, milliseconds)
            self.writeThroughAppCalls = writeThroughAppCalls
        }

        /// How early the writer acts, so that waking, encoding and compressing stay within `milliseconds`:
        /// a tenth of it, at most 50 ms.
        var slackNanos: UInt64 { UInt64(min(50, milliseconds / 10)) * 1_000_000 }
    }

    /// The size caps of what is recorded, well under what readers accept (16 MiB lines).
    public struct RecordLimits: Sendable, Equatable {
        /// A string longer than this (UTF-8 bytes) is cut there and ends with `…[clipped from N bytes]`
        /// (`statistics.clipped` counts such records).
        public var maxStringBytes: Int
        /// A record whose JSON line is longer than this (bytes) is not written: it is counted as dropped
        /// (`trace.dropped`, `statistics.oversized`) and the log says so once.
        public var maxRecordBytes: Int
        /// The defaults: 8 KiB strings, 64 KiB records.
        public init(maxStringBytes: Int = 8 << 10, maxRecordBytes: Int = 64 << 10) {
            self.maxStringBytes = max(64, maxStringBytes)
            self.maxRecordBytes = max(1024, maxRecordBytes)
        }
    }

    /// How frames are made (every way writes frames every zstd reader reads; docs/recorder.md).
    public enum Compression: Sendable {
        /// libzstd where this package links it (Linux, macOS), else `stored`.
        case automatic
        /// Frames of stored blocks, written by the recorder's own encoder: uncompressed (a frame is its
        /// lines plus 12 to 20 bytes), with no library at all.
        case stored
        /// A compressor the SDK makes, e.g. over the zstd it links itself; called once, on the writer thread.
        case custom(@Sendable () throws -> any TraceCompressor)
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
        /// The free space the recorder leaves the device: with less, recording pauses (`trace.paused`,
        /// reason `lowSpace`) until there is this much again; 0 turns the check off.
        public var minimumFreeBytes: Int
        /// The defaults: 1 MiB files, 20 MiB in all, 7 days, 50 MiB left free.
        public init(maxFileBytes: Int = 1 << 20, maxDirectoryBytes: Int = 20 << 20, maxAgeSeconds: Double = 7 * 86_400,
                    minimumFreeBytes: Int = 50 << 20) {
            self.maxFileBytes = max(1024, maxFileBytes)
            self.maxDirectoryBytes = maxDirectoryBytes
            self.maxAgeSeconds = maxAgeSeconds
            self.minimumFreeBytes = max(0, minimumFreeBytes)
        }
    }

    /// Whether personal values reach the disk.
    public enum Privacy: Sendable, Equatable {
        /// Values are written as given.
        case off
        /// Every field the record model declares personal (names, uids, track ids, rooms and channels,
        /// device names and ids, call ids, log lines, error texts, the bundle id and the session id, in
        /// records, headers and file names) is replaced by the keyed hash `rtctrace redact` writes, under
        /// this per-install salt; in log messages and custom events, the values marked private.
        case hashed(salt: [UInt8])
    }

    /// iOS data protection for the recorder's files (docs/recorder.md, "Device states"). The raw value is
    /// the system's name of the class.
    public enum FileProtection: String, Sendable, CaseIterable {
        /// Readable and writable whenever the device is on.
        case none = "NSFileProtectionNone"
        /// Unreadable and unwritable from shortly after the device locks until it is unlocked: a call on a
        /// locked screen could not be recorded (recording pauses, `volumeLocked`).
        case complete = "NSFileProtectionComplete"
        /// Files open when the device locks stay writable; a new part cannot be made until it unlocks.
        case completeUnlessOpen = "NSFileProtectionCompleteUnlessOpen"
        /// Encrypted until the first unlock after a restart, then writable, locked or not (the default:
        /// the RTC case is a call on a locked screen, and traces hold no secrets once redacted).
        case completeUntilFirstUserAuthentication = "NSFileProtectionCompleteUntilFirstUserAuthentication"
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
