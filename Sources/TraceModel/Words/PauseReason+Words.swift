// What a pause of the recorder means, in words.
extension PauseReason {
    /// What the pause means, in a few words for reports ("the volume was locked").
    public var words: String {
        switch self {
        case .disabled: "recording was switched off"
        case .volumeLocked: "the volume was locked: the device's data protection refused writes"
        case .diskFull: "the disk was full"
        case .lowSpace: "free space was below the recorder's floor"
        case .unlisted(let raw): "reason \(raw)"
        }
    }
}
