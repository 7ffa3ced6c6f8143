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

    /// The leading error code of an error text (`webrtcError: ICE failed …` → `webrtcError`), when it is
    /// a known one.
    public static func leadingErrorCode(_ text: String) -> Substring? {
        let word = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return errorCodes.contains(String(word)) ? word : nil
    }
}
