// What each rule of the contract says: its section, title and summary (docs/contract.md).
import TraceModel

extension RuleID {
    /// The section of the contract the rule belongs to.
    public var section: String {
        switch self {
        case .R1, .R2, .R3, .R4, .R5, .R6, .R7, .R8, .R9, .R10, .R11, .R12: "Route engine"
        case .I1, .I2, .I3, .I4, .I5, .I6, .I7: "Interruptions, resets and CallKit"
        case .V1, .V2: "Verdicts and outcomes of calls"
        case .X1, .X2, .X3, .X4: "Expected against actual"
        case .Q1, .Q2, .Q3, .Q4, .Q5, .Q6: "Quality engine"
        case .S1, .S2: "Active speakers"
        case .L1, .L2, .L3: "Simulcast layers"
        }
    }

    /// A short title.
    public var title: String {
        switch self {
        case .R1: "Targets are speaker and earpiece"
        case .R2: "Effective target = override ?? default"
        case .R3: "Default, override and clearing"
        case .R4: "External devices win"
        case .R5: "Unplugging falls back"
        case .R6: "Engagement sets up the call audio path"
        case .R7: "A denied microphone removes the earpiece"
        case .R8: "The predicted route"
        case .R9: "The audio module switch"
        case .R10: "Simulator traces"
        case .R11: "Chat modes imply category options"
        case .R12: "Another component reconfigured the session"
        case .I1: "An interruption while engaged"
        case .I2: "Recovery conditions"
        case .I3: "Recovery attempts"
        case .I4: "Premature reactivation"
        case .I5: "Media services reset"
        case .I6: "An interruption end that never comes"
        case .I7: "CallKit owns activation"
        case .V1: "The verdict on a call"
        case .V2: "The outcome of a call"
        case .X1: "Predicted and actual routes are step functions"
        case .X2: "A divergence"
        case .X3: "Explained and unexplained divergences"
        case .X4: "Why the prediction is what it is"
        case .Q1: "Evaluation of a quality report"
        case .Q2: "Level changes"
        case .Q3: "getConnectionQuality()"
        case .Q4: "A reconnect clears quality and speakers"
        case .Q5: "The CDN engine has no quality events"
        case .Q6: "Attribution of bad quality"
        case .S1: "Speaker updates merge"
        case .S2: "Speaker snapshots are sorted"
        case .L1: "switchLayer throws"
        case .L2: "Targets outside the candidates"
        case .L3: "Switches are confirmed"
        }
    }

