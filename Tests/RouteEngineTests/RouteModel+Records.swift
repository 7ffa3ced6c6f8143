import Contract
import RouteEngine
import TraceModel

// The records and timers of the independent route model: how each changes what R8 and V1 read.
extension RouteModel {
    /// Applies a record (after `flush()` when the engine flushed the override before it, R15).
    mutating func apply(_ record: Record) {
        recoveredNow = 0
        let t = record.t, seq = record.seq
        if macOS {
            switch record.body {
            case .joinChannel, .enterMeeting: engaged = true
            case .leaveChannel, .exitMeeting: engaged = false
            default: break
            }
            return
        }
        switch record.body {
        case .header(let h):
            macOS = h.device.os?.lowercased().hasPrefix("macos") ?? false
            simulator = h.device.simulator
            defaultTarget = h.initialDefaultRoute ?? .earpiece
            defaultSeq = h.initialDefaultRoute == nil ? nil : seq
        case .joinChannel, .enterMeeting:
            guard !engaged else { break }
            engaged = true
            moduleEnabled = true
            moduleDisabledSeq = nil
        case .leaveChannel, .exitMeeting:
            engaged = false
            leftSeq = seq
            override = nil
            overrideSeq = nil
            flushed = nil
            interruption = .none
            pending = false
            choice = nil
        case .setDefaultRoute(let target):
            if target != defaultTarget { defaultTarget = target; defaultSeq = seq }
            choice?.route = nil
        case .setRoute(let target, _):
            if target != override { override = target; overrideSeq = seq }
            choice?.route = nil
        case .clearRouteOverride:
            if override != nil { override = nil; overrideSeq = nil }
            choice?.route = nil
        case .setAudioModuleEnabled(let enabled):
            if enabled { moduleEnabled = true; moduleDisabledSeq = nil } else if moduleEnabled { moduleEnabled = false; moduleDisabledSeq = seq }
        case let .deviceConnected(id, kind, _, port):
            let actual: DeviceKind = port == "AirPlay" ? .airplay : port == "CarAudio" ? .carAudio : kind
            devices.removeAll { $0.id == id }
            devices.append(Device(id: id, kind: actual, seq: seq))
            if canTakeRoute(actual) { choice = nil }
        case .deviceDisconnected(let id):
            devices.removeAll { $0.id == id }
        case .micPermission(let status):
            if case .unlisted = status { break }
            mic = status
            micSeq = seq
        case let .interruptionBegan(cause, wasSuspended):
            guard engaged, interruption != .reset, interruption != .hold else { break }
            let stale = wasSuspended == true || cause == .appWasSuspended
            begin(stale ? .stale : .system, seq)
            callUpDuring = callUp
            callEndedAt = nil
            pending = stale
            if stale { attempt() }
        case .interruptionEnded:
            guard interruption == .system else { break }
            pending = true
            attempt()
        case .callState(let state):
            if case .unlisted = state { break }
            let wasUp = callUp
            callUp = [.incoming, .dialing, .connected, .held].contains(state)
            callIdleOrDisconnected = state == .idle || state == .disconnected
            guard interruption == .system || interruption == .stale, let id = interruptionSeq else { break }
            if callUp { callUpDuring = true } else if wasUp { callEndedAt = t }
            if state == .disconnected { retries.append((t + retryDelay, id)) }
        case .appState(let state):
            switch state {
            case .background: foreground = false
            case .unlisted: break
            case .foreground:
                foreground = true
                if pending { attempt() } else if interruption == .system, canRecover,
                                                 !callUpDuring || callEndedAt.map({ t - $0 >= retryDelay }) == true { recover() }
            }
        case .mediaServicesReset:
            let kept = session
            session = nil
            guard engaged else { break }
            begin(.reset, seq)
            // An activation of this ms logged before the reset is in its rebuild window: the rebuild.
            if let a = lastActivation, a.t == t {
                if kept?.seq == a.seq { session = kept }
                recover()
            }
        case .callKit(let event, _):
            callKit(event, seq: seq, t: t)
        case .sessionActivated(let a):
            guard a.ok else { break }
            lastActivation = (seq, t)
            let call = a.category == "playAndRecord"
            session = call ? (seq, a.mode == "videoChat", a.mode == "videoChat" || a.options.contains("allowAirPlay")) : nil
            if interruption == .reset || (call && interruption == .system && engaged && !callUp) { recover() }
        case let .sessionDeactivated(_, ok, _):
            if ok ?? true { session = nil }
        case let .routeChanged(route, _, _), let .routeSnapshot(route, _):
            lastReading = (route, seq)
            if route == .bluetooth || route == .headset { choice = nil }
        default:
            break
        }
        checkChoice(t: t)
    }

