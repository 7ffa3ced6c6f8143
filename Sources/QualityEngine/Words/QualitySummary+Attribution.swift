import Contract
import TraceModel

// Whose network the bad time is attributed to, as a sentence.
extension QualitySummary {
    /// The attribution as a sentence in the layer's words.
    package var attributionSentence: String {
        let who = LayerWords(layer).participant
        switch attribution.side {
        case .none: return "The network was never poor or lost."
        case .uplink: return "Poor or lost quality came mostly from the \(who)'s own uplink (pub)."
        case .downlinkOrRemote:
            return "Poor or lost quality came mostly from the downlink or the remote side's uplink (sub)."
        case .both: return "Poor or lost quality came from both the \(who)'s uplink (pub) and the downlink (sub)."
        }
    }
}
