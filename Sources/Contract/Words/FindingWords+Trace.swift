import TraceModel

// The trace.* findings' sentences: what the trace itself holds (T1, T2) and the engines' limits.
extension FindingWords {
    /// `trace.unknownValue` (T1): `field` held `value` at `seq`, which the format does not list.
    package static func unknownValue(field: String, value: String, seq: Int) -> FindingSentences {
        FindingSentences(
            message: "\(field) is \"\(TextCap.clip(value))\" at seq \(seq), a value this version does not list; the "
                + "record is kept and read as the contract says for values it does not list.",
            advice: field == "os.deviceConnected.kind" && SystemVocabulary.portTypes.contains(value)
                // A port type the system names: the recorder's mapping kept it as the kind, not a newer iOS.
                ? "Nothing to fix in the app: \"\(TextCap.clip(value))\" is a port type iOS names, which the recorder's "
                    + "port-to-kind mapping kept as the kind; map it to a kind the format lists (or keep it and read it as an "
                    + "external device of that kind, R14)."
                : "Nothing to fix in the app: a newer iOS value was recorded as it is.")
    }

    /// `trace.limitExceeded`: the route engine's limit of `limit` connected external devices, reached at `seq`.
    package static func deviceLimitExceeded(limit: Int, seq: Int) -> FindingSentences {
        FindingSentences(
            message: "The limit of \(limit) connected external devices was reached at seq \(seq): "
                + "this connection and any further ones beyond the limit are ignored, so routing results past this "
                + "point are approximate.",
            advice: "Treat routing results after seq \(seq) as approximate; no real device connects this many "
                + "outputs at once, so check the recorder for a loop.")
    }

    /// `trace.limitExceeded`: the quality engine's limit of `limit` `what` (`speakers` or `subscriptions`),
    /// reached at `seq`.
    package static func qualityLimitExceeded(_ what: String, limit: Int, seq: Int, _ words: LayerWords) -> FindingSentences {
        FindingSentences(
            message: "The limit of \(limit) \(what) was reached at seq \(seq): additions beyond it are ignored, so "
                + "\(what == "speakers" ? "speaker snapshots" : "layer verdicts") past this point are approximate.",
            advice: "Treat results after seq \(seq) as approximate; no real \(words.session) has this many \(what), so "
                + "check the recorder (or the server) for a loop.")
    }

    /// `trace.valueOutOfRange` (T2): `field` was `value` at `seq`, outside `range`.
    package static func valueOutOfRange(field: String, value: Double, range: ClosedRange<Double>, seq: Int,
                                        _ words: LayerWords) -> FindingSentences {
        let allowed = range.upperBound == .infinity ? "at least \(fixed(range.lowerBound, 1))"
            : "\(fixed(range.lowerBound, range.lowerBound == 1 ? 1 : 0)) to \(fixed(range.upperBound, range.upperBound == 4.5 ? 1 : 0))"
        return FindingSentences(
            message: "\(field) is \(value) at seq \(seq), outside its documented range (\(allowed)); it is used as recorded.",
            advice: "Check the \(words.product) SDK's conversion of the server's values; the documents give \(field) as \(allowed).")
    }

    /// `trace.checkpointMismatch`'s word for a call state of `idle` or `disconnected`: both say no other call is up.
    package static let noOtherCall = "no other call"

    /// `trace.limitExceeded`: the replay's limit of `limit` distinct strings, reached at `seq`.
    package static func symbolLimitExceeded(limit: Int, seq: Int, _ w: LayerWords) -> FindingSentences {
        FindingSentences(
            message: "The limit of \(limit) distinct strings (uids, track ids, device ids and names) was reached at seq \(seq): "
                + "strings first seen from then on are taken as one, so speaker sets and devices past this point are approximate.",
            advice: "Treat results after seq \(seq) as approximate; no real \(w.session) has this many distinct ids, so check the recorder "
                + "(or the server) for a loop.")
    }

    /// `trace.checkpointMismatch`: the checkpoint at `seq` (of `part`, if a session's) disagrees with the replayed
    /// state in `differences`.
    package static func checkpointMismatch(seq: Int, part: Int?, differences: [CheckpointDifference], product: String) -> FindingSentences {
        let listed = differences.map { "\($0.field) (checkpoint: \($0.checkpoint); replayed: \($0.derived))" }.joined(separator: ", ")
        let part = part.map { " (part \($0))" } ?? ""
        return FindingSentences(
            message: "The checkpoint at seq \(seq)\(part) disagrees with the state replayed from the records before it: "
                + listed + ". The replay keeps the state it derived.",
            advice: "Compare the named fields: a record the SDK saw was not recorded (see trace.dropped and the recorder's "
                + "filter), or the SDK's state is not what its events said. Send the whole session to the \(product) SDK team.")
    }
}
