import TraceModel

// The audio session as the SDK configured it: activations (I4, I5, I7, R11, session.*) and changes made
// behind the SDK's back (R12).
extension RouteEngine {
    /// I4 (premature reactivation), recovery confirmation, the rebuild after a reset (I5), the race with
    /// CallKit (I7), the session's mode (R11) and the session.* checks.
    mutating func sessionActivated(_ activation: SessionActivation, _ record: Record) -> [RouteOutput] {
        var outputs: [RouteOutput] = []
        state.activationsRecorded = true
        // The SDK must reactivate after a reset, so I4 does not apply until the rebuild (decided).
        if state.interrupted, state.resetSeq == nil, state.callState.isCallUp {
            outputs.append(.finding(prematureReactivationFinding(record)))
        }
        guard activation.ok else { return outputs }
        outputs += activationSucceeded(record)
        outputs += raceCallKit(record)
        if activation.isCallSession {
            if state.engaged { state.videoChatSeq = activation.mode == "videoChat" ? record.seq : nil }
            outputs += sessionFindings(activation, record)
        }
        return outputs
    }

    /// The session.* findings, once per call-session activation, with R11's implied options.
    private func sessionFindings(_ activation: SessionActivation, _ record: Record) -> [RouteOutput] {
        var outputs: [RouteOutput] = []
        if !activation.has("allowBluetooth") {
            outputs.append(.finding(missingAllowBluetoothFinding(record)))
        }
        if state.defaultTarget == .speaker, !activation.has("defaultToSpeaker") {
            outputs.append(.finding(missingDefaultToSpeakerFinding(record)))
        }
        if !activation.isChatMode {
            outputs.append(.finding(wrongModeFinding(activation.mode, record)))
        }
        return outputs
    }

    /// R12: a category or override route change away from the prediction, while engaged and not
    /// interrupted, that no record in the match window before it accounts for. The state is unchanged: the
    /// contract predicts what the SDK should do, which is to re-apply its route.
    mutating func routeObserved(_ route: Route, reason: RouteChangeReason, _ record: Record) -> [RouteOutput]? {
        guard reason == .categoryChange || reason == .override, state.engaged, !state.interrupted,
              let predicted = predictedRoute, route != predicted, route != .unknown else { return nil }
        if let accounted = accountingT, record.t - accounted <= options.matchWindowMs { return nil }
        return [.finding(changedByOtherComponentFinding(record, route: route, reason: reason, predicted: predicted))]
    }
}
