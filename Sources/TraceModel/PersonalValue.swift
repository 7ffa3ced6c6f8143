/// The kinds of personal value a trace can hold, and the keyed tokens that replace them.
///
/// Shared by `rtctrace redact` (TraceTools) and the device-side recorder's source redaction, so that
/// the same value of the same kind gives the same token under the same key in both.
public enum PersonalValue {
    /// What kind of personal value a field holds; the raw value names the kind in reports and is
    /// part of the keyed hash, so the same string as a room and as a uid gives different tokens.
    public enum Kind: String, CaseIterable, Sendable {
        case deviceName = "device name"
        case deviceId = "device id"
        case uid
        case trackId = "track id"
        case channel = "channel name"
        case room = "room name"
        case bundleId = "bundle id"
        case logMessage = "log message"
        case errorText = "error text"
        case portName = "port name"
        case sessionId = "session id"
        case unknownRecord = "unknown record fields"

        /// The token's prefix, which keeps the kind readable in a redacted trace.
        public var prefix: String {
            switch self {
            case .deviceName: "dev"
            case .deviceId: "devid"
            case .uid: "uid"
            case .trackId: "trk"
            case .channel: "chan"
            case .room: "room"
            case .bundleId: "app"
            case .logMessage: "log"
            case .errorText: "err"
            case .portName: "port"
            case .sessionId: "sess"
            case .unknownRecord: "rec"
            }
        }
    }

    /// `PREFIX-` + (`RANK-` when given) + the first 8 hex digits of HMAC-SHA256(key, kind NUL value).
    public static func token(key: [UInt8], kind: Kind, value: String, rank: String? = nil) -> String {
        let mac = SHA256.hmac(key: key, message: Array(kind.rawValue.utf8) + [0] + Array(value.utf8))
        var t = kind.prefix + "-"
        if let rank { t += rank + "-" }
        t += String(SHA256.hex(mac).prefix(8))
        return t
    }
}
