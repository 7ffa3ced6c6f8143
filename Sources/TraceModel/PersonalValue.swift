/// The kinds of personal value a trace can hold, the keyed tokens that replace them, and the one policy
/// of what a replacement keeps (a port type, a leading error code, a log level).
///
/// `rtctrace redact` (Analysis) and the device-side recorder's source redaction both replace exactly the
/// fields `RecordBody.mapStrings` declares personal, through `PersonalValue.replace`, so that the same
/// value of the same kind gives the same token under the same key in both.
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
        case callId = "call id"
        /// A port field: a port type (vocabulary, kept) or a name a user gave the device (a `portName`).
        case port
        /// A route snapshot entry, `PORTTYPE` or `PORTTYPE:PORTNAME` (the name is a `deviceName`).
        case portEntry = "port entry"
        /// A log line's level: a level word is kept, anything else is free text.
        case logLevel = "log level"
        /// A layer switch's reason: a reason word is kept, anything else is free text.
        case layerReason = "layer switch reason"
        /// A value of an open vocabulary (T1) that the format neither lists nor documents: free text.
        case unlistedValue = "unlisted value"
        /// An `api` field that is not a call spelled as Swift spells it; its base name is kept before `(`.
        case apiCall = "api call"
        /// A record type the format does not define that does not follow the naming rule
        /// (`CustomRecordName`): its family stays (`x.`), the rest becomes a token.
        case recordType = "record type"
        case unknownRecord = "unknown record fields"
        /// A process's name in the system log that is not one of iOS's own: another app's, or the app's.
        case processName = "process name"
        /// A file path (a container path names the app and its install).
        case path
        /// A Bluetooth device address.
        case bluetoothAddress = "bluetooth address"

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
            case .portName, .port, .portEntry: "port"
            case .sessionId: "sess"
            case .callId: "call"
            case .logLevel: "lvl"
            case .layerReason: "why"
            case .unlistedValue: "val"
            case .apiCall: "api"
            case .recordType: "type"
            case .unknownRecord: "rec"
            case .processName: "proc"
            case .path: "path"
            case .bluetoothAddress: "bt"
            }
        }
    }

    /// The kinds an SDK declares for a value of a template log or a custom event (`.uid`, `.channel`,
    /// `.room`, `.device`, `.free`), so that a personal value gets the same token wherever it appears:
    /// a uid in a log line takes the token of a uid in a speaker record.
    public enum Declared: String, CaseIterable, Sendable {
        /// A user's uid (a speaker's, a publisher's, the local one).
        case uid
        /// An SRTC channel name.
        case channel
        /// An SMeeting room name.
        case room
        /// A device's name, as the user gave it ("Jane's AirPods").
        case device
        /// Anything else that is private: free text, replaced as a whole.
        case free

        /// The record field kind whose token a value of this kind takes; nil for free text, which takes
        /// the token of the text it sits in (a log line's, an unknown record's).
        public var field: Kind? {
            switch self {
            case .uid: .uid
            case .channel: .channel
            case .room: .room
            case .device: .deviceName
            case .free: nil
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

    /// The replacement of a personal `value` of `kind`, with `token` making the tokens: what the system's
    /// own vocabulary says stays (a port type, a known error code at the start of an error text, a log
    /// level, a layer switch reason, a call's base name, a record type's family), everything else
    /// becomes a token.
    public static func replace(_ value: String, _ kind: Kind, token: (Kind, String) -> String) -> String {
        switch kind {
        case .port:
            return SystemVocabulary.portTypes.contains(value) ? value : token(.portName, value)
        case .portEntry:
            guard let colon = value.firstIndex(of: ":") else { return replace(value, .port, token: token) }
            return replace(String(value[..<colon]), .port, token: token) + ":" + token(.deviceName, String(value[value.index(after: colon)...]))
        case .errorText:
            guard let code = SystemVocabulary.leadingErrorCode(value) else { return token(.errorText, value) }
            let rest = value.dropFirst(code.count)
            return rest.isEmpty ? String(code) : String(code) + ": " + token(.errorText, String(rest))
        case .logLevel:
            return SystemVocabulary.logLevels.contains(value) ? value : token(.logLevel, value)
        case .layerReason:
            return SystemVocabulary.layerReasons.contains(value) ? value : token(.layerReason, value)
        case .apiCall:
            guard let base = SystemVocabulary.callBaseName(value) else { return token(.apiCall, value) }
            return base + "(" + token(.apiCall, value) + ")"
        case .recordType:
            return (CustomRecordName.family(of: value).map(String.init) ?? "") + token(.recordType, value)
        case .deviceName, .deviceId, .uid, .trackId, .channel, .room, .bundleId, .logMessage, .portName, .sessionId,
             .callId, .unlistedValue, .unknownRecord, .processName, .path, .bluetoothAddress:
            return token(kind, value)
        }
    }
}
