import Contract
import TraceModel

// The route engine's trace.* findings: what the trace itself holds (T1) and the engine's limits, in the
// layer's words.
extension RouteEngine {
    /// T1: an open field held a value the format does not list.
    func unknownValueFinding(_ record: Record, field: String, value: String) -> Finding {
        Finding(code: .traceUnknownValue, severity: .warning, rule: .T1, seqs: [record.seq], t: record.t,
                message: "\(field) is \"\(TextCap.clip(value))\" at seq \(record.seq), a value this version does not list; the "
                    + "record is kept and read as the contract says for values it does not list.",
                advice: field == "os.deviceConnected.kind" && SystemVocabulary.portTypes.contains(value)
                    // A port type the system names: the recorder's mapping kept it as the kind, not a newer iOS.
                    ? "Nothing to fix in the app: \"\(TextCap.clip(value))\" is a port type iOS names, which the recorder's "
                        + "port-to-kind mapping kept as the kind; map it to a kind the format lists (or keep it and read it as an "
                        + "external device of that kind, R14)."
                    : "Nothing to fix in the app: a newer iOS value was recorded as it is.")
    }

    /// An engine limit: too many connected external devices.
    func deviceLimitFinding(_ record: Record) -> Finding {
        Finding(code: .traceLimitExceeded, severity: .warning, rule: nil, seqs: [record.seq], t: record.t,
                message: "The limit of \(Self.deviceLimit) connected external devices was reached at seq \(record.seq): "
                    + "this connection and any further ones beyond the limit are ignored, so routing results past this "
                    + "point are approximate.",
                advice: "Treat routing results after seq \(record.seq) as approximate; no real device connects this many "
                    + "outputs at once, so check the recorder for a loop.")
    }
}
