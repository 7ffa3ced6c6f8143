import Contract
import TraceModel

// The findings of contract v3 (no false escalation, no silent failure), in the layer's words.
extension RouteEngine {
    private var words: LayerWords { LayerWords(state.layer) }

    /// R16: a macOS trace.
    func notIOSFinding(_ record: Record, os: String) -> Finding {
        Finding(code: .deviceNotIOS, severity: .info, rule: .R16, seqs: [record.seq], t: record.t,
                message: "The header names \(TextCap.clip(os)): AudioRouteSession exists only on iOS, so the route contract "
                    + "is not applied to this trace (no predicted route, no verdict on route calls, no route divergence).",
                advice: "On macOS the app selects the output device itself, with \(words.product == "SRTC" ? "setOutputDevice(_:)" : "setAudioOutput(deviceId:)"); "
                    + "check its device list rather than route calls.")
    }

    /// R15: iOS flushed the temporary setting.
    func overrideFlushedFinding(_ window: FlushWindow, reading: RouteReading, target: RouteTarget, callSeq: Int?, t: Int64) -> Finding {
        let call = callSeq.map { " set by seq \($0)" } ?? ""
        return Finding(code: .routeOverrideFlushed, severity: .info, rule: .R15,
                       seqs: [reading.seq, window.openedBy] + (callSeq.map { [$0] } ?? []), t: t,
                       message: "iOS flushed the temporary route (\(target.rawValue)\(call)) at the change that seq \(window.openedBy) "
                           + "started: the device settled on \(reading.route.rawValue) (seq \(reading.seq)), the route without the "
                           + "override. The documents say temporary settings are overridden by system behaviour by design; "
                           + "the prediction follows the persistent default from here.",
                       advice: "This is by design: set defaultAudioRoute for a lasting choice, and re-apply the temporary route "
                           + "after a device change or an interruption if the \(words.participant) should keep it.")
    }

    /// R17: the call path did not come up.
    func callPathNotUpFinding(_ window: CallPathWindow, t: Int64) -> Finding {
        let after = window.afterRecovery ? "the recovery at seq \(window.seq)" : "the app \(words.joined) the \(words.session) (seq \(window.seq))"
        let why: String
        if let other = window.otherCategory {
            why = "the session was activated in category \(TextCap.clip(other)), which gives no receiver and no microphone"
        } else if let error = window.lastError {
            why = "the activation failed with \(TextCap.clip(error))"
        } else {
            why = "no activation came"
        }
        return Finding(code: .sessionCallPathNotUp, severity: .error, rule: .R17, seqs: [window.seq], t: t,
                       message: "No successful playAndRecord activation (or CallKit didActivate) came within "
                           + "\(formatDuration(options.recoveryWindowMs)) after \(after): \(why). The call has no call audio path.",
                       advice: "Activate the audio session in category playAndRecord when the call starts and after every "
                           + "recovery; retry a failed activation (cannotInterruptOthers, insufficientPriority) once the other "
                           + "audio stops, and never reactivate a call in playback.")
    }

    /// R18: the session was not deactivated at the leave or exit.
    func notDeactivatedFinding(_ window: DeactivationWindow, t: Int64) -> Finding {
        let failed = window.lastError.map { "; the deactivation failed with \(TextCap.clip($0))" } ?? ""
        return Finding(code: .sessionNotDeactivated, severity: .warning, rule: .R18, seqs: [window.seq], t: t,
                       message: "The app \(words.left) the \(words.session) (seq \(window.seq)), but no successful deactivation of the "
                           + "audio session followed within \(formatDuration(options.recoveryWindowMs))\(failed): other apps' audio does not resume.",
                       advice: "Stop audio I/O, then deactivate with setActive(false, options: .notifyOthersOnDeactivation) when the "
                           + "app \(words.leave)s the \(words.session); retry when it fails with isBusy.")
    }

    /// I8: the SDK recovered while the app was in the background.
    func recoveredEarlyFinding(_ record: Record, interruptionSeq: Int) -> Finding {
        Finding(code: .interruptionRecoveredEarly, severity: .info, rule: .I8, seqs: [record.seq, interruptionSeq], t: record.t,
                message: "The SDK activated its call session again (seq \(record.seq)) while the app was in the background, "
                    + "recovering from the interruption that began at seq \(interruptionSeq) before the documented condition "
                    + "(the app in the foreground) held. Audio is back.",
                advice: "Nothing to fix for the call; recover in the foreground if the app must follow the documented order.")
    }

