import Contract
import TraceModel

// T1 (open vocabularies) and R16 (a macOS trace, to which the iOS route contract does not apply).
extension RouteEngine {
    /// T1: a value an open field does not list raises `trace.unknownValue` once per field and value.
    mutating func unknownValueCheck(_ record: Record) -> [RouteOutput] {
        var outputs: [RouteOutput] = []
        for (field, value) in record.body.unlistedValues where obligations.unknownValues.count < 1000 {
            guard obligations.unknownValues.insert(field + "=" + value).inserted else { continue }
            outputs.append(.finding(unknownValueFinding(record, field: field, value: value)))
        }
        return outputs
    }

    /// R16: on macOS only what reaches beyond the route contract is read: engagement (the microphone
    /// prompt still needs NSMicrophoneUsageDescription) and the open values (T1). No prediction, no verdict.
    mutating func reduceOffContract(_ record: Record) -> [RouteOutput]? {
        let unknown = unknownValueCheck(record)
        switch record.body.kind?.engagement {
        case .engage?:
            guard !state.engaged else { return unknown }
            state.engaged = true
            state.engagedSeq = record.seq
            return unknown + (state.micUsageDescription ? [] : [.finding(missingMicUsageFinding(record))])
        case .disengage?:
            state.engaged = false
            state.leftSeq = record.seq
            return unknown
        case nil:
            return unknown.isEmpty ? nil : unknown
        }
    }
}
