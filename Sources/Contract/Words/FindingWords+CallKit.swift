import TraceModel

// The callkit.* findings' sentences: the app's own calls through CallKit (I7, I11, I13).
extension FindingWords {
    /// `callkit.activatedBeforeDidActivate` (I7): the SDK activated the session at `seq` inside the CallKit
    /// window the action at `actionSeq` opened.
    package static func activatedBeforeDidActivate(seq: Int, actionSeq: Int, _ words: LayerWords) -> FindingSentences {
        FindingSentences(
            message: "The audio session was activated (seq \(seq)) after the CallKit action at seq "
                + "\(actionSeq) and before CallKit's provider(_:didActivate:): the SDK races CallKit, which "
                + "activates the session itself, and the call may have no audio.",
            advice: "For a call reported through CallKit, configure the audio session but do not activate it; start "
                + "the \(words.session)'s audio in provider(_:didActivate:).")
    }

    /// `callkit.noDidActivate` (I7): no `didActivate` within `window` after the action at `actionSeq`.
    package static func noDidActivate(actionSeq: Int, window: Int64, _ words: LayerWords) -> FindingSentences {
        FindingSentences(
            message: "CallKit did not report provider(_:didActivate:) within \(formatDuration(window)) after "
                + "the CallKit action at seq \(actionSeq): the call has no audio.",
            advice: "Check that the CXAnswerCallAction or CXStartCallAction is fulfilled and that the session is "
                + "configured (not activated) before it; start the \(words.session)'s audio only in "
                + "provider(_:didActivate:).")
    }

    /// `callkit.noReactivation` (I11): the call held at `holdSeq` and resumed at `unholdSeq` was not reactivated within `window`.
    package static func noReactivation(holdSeq: Int, unholdSeq: Int, window: Int64, _ words: LayerWords) -> FindingSentences {
        FindingSentences(
            message: "The call was held by CallKit (didDeactivate at seq \(holdSeq)) and resumed by the \(words.participant) (unhold at seq "
                + "\(unholdSeq)), but no didActivate followed within \(formatDuration(window)): the call stays silent.",
            advice: "Fulfil the CXSetHeldCallAction and let CallKit reactivate the session; start audio again only in "
                + "provider(_:didActivate:).")
    }

    /// `callkit.builtInRouteChosen` (I13): the answered call on `route` (`seq`) while the device at `deviceSeq` is connected.
    package static func builtInRouteChosen(route: Route, seq: Int, deviceSeq: Int, _ words: LayerWords) -> FindingSentences {
        FindingSentences(
            message: "The call answered through CallKit is on the \(route.rawValue) (seq \(seq)) although a "
                + "bluetooth device is connected (seq \(deviceSeq)): iOS picks the built-in route for a call answered on the "
                + "phone's screen. This is not a divergence; until the next route call the prediction follows iOS's choice.",
            advice: "Nothing to fix: let the \(words.participant) pick the device with AVRoutePickerView, or route to it "
                + "explicitly after provider(_:didActivate:).")
    }
}