    /// One paragraph: what the rule says.
    public var summary: String {
        switch self {
        case .R1: "An app can only ask for the speaker or the earpiece. No call asks for bluetooth or a wired headset; those are chosen by connecting them."
        case .R2: "The effective target is the temporary override if one is set, else the persistent default. The default starts as the header's initialDefaultRoute, else earpiece."
        case .R3: "setDefaultRoute changes the persistent default at any time, setRoute sets the temporary override and clearRouteOverride drops it. setAudioRoute, setSpeakerOutputEnabled and setSpeakerOutputPreferred are one mechanism (true = speaker, false = earpiece)."
        case .R4: "While any external device is connected, the route is the most recently connected one still connected; connecting one switches to it (newDeviceAvailable). No route call can take the output back from it."
        case .R5: "Disconnecting the active external device falls to the most recently connected remaining one, else to the effective target (oldDeviceUnavailable). The override survives plugging and unplugging."
        case .R6: "Joining a channel or entering a meeting sets up the call audio path and keeps it until leaving or exiting. Before that, a route request is only recorded and applied when the path is set up. Leaving drops the override and keeps the default."
        case .R7: "With the microphone denied at or after engagement the SDK runs in playback-only mode: remote audio plays, the earpiece is unavailable, and an earpiece target yields the speaker."
        case .R8: "In order: interrupted or audio module disabled → no prediction; an external device → that device; not engaged, simulator or microphone denied → speaker; videoChat mode → speaker (R11); else the effective target (earpiece → receiver)."
        case .R9: "setAudioModuleEnabled(false) stops call audio both ways until re-enabled; every engagement re-enables it."
        case .R10: "A simulator has no earpiece and no bluetooth route: earpiece requests are ineffective, and routing must be verified on a real device."
        case .R11: "iOS applies allowBluetooth in mode voiceChat, and allowBluetooth plus defaultToSpeaker in videoChat. So missing options are reported only outside those modes, and while the call session is in videoChat the receiver is unreachable: the prediction is speaker and an earpiece request is ineffective (videoChatMode)."
        case .R12: "While engaged and not interrupted, a route change for a category change or an override, away from the predicted route, with no SDK or system record in the match window before it, means another component reconfigured the audio session behind the SDK's back."
        case .I1: "An interruption that begins while engaged interrupts the call path; the SDK should fire its interrupted callback. Leaving or exiting ends any interruption state."
        case .I2: "The end of an interruption does not recover by itself: recovery needs the path engaged, no system call up (idle or disconnected) and the app in the foreground."
        case .I3: "After the end, recovery is attempted at the end itself, at every return to the foreground and D ms after a system call disconnects; the first attempt whose conditions hold recovers, re-applies the route, and the recovered callback is due once."
        case .I4: "Reactivating while a system call is still up is bound to fail; firing the recovered callback without a successful activation since the interruption is a defect."
        case .I5: "A media services reset while engaged destroys the session's configuration: it is an interruption that ends only at the SDK's next successful activation (or CallKit's didActivate), which must come within the recovery window."
        case .I6: "iOS does not guarantee the end of an interruption. When it is still missing at I3's retry after a system call, or when the app returns to the foreground with no system call up (or one that ended at least D ms before), and recovery is possible, the path recovers as if it had ended."
        case .I7: "For a call reported through CallKit, CallKit activates the audio session and says so with didActivate. Activating before it races CallKit; an answer or start with no didActivate within the recovery window leaves the call without audio."
        case .V1: "Every route call gets one verdict when replayed: noop if it changes no state, else the first cause that holds (notEngaged, interrupted → deferred; audioModuleDisabled, externalRouteActive, overrideActive, simulator, micDenied, videoChatMode → ineffective), else applied when the predicted route changed."
        case .V2: "Every route call also gets an outcome: its verdict when decided at the call, while a deferred call stays pending until it is applied at engagement or recovery (applied or ineffective), superseded by a later call, dropped by a leave or exit, or the trace ends."
        case .X1: "The predicted route is a step function of time (R8); the actual route is the step function of the observed route changes and snapshots."
        case .X2: "A divergence is an interval longer than the tolerance during which a prediction exists, the actual route is known and they differ; it counts from the moment it has lasted longer than the tolerance, once per interval."
        case .X3: "A divergence is explained when a finding accounts for it; otherwise it is unexplained: the device did something the contract cannot explain. That is the bug to escalate."
        case .X4: "A divergence names the branch of R8 that gave its predicted route (R4, R6, R7, R10, R11 or R2) and the record behind it, with the engagement or recovery that applied a deferred call."
        case .Q1: "Each server report is evaluated as the worse of the publish and subscribe levels and the smaller of their MOS."
        case .Q2: "A level change is emitted only when the overall level differs from the baseline, carrying the baseline as previous; the baseline starts unknown."
        case .Q3: "getConnectionQuality() is null until the first report, then the latest evaluation, which may be unknown (not null)."
        case .Q4: "A reconnect (connected after reconnecting) clears the latest evaluation, the baseline and the speaker snapshot."
        case .Q5: "On the CDN engine there are no quality, speaker or layer events, getConnectionQuality() is null and switchLayer throws engineNotSupported."
        case .Q6: "A poor or lost publish side is the user's own uplink; a poor or lost subscribe side is the downlink or the remote side's uplink."
        case .S1: "Server speaker updates merge into the full set of who is speaking, keyed by uid and track id; a later entry updates the level."
        case .S2: "After every update the engine emits the full snapshot sorted by level, highest first (ties by uid, then track id), empty when nobody speaks."
        case .L1: "switchLayer throws engineNotSupported on the CDN engine, else transportNotReady while the transport is not connected."
        case .L2: "A target outside the layers declared by the matching subscribe raises no error, but the server will not switch: ineffective (targetNotInCandidates)."
        case .L3: "An accepted switch should be confirmed by a server layer switch with reason client within the layer timeout."
        }
    }
}
