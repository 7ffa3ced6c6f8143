import TraceModel

// The records and timers of the independent route model: how each changes what R8 and V1 read, in the order
// v3 decides for every record ("Decided for every v3 rule"): due timers first (`fire(at:)`, called by the
// replay loop), then a flush window closes (R15), the conditions on the state before the record are read
// (R18, I10), its change is applied, windows are met, and new windows open on the state after it.
extension RouteModel {
    /// Replays one record; returns V1's verdict when it is a route call (decided after R15's closing flush).
    mutating func step(_ record: Record) -> ExpectedVerdict? {
        recoveredNow = 0
        recoveries = []
        raised = []
        if record.t != ms { newMs(record.t) }
        if macOS {
            switch record.body {
            case .joinChannel, .enterMeeting: engaged = true
            case .leaveChannel, .exitMeeting: engaged = false
            default: break
            }
            return nil
        }
        let opening = opensFlushWindow(record.body)
        closeFlushWindow(before: record, opening: opening)
        let verdict: ExpectedVerdict? = switch record.body {
        case .setRoute, .setDefaultRoute, .clearRouteOverride: verdict(for: record.body)
        default: nil
        }
        apply(record)
        if !recoveries.isEmpty { recovered(t: record.t, by: record.seq) }
        if opening, override != nil { openFlushWindow(by: record.seq, t: record.t, atRecovery: false) }
        checkChoice(t: record.t)
        return verdict
    }

    /// The records of a new ms: none of them came yet.
    mutating func newMs(_ t: Int64) {
        ms = t
        msReadings = []
        msPathUp = false
        msOtherActivation = false
        msActivated = false
        msDeactivated = false
        msUnusedInterrupted = 0
        msRecovered = 0
        msRecoveredWhileInterrupted = []
    }

    /// The interruption a record begins (I1, I9, I5, I11), read on the state before it.
    func begins(_ body: RecordBody) -> Interruption? {
        switch body {
        case let .interruptionBegan(cause, wasSuspended):
            guard engaged, interruption != .reset, interruption != .hold else { return nil }
            return wasSuspended == true || cause == .appWasSuspended ? .stale : .system
        case .mediaServicesReset:
            return engaged ? .reset : nil
        case .callKit(.didDeactivate, _):
            return engaged && !ownCallEnded && interruption != .hold ? .hold : nil
        default:
            return nil
        }
    }

