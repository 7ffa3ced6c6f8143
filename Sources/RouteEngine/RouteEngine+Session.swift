import Contract
import TraceModel

// The audio session as the SDK configured it: activations and deactivations (I4, I5, I7, I8, R11, R17–R19,
// session.*), and the device's route readings (R12, R15, I13).
extension RouteEngine {
    /// I4 (premature reactivation), the recoveries an activation makes (I5's rebuild, I8), the race with
    /// CallKit (I7), the call session that is up (R19), the call path (R17) and the session.* checks.
    mutating func sessionActivated(_ activation: SessionActivation, _ record: Record, into out: inout RouteSink) {
        state.activationsRecorded = true
        // The SDK must reactivate after a reset, so I4 does not apply until the rebuild (decided). During a
        // CallKit hold it does: the other call that is up gets the audio session, as during any interruption.
        let premature = state.interrupted && state.interruptionKind != .reset && state.callState.isCallUp
        if premature { out.append(.finding(prematureReactivationFinding(record))) }
        guard activation.ok else {
            for i in obligations.callPath.indices { obligations.callPath[i].lastError = activation.error ?? "unknown" }
            noteSameMs(record.t) { $0.activationError = activation.error ?? "unknown" }
            return
        }
        if activation.isCallSession {
            // R19: the call session that is up is this one, engaged or not.
            state.callSession = CallSession(seq: record.seq, mode: activation.mode,
                                            allowsAirPlay: activation.mode == "videoChat" || activation.options.contains("allowAirPlay"))
            let raised = sessionFindings(activation, record, into: &out)
            state.callSession?.missingAllowBluetooth = raised.missingAllowBluetooth
            state.callSession?.missingDefaultToSpeaker = raised.missingDefaultToSpeaker
        } else {
            state.callSession = nil
        }
        // I8: a call-session activation with no system call up recovers an open I1 interruption.
        if activation.isCallSession, state.interruptionKind == .system, !state.callState.isCallUp {
            recoverByActivation(record, into: &out)
        }
        activationSucceeded(record, into: &out)
        raceCallKit(record, into: &out)
        if activation.isCallSession {
            if !premature {
                callPathCameUp(record)
                noteSameMs(record.t) { $0.pathCameUp = true }
            }
        } else {
            noteSameMs(record.t) { $0.otherCategory = activation.category ?? "none" }
            // R17: a successful activation in another category takes the path down; the windows name it.
            state.callPathUp = false
            for i in obligations.callPath.indices {
                obligations.callPath[i].otherCategory = activation.category ?? "none"
                if obligations.callPath[i].otherCategoryAt == nil { obligations.callPath[i].otherCategoryAt = record.t }
            }
        }
    }

    /// The session.* findings, once per call-session activation, with R11's implied options; which of the
    /// two X3 reads were raised.
    private func sessionFindings(_ activation: SessionActivation, _ record: Record,
                                 into out: inout RouteSink) -> (missingAllowBluetooth: Bool, missingDefaultToSpeaker: Bool) {
        let allowBluetooth = !activation.has("allowBluetooth")
        if allowBluetooth {
            out.append(.finding(missingAllowBluetoothFinding(record)))
        }
        let defaultToSpeaker = state.defaultTarget == .speaker && !activation.has("defaultToSpeaker")
        if defaultToSpeaker {
            out.append(.finding(missingDefaultToSpeakerFinding(record)))
        }
        if !activation.isChatMode {
            out.append(.finding(wrongModeFinding(activation.mode, record)))
        }
        return (allowBluetooth, defaultToSpeaker)
    }

    /// R17: a successful `playAndRecord` activation or a `didActivate` brings the call path up and meets
    /// every open call-path window; it also ends `session.callPathNotUp`'s explanation (X3).
    mutating func callPathCameUp(_ record: Record) {
        state.callPathUp = true
        obligations.callPath = []
        obligations.callPathExplanation = nil
    }

