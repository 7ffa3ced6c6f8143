import Contract
import TraceModel

// The callkit.* findings: the app's own calls through CallKit (I7, I11, I13), in the layer's words.
extension RouteEngine {
    /// I7, first half: the SDK activated the session inside a CallKit window.
    func activatedBeforeDidActivateFinding(_ record: Record, window: CallKitWindow) -> Finding {
        Finding(code: .callkitActivatedBeforeDidActivate, severity: .warning, rule: .I7, seqs: [record.seq, window.actionSeq],
                t: record.t,
                message: "The audio session was activated (seq \(record.seq)) after the CallKit action at seq "
                    + "\(window.actionSeq) and before CallKit's provider(_:didActivate:): the SDK races CallKit, which "
                    + "activates the session itself, and the call may have no audio.",
                advice: "For a call reported through CallKit, configure the audio session but do not activate it; start "
                    + "the \(words.session)'s audio in provider(_:didActivate:).")
    }

    /// I7, second half: no `didActivate` within the recovery window after an answer or start.
    func noDidActivateFinding(_ window: CallKitWindow, t: Int64) -> Finding {
        Finding(code: .callkitNoDidActivate, severity: .error, rule: .I7, seqs: [window.actionSeq], t: t,
                message: "CallKit did not report provider(_:didActivate:) within \(formatDuration(options.recoveryWindowMs)) after "
                    + "the CallKit action at seq \(window.actionSeq): the call has no audio.",
                advice: "Check that the CXAnswerCallAction or CXStartCallAction is fulfilled and that the session is "
                    + "configured (not activated) before it; start the \(words.session)'s audio only in "
                    + "provider(_:didActivate:).")
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
}
