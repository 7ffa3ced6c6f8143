import Contract
import TraceModel

extension RouteEngine {
    /// An external output device that is currently connected (R4).
    public struct ConnectedDevice: Equatable, Sendable {
        /// The system's id for the device.
        public var id: String
        /// Bluetooth or wired headset.
        public var kind: DeviceKind
        /// The name the system gave it, when recorded.
        public var name: String?
        /// The `os.deviceConnected` record that connected it.
        public var seq: Int

        /// Creates a connected device.
        public init(id: String, kind: DeviceKind, name: String? = nil, seq: Int) {
            self.id = id
            self.kind = kind
            self.name = name
            self.seq = seq
        }
    }

    /// An interruption the engine recovered from, waiting for the SDK to confirm it (interruption.notRecovered).
    public struct PendingConfirmation: Equatable, Sendable {
        /// The `os.interruptionBegan` of the interruption.
        public var interruptionSeq: Int
        /// The record whose attempt succeeded (I3).
        public var triggerSeq: Int
        /// When the engine recovered.
        public var recoveredAt: Int64

        /// Creates a pending confirmation.
        public init(interruptionSeq: Int, triggerSeq: Int, recoveredAt: Int64) {
            self.interruptionSeq = interruptionSeq
            self.triggerSeq = triggerSeq
            self.recoveredAt = recoveredAt
        }
    }

    /// A CallKit answer or start action waiting for CallKit's `didActivate` (I7).
    public struct CallKitWindow: Equatable, Sendable {
        /// The `os.callKit` `answer` or `start` record.
        public var actionSeq: Int
        /// When the action was recorded.
        public var t: Int64
        /// Whether `callkit.activatedBeforeDidActivate` was raised for this window (once per window).
        public var raced: Bool

        /// Creates an open window.
        public init(actionSeq: Int, t: Int64, raced: Bool = false) {
            self.actionSeq = actionSeq
            self.t = t
            self.raced = raced
        }
    }

    /// Everything the route engine knows: what the SDK's query API exposes, plus the provenance
    /// (record seqs) that verdicts and findings cite.
    public struct State: Equatable, Sendable {
        /// The product layer, from `trace.header` (`srtc` before a header).
        public var layer: Layer = .srtc
        /// Recorded on a simulator (R10).
        public var simulator = false
        /// Info.plist has NSMicrophoneUsageDescription.
        public var micUsageDescription = true
        /// UIBackgroundModes contains `audio`.
        public var backgroundAudio = true
        /// The persistent default target (R2).
        public var defaultTarget: RouteTarget = .earpiece
        /// The temporary override, if any (R3).
        public var override: RouteTarget?
        /// Whether the call audio path is set up (R6).
        public var engaged = false
        /// Microphone permission as last reported.
        public var micPermission: MicPermission = .undetermined
        /// Connected external devices, in connection order (R4).
        public var devices: [ConnectedDevice] = []
        /// Interrupted and not yet recovered (I1–I3), pending recovery included.
        public var interrupted = false
        /// `os.interruptionEnded` arrived; recovery attempts are being made (I3).
        public var recoveryPending = false
        /// The app is in the foreground.
        public var foreground = true
        /// The system call state as CallKit reports it.
        public var callState: CallState = .idle
        /// The audio module switch (R9).
        public var audioModuleEnabled = true

        /// The `trace.header` record, once seen.
        public var headerSeq: Int?
        /// The record that set the persistent default: the header when it has `initialDefaultRoute`, or an
        /// `api.setDefaultRoute`; nil for the built-in default.
        public var defaultSeq: Int?
        /// The `api.setRoute` that set the current override.
        public var overrideSeq: Int?
        /// The last engagement (`api.joinChannel` / `api.enterMeeting`).
        public var engagedSeq: Int?
        /// The last `api.leaveChannel` / `api.exitMeeting`.
        public var leftSeq: Int?
        /// The last `os.micPermission`.
        public var micPermissionSeq: Int?
        /// The `os.interruptionBegan` of the current (or last) interruption.
        public var interruptionSeq: Int?
        /// The `api.setAudioModuleEnabled(false)` that disabled the module.
        public var audioModuleDisabledSeq: Int?
        /// Whether `audioModule.leftDisabled` was already raised for the current disable.
        public var audioModuleLeftDisabledReported = false
        /// Whether a successful `obs.sessionActivated` followed the last interruption (`nil`: none began yet).
        public var activatedSinceInterruption: Bool?
        /// A recovery the SDK has not yet confirmed (recovery window running).
        public var pendingConfirmation: PendingConfirmation?
        /// The record (or timer trigger) at which the predicted route last changed.
        public var predictionSeq: Int?