    /// R17: a window opens at an engagement and at a recovery, unless the path is up already or a CallKit
    /// window is open (I7's `callkit.noDidActivate` covers a `didActivate` that never comes).
    mutating func openCallPathWindow(_ seq: Int, t: Int64, afterRecovery: Bool, into out: inout RouteSink) {
        guard !state.callPathUp, state.callKitWindows.isEmpty else { return }
        // Same ms (v3): the activations logged earlier in this ms are in the window: one that brought the path
        // up meets it at once; the others are named as if they came after the opening record.
        let ms = sameMs(at: t)
        guard ms?.pathCameUp != true else { return }
        obligations.callPath.append(CallPathWindow(seq: seq, t: t, afterRecovery: afterRecovery, lastError: ms?.activationError,
                                                   otherCategory: ms?.otherCategory, otherCategoryAt: ms?.otherCategory == nil ? nil : t))
        out.append(.timer(RouteTimer(due: Self.due(t, options.recoveryWindowMs), kind: .callPathWindow(seq: seq))))
    }

    /// R17: a window that reaches its due time unmet raises `session.callPathNotUp`, if the trace recorded an
    /// activation before; after a recovery, only when a successful activation in another category came.
    mutating func callPathWindowClosed(seq: Int, t: Int64, into out: inout RouteSink) {
        guard let i = obligations.callPath.firstIndex(where: { $0.seq == seq }) else { return }
        let window = obligations.callPath.remove(at: i)
        guard state.activationsRecorded, !window.afterRecovery || window.otherCategory != nil else { return }
        if let from = window.otherCategoryAt { obligations.callPathExplanation = CallPathExplanation(seq: window.seq, from: from) }
        out.append(.finding(callPathNotUpFinding(window, t: t)))
    }

    /// R18: a successful deactivation meets the deactivation window (a failed one is named if none
    /// follows); it takes the call path down and ends the call session (R17, R19).
    mutating func sessionDeactivated(notifyOthers: Bool, ok: Bool, error: String?, _ record: Record, into out: inout RouteSink) {
        obligations.deactivationsRecorded = true
        if !notifyOthers { out.append(.finding(missingNotifyOthersFinding(record))) }
        guard ok else {
            obligations.deactivation?.lastError = error ?? "unknown"
            noteSameMs(record.t) { $0.deactivationError = error ?? "unknown" }
            return
        }
        obligations.deactivation = nil
        noteSameMs(record.t) { $0.deactivated = true }
        state.callPathUp = false
        state.callSession = nil
    }

    /// R18: a deactivation window that reaches its due time unmet, in a trace that records deactivations.
    mutating func deactivationWindowClosed(seq: Int, t: Int64, into out: inout RouteSink) {
        guard let window = obligations.deactivation, window.seq == seq else { return }
        obligations.deactivation = nil
        guard obligations.deactivationsRecorded else { return }
        out.append(.finding(notDeactivatedFinding(window, t: t)))
    }

    /// A reading of the device's route: I13 ends at one that shows an external route; R15 counts it; R12 looks
    /// for another component's change (routeChanged only).
    mutating func routeRead(_ route: Route, reason: RouteChangeReason?, _ record: Record, into out: inout RouteSink) {
        let reading = RouteReading(route: route, t: record.t, seq: record.seq)
        state.lastReading = reading
        if route != .unknown { noteSameMs(record.t) { $0.reading = reading } }
        if route == .bluetooth || route == .headset { state.callKitChoice = nil }
        flushReading(reading, into: &out)
        if let reason, let change = otherComponentCheck(route, reason: reason, record) { out.append(change) }
    }

    /// R12: a category or override route change away from the prediction, while engaged and not
    /// interrupted, that no record in the match window before it accounts for (not while the state before
    /// the part is unknown: the prediction may rest on what the part does not show). The state is unchanged: the
    /// contract predicts what the SDK should do, which is to re-apply its route. A reading R15 allows needs
    /// no explanation.
    private func otherComponentCheck(_ route: Route, reason: RouteChangeReason, _ record: Record) -> RouteOutput? {
        guard reason == .categoryChange || reason == .override, state.engaged, !state.interrupted, !state.startStateUnknown,
              let predicted = predictedRoute, route != predicted, route != .unknown, route != toleratedRoute else { return nil }
        if let accounted = accountingT, record.t - accounted <= options.matchWindowMs { return nil }
        return .finding(changedByOtherComponentFinding(record, route: route, reason: reason, predicted: predicted))
    }
}
