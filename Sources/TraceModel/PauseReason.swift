/// Why a recorder recorded nothing for a while (`trace.paused`, since version 4; open: a value this
/// version does not list is kept as written).
public enum PauseReason: OpenVocabulary {
    /// The SDK switched recording off (`TraceRecorder.isEnabled`).
    case disabled
    /// The volume was locked: the device's data protection refused the write.
    case volumeLocked
    /// The disk was full.
    case diskFull
    /// Free space was below the recorder's floor.
    case lowSpace
    case unlisted(String)

    public static let listed: [PauseReason] = [.disabled, .volumeLocked, .diskFull, .lowSpace]

    /// The value as written in a trace.
    public var rawValue: String {
        switch self {
        case .disabled: "disabled"
        case .volumeLocked: "volumeLocked"
        case .diskFull: "diskFull"
        case .lowSpace: "lowSpace"
        case .unlisted(let raw): raw
        }
    }

    /// The unlisted value's text, or nil for a listed value.
    public var unlistedValue: String? {
        if case .unlisted(let raw) = self { return raw }
        return nil
    }
}
