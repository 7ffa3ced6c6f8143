import Contract
import TraceModel

// T1 (open vocabularies) and R16 (a macOS trace, to which the iOS route contract does not apply).
extension RouteEngine {
    /// T1: a value an open field does not list raises `trace.unknownValue` once per field and value.
    mutating func unknownValueCheck(_ record: Record) -> [RouteOutput] {
        var unlisted: [(String, String)] = []
        switch record.body {
        case .interruptionBegan(let cause?, _): if let v = cause.unlistedValue { unlisted.append(("os.interruptionBegan.cause", v)) }
        case .deviceConnected(_, let kind, _, _): if let v = kind.unlistedValue { unlisted.append(("os.deviceConnected.kind", v)) }
        case .callState(let s): if let v = s.unlistedValue { unlisted.append(("os.callState.state", v)) }
        case .appState(let s): if let v = s.unlistedValue { unlisted.append(("os.appState.state", v)) }
        case .micPermission(let s): if let v = s.unlistedValue { unlisted.append(("os.micPermission.status", v)) }
        case .callKit(let e, _): if let v = e.unlistedValue { unlisted.append(("os.callKit.event", v)) }
        case .sessionActivated(let a):
            if let c = a.category, !Self.listedCategories.contains(c) { unlisted.append(("obs.sessionActivated.category", c)) }
            if let m = a.mode, !Self.listedModes.contains(m) { unlisted.append(("obs.sessionActivated.mode", m)) }
        case .interruptionBegan(nil, _), .header, .joinChannel, .leaveChannel, .enterMeeting, .exitMeeting, .setDefaultRoute,
             .setRoute, .clearRouteOverride, .setAudioModuleEnabled, .subscribe, .switchLayer, .deviceDisconnected,
             .interruptionEnded, .mediaServicesReset, .routeChanged, .routeSnapshot, .sessionDeactivated, .overrideOutput,
             .sdkInterrupted, .sdkRecovered, .sdkCallStateChanged, .sdkQualityChanged, .sdkActiveSpeakers, .sdkLayerSwitched,
             .sdkError, .sdkLog, .connEngine, .connState, .qualityReport, .speakers, .srvLayerSwitched, .dropped, .checkpoint,
             .expect, .unknown:
            break
        }
        var outputs: [RouteOutput] = []
        for (field, value) in unlisted where obligations.unknownValues.count < 1000 {
            guard obligations.unknownValues.insert(field + "=" + value).inserted else { continue }
            outputs.append(.finding(unknownValueFinding(record, field: field, value: value)))
        }
        return outputs
    }

    /// R16: on macOS only what reaches beyond the route contract is read: engagement (the microphone
    /// prompt still needs NSMicrophoneUsageDescription) and the open values (T1). No prediction, no verdict.
    mutating func reduceOffContract(_ record: Record) -> [RouteOutput]? {
        let unknown = unknownValueCheck(record)
        switch record.body {
        case .joinChannel, .enterMeeting:
            guard !state.engaged else { return unknown }
            state.engaged = true
            state.engagedSeq = record.seq
            return unknown + (state.micUsageDescription ? [] : [.finding(missingMicUsageFinding(record))])
        case .leaveChannel, .exitMeeting:
            state.engaged = false
            state.leftSeq = record.seq
            return unknown
        case .header, .setDefaultRoute, .setRoute, .clearRouteOverride, .setAudioModuleEnabled, .subscribe, .switchLayer,
             .deviceConnected, .deviceDisconnected, .micPermission, .interruptionBegan, .interruptionEnded, .callState,
             .appState, .mediaServicesReset, .callKit, .routeChanged, .routeSnapshot, .sessionActivated, .sessionDeactivated,
             .overrideOutput, .sdkInterrupted, .sdkRecovered, .sdkCallStateChanged, .sdkQualityChanged, .sdkActiveSpeakers,
             .sdkLayerSwitched, .sdkError, .sdkLog, .connEngine, .connState, .qualityReport, .speakers, .srvLayerSwitched,
             .dropped, .checkpoint, .expect, .unknown:
            return unknown.isEmpty ? nil : unknown
        }
    }
}
