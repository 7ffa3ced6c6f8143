import Contract
import TraceModel

extension RouteEngine {
    /// An external output device that is currently connected (R4).
    package struct ConnectedDevice: Equatable, Sendable {
        /// The system's id for the device.
        package var id: String
        /// Bluetooth or wired headset.
        package var kind: DeviceKind
        /// The name the system gave it, when recorded.
        package var name: String?
        /// The `os.deviceConnected` record that connected it.
        package var seq: Int

        /// Creates a connected device.
        package init(id: String, kind: DeviceKind, name: String? = nil, seq: Int) {
            self.id = id
            self.kind = kind
            self.name = name
            self.seq = seq
        }
    }

    /// An interruption the engine recovered from, waiting for the SDK to confirm it (interruption.notRecovered).
    package struct PendingConfirmation: Equatable, Sendable {
        /// The `os.interruptionBegan` of the interruption.
        package var interruptionSeq: Int
        /// The record whose attempt succeeded (I3).
        package var triggerSeq: Int
        /// When the engine recovered.
        package var recoveredAt: Int64

        /// Creates a pending confirmation.
        package init(interruptionSeq: Int, triggerSeq: Int, recoveredAt: Int64) {
            self.interruptionSeq = interruptionSeq
            self.triggerSeq = triggerSeq
            self.recoveredAt = recoveredAt
        }
    }

    /// A CallKit answer or start action waiting for CallKit's `didActivate` (I7).
    package struct CallKitWindow: Equatable, Sendable {
        /// The `os.callKit` `answer` or `start` record.
        package var actionSeq: Int
        /// When the action was recorded.
        package var t: Int64
        /// Whether `callkit.activatedBeforeDidActivate` was raised for this window (once per window).
        package var raced: Bool
        /// Whether the action was an `answer` (I13 reads only answered calls).
        package var answered: Bool

        /// Creates an open window.
        package init(actionSeq: Int, t: Int64, raced: Bool = false, answered: Bool = false) {
            self.actionSeq = actionSeq
            self.t = t
            self.raced = raced
            self.answered = answered
        }
    }

    /// The call session that is up (R19): the configuration of the latest successful `playAndRecord`
    /// activation, until a successful deactivation, an activation in another category or a reset.
    package struct CallSession: Equatable, Sendable {
        /// The `obs.sessionActivated` record.
        package var seq: Int
        /// Its mode.
        package var mode: String?
        /// Whether it allows AirPlay: mode `videoChat` or option `allowAirPlay` (R14).
        package var allowsAirPlay: Bool
        /// Whether it raised `session.missingAllowBluetooth` (X3 reads it).
        package var missingAllowBluetooth: Bool
        /// Whether it raised `session.missingDefaultToSpeaker` (X3 reads it).
        package var missingDefaultToSpeaker: Bool

        /// Creates a call session.
        package init(seq: Int, mode: String?, allowsAirPlay: Bool, missingAllowBluetooth: Bool = false,
                    missingDefaultToSpeaker: Bool = false) {
            self.seq = seq
            self.mode = mode
            self.allowsAirPlay = allowsAirPlay
            self.missingAllowBluetooth = missingAllowBluetooth
            self.missingDefaultToSpeaker = missingDefaultToSpeaker
        }

        /// Whether the session is in `videoChat` mode (R11).
        package var isVideoChat: Bool { mode == "videoChat" }
    }

    /// What kind of interruption is open: each recovers its own way.
    package enum InterruptionKind: Equatable, Sendable {
        /// I1: `os.interruptionBegan` while engaged.
        case system
        /// I9: a stale interruption (wasSuspended, appWasSuspended), already ended when it arrives.
        case stale
        /// I5: a media services reset.
        case reset
        /// I11: a CallKit hold (`didDeactivate` while engaged).
        case hold
    }

    /// iOS's route choice for a call answered through CallKit (I13): from the reading that showed it,
    /// the connected devices do not have the route; until the next route call the prediction is the
    /// route iOS chose (`route`, nil after that call).
    package struct CallKitChoice: Equatable, Sendable {
        /// The route iOS chose, while it is in force.
        package var route: Route?
        /// The reading that showed it.
        package var readingSeq: Int
        /// Creates a choice.
        package init(route: Route?, readingSeq: Int) {
            self.route = route
            self.readingSeq = readingSeq
        }
    }

    /// What the records of a part begun with an unknown state have told of it. The state is known again
    /// when both are known: whether the call is up (an engagement or a leave) and which external device,
    /// if any, has the route (an `obs.routeSnapshot` listing its ports that shows the built-in speaker or
    /// receiver, or the route of a device the part has connected). An engagement alone leaves the devices
    /// unknown, a snapshot alone leaves the engagement unknown.
    package struct StartStateLearnt: Equatable, Sendable {
        /// The engagement or leave that told whether the call is up.
        package var engagement: Int?
        /// The route snapshot that told which external device, if any, has the route.
        package var devices: Int?
        /// Nothing learnt yet.
        package init() {}
    }