    // swiftlint:disable:next function_body_length cyclomatic_complexity
    private mutating func apply(_ record: Record) {
        let t = record.t, seq = record.seq
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
            engagement(t: t, seq: seq)
        case .leaveChannel, .exitMeeting:
            leaving(t: t, seq: seq)
            engaged = false
            leftSeq = seq
            override = nil
            overrideSeq = nil
            interruption = .none
            pending = false
            choice = nil
        case .setDefaultRoute(let target):
            if target != defaultTarget { defaultTarget = target; defaultSeq = seq }
            choice?.route = nil
        case .setRoute(let target, _):
            if target != override {
                override = target
                overrideSeq = seq
                if interrupted { overrideChangedWhileInterrupted = true }
            }
            choice?.route = nil
        case .clearRouteOverride:
            if override != nil {
                override = nil
                overrideSeq = nil
                if interrupted { overrideChangedWhileInterrupted = true }
            }
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
        case .interruptionBegan:
            pathUp = false
            guard let kind = begins(record.body) else { break }
            begin(kind, seq, t: t)
            callUpDuring = callUp
            callEndedAt = nil
            pending = kind == .stale
            if kind == .stale { attempt() }
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
            if state == .disconnected { retries.append((t + retryDelay, id, seq)) }
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
            let kept = session, keptPath = pathUp
            session = nil
            pathUp = false
            guard let kind = begins(record.body) else { break }
            begin(kind, seq, t: t)
            // An activation of this ms logged before the reset is in its rebuild window: the rebuild, as if it
            // came after the reset, so the call session and the call path it left stay up (contract-notes).
            if let a = lastActivation, a.t == t {
                if kept?.seq == a.seq { session = kept }
                pathUp = keptPath
                recover()
            }
        case .callKit(let event, _):
            callKit(event, record)
        case .sessionActivated(let a):
            seenActivation = true
            // I4: a reactivation while interrupted with a system call up is bound to fail (not a reset's rebuild).
            let premature = callUp && (interruption == .system || interruption == .stale || interruption == .hold)
            guard a.ok else { break }
            lastActivation = (seq, t)
            let call = a.category == "playAndRecord"
            session = call ? (seq, a.mode == "videoChat", a.mode == "videoChat" || a.options.contains("allowAirPlay")) : nil
            if interruption == .reset || (call && interruption == .system && engaged && !callUp) { recover() }
            activated(pathUp: call && !premature, other: !call)
        case let .sessionDeactivated(_, ok, _):
            seenDeactivation = true
            if ok ?? true {
                session = nil
                pathUp = false
                deactivated()
            }
        case let .routeChanged(route, _, _), let .routeSnapshot(route, _):
            lastReading = (route, seq)
            if route == .bluetooth || route == .headset { choice = nil }
            read(route, seq: seq, t: t)
        case .sdkInterrupted:
            interruptedCallback(t: t, seq: seq)
        case .sdkRecovered:
            recoveredCallback(t: t, seq: seq)
        default:
            break
        }
    }

    private mutating func callKit(_ event: CallKitEvent, _ record: Record) {
        let t = record.t, seq = record.seq
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
            callKitDues.append(t + recoveryWindow + 1)
            if event == .answer { windowAnswered = true }
        case .end:
            ownCallEnded = true
            callKitWindow = false
            callKitDues = []
            windowAnswered = false
            choice = nil
            ended()
        case .didActivate:
            ownCallEnded = false
            lastActivation = (seq, t)
            lastDidActivateAt = t
            if windowAnswered { answeredAt = t }
            callKitWindow = false
            callKitDues = []
            windowAnswered = false
            if interruption == .hold || interruption == .reset { recover() }
            activated(pathUp: true, other: false)
            reactivationWindows = []
        case .didDeactivate:
            pathUp = false
            deactivated()
            if let kind = begins(.callKit(event: event, callId: nil)) { begin(kind, seq, t: t) }
        case .unhold:
            unhold(t: t, seq: seq)
        case .hold, .unlisted:
            break
        }
    }

    var canRecover: Bool { engaged && callIdleOrDisconnected && foreground }

    private mutating func begin(_ kind: Interruption, _ seq: Int, t: Int64) {
        interruptionBegins(kind, seq: seq, t: t)
        interruption = kind
        interruptionSeq = seq
        pending = false
        choice = nil
    }

    mutating func attempt() {
        if pending, canRecover { recover() }
    }

    mutating func recover() {
        recoveries.append((interruption, interruptionSeq))
        interruption = .none
        pending = false
        recoveredNow += 1
    }

    /// The timers due at `t`, in the order they were set within each kind: I3's retries, R15's settling, and
    /// the windows whose "nothing came" finding falls due.
    mutating func fire(at t: Int64) {
        recoveredNow = 0
        recoveries = []
        raised = []
        if t != ms { newMs(t) }
        guard !macOS else { return }
        while let i = retries.firstIndex(where: { $0.due == t }) {
            let retry = retries.remove(at: i)
            guard interruptionSeq == retry.interruption, interruption == .system || interruption == .stale else { continue }
            if pending { attempt() } else if interruption == .system, canRecover { recover() }
            if !recoveries.isEmpty { recovered(t: t, by: retry.callState) }
            recoveries = []
        }
        if flush?.settleDue == t { settle(t: t) }
        windowsDue(t)
    }

    /// The next time a timer of the model falls due.
    var nextDue: Int64? {
        let dues: [Int64?] = [
            retries.map(\.due).min(), flush?.settleDue, pathWindows.map(\.due).min(), deactivationWindows.map(\.due).min(),
            reactivationWindows.map(\.due).min(), callbackWindows.map(\.due).min(), recoveryWindows.map(\.due).min(),
        ]
        return dues.compactMap { $0 }.min()
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
