import TraceModel

/// What one recognised line of the device's log says, before its time becomes a trace's `t` and before
/// it is known whether its process is the app's.
package struct LogFact: Sendable {
    /// The entry it came from.
    package var entry: LogEntry
    /// The line shape that recognised it (`LineShape.name`, or a pattern table's shape name).
    package var shape: String
    /// The process it is about (for the media server's lines, the session's owner).
    package var process: String
    /// Its process id, when the line gives one.
    package var pid: Int?
    /// The audio session id as logged, when the line gives one.
    package var session: String?
    /// What it says.
    package var what: What

    /// What a line says.
    package enum What: Sendable {
        /// A `sys.*` event.
        case system(SystemLogRecord.Event)
        /// The process's audio session was interrupted (`Begin Interruption. Was suspended:N`): for the app's own
        /// process, an `os.interruptionBegan`.
        case interruptionBegan(wasSuspended: Bool?)
        /// A whole record a pattern table made (an SDK's own log: the app's process).
        case record(RecordBody)
    }
}

/// The processes of the media server, whose session-server lines speak of other processes' sessions.
enum MediaServer {
    static let names: Set<String> = ["mediaserverd", "audiomxd"]
}

/// AVAudioSession's error codes: a four-character code as the media server logs it (`'!pri'`, or its
/// number) and the error's Swift name, which `sys.sessionActivated.error` holds.
enum SessionErrorCode {
    static let byCode: [String: String] = [
        "!act": "isBusy", "!int": "cannotInterruptOthers", "ent?": "missingEntitlement", "siri": "siriIsRecording",
        "!pla": "cannotStartPlaying", "!rec": "cannotStartRecording", "!pri": "insufficientPriority", "!res": "resourceNotAvailable",
        "msrv": "mediaServicesFailed", "!ses": "expiredSession", "inac": "sessionNotActive", "what": "unspecified", "!cat": "incompatibleCategory",
    ]

    /// The Swift name for a logged error: a four-character code (quoted or not), its number, a Swift
    /// name or an `AVAudioSessionErrorCode…` constant; the text itself when it is none of those.
    static func name(_ text: String) -> String {
        var t = Substring(text).trimmed
        if t.hasPrefix("'"), t.hasSuffix("'"), t.count >= 2 { t = String(t.dropFirst().dropLast()) }
        if let n = byCode[t] { return n }
        if let v = Int32(t) ?? Int32(t.drop { $0 == "-" }).map({ t.hasPrefix("-") ? -$0 : $0 }) {
            let code = fourCC(v)
            if let code, let n = byCode[code] { return n }
            if v == -50 { return "badParam" }
        }
        for prefix in ["AVAudioSessionErrorCode", "AVAudioSessionErrorInsufficientPriority"] where t.hasPrefix(prefix) {
            let rest = t.dropFirst(prefix.count)
            if prefix == "AVAudioSessionErrorInsufficientPriority" { return "insufficientPriority" }
            guard let first = rest.first else { break }
            return first.lowercased() + rest.dropFirst()
        }
        return t
    }

    /// The four characters of a code, when every byte is printable.
    static func fourCC(_ v: Int32) -> String? {
        let u = UInt32(bitPattern: v)
        let bytes = [UInt8(u >> 24 & 0xFF), UInt8(u >> 16 & 0xFF), UInt8(u >> 8 & 0xFF), UInt8(u & 0xFF)]
        guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
