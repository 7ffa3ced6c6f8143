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

    /// The leading error code of an error text (`webrtcError: ICE failed …` → `webrtcError`), when it is
    /// a known one.
    public static func leadingErrorCode(_ text: String) -> Substring? {
        let word = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return errorCodes.contains(String(word)) ? word : nil
    }
}
