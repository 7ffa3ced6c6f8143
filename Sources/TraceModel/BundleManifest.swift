/// rtctrace's version: the tool's (`rtctrace --version`) and the recorder's (a bundle's manifest).
public let rtctraceVersion = "0.9.0"

/// What a bundle (`NAME.rtcbundle`, an uncompressed POSIX tar archive) says about itself in its first
/// member, `manifest.json`: one session's parts as the recorder wrote them, each with its size and
/// SHA-256, so that a reader can tell a whole bundle from a damaged one (docs/recorder.md, "Tickets and
/// bundles").
public struct BundleManifest: Equatable, Sendable {
    /// `rtcbundle`: what the manifest describes.
    public static let format = "rtcbundle"
    /// The manifest's version: a reader refuses a later one it does not know.
    public static let version = 1
    /// The manifest's member name, first in the archive.
    public static let fileName = "manifest.json"
    /// A bundle's file name ending.
    public static let suffix = ".rtcbundle"

    /// One part of the session in the bundle.
    public struct Part: Equatable, Sendable {
        /// The member's name: the part's file name as the recorder wrote it.
        public var name: String
        /// Its size in bytes.
        public var size: Int
        /// SHA-256 of its bytes, lowercase hex.
        public var sha256: String

        /// Creates a part.
        public init(name: String, size: Int, sha256: String) {
            self.name = name
            self.size = size
            self.sha256 = sha256
        }
    }

    /// The session's id, as its files name it.
    public var session: String
    /// The ids of the user's reports marked in it (`trace.report`) that the recorder knew of.
    public var reportIds: [String]
    /// The parts, in part order.
    public var parts: [Part]
    /// The version of the recorder that wrote the bundle.
    public var recorderVersion: String
    /// When it was written (UTC, ISO 8601).
    public var createdAt: String

    /// Creates a manifest.
    public init(session: String, reportIds: [String], parts: [Part], recorderVersion: String = rtctraceVersion, createdAt: String) {
        self.session = session
        self.reportIds = reportIds
        self.parts = parts
        self.recorderVersion = recorderVersion
        self.createdAt = createdAt
    }

    /// The manifest as JSON (one object, keys in a fixed order, a newline at the end).
    public var json: [UInt8] {
        var w = JSONWriter(reserving: 256 + parts.count * 160)
        w.beginObject()
        w.staticKey("format"); w.string(Self.format)
        w.staticKey("version"); w.int(Self.version)
        w.staticKey("session"); w.string(session)
        w.staticKey("reportIds"); w.beginArray()
        for id in reportIds { w.string(id) }
        w.endArray()
        w.staticKey("recorderVersion"); w.string(recorderVersion)
        w.staticKey("createdAt"); w.string(createdAt)
        w.staticKey("parts"); w.beginArray()
        for p in parts {
            w.beginObject()
            w.staticKey("name"); w.string(p.name)
            w.staticKey("size"); w.int(p.size)
            w.staticKey("sha256"); w.string(p.sha256)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.bytes + [0x0A]
    }
}
