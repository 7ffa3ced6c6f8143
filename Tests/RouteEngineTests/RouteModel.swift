import TraceModel

/// A second reading of the route contract, written from contract.md for the property tests and sharing no
/// code with the engine: what decides R8's prediction (R2–R4, R6, R7, R9–R11, R13, R14, R16, R19, the
/// interruptions of I1, I3, I5, I6, I8, I9 and I11, I12's window and I13's choice, with v3's same-ms rule for
/// I5's rebuild and I7's window), V1's verdict, R15's flush windows (RouteModel+Flush.swift) and when the
/// window findings of R17, R18, I10, I11 and I14 fall due (RouteModel+Windows.swift). The model keeps its own
/// timers (`nextDue`, `fire(at:)`): nothing is taken from the engine's outputs.
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

    /// A finding the model expects, with the record it names (the one the property test's `modelledKey` reads
    /// from the engine's finding).
    struct ModelFinding: Equatable, Comparable, CustomStringConvertible {
        var code: FindingCode
        var t: Int64
        var seq: Int?
        static func < (a: Self, b: Self) -> Bool {
            (a.t, a.code.rawValue, a.seq ?? -1) < (b.t, b.code.rawValue, b.seq ?? -1)
        }
        var description: String { "\(code.rawValue)@\(t)" + (seq.map { "[\($0)]" } ?? "") }
    }

    var retryDelay: Int64 = 2000
    var matchWindow: Int64 = 1000
    var tolerance: Int64 = 500
    var recoveryWindow: Int64 = 5000

    var macOS = false, simulator = false
    var defaultTarget: RouteTarget = .earpiece, defaultSeq: Int?
    var override: RouteTarget?, overrideSeq: Int?
    var engaged = false, leftSeq: Int?
    var moduleEnabled = true, moduleDisabledSeq: Int?
    var mic: MicPermission = .undetermined, micSeq: Int?
    var devices: [Device] = []
    var session: (seq: Int, videoChat: Bool, airPlay: Bool)?
    // Interruptions.
    var interruption = Interruption.none, interruptionSeq: Int?
    var pending = false, callUpDuring = false, callEndedAt: Int64?
    var callUp = false, callIdleOrDisconnected = true, foreground = true
    var retries: [(due: Int64, interruption: Int, callState: Int)] = []
    var ownCallEnded = false
    // CallKit.
    var callKitWindow = false, windowAnswered = false, answeredAt: Int64?
    /// I7's windows (the CallKit windows R17 reads): when each falls due, unless a didActivate or end closes it.
    var callKitDues: [Int64] = []
    // The same ms (v3) for I5's rebuild and I7's window.
    var lastActivation: (seq: Int, t: Int64)?, lastDidActivateAt: Int64?
    var choice: (route: Route?, seq: Int)?
    var lastReading: (route: Route, seq: Int)?
    /// Recoveries the model made at the last step.
    var recoveredNow = 0
    /// The interruptions that recovered while the current record or timer was applied (kind, its record).
    var recoveries: [(kind: Interruption, seq: Int?)] = []

    // R15 (RouteModel+Flush.swift).
    var flush: FlushWindow?
    var overrideChangedWhileInterrupted = false
    /// How often each branch of R15 and of the windows' same-ms rule was taken (the sessions must reach them).
    var reached: [String: Int] = [:]
    // The same ms (v3): what the records of the current ms did before the one being applied.
    var ms: Int64 = -1
    var msReadings: [(route: Route, seq: Int)] = []
    var msPathUp = false, msOtherActivation = false, msActivated = false, msDeactivated = false
    var msUnusedInterrupted = 0
    var msRecovered = 0
    var msRecoveredWhileInterrupted: [Int] = []
    // R17, R18, I10, I11, I14 (RouteModel+Windows.swift).
    var pathUp = false
    var seenActivation = false, seenDeactivation = false, seenInterruptedCallback = false, seenRecoveredCallback = false
    var pathWindows: [PathWindow] = []
    var deactivationWindows: [Window] = []
    var stretchStart: (seq: Int, t: Int64)?
    var hold: (seq: Int, obligationEnded: Bool)?
    var reactivationReported: Set<Int> = []
    var reactivationWindows: [Window] = []
    var callbackWindows: [Window] = []
    var heldInterrupted: [Int] = []
    var recoveryWindows: [RecoveryWindow] = []
    var heldRecovered: [Int] = []
    /// I14 (c): the recovered callbacks since the latest recovery (none checked after a hold), and whether the
    /// duplicate was raised.
    var epoch: (count: Int, reported: Bool)?
    /// The findings of the last step.
    var raised: [ModelFinding] = []

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
}
