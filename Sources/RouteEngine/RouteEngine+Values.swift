import Contract
import TraceModel

// T1 (open vocabularies) and R16 (a macOS trace, to which the iOS route contract does not apply).
extension RouteEngine {
    /// T1: a value an open field does not list raises `trace.unknownValue` once per field and value.
    /// Returns whether it raised any.
    @discardableResult
    mutating func unknownValueCheck(_ record: Record, into out: inout RouteSink) -> Bool {
        var raised = false
        for (field, value) in record.body.unlistedValues where obligations.unknownValues.count < 1000 {
            guard obligations.unknownValues.insert(field + "=" + value).inserted else { continue }
            out.append(.finding(unknownValueFinding(record, field: field, value: value)))
            raised = true
        }
        return raised
    }

    /// R16: on macOS only what reaches beyond the route contract is read: engagement (the microphone
    /// prompt still needs NSMicrophoneUsageDescription) and the open values (T1). No prediction, no verdict.
    /// Returns false for a record that concerns nothing here.
    mutating func reduceOffContract(_ record: Record, into out: inout RouteSink) -> Bool {
        let unknown = unknownValueCheck(record, into: &out)
        switch record.body.kind?.engagement {
        case .engage?:
            guard !state.engaged else { return true }
            state.engaged = true
            state.engagedSeq = record.seq
            if !state.micUsageDescription { out.append(.finding(missingMicUsageFinding(record))) }
            return true
        case .disengage?:
            state.engaged = false
            state.leftSeq = record.seq
            return true
        case nil:
            return unknown
        }
    }
}

// Values of open vocabularies the prediction asks about at every record that concerns routing.
extension RouteEngine.State {
    /// `kind == .airplay`, told by the case: the comparison of two values of an open vocabulary copies
    /// and compares their spellings (an unlisted kind still is compared so).
    static func isAirPlay(_ kind: DeviceKind) -> Bool {
        switch kind {
        case .airplay: true
        case .bluetooth, .headset, .carAudio: false
        case .unlisted: kind == .airplay
        }
    }

    /// `micPermission == .denied`, told by the case (an unlisted value still is compared).
    var micDenied: Bool {
        switch micPermission {
        case .denied: true
        case .granted, .undetermined: false
        case .unlisted: micPermission == .denied
        }
    }
}
