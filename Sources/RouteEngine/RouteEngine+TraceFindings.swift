import Contract
import TraceModel

// The route engine's trace.* findings: what the trace itself holds (T1) and the engine's limits, phrased in
// `FindingWords+Trace.swift`.
extension RouteEngine {
    /// T1: an open field held a value the format does not list.
    func unknownValueFinding(_ record: Record, field: String, value: String) -> Finding {
        Finding(code: .traceUnknownValue, severity: .warning, rule: .T1, seqs: [record.seq], t: record.t,
                FindingWords.unknownValue(field: field, value: value, seq: record.seq))
    }

    /// An engine limit: too many connected external devices.
    func deviceLimitFinding(_ record: Record) -> Finding {
        Finding(code: .traceLimitExceeded, severity: .warning, rule: nil, seqs: [record.seq], t: record.t,
                FindingWords.deviceLimitExceeded(limit: Self.deviceLimit, seq: record.seq))
    }
}
