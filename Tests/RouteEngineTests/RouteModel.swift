import Contract
import RouteEngine
import TraceModel

/// A second reading of the route contract, written from contract.md for the property tests and sharing no
/// code with the engine: what decides R8's prediction (R2–R4, R6, R7, R9–R11, R13, R14, R16, R19, the
/// interruptions of I1, I3, I5, I6, I8, I9 and I11, I12's window and I13's choice) and V1's verdict. R15 is
/// not modelled: a flush is taken from the engine's finding, and a restore from a settle timer that puts
/// back the override flushed.
struct RouteModel {
    enum Interruption: Equatable { case none, system, stale, reset, hold }

    struct Device: Equatable {
        var id: String
        var kind: DeviceKind
        var seq: Int
    }

    /// The verdict V1 gives a route call: kind, cause and the record behind the cause.
    struct ExpectedVerdict: Equatable {
        var kind: VerdictKind
        var cause: VerdictCause?
        var causeSeq: Int?
    }

    var retryDelay: Int64 = 2000
    var matchWindow: Int64 = 1000

    var macOS = false, simulator = false
    var defaultTarget: RouteTarget = .earpiece, defaultSeq: Int?
    var override: RouteTarget?, overrideSeq: Int?
    var flushed: (target: RouteTarget, seq: Int?)?
    var engaged = false, leftSeq: Int?
    var moduleEnabled = true, moduleDisabledSeq: Int?
    var mic: MicPermission = .undetermined, micSeq: Int?
    var devices: [Device] = []
    var session: (seq: Int, videoChat: Bool, airPlay: Bool)?
    // Interruptions.
    var interruption = Interruption.none, interruptionSeq: Int?
    var pending = false, callUpDuring = false, callEndedAt: Int64?
    var callUp = false, callIdleOrDisconnected = true, foreground = true
    var retries: [(due: Int64, interruption: Int)] = []
    var ownCallEnded = false
    // CallKit.
    var callKitWindow = false, windowAnswered = false, answeredAt: Int64?
    var choice: (route: Route?, seq: Int)?
    var lastReading: (route: Route, seq: Int)?
    /// Recoveries the model made at the last step.
    var recoveredNow = 0

    var interrupted: Bool { interruption != .none }

    // MARK: R8 and V1

    func canTakeRoute(_ kind: DeviceKind) -> Bool {
        if case .airplay = kind { return !engaged || (session?.airPlay ?? false) }
        return true
    }

    /// R4 with R14: the latest connected device that can take the route; none under iOS's choice (I13).
    var routeDevice: Device? { choice != nil ? nil : devices.last { canTakeRoute($0.kind) } }

    func fiveState(_ kind: DeviceKind) -> Route? {
        switch kind {
        case .bluetooth: .bluetooth
        case .headset: .headset
        case .airplay, .carAudio, .unlisted: nil
        }
    }

    /// R8 (v3), in its order; `window` is I12's (verdicts read R8 without it).
    func predicted(window: Bool = true) -> Route? {
        if macOS || interrupted || !moduleEnabled || (window && callKitWindow) { return nil }
        if let route = choice?.route { return route }
        if !engaged { return nil }
        if let device = routeDevice { return fiveState(device.kind) }
        if simulator || mic == .denied || session?.videoChat == true { return .speaker }
        return (override ?? defaultTarget) == .speaker ? .speaker : .receiver
    }

    /// X4's rule for the prediction (nil while there is none).
    var predictedBy: RuleID? {
        guard predicted() != nil else { return nil }
        if choice?.route != nil { return .I13 }
        if routeDevice != nil { return .R4 }
        if simulator { return .R10 }
        if mic == .denied { return .R7 }
        if (override ?? defaultTarget) == .earpiece, session?.videoChat == true { return .R11 }
        return .R2
    }

    /// V1 on the state before the call; `apply` makes the change afterwards.
    func verdict(for body: RecordBody) -> ExpectedVerdict {
        var after = self
        let isDefault: Bool
        switch body {
        case .setDefaultRoute(let target):
            isDefault = true
            if target == defaultTarget { return ExpectedVerdict(kind: .noop) }
            after.defaultTarget = target
        case .setRoute(let target, _):
            isDefault = false
            if target == override { return ExpectedVerdict(kind: .noop) }
            after.override = target
        default:
            isDefault = false
            if override == nil { return ExpectedVerdict(kind: .noop) }
            after.override = nil
        }
        if choice != nil { after.choice?.route = nil }
        let earpiece = (after.override ?? after.defaultTarget) == .earpiece
        let causes: [(Bool, VerdictCause, Int?)] = [
            (!engaged, .notEngaged, leftSeq), (interrupted, .interrupted, interruptionSeq),
            (!moduleEnabled, .audioModuleDisabled, moduleDisabledSeq),
            (after.routeDevice != nil, .externalRouteActive, after.routeDevice?.seq),
            (isDefault && override != nil, .overrideActive, overrideSeq),
            (earpiece && simulator, .simulator, 0), (earpiece && mic == .denied, .micDenied, micSeq),
            (earpiece && session?.videoChat == true, .videoChatMode, session?.seq),
        ]
        if let (_, cause, seq) = causes.first(where: { $0.0 }) {
            return ExpectedVerdict(kind: cause == .notEngaged || cause == .interrupted ? .deferred : .ineffective, cause: cause, causeSeq: seq)
        }
        return ExpectedVerdict(kind: after.predicted(window: false) != predicted(window: false) ? .applied : .noop)
    }

    // MARK: Records

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
            session = nil
            if engaged { begin(.reset, seq) }
        case .callKit(let event, _):
            callKit(event, seq: seq, t: t)
        case .sessionActivated(let a):
            guard a.ok else { break }
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
            callKitWindow = true
            if event == .answer { windowAnswered = true }
        case .end:
            ownCallEnded = true
            callKitWindow = false
            windowAnswered = false
            choice = nil
        case .didActivate:
            ownCallEnded = false
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
