/// Words the system itself uses in free-text fields: what may stay when personal values are removed.
public enum SystemVocabulary {
    /// AVAudioSession port types (`AVAudioSession.Port` raw values, and the short spellings recorders use).
    public static let portTypes: Set<String> = [
        "Speaker", "Receiver", "BuiltInSpeaker", "BuiltInReceiver", "MicrophoneBuiltIn", "MicrophoneWired",
        "BuiltInMic", "Headphones", "HeadsetMic", "BluetoothA2DPOutput", "BluetoothHFP", "BluetoothLE",
        "HDMIOutput", "HDMI", "LineOut", "LineIn", "AirPlay", "USBAudio", "CarAudio", "Virtual", "PCI",
        "FireWire", "DisplayPort", "AVB", "Thunderbolt",
    ]

    /// Error codes that may start an error text: the SDK's own and AVAudioSession's error code names.
    public static let errorCodes: Set<String> = [
        "engineNotSupported", "transportNotReady", "webrtcError", "notConnected", "timeout", "timedOut",
        "permissionDenied", "invalidArgument", "badParam", "cannotInterruptOthers", "cannotStartPlaying",
        "cannotStartRecording", "expiredSession", "incompatibleCategory", "insufficientPriority", "isBusy",
        "mediaServicesFailed", "missingEntitlement", "resourceNotAvailable", "sessionNotActive",
        "siriIsRecording", "unspecified", "unknown",
    ]

    /// Log levels a recorder writes (`sdk.log.level`): OSLog's and the usual logging libraries' words.
    public static let logLevels: Set<String> = [
        "trace", "verbose", "debug", "info", "notice", "default", "warning", "warn", "error", "fault", "critical", "fatal",
    ]

    /// Layer switch reasons the SFU sends (`bwe_down`, `bwe_up`, `client`) and the ones it documents beside them.
    public static let layerReasons: Set<String> = [
        "bwe_down", "bwe_up", "client", "server", "congestion", "probe", "recovery", "unknown",
    ]

    /// Interruption reasons iOS sends beyond the listed causes (`AVAudioSession.InterruptionReason`), which
    /// the recorder writes as they are; one it cannot name is `reason` + its number.
    public static let interruptionReasons: Set<String> = ["builtInMicMuted", "sceneWasBackgrounded", "routeDisconnected"]

    /// Whether `text` is an interruption reason: a documented one, or `reasonN`.
    public static func isInterruptionReason(_ text: String) -> Bool {
        interruptionReasons.contains(text) || (text.hasPrefix("reason") && isNumber(String(text.dropFirst(6))))
    }

    /// `AVAudioSession.CategoryOptions` by their Swift names (`allowBluetoothHFP` is `allowBluetooth`'s newer name).
    public static let categoryOptions: Set<String> = [
        "mixWithOthers", "duckOthers", "allowBluetooth", "allowBluetoothHFP", "defaultToSpeaker",
        "interruptSpokenAudioAndMixWithOthers", "allowBluetoothA2DP", "allowAirPlay", "overrideMutedMicrophoneInterruption",
    ]

    /// Whether `text` is a category option: a named one, or `option0xNN` (a bit the recorder cannot
    /// name, in lowercase hex).
    public static func isCategoryOption(_ text: String) -> Bool {
        guard !categoryOptions.contains(text) else { return true }
        let u = Array(text.utf8)
        return u.count > 8 && u.count <= 24 && text.hasPrefix("option0x")
            && u[8...].allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Whether `text` is a decimal number of 1…20 digits.
    public static func isNumber(_ text: String) -> Bool {
        let u = text.utf8
        return !u.isEmpty && u.count <= 20 && u.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// Whether `text` is a call spelled as Swift spells it, as `api` fields hold it: a base name
    /// (`switchLayer`), optionally with its argument labels (`switchLayer(pubUid:trackId:targetTrackId:)`) or
    /// literal arguments (`setSpeakerOutputEnabled(true)`, `setAudioRoute(.speaker)`, `setVolume(level: 50)`).
    /// Any other text in an `api` field may be anyone's and is redacted.
    public static func isCallSpelling(_ text: String) -> Bool {
        let u = Array(text.utf8)
        guard u.count <= 128 else { return false }
        func isWord(_ c: UInt8) -> Bool { (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || c == 0x5F }
        var i = 0
        while i < u.count, isWord(u[i]) { i += 1 }
        guard i > 0, !(0x30...0x39).contains(u[0]) else { return false }
        if i == u.count { return true }
        guard u[i] == UInt8(ascii: "("), u.last == UInt8(ascii: ")") else { return false }
        let inside = String(decoding: u[(i + 1)..<(u.count - 1)], as: UTF8.self)
        if inside.isEmpty { return true }
        // Labels only (`a:b:`), or arguments each `label: value` or `value`.
        if inside.hasSuffix(":"), inside.dropLast().split(separator: ":", omittingEmptySubsequences: false).allSatisfy({ isName(Substring($0)) }) {
            return true
        }
        return inside.split(separator: ",", omittingEmptySubsequences: false).allSatisfy { argument in
            let parts = argument.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.last!.drop { $0 == " " }
            if parts.count == 2, !isName(parts[0].drop { $0 == " " }) { return false }
            return isLiteral(value)
        }
    }

    /// An identifier: an ASCII letter or `_`, then letters, digits or `_`.
    static func isName(_ s: Substring) -> Bool {
        guard let first = s.utf8.first, !(0x30...0x39).contains(first) else { return false }
        return s.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x5F }
    }

    /// A literal argument: `true`, `false`, `nil`, a number, or an enum case (`.speaker`).
    static func isLiteral(_ s: Substring) -> Bool {
        if s == "true" || s == "false" || s == "nil" { return true }
        if s.first == "." { return isName(s.dropFirst()) }
        let digits = s.drop { $0 == "-" }
        return !digits.isEmpty && digits.utf8.allSatisfy { (0x30...0x39).contains($0) || $0 == 0x2E }
    }

    /// The base name a call spelling begins with, when it is followed by `(`: what stays of an `api`
    /// field whose arguments are redacted (the contract matches on it, L4).
    public static func callBaseName(_ text: String) -> Substring? {
        let name = text.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        guard !name.isEmpty, name.utf8.count <= 64, !name.first!.isNumber, text.dropFirst(name.count).first == "(" else { return nil }
        return name
    }

    /// The leading error code of an error text (`webrtcError: ICE failed …` → `webrtcError`), when it is
    /// a known one.
    public static func leadingErrorCode(_ text: String) -> Substring? {
        let word = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return errorCodes.contains(String(word)) ? word : nil
    }
}
