import Contract
import TraceCodec
import TraceModel

/// The replay's own sentences: what an expectation found instead, why an input cannot be explained, how a
/// session's parts do not join.
package enum ReplayWords {
    /// An expected verdict or outcome whose call the result no longer keeps.
    package static func notKept(maxVerdicts: Int) -> String { "not kept (more than \(maxVerdicts) verdicts)" }

    /// An expected verdict for a seq that is no replayed call.
    package static func noVerdict(seq: Int) -> String { "no verdict (seq \(seq) is not a replayed route or layer call)" }

    /// An expected outcome for a seq that is no replayed route call (`replayed`), or no route call at all.
    package static func noOutcome(seq: Int, replayed: Bool) -> String {
        replayed ? "no outcome (seq \(seq) is not a replayed route call)" : "no outcome (seq \(seq) is not a route call)"
    }

    /// Expected quality changes past what the result keeps.
    package static func changesNotKept(max: Int) -> String { "more than \(max) changes (not kept)" }

    /// An expected finding without a count.
    package static func atLeastOne(_ code: FindingCode) -> String { "at least one \(code)" }

    /// An expected prediction source of a divergence that has none.
    package static let noPredictionSource = "no prediction source"

    /// Why a trace with no evidence cannot be explained: no records, no header, only the header.
    package static let noRecords = "it holds no records"
    package static let noHeader = "it has no trace.header record, so its layer, device and start are unknown"
    package static let onlyHeader = "it holds only its header"

    /// A part whose first seq does not follow the last of the part before it.
    package static func partSeqGap(first: Int, previousLast: Int) -> String {
        "this part starts at seq \(first), but the part before it ended at seq \(previousLast)"
    }

    /// A part that starts before the part before it ended.
    package static func partTimeBackwards(start: Int64, previousEnd: Int64) -> String {
        "this part starts at \(formatDuration(start)), before the part before it ended (\(formatDuration(previousEnd)))"
    }
}

extension LossCause {
    /// The cause in words, for a gap line and a divergence's card.
    package var words: String {
        switch self {
        case .unreadableFrame: "a frame of the file could not be read"
        case .seqGap: "records are missing from the file (seq skips)"
        case .dropped: "the recorder dropped records (its queue was full)"
        case .paused: "the recorder paused and recorded nothing"
        case .missingPart: "a part of the session is missing"
        case .restart: "the app's process ended (a crash or a kill) and restarted"
        }
    }
}

extension ReplayEvent {
    /// The event in a few words, for the text timeline and `replay --json`'s `notes`.
    package var description: String {
        switch self {
        case .recovered(let t):
            "recovered from the interruption at \(formatDuration(t)) (the SDK's recovered callback is due)"
        case let .levelChange(previous, overall):
            "level change \(previous.rawValue) → \(overall.rawValue)"
        case let .speakers(first, count):
            "speakers [" + first.map { "\(TextCap.identifier($0.uid))/\(TextCap.identifier($0.trackId))" }.joined(separator: ", ")
                + (count > first.count ? ", … \(count - first.count) more" : "") + "]"
        case .divergenceCounted(let start):
            "route divergence from \(formatDuration(start)) counts (longer than the tolerance)"
        case let .outcomeDecided(callSeq, outcome):
            "the call at seq \(callSeq) is now \(outcome.kind.rawValue)"
        case let .devicesChanged(added, removed):
            (added.isEmpty ? "" : "connected " + added.joined(separator: ", "))
                + (added.isEmpty || removed.isEmpty ? "" : "; ")
                + (removed.isEmpty ? "" : "disconnected " + removed.joined(separator: ", "))
        }
    }
}
