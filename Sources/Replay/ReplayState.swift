import Contract
import QualityEngine
import RouteEngine
import TraceModel

/// A field of the replay state that the `replay` timeline, the report lanes and the Chrome export follow.
package enum StateField: String, CaseIterable, Sendable {
    case predictedRoute, actualRoute, effectiveTarget, override
    case defaultTarget = "default"
    case engaged, interrupted, recoveryPending, audioModule, mic, callState, app, devices, quality, transport, speakers
}

/// The replay state after a step, typed: what renderers read instead of parsing text.
///
/// Set-valued state (connected devices, active speakers) is kept as a count and its first
/// `StateSnapshot.listed` members, so that a step's snapshot costs the same however large the set is.
package struct StateSnapshot: Equatable, Sendable {
    /// Members of a set listed in a snapshot; the count says how many there are in all.
    package static let listed = 8

    /// The engine's predicted route (R8); nil: no prediction.
    package var predictedRoute: Route?
    /// The device's route as last observed; nil: not known yet.
    package var actualRoute: Route?
    /// Override ?? default (R2).
    package var effectiveTarget: RouteTarget
    /// The temporary override.
    package var override: RouteTarget?
    /// The persistent default.
    package var defaultTarget: RouteTarget
    /// Whether the call audio path is set up (R6).
    package var engaged: Bool
    /// Interrupted and not yet recovered (I1, I5).
    package var interrupted: Bool
    /// The interruption has ended and recovery attempts are being made (I3): a state of its own, so a
    /// timeline shows when it started.
    package var recoveryPending: Bool
    /// The audio module switch (R9).
    package var audioModuleEnabled: Bool
    /// Microphone permission.
    package var mic: MicPermission
    /// The system call state.
    package var callState: CallState
    /// The app is in the foreground.
    package var foreground: Bool
    /// Connected external devices, in connection order: the first `listed`.
    package var devices: [RouteEngine.ConnectedDevice]
    /// All connected external devices.
    package var deviceCount: Int
    /// The device that has the route (the most recently connected).
    package var activeDevice: RouteEngine.ConnectedDevice?
    /// `getConnectionQuality()`'s overall level; nil: null.
    package var quality: QualityLevel?
    /// The signalling transport.
    package var transport: ConnState
    /// The active-speaker snapshot (S2): the first `listed`, in order.
    package var speakers: [SpeakerKey]
    /// All active speakers.
    package var speakerCount: Int

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
    package func changes(from before: StateSnapshot) -> [StateField] {
        StateField.allCases.filter { text($0) != before.text($0) }
    }

    /// A field's value as the timeline prints it (`null` for none; sets as their listed members and a count).
    package func text(_ field: StateField) -> String {
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