    /// I10: an interruption that never ended.
    func neverRecoveredFinding(beganSeq: Int, beganAt: Int64, endSeq: Int?, t: Int64, end: TraceEnd = .end) -> Finding {
        let until = endSeq.map { "when the app \(words.left) the \(words.session) (seq \($0))" } ?? end.phrase
        return Finding(code: .interruptionNeverRecovered, severity: .error, rule: .I10, seqs: [beganSeq] + (endSeq.map { [$0] } ?? []), t: t,
                       message: "The interruption that began at seq \(beganSeq) (at \(formatDuration(beganAt))) was still open \(until), "
                           + "\(formatDuration(t - beganAt)) later, with no system call up and the app in the foreground: no end came "
                           + "and nothing recovered it, so the call had no audio from the interruption on.",
                       advice: "Do not wait for the interruption's end alone: reactivate the session when the app is in the "
                           + "foreground and no system call is up, then fire \(words.recoveredCallback).")
    }

    /// I11: a held CallKit call that CallKit did not reactivate after the user resumed it.
    func noReactivationFinding(holdSeq: Int, unholdSeq: Int, t: Int64) -> Finding {
        Finding(code: .callkitNoReactivation, severity: .error, rule: .I11, seqs: [unholdSeq, holdSeq], t: t,
                message: "The call was held by CallKit (didDeactivate at seq \(holdSeq)) and resumed by the \(words.participant) (unhold at seq "
                    + "\(unholdSeq)), but no didActivate followed within \(formatDuration(options.recoveryWindowMs)): the call stays silent.",
                advice: "Fulfil the CXSetHeldCallAction and let CallKit reactivate the session; start audio again only in "
                    + "provider(_:didActivate:).")
    }

    /// I13: CallKit put an answered call on the built-in route.
    func builtInRouteChosenFinding(reading: RouteReading, device: ConnectedDevice, t: Int64) -> Finding {
        Finding(code: .callkitBuiltInRouteChosen, severity: .info, rule: .I13, seqs: [reading.seq, device.seq], t: t,
                message: "The call answered through CallKit is on the \(reading.route.rawValue) (seq \(reading.seq)) although a "
                    + "bluetooth device is connected (seq \(device.seq)): iOS picks the built-in route for a call answered on the "
                    + "phone's screen. This is not a divergence; until the next route call the prediction follows iOS's choice.",
                advice: "Nothing to fix: let the \(words.participant) pick the device with AVRoutePickerView, or route to it "
                    + "explicitly after provider(_:didActivate:).")
    }

    /// I14 (a): no interrupted callback.
    func noInterruptedCallbackFinding(interruptionSeq: Int, at began: Int64, t: Int64) -> Finding {
        Finding(code: .interruptionNoInterruptedCallback, severity: .warning, rule: .I14, seqs: [interruptionSeq], t: t,
                message: "The interruption at seq \(interruptionSeq) (at \(formatDuration(began))) was not followed by the SDK's "
                    + "interrupted callback (sdk.interrupted) within \(formatDuration(options.matchWindowMs)).",
                advice: "Fire the interrupted callback for every interruption that begins while the call is up (a system call, "
                    + "Siri, another app), so the UI shows that audio stopped.")
    }

    /// I14 (b): no recovered callback after a recovery that reactivated.
    func noRecoveredCallbackFinding(_ window: CallbackWindow, t: Int64) -> Finding {
        Finding(code: .interruptionNoRecoveredCallback, severity: .warning, rule: .I14,
                seqs: (window.triggerSeq.map { [$0] } ?? []) + [window.interruptionSeq], t: t,
                message: "The session was activated again after the recovery at \(formatDuration(window.t)), but the SDK's "
                    + "recovered callback (\(words.recoveredCallback)) did not fire within \(formatDuration(options.recoveryWindowMs)): "
                    + "the UI is never refreshed.",
                advice: "Fire \(words.recoveredCallback) once the reactivation succeeds.")
    }

    /// I14 (c): a second recovered callback for one recovery.
    func duplicateRecoveredFinding(seq: Int, t: Int64) -> Finding {
        Finding(code: .interruptionDuplicateRecovered, severity: .warning, rule: .I14, seqs: [seq], t: t,
                message: "The SDK's recovered callback fired again (seq \(seq)) for one recovery, before another "
                    + "interruption began; the documents say it fires once.",
                advice: "Fire \(words.recoveredCallback) exactly once per recovery.")
    }

    /// T1: an open field held a value the format does not list.
    func unknownValueFinding(_ record: Record, field: String, value: String) -> Finding {
        Finding(code: .traceUnknownValue, severity: .warning, rule: .T1, seqs: [record.seq], t: record.t,
                message: "\(field) is \"\(TextCap.clip(value))\" at seq \(record.seq), a value this version does not list; the "
                    + "record is kept and read as the contract says for values it does not list.",
                advice: field == "os.deviceConnected.kind" && SystemVocabulary.portTypes.contains(value)
                    // A port type the system names: the recorder's mapping kept it as the kind, not a newer iOS.
                    ? "Nothing to fix in the app: \"\(TextCap.clip(value))\" is a port type iOS names, which the recorder's "
                        + "port-to-kind mapping kept as the kind; map it to a kind the format lists (or keep it and read it as an "
                        + "external device of that kind, R14)."
                    : "Nothing to fix in the app: a newer iOS value was recorded as it is.")
    }
}