        /// The latest successful call-session activation of the current engagement, when its mode is
        /// `videoChat` (R11: the receiver is then unreachable); nil before one, for other modes and after leaving.
        public var videoChatSeq: Int?
        /// The engagement or recovery record that applied the deferred call behind the override (X4); nil when
        /// that call was not deferred, or a timer applied it.
        public var overrideAppliedBy: Int?
        /// The engagement or recovery record that applied the deferred call behind the default (X4).
        public var defaultAppliedBy: Int?
        /// The deferred `api.setRoute` / `api.clearRouteOverride` whose outcome is still pending (V2).
        public var pendingOverrideCall: Int?
        /// The deferred `api.setDefaultRoute` whose outcome is still pending (V2).
        public var pendingDefaultCall: Int?
        /// The `os.mediaServicesReset` whose rebuild is awaited (I5); the path counts as interrupted meanwhile.
        public var resetSeq: Int?
        /// Whether any `obs.sessionActivated` record appeared so far: a recorder that captures none is not an
        /// SDK that never activates (I5).
        public var activationsRecorded = false
        /// Whether a system call was up at some point during the current interruption (I6).
        public var callUpDuringInterruption = false
        /// When the last system call that was up during the current interruption ended (I6).
        public var callEndedAt: Int64?
        /// CallKit actions still waiting for `didActivate` (I7), oldest first.
        public var callKitWindows: [CallKitWindow] = []
        /// Whether `trace.limitExceeded` was raised for the connected-device limit.
        public var deviceLimitReported = false

        /// Creates the initial state (contract: "A trace starts with …").
        public init() {}

        /// Effective target = override ?? default (R2).
        public var effectiveTarget: RouteTarget { override ?? defaultTarget }

        /// The external device that currently has the route: the most recently connected one (R4, R5).
        public var activeDevice: ConnectedDevice? { devices.last }

        /// Whether an external device is connected (and so has the route).
        public var isExternalRouteActive: Bool { !devices.isEmpty }

        /// The predicted route (R8); `nil` means no prediction.
        public var predictedRoute: Route? {
            if interrupted || !audioModuleEnabled { return nil }
            if let device = activeDevice { return device.kind.route }
            if !engaged || simulator || micPermission == .denied || videoChatSeq != nil { return .speaker }
            return effectiveTarget.route
        }

        /// Why the prediction is what it is (X4): the branch of R8 and the record behind it; nil while there
        /// is no prediction.
        public var predictionSource: PredictionSource? {
            if interrupted || !audioModuleEnabled { return nil }
            if let device = activeDevice { return PredictionSource(rule: .R4, seq: device.seq) }
            if !engaged { return PredictionSource(rule: .R6, seq: nil) }
            if simulator { return PredictionSource(rule: .R10, seq: headerSeq ?? 0) }
            if micPermission == .denied { return PredictionSource(rule: .R7, seq: micPermissionSeq) }
            if effectiveTarget == .earpiece, let videoChatSeq { return PredictionSource(rule: .R11, seq: videoChatSeq) }
            if override != nil { return PredictionSource(rule: .R2, seq: overrideSeq, appliedBy: overrideAppliedBy) }
            return PredictionSource(rule: .R2, seq: defaultSeq, appliedBy: defaultAppliedBy)
        }

        /// Whether recovery conditions hold now (I2).
        public var canRecover: Bool {
            engaged && (callState == .idle || callState == .disconnected) && foreground
        }
    }
}

// The SDK's query API, by the names the documents use (SRTC `AudioRouteSession`, SMeeting `SMeetingEngine`).
extension RouteEngine.State {
    /// SRTC `currentRoute`: the predicted five-state route.
    public var currentRoute: Route? { predictedRoute }
    /// SRTC `effectiveRouteTarget`.
    public var effectiveRouteTarget: RouteTarget { effectiveTarget }
    /// SRTC `routeOverride`.
    public var routeOverride: RouteTarget? { override }
    /// SRTC `isEngaged`.
    public var isEngaged: Bool { engaged }
    /// SMeeting `currentAudioRoute`.
    public var currentAudioRoute: Route? { predictedRoute }
    /// SMeeting `effectiveAudioRouteTarget`.
    public var effectiveAudioRouteTarget: RouteTarget { effectiveTarget }
    /// SMeeting `audioRouteOverride`.
    public var audioRouteOverride: RouteTarget? { override }
    /// SMeeting `isExternalAudioRouteActive`.
    public var isExternalAudioRouteActive: Bool { isExternalRouteActive }
    /// SMeeting `isAudioSessionActive`.
    public var isAudioSessionActive: Bool { engaged }
    /// SMeeting `isAudioModuleEnabled`.
    public var isAudioModuleEnabled: Bool { audioModuleEnabled }
    /// SMeeting `audioCallState`.
    public var audioCallState: CallState { callState }
    /// SRTC `isBluetoothAvailable`.
    public var isBluetoothAvailable: Bool { devices.contains { $0.kind == .bluetooth } }
    /// SRTC `isHeadsetAvailable`.
    public var isHeadsetAvailable: Bool { devices.contains { $0.kind == .headset } }
}
