// The triage taxonomy as code: stable, layer-neutral names for what can be wrong with a trace.
import TraceModel

/// A problem class `rtctrace triage` attaches to a trace; the raw value is the tag rows carry.
///
/// Names are stable (queries and `--fail-on` thresholds depend on them) and layer-neutral: the
/// same tag whichever layer recorded the trace. Every finding code and every verdict cause
/// maps to exactly one tag, a column of its row (`FindingCode.info`, `VerdictCause.info`); a few tags
/// come from the trace itself (damage, divergences, sessions).
package enum TriageTag: String, CaseIterable, Sendable, Comparable, CustomStringConvertible {
    // What the input is.
    case unreadable = "unreadable"
    case notATrace = "not-a-trace"
    case damagedTrace = "damaged-trace"
    case recorderDroppedRecords = "recorder-dropped-records"
    case incompleteSession = "incomplete-session"
    case partialSession = "partial-session"
    case duplicateUpload = "duplicate-upload"
    // Route calls that did not take effect in the end (V2), and the causes of every call that waited or failed (V1).
    case routeCallNotTakingEffect = "route-call-not-taking-effect"
    case tookEffectLate = "took-effect-late"
    case routeRequestBeforeCall = "route-request-before-call"
    case routeRequestDuringInterruption = "route-request-during-interruption"
    case routeRequestWhileAudioModuleDisabled = "route-request-while-audio-module-disabled"
    case speakerBlockedByExternalDevice = "speaker-blocked-by-external-device"
    case defaultShadowedByOverride = "default-shadowed-by-override"
    case micDeniedPlaybackOnly = "mic-denied-playback-only"
    case earpieceBlockedByVideoChatMode = "earpiece-blocked-by-videochat-mode"
    case simulatorTrace = "simulator-trace"
    // Expected against actual (X2, X3).
    case routeDivergence = "route-divergence"
    case unexplainedDivergence = "unexplained-divergence"
    // Contract v4.
    case uncertainDivergence = "uncertain-divergence"
    case appRestarted = "app-restarted"
    // Interruptions, resets, CallKit.
    case interruptionNotRecovered = "interruption-not-recovered"
    case prematureReactivation = "premature-reactivation"
    case recoveredWithoutReactivation = "recovered-without-reactivation"
    case interruptionEndNeverArrived = "interruption-end-never-arrived"
    case sessionNotRebuiltAfterReset = "session-not-rebuilt-after-reset"
    case callkitActivationRace = "callkit-activation-race"
    case callkitNoDidActivate = "callkit-no-didactivate"
    // Audio module.
    case audioModuleLeftDisabled = "audio-module-left-disabled"
    case audioModuleDisabledWhileSpeaking = "audio-module-disabled-while-speaking"
    // Audio session configuration and the app's Info.plist.
    case sessionMissingNotifyOthers = "session-missing-notifyothers"
    case sessionMissingAllowBluetooth = "session-missing-allowbluetooth"
    case sessionMissingDefaultToSpeaker = "session-missing-defaulttospeaker"
    case sessionWrongMode = "session-wrong-mode"
    case sessionChangedByOtherComponent = "session-changed-by-other-component"
    case appMissingMicUsageDescription = "app-missing-mic-usage-description"
    case appMissingBackgroundAudio = "app-missing-background-audio"
    // Quality, speakers and simulcast layers.
    case poorNetwork = "poor-network"
    case qualityFlapping = "quality-flapping"
    case qualitySpuriousChange = "quality-spurious-change"
    case qualityMissedChange = "quality-missed-change"
    case activeSpeakersMismatch = "active-speakers-mismatch"
    case layerTargetNotInCandidates = "layer-target-not-in-candidates"
    case layerSwitchOnCDN = "layer-switch-on-cdn"
    case layerSwitchBeforeConnected = "layer-switch-before-connected"
    case layerSwitchNotConfirmed = "layer-switch-not-confirmed"
    case engineLimitExceeded = "engine-limit-exceeded"
    // Contract v3.
    case overrideFlushed = "route-override-flushed"
    case callPathNotUp = "call-path-not-up"
    case sessionNotDeactivated = "session-not-deactivated"
    case interruptionRecoveredEarly = "interruption-recovered-early"
    case interruptionNeverRecovered = "interruption-never-recovered"
    case callkitNoReactivation = "callkit-no-reactivation"
    case callkitBuiltInRouteChosen = "callkit-built-in-route-chosen"
    case noInterruptedCallback = "no-interrupted-callback"
    case noRecoveredCallback = "no-recovered-callback"
    case duplicateRecoveredCallback = "duplicate-recovered-callback"
    case activeSpeakersMissedSnapshot = "active-speakers-missed-snapshot"
    case layerSwitchNotSent = "layer-switch-not-sent"
    case unknownValue = "unknown-value"
    case valueOutOfRange = "value-out-of-range"
    case notIOS = "not-ios"
    case checkpointMismatch = "checkpoint-mismatch"

    /// One row of the tag table beside the name: the definition, and the header fields it reads.
    package struct Info: Sendable {
        /// One line: when a trace gets the tag.
        package let summary: String
        /// The header fields the definition reads: a grouping by one of them implies the tag (every
        /// trace of a simulator's model is a simulator trace), so the tag is never tested for that
        /// grouping (`TriageRegressions`).
        package let reads: Set<HeaderField>

        init(_ summary: String, reads: Set<HeaderField> = []) {
            self.summary = summary
            self.reads = reads
        }
    }

    /// A field of a trace's header a tag's definition can read.
    package enum HeaderField: String, Sendable, CaseIterable {
        /// `device.simulator`: whether the trace comes from a simulator.
        case simulator = "device.simulator"
        /// `device.os`: the OS name and version.
        case os = "device.os"
    }

    /// One line: when a trace gets the tag.
    package var summary: String { info.summary }

    /// The header fields the tag's definition reads.
    package var reads: Set<HeaderField> { info.reads }

    /// The tag as written, e.g. `unexplained-divergence`.
    package var description: String { rawValue }

    /// Taxonomy order (the order of `allCases`): rows list their tags in this order.
    package static func < (a: TriageTag, b: TriageTag) -> Bool { a.order < b.order }

    private var order: Int { Self.allCases.firstIndex(of: self)! }

    /// Whether the tag is about the input rather than its content: its share is taken of all
    /// inputs, while every other tag's share is taken of the readable traces. `damaged-trace` is one:
    /// a file can be damaged and hold nothing to judge (a trace whose header was lost), so its share
    /// of the readable traces alone could pass 100 %.
    package var describesInput: Bool {
        self == .unreadable || self == .notATrace || self == .damagedTrace || self == .duplicateUpload
    }

    /// The tags whose share is taken of all inputs, in taxonomy order, for messages.
    package static var ofAllInputs: [TriageTag] { allCases.filter(\.describesInput) }

    /// Whether a trace gets the tag from what became of its calls (their verdicts and outcomes, V1
    /// and V2), not from a finding: the umbrella tag, `took-effect-late` and every cause's tag.
    package var followsOutcomes: Bool {
        self == .routeCallNotTakingEffect || self == .tookEffectLate || VerdictCause.allCases.contains { $0.tag == self }
    }

    /// The tag's row of the taxonomy: when a trace gets it, and the header fields its definition reads.
    package var info: Info {
        switch self {
        case .unreadable: Info("The file could not be opened or read at all (missing, a folder, no permission); the row's unexplainable says why.")
        case .notATrace: Info("The input holds nothing to judge: an archive, text that is neither zstd frames nor JSON Lines, an empty file, or a trace without a header or records; the row's unexplainable says which.")
        case .damagedTrace: Info("The reader recovered from damage: a torn or corrupt frame, garbage bytes, an invalid record, a seq gap, time going backwards, a misplaced header, a trace its writer never closed, or parts of a session that do not continue each other.")
        case .recorderDroppedRecords: Info("The device-side recorder dropped records (trace.dropped: its queue was full) or recorded nothing for a while (trace.paused: switched off, the volume locked, the disk full, free space low): what happened there is not in the trace, and what the calls, divergences and findings around it say is uncertain; the row's droppedRecords and recorderPauses count them.")
        case .incompleteSession: Info("A part of a recorded session was replayed without the parts before it (or with a part missing in between): the state before it is unknown.")
        case .duplicateUpload: Info("The file's bytes are those of an earlier input of the run (the same upload twice); the row's duplicateOf names it, and the summary counts it once.")
        case .partialSession: Info("Judgement was withheld where the state is unknown: a part replayed without the parts before it and without a checkpoint, or a session with a part missing; the row's partial says why, and no all-clear is given for what is missing.")
        case .routeCallNotTakingEffect: Info("At least one route call did not take effect in the end: its outcome was ineffective, superseded, dropped or still pending (V2); the cause tags below say why.")
        case .tookEffectLate: Info("At least one route call was deferred and took effect later (V2), when the call started or the interruption recovered; its cause tag says why it waited. Not a failure: no umbrella tag for it.")
        case .routeRequestBeforeCall: Info("A route call came before the call started (cause notEngaged, R6): it waits until the call audio path is set up.")
        case .routeRequestDuringInterruption: Info("A route call came during an interruption (cause interrupted): it waits for the recovery.")
        case .routeRequestWhileAudioModuleDisabled: Info("A route call came while the audio module was disabled (cause audioModuleDisabled, R9).")
        case .speakerBlockedByExternalDevice: Info("A route call (the speaker or earpiece button, or a new default) had no audible effect because an external device had the route (cause externalRouteActive, R4, R14): bluetooth, a wired headset, AirPlay, CarPlay, USB audio or another kind; the row's blockingDevices names the kinds.")
        case .defaultShadowedByOverride: Info("A new default route had no effect because a temporary override was set (cause overrideActive, R2).")
        case .micDeniedPlaybackOnly: Info("An earpiece request had no effect because the microphone was denied and the call was playback-only (cause micDenied, R7).")
        case .earpieceBlockedByVideoChatMode: Info("An earpiece request had no effect because the call session was in videoChat mode, which implies defaultToSpeaker (cause videoChatMode, R11).")
        case .simulatorTrace: Info("The trace comes from a simulator (device.simulator or cause simulator, R10): routing results say nothing about a real device.", reads: [.simulator])
        case .routeDivergence: Info("The device played another route than the contract predicts for longer than the tolerance (route.divergence, X2), explained or not.")
        case .unexplainedDivergence: Info("A divergence that no finding explains (X3): the contract predicts one route, the device played another, and nothing recorded says why. The bug to escalate.")
        case .interruptionNotRecovered: Info("The contract recovered from an interruption but the SDK neither reactivated the session nor fired its recovered callback in time (interruption.notRecovered, I3).")
        case .prematureReactivation: Info("The SDK reactivated the session while a system call was still up (interruption.prematureReactivation, I4).")
        case .recoveredWithoutReactivation: Info("The SDK fired its recovered callback without a successful reactivation (interruption.recoveredWithoutActivation, I4).")
        case .interruptionEndNeverArrived: Info("iOS never delivered an interruption's end; the contract recovered without it (interruption.endNeverArrived, I6).")
        case .sessionNotRebuiltAfterReset: Info("The session was not rebuilt after a media services reset (session.notRebuiltAfterReset, I5).")
        case .callkitActivationRace: Info("The SDK activated the session between CallKit's answer or start and didActivate (callkit.activatedBeforeDidActivate, I7).")
        case .callkitNoDidActivate: Info("CallKit never activated the session after an answer or start (callkit.noDidActivate, I7).")
        case .audioModuleLeftDisabled: Info("The audio module was still disabled when the call ended, or at the end of the trace (audioModule.leftDisabled, R9).")
        case .audioModuleDisabledWhileSpeaking: Info("The audio module was disabled while someone was speaking (audioModule.disabledWhileSpeaking, R9).")
        case .sessionMissingNotifyOthers: Info("The session was deactivated without notifyOthers (session.missingNotifyOthers).")
        case .sessionMissingAllowBluetooth: Info("A call session was activated without allowBluetooth in a mode that does not imply it (session.missingAllowBluetooth).")
        case .sessionMissingDefaultToSpeaker: Info("A call session was activated without defaultToSpeaker while the default is the speaker (session.missingDefaultToSpeaker).")
        case .sessionWrongMode: Info("A call session's mode was neither voiceChat nor videoChat (session.wrongMode).")
        case .sessionChangedByOtherComponent: Info("Another component reconfigured the audio session behind the SDK's back (session.changedByOtherComponent, R12).")
        case .appMissingMicUsageDescription: Info("The app's Info.plist lacks NSMicrophoneUsageDescription (app.missingMicUsageDescription).")
        case .appMissingBackgroundAudio: Info("The app went to the background during a call without the audio background mode (app.missingBackgroundAudio).")
        case .poorNetwork: Info("The connection quality was poor or lost for at least a tenth of the time with quality data (Q1).")
        case .qualityFlapping: Info("The quality level changed more often than the flapping threshold (quality.flapping).")
        case .qualitySpuriousChange: Info("The SDK emitted a quality change the engine did not derive (quality.spuriousChange).")
        case .qualityMissedChange: Info("The SDK did not emit a quality change the engine derived (quality.missedChange).")
        case .activeSpeakersMismatch: Info("An active-speaker snapshot the SDK emitted differs from the derived one (speakers.mismatch, S2).")
        case .layerTargetNotInCandidates: Info("A layer switch asked for a layer the subscription does not offer (layer.targetNotInCandidates or cause targetNotInCandidates, L2).")
        case .layerSwitchOnCDN: Info("A layer switch was made on the CDN engine, which does not support it (cause engineNotSupported, L1).")
        case .layerSwitchBeforeConnected: Info("A layer switch was made before the transport was connected (cause transportNotReady, L1).")
        case .layerSwitchNotConfirmed: Info("An accepted layer switch was never confirmed by the server (layer.switchNotConfirmed, L3).")
        case .engineLimitExceeded: Info("An engine limit was reached; results after it are approximate (trace.limitExceeded).")
        case .overrideFlushed: Info("iOS flushed a temporary route at a device change or a recovery, by design (route.overrideFlushed, R15).")
        case .callPathNotUp: Info("The call audio path did not come up after an engagement or a recovery: no playAndRecord activation followed (session.callPathNotUp, R17).")
        case .sessionNotDeactivated: Info("The session was not deactivated after the call: other apps' audio does not resume (session.notDeactivated, R18).")
        case .interruptionRecoveredEarly: Info("The SDK recovered from an interruption in the background, before the documented condition (interruption.recoveredEarly, I8).")
        case .interruptionNeverRecovered: Info("An interruption never ended and nothing recovered it: the call was silent from it on (interruption.neverRecovered, I10).")
        case .callkitNoReactivation: Info("A CallKit call resumed after a hold was never reactivated (callkit.noReactivation, I11).")
        case .callkitBuiltInRouteChosen: Info("CallKit put a call answered on the phone on the built-in route although a bluetooth device was connected (callkit.builtInRouteChosen, I13).")
        case .noInterruptedCallback: Info("The SDK's interrupted callback did not fire for an interruption (interruption.noInterruptedCallback, I14).")
        case .noRecoveredCallback: Info("The SDK's recovered callback did not fire after a recovery that reactivated (interruption.noRecoveredCallback, I14).")
        case .duplicateRecoveredCallback: Info("The SDK's recovered callback fired twice for one recovery (interruption.duplicateRecovered, I14).")
        case .activeSpeakersMissedSnapshot: Info("The SDK skipped an active-speaker snapshot, such as the empty one (speakers.missedSnapshot, S3).")
        case .layerSwitchNotSent: Info("A layer switch failed to send to the server (layer.switchNotSent or cause webrtcError, L4).")
        case .unknownValue: Info("An open field held a value the format does not list (trace.unknownValue, T1).")
        case .valueOutOfRange: Info("A quality or speaker value was outside its documented range (trace.valueOutOfRange, T2).")
        case .notIOS: Info("The trace comes from macOS: the route contract does not apply (device.notIOS, R16).", reads: [.os])
        case .uncertainDivergence: Info("A divergence that no finding explains, open while records were lost (X5: an unreadable frame, a seq gap, a trace.dropped range, a missing part, a restart) or begun from an unknown start state: uncertain, not escalated; the row's divergences.uncertain counts them. Ask for a trace without the loss.")
        case .appRestarted: Info("The app's process ended (a crash or a kill) and a restarted one resumed the session (RS1: a part whose header says resumed); the row's restarts counts them. A call still waiting then was dropped with cause restarted.")
        case .checkpointMismatch: Info("A session part's checkpoint disagrees with the state the earlier parts gave (trace.checkpointMismatch).")
        }
    }
}