    /// Everything the route engine knows: what the SDK's query API exposes, plus the provenance
    /// (record seqs) that verdicts and findings cite.
    @usableFromInline package struct State: Equatable, Sendable {
        /// The product layer, from `trace.header` (`srtc` before a header).
        package var layer: Layer = .srtc
        /// Recorded on a simulator (R10).
        package var simulator = false
        /// Info.plist has NSMicrophoneUsageDescription.
        package var micUsageDescription = true
        /// UIBackgroundModes contains `audio`.
        package var backgroundAudio = true
        /// The persistent default target (R2).
        package var defaultTarget: RouteTarget = .earpiece
        /// The temporary override, if any (R3).
        package var override: RouteTarget?
        /// Whether the call audio path is set up (R6).
        package var engaged = false
        /// Microphone permission as last reported.
        package var micPermission: MicPermission = .undetermined
        /// Connected external devices, in connection order (R4).
        package var devices: [ConnectedDevice] = []
        /// Interrupted and not yet recovered (I1–I3), pending recovery included.
        package var interrupted = false
        /// `os.interruptionEnded` arrived; recovery attempts are being made (I3).
        package var recoveryPending = false
        /// The app is in the foreground.
        package var foreground = true
        /// The system call state as CallKit reports it.
        package var callState: CallState = .idle
        /// The audio module switch (R9).
        package var audioModuleEnabled = true

        /// The `trace.header` record, once seen.
        package var headerSeq: Int?
        /// The record that set the persistent default: the header when it has `initialDefaultRoute`, or an
        /// `api.setDefaultRoute`; nil for the built-in default.
        package var defaultSeq: Int?
        /// The `api.setRoute` that set the current override.
        package var overrideSeq: Int?
        /// The last engagement (`api.joinChannel` / `api.enterMeeting`).
        package var engagedSeq: Int?
        /// The last `api.leaveChannel` / `api.exitMeeting`.
        package var leftSeq: Int?
        /// The last `os.micPermission`.
        package var micPermissionSeq: Int?
        /// The `os.interruptionBegan` of the current (or last) interruption.
        package var interruptionSeq: Int?
        /// The `api.setAudioModuleEnabled(false)` that disabled the module.
        package var audioModuleDisabledSeq: Int?
        /// Whether `audioModule.leftDisabled` was already raised for the current disable.
        package var audioModuleLeftDisabledReported = false
        /// Whether a successful `obs.sessionActivated` followed the last interruption (`nil`: none began yet).
        package var activatedSinceInterruption: Bool?
        /// A recovery the SDK has not yet confirmed (recovery window running).
        package var pendingConfirmation: PendingConfirmation?
        /// The record (or timer trigger) at which the predicted route last changed.
        package var predictionSeq: Int?

        /// The call session that is up (R19): it decides R11's mode and R14's AirPlay.
        package var callSession: CallSession?
        /// A macOS trace: the route contract does not apply (R16).
        package var macOS = false
        /// What kind of interruption is open (nil while not interrupted).
        package var interruptionKind: InterruptionKind?
        /// From a CallKit `answer` or `start` until the next `didActivate` or `end`: CallKit owns activation
        /// and nothing is predicted (I12); the action's record.
        package var callKitActionSeq: Int?
        /// iOS's built-in route choice for a call answered through CallKit (I13).
        package var callKitChoice: CallKitChoice?
        /// The `os.callKit` `end` of the app's own call, with no `answer`, `start` or `didActivate` since:
        /// a `didDeactivate` now is not a hold (I11).
        package var ownCallEnded = false
        /// Whether the call audio path is up (R17): of the records that change it, the latest was a
        /// successful `playAndRecord` activation or a `didActivate`.
        package var callPathUp = false
        /// The device's route as last read (`obs.routeChanged`, `obs.routeSnapshot`), with the reading.
        package var lastReading: RouteReading?
        /// The engagement or recovery record that applied the deferred call behind the override (X4); nil when
        /// that call was not deferred, or a timer applied it.
        package var overrideAppliedBy: Int?
        /// The engagement or recovery record that applied the deferred call behind the default (X4).
        package var defaultAppliedBy: Int?
        /// The deferred `api.setRoute` / `api.clearRouteOverride` whose outcome is still pending (V2).
        package var pendingOverrideCall: Int?
        /// The deferred `api.setDefaultRoute` whose outcome is still pending (V2).
        package var pendingDefaultCall: Int?
        /// The `os.mediaServicesReset` whose rebuild is awaited (I5); the path counts as interrupted meanwhile.
        package var resetSeq: Int?
        /// Whether any `obs.sessionActivated` record appeared so far: a recorder that captures none is not an
        /// SDK that never activates (I5).
        package var activationsRecorded = false
        /// Whether a system call was up at some point during the current interruption (I6).
        package var callUpDuringInterruption = false
        /// When the last system call that was up during the current interruption ended (I6).
        package var callEndedAt: Int64?
        /// CallKit actions still waiting for `didActivate` (I7), oldest first.
        package var callKitWindows: [CallKitWindow] = []
        /// Whether `trace.limitExceeded` was raised for the connected-device limit.
        package var deviceLimitReported = false
        /// The state before the part is unknown (a part replayed without the parts before it and without a
        /// checkpoint): no verdict is derived from it until it is known again, when the part's records have
        /// told both whether the call is up and which external device, if any, has the route (or a
        /// checkpoint has told everything).
        package var startStateUnknown = false
        /// While the state before the part is unknown: what the part's records have told of it so far.
        package var startStateLearnt = StartStateLearnt()

        /// Creates the initial state (contract: "A trace starts with …").
        package init() {}

        /// Effective target = override ?? default (R2).
        package var effectiveTarget: RouteTarget { override ?? defaultTarget }

        /// The external device that currently has the route: the most recently connected one (R4, R5).
        package var activeDevice: ConnectedDevice? { devices.last }

        /// The call session that is up, when it is in `videoChat` mode (R11: the receiver is then unreachable).
        package var videoChatSeq: Int? { callSession?.isVideoChat == true ? callSession?.seq : nil }

        /// Whether a connected device can take the route now (R14): an AirPlay output only while not
        /// engaged, or while the call session that is up allows AirPlay; every other kind always can.
        package func canTakeRoute(_ device: ConnectedDevice) -> Bool {
            guard Self.isAirPlay(device.kind), engaged else { return true }
            return callSession?.allowsAirPlay ?? false
        }

        /// The external device that has the route (R4 with R14): the most recently connected one that can
        /// take it; none while iOS's CallKit choice is in force (I13).
        package var routeDevice: ConnectedDevice? { routeDeviceIndex.map { devices[$0] } }

        /// Where `routeDevice` is in `devices`: the prediction reads the device where it lies, not a copy.
        var routeDeviceIndex: Int? {
            guard callKitChoice == nil else { return nil }
            var i = devices.count
            while i > 0 {
                i -= 1
                if canTakeRoute(devices[i]) { return i }
            }
            return nil
        }

        /// Whether an external device has the route (R4 with R14): V1's `externalRouteActive`.
        package var isExternalRouteActive: Bool { routeDevice != nil }

        /// The predicted route (R8 as restated in v3); `nil` means no prediction.
        package var predictedRoute: Route? { predicted(override: override, callKitWindow: callKitActionSeq != nil) }

        /// R8 with `override` in place of the current one (R15's O and N) and with or without I12's CallKit
        /// window (verdicts and outcomes are computed without it).
        package func predicted(override: RouteTarget?, callKitWindow: Bool) -> Route? {
            if macOS || interrupted || !audioModuleEnabled || callKitWindow { return nil }
            if let chosen = callKitChoice?.route { return chosen }
            if !engaged { return nil }
            if let i = routeDeviceIndex { return devices[i].kind.route }
            if simulator || micDenied || callSession?.isVideoChat == true { return .speaker }
            return (override ?? defaultTarget).route
        }

        /// Why the prediction is what it is (X4 as restated in v3): the branch of R8 and the record behind it;
        /// nil while there is no prediction.
        package var predictionSource: PredictionSource? {
            if macOS || interrupted || !audioModuleEnabled || callKitActionSeq != nil { return nil }
            if let choice = callKitChoice, choice.route != nil { return PredictionSource(rule: .I13, seq: choice.readingSeq) }
            if !engaged { return nil }
            if let i = routeDeviceIndex { return devices[i].kind.route == nil ? nil : PredictionSource(rule: .R4, seq: devices[i].seq) }
            if simulator { return PredictionSource(rule: .R10, seq: headerSeq ?? 0) }
            if micDenied { return PredictionSource(rule: .R7, seq: micPermissionSeq) }
            if effectiveTarget == .earpiece, let session = callSession, session.isVideoChat { return PredictionSource(rule: .R11, seq: session.seq) }
            if override != nil { return PredictionSource(rule: .R2, seq: overrideSeq, appliedBy: overrideAppliedBy) }
            return PredictionSource(rule: .R2, seq: defaultSeq, appliedBy: defaultAppliedBy)
        }

        /// Whether recovery conditions hold now (I2).
        package var canRecover: Bool {
            engaged && (callState == .idle || callState == .disconnected) && foreground
        }
    }

    /// A reading of the device's route (`obs.routeChanged` or `obs.routeSnapshot`).
    package struct RouteReading: Equatable, Sendable {
        /// The route read.
        package var route: Route
        /// When.
        package var t: Int64
        /// The reading record.
        package var seq: Int
        /// Creates a reading.
        package init(route: Route, t: Int64, seq: Int) {
            self.route = route
            self.t = t
            self.seq = seq
        }
    }
}
