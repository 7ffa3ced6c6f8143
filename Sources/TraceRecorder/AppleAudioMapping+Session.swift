import TraceModel

extension AppleAudioMapping {
    // MARK: Permission and session configuration

    /// `AVAudioSession.RecordPermission` / `AVAudioApplication.recordPermission` raw values, four-char
    /// codes: `'grnt'` 1735552628, `'deny'` 1684369017, `'undt'` 1970168948.
    public static func micPermission(rawValue: UInt) -> MicPermission {
        switch rawValue {
        case fourCharCode("grnt"): .granted
        case fourCharCode("deny"): .denied
        case fourCharCode("undt"): .undetermined
        // A value a newer iOS may add is kept as it is (its four characters, or the number).
        default: .unlisted(fourCharText(rawValue))
        }
    }

    /// A four-char code's text when its bytes are printable ASCII (`1970168948` → `undt`), else the number.
    static func fourCharText(_ v: UInt) -> String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * (3 - $0))) }
        guard v <= 0xFFFF_FFFF, bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return String(v) }
        return String(decoding: bytes, as: UTF8.self)
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
        // A bit a newer iOS may add is kept as it is (`option0x100`): the options are an open list (T1).
        let known = names.reduce(UInt(0)) { $0 | $1.0 }
        let other = (0..<UInt.bitWidth).map { UInt(1) << $0 }.filter { rawValue & $0 != 0 && known & $0 == 0 }
        return names.filter { rawValue & $0.0 != 0 }.map(\.1) + other.map { "option0x" + String($0, radix: 16) }
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
