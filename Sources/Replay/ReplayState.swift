import Contract
import QualityEngine
import RouteEngine
import TraceModel

/// A field of the replay state that the `replay` timeline, the report lanes and the Chrome export follow.
public enum StateField: String, CaseIterable, Sendable {
    case predictedRoute, actualRoute, effectiveTarget, override
    case defaultTarget = "default"
    case engaged, interrupted, recoveryPending, audioModule, mic, callState, app, devices, quality, transport, speakers
}

/// The replay state after a step, typed: what renderers read instead of parsing text.
///
/// Set-valued state (connected devices, active speakers) is kept as a count and its first
/// `StateSnapshot.listed` members, so that a step's snapshot costs the same however large the set is.
public struct StateSnapshot: Equatable, Sendable {
    /// Members of a set listed in a snapshot; the count says how many there are in all.
    public static let listed = 8

    /// The engine's predicted route (R8); nil: no prediction.
    public var predictedRoute: Route?
    /// The device's route as last observed; nil: not known yet.
    public var actualRoute: Route?
    /// Override ?? default (R2).
    public var effectiveTarget: RouteTarget
    /// The temporary override.
    public var override: RouteTarget?
    /// The persistent default.
    public var defaultTarget: RouteTarget
    /// Whether the call audio path is set up (R6).
    public var engaged: Bool
    /// Interrupted and not yet recovered (I1, I5).
    public var interrupted: Bool
    /// The interruption has ended and recovery attempts are being made (I3): a state of its own, so a
    /// timeline shows when it started.
    public var recoveryPending: Bool
    /// The audio module switch (R9).
    public var audioModuleEnabled: Bool
    /// Microphone permission.
    public var mic: MicPermission
    /// The system call state.
    public var callState: CallState
    /// The app is in the foreground.
    public var foreground: Bool
    /// Connected external devices, in connection order: the first `listed`.
    public var devices: [RouteEngine.ConnectedDevice]
    /// All connected external devices.
    public var deviceCount: Int
    /// The device that has the route (the most recently connected).
    public var activeDevice: RouteEngine.ConnectedDevice?
    /// `getConnectionQuality()`'s overall level; nil: null.
    public var quality: QualityLevel?
    /// The signalling transport.
    public var transport: ConnState
    /// The active-speaker snapshot (S2): the first `listed`, in order.
    public var speakers: [SpeakerKey]
    /// All active speakers.
    public var speakerCount: Int

    /// The state of both engines and the actual route now.
    init(route r: RouteEngine.State, quality q: QualityEngine.State, actual: Route?) {
        predictedRoute = r.predictedRoute
        actualRoute = actual
        effectiveTarget = r.effectiveTarget
        override = r.override
        defaultTarget = r.defaultTarget
        engaged = r.engaged
        interrupted = r.interrupted
        recoveryPending = r.recoveryPending
        audioModuleEnabled = r.audioModuleEnabled
        mic = r.micPermission
        callState = r.callState
        foreground = r.foreground
        devices = Array(r.devices.prefix(Self.listed))
        deviceCount = r.devices.count
        activeDevice = r.activeDevice
        quality = q.latest?.overall
        transport = q.transport
        speakers = q.speakers.prefix(Self.listed).map(\.key)
        speakerCount = q.speakers.count
    }

    /// The fields whose value differs from `before`, in `StateField` order.
    public func changes(from before: StateSnapshot) -> [StateField] {
        StateField.allCases.filter { text($0) != before.text($0) }
    }

    /// A field's value as the timeline prints it (`null` for none; sets as their listed members and a count).
    public func text(_ field: StateField) -> String {
        switch field {
        case .predictedRoute: predictedRoute?.rawValue ?? "null"
        case .actualRoute: actualRoute?.rawValue ?? "null"
        case .effectiveTarget: effectiveTarget.rawValue
        case .override: override?.rawValue ?? "null"
        case .defaultTarget: defaultTarget.rawValue
        case .engaged: "\(engaged)"
        case .interrupted: "\(interrupted)"
        case .recoveryPending: "\(recoveryPending)"
        case .audioModule: audioModuleEnabled ? "enabled" : "disabled"
        case .mic: mic.rawValue
        case .callState: callState.rawValue
        case .app: foreground ? "foreground" : "background"
        case .devices:
            devices.map { "\($0.kind.rawValue):\(TextCap.clip($0.id))" }.joined(separator: ",")
                + (deviceCount > devices.count ? " (+\(deviceCount - devices.count) more)" : "")
        case .quality: quality?.rawValue ?? "null"
        case .transport: transport.rawValue
        case .speakers: "\(speakerCount)"
        }
    }
}