    /// A timer the engine fired: R15's restore, and I3's retry (which the model must have asked for itself).
    /// Returns false when the engine fired a retry the model did not expect.
    mutating func fire(_ timer: RouteTimer, engineOverride: RouteTarget?) -> Bool {
        recoveredNow = 0
        switch timer.kind {
        case .flushSettle:
            if override == nil, let back = flushed, engineOverride == back.target {
                override = back.target
                overrideSeq = back.seq
                flushed = nil
            }
        case let .recoveryRetry(id, _):
            guard let i = retries.firstIndex(where: { $0.due == timer.due && $0.interruption == id }) else { return false }
            retries.remove(at: i)
            guard interruptionSeq == id, interruption == .system || interruption == .stale else { return true }
            if pending { attempt() } else if interruption == .system, canRecover { recover() }
        default:
            break
        }
        return true
    }

    /// R15's flush, as the engine's finding reports it: the override is dropped and remembered.
    mutating func flush() {
        guard let target = override else { return }
        flushed = (target, overrideSeq)
        override = nil
        overrideSeq = nil
    }

    private mutating func callKit(_ event: CallKitEvent, seq: Int, t: Int64) {
        switch event {
        case .answer, .start:
            ownCallEnded = false
            choice = nil
            // A didActivate of this ms logged before the action is in its window: CallKit has activated.
            if lastDidActivateAt == t {
                if event == .answer { answeredAt = t }
                return
            }
            callKitWindow = true
            if event == .answer { windowAnswered = true }
        case .end:
            ownCallEnded = true
            callKitWindow = false
            windowAnswered = false
            choice = nil
        case .didActivate:
            ownCallEnded = false
            lastActivation = (seq, t)
            lastDidActivateAt = t
            if windowAnswered { answeredAt = t }
            callKitWindow = false
            windowAnswered = false
            if interruption == .hold || interruption == .reset { recover() }
        case .didDeactivate:
            if engaged, !ownCallEnded, interruption != .hold { begin(.hold, seq) }
        case .hold, .unhold, .unlisted:
            break
        }
    }

    private var canRecover: Bool { engaged && callIdleOrDisconnected && foreground }

    private mutating func begin(_ kind: Interruption, _ seq: Int) {
        interruption = kind
        interruptionSeq = seq
        pending = false
        choice = nil
    }

    private mutating func attempt() {
        if pending, canRecover { recover() }
    }

    private mutating func recover() {
        interruption = .none
        pending = false
        recoveredNow += 1
    }

    /// I13: within the match window after a didActivate that closed an answer's window, R8 predicting
    /// bluetooth from R4 and the device on the receiver or the speaker: iOS's choice.
    private mutating func checkChoice(t: Int64) {
        guard let at = answeredAt else { return }
        guard t - at <= matchWindow else { answeredAt = nil; return }
        guard choice == nil, let reading = lastReading, reading.route == .receiver || reading.route == .speaker,
              case .bluetooth? = routeDevice?.kind, predicted() == .bluetooth else { return }
        choice = (reading.route, reading.seq)
        answeredAt = nil
    }
}
