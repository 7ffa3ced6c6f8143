// External devices named by their kind and name (device words, v4): one phrasing for prose, advice and
// branches; "bluetooth or wired headset" is never said of another kind.
import TraceModel

extension DeviceKind {
    /// The kind in words, with its article: "a bluetooth device", "a wired headset", "an AirPlay output",
    /// "CarPlay", "a USB audio device", or an unlisted kind as recorded.
    package var words: String {
        switch self {
        case .bluetooth: "a bluetooth device"
        case .headset: "a wired headset"
        case .airplay: "an AirPlay output"
        case .carAudio: "CarPlay"
        case .unlisted(let raw): raw == "USBAudio" ? "a USB audio device" : "an external device of kind \(raw)"
        }
    }

    /// The kind in words without an article, for a tag's field and a short label: "bluetooth", "wired
    /// headset", "AirPlay", "CarPlay", "USB audio", or an unlisted kind as recorded.
    package var shortWords: String {
        switch self {
        case .bluetooth: "bluetooth"
        case .headset: "wired headset"
        case .airplay: "AirPlay"
        case .carAudio: "CarPlay"
        case .unlisted(let raw): raw == "USBAudio" ? "USB audio" : raw
        }
    }

    /// The device in words: its kind and, when the trace has one, its name (`CarPlay "Toyota CarPlay"`).
    package func words(named name: String?) -> String {
        guard let name, !name.isEmpty else { return words }
        return words + " (\"" + name + "\")"
    }
}

extension VerdictCause {
    /// Why a call with this cause did not take effect, naming the external device behind
    /// `externalRouteActive` by its kind and name when the trace has it (device words, v4).
    package func reason(_ w: LayerWords, device: DeviceKind?, name: String? = nil) -> String {
        guard self == .externalRouteActive, let device else { return reason(w) }
        return "\(device.words(named: name)) had the route, and iOS does not let an app take the output back from it"
    }
}
