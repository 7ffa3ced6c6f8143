import TraceModel

extension AppleAudioMapping {
    // MARK: Permission and session configuration

    /// `AVAudioSession.RecordPermission` / `AVAudioApplication.recordPermission` raw values, four-char
    /// codes: `'grnt'` 1735552628, `'deny'` 1684369017, `'undt'` 1970168948.
    public static func micPermission(rawValue: UInt) -> MicPermission {
        switch rawValue {
        case fourCharCode("grnt"): .granted
        case fourCharCode("deny"): .denied
        default: .undetermined
        }
    }

    /// The short Swift spelling of an `AVAudioSession.Category` raw value (`AVAudioSessionCategoryPlayAndRecord` → `playAndRecord`).
    public static func category(rawValue: String) -> String { shortName(rawValue, prefix: "AVAudioSessionCategory") }

    /// The short Swift spelling of an `AVAudioSession.Mode` raw value (`AVAudioSessionModeVoiceChat` → `voiceChat`).
    public static func mode(rawValue: String) -> String { shortName(rawValue, prefix: "AVAudioSessionMode") }

    /// The names of `AVAudioSession.CategoryOptions` bits, in bit order.
    public static func categoryOptions(rawValue: UInt) -> [String] {
        let names: [(UInt, String)] = [(0x1, "mixWithOthers"), (0x2, "duckOthers"), (0x4, "allowBluetooth"), (0x8, "defaultToSpeaker"),
                                       (0x10, "interruptSpokenAudioAndMixWithOthers"), (0x20, "allowBluetoothA2DP"),
                                       (0x40, "allowAirPlay"), (0x80, "overrideMutedMicrophoneInterruption")]
        return names.filter { rawValue & $0.0 != 0 }.map(\.1)
    }

    /// `AVAudioSession.ErrorCode` raw values (four-char codes, and -50), by the case names the contract
    /// matches on (`cannotInterruptOthers`, `insufficientPriority`, `isBusy`, …).
    static let sessionErrorNames: [(Int, String)] = [
        (-50, "badParam"), (fourCharCode("!act"), "isBusy"), (fourCharCode("!cat"), "incompatibleCategory"),
        (fourCharCode("!int"), "cannotInterruptOthers"), (fourCharCode("!pla"), "cannotStartPlaying"),
        (fourCharCode("!pri"), "insufficientPriority"), (fourCharCode("!rec"), "cannotStartRecording"),
        (fourCharCode("!res"), "resourceNotAvailable"), (fourCharCode("!ses"), "expiredSession"),
        (fourCharCode("msrv"), "mediaServicesFailed"), (fourCharCode("ent?"), "missingEntitlement"),
        (fourCharCode("siri"), "siriIsRecording"), (fourCharCode("inac"), "sessionNotActive"), (fourCharCode("what"), "unspecified"),
    ]

    /// The error text of a failed `setActive` (an `NSError`'s domain and code): the `AVAudioSession.ErrorCode`
    /// case name when the code is one (a word of the system's vocabulary, which source redaction keeps),
    /// else `DOMAIN.CODE`.
    public static func sessionError(domain: String, code: Int) -> String {
        sessionErrorNames.first { $0.0 == code }?.1 ?? "\(domain).\(code)"
    }

    /// A four-char code's value (`'grnt'` → 1735552628).
    static func fourCharCode(_ s: StaticString) -> Int {
        s.withUTF8Buffer { $0.reduce(0) { $0 << 8 | Int($1) } }
    }

    static func fourCharCode(_ s: StaticString) -> UInt { UInt(fourCharCode(s) as Int) }

    private static func shortName(_ raw: String, prefix: String) -> String {
        guard raw.hasPrefix(prefix), raw.count > prefix.count else { return raw }
        let rest = raw.dropFirst(prefix.count)
        return rest.prefix(1).lowercased() + rest.dropFirst()
    }
}
