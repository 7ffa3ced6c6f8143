import TraceModel

// The quality.*, speakers.* and layer.* findings' sentences: the connection-quality level (Q2), the
// active speakers (S2, S3) and simulcast layers (L2, L3, L4).
extension FindingWords {
    /// A level change: `previous` → `overall` at `seq`, at `t`.
    package typealias LevelChange = (previous: QualityLevel, overall: QualityLevel, seq: Int, t: Int64)

    /// `quality.spuriousChange` (Q2): the SDK's change `previous` → `overall` at `seq` that no report within
    /// `window` derives; `last` the last derived change, if any.
    package static func spuriousChange(_ part: FindingProse, previous: QualityLevel, overall: QualityLevel, seq: Int, window: Int64,
                                       last: LevelChange?, product: String) -> String {
        switch part {
        case .message:
            var message = "The SDK emitted a connection-quality change \(previous.rawValue) → \(overall.rawValue) "
                + "(seq \(seq)) that the contract does not derive: no srv.qualityReport in the preceding "
                + "\(formatDuration(window)) moved the level from \(previous.rawValue) to \(overall.rawValue)."
            if let last {
                message += " The last derived change was \(last.previous.rawValue) → \(last.overall.rawValue) "
                    + "at seq \(last.seq) (at \(formatDuration(last.t)))."
            } else {
                message += " No level change had been derived yet."
            }
            return message
        case .advice:
            return "Keep driving \"poor network\" prompts and downgrades from didChangeConnectionQuality, never "
                + "from raw didReceiveQualityReport values; this change does not follow the server's reports, so "
                + "send this trace to the \(product) SDK team."
        }
    }

    /// `quality.missedChange` (Q2): the derived `change` the SDK did not emit within `window`.
    package static func missedChange(_ part: FindingProse, _ change: LevelChange, window: Int64, product: String) -> String {
        switch part {
        case .message:
            let tail = "but the SDK emitted no matching sdk.qualityChanged within \(formatDuration(window))."
            return "The server's reports moved the connection quality from \(change.previous.rawValue) to "
                + "\(change.overall.rawValue) at seq \(change.seq) (at \(formatDuration(change.t))), " + tail
        case .advice:
            return "A \"poor network\" prompt driven by didChangeConnectionQuality did not update here. Keep "
                + "driving prompts from didChangeConnectionQuality rather than raw reports, read "
                + "getConnectionQuality() when a screen opens, and send this trace to the \(product) SDK team."
        }
    }

    /// `quality.flapping` (Q2): `levels` changes from `first` to `last` (seq, t), more than `changes` within `window`.
    package static func flapping(levels: [QualityLevel], first: (seq: Int, t: Int64), last: (seq: Int, t: Int64), changes: Int,
                                 window: Int64, _ words: LayerWords) -> FindingSentences {
        let path = levels.map(\.rawValue).joined(separator: " → ")
        return FindingSentences(
            message: "The connection-quality level changed \(levels.count) times within "
                + "\(formatDuration(last.t - first.t)) (seq \(first.seq) to \(last.seq)): \(path); more than "
                + "\(changes) changes within \(formatDuration(window)) is flapping.",
            advice: "The \(words.participant)'s network is unstable around a level threshold. Each change is a "
                + "genuine didChangeConnectionQuality event, so a prompt shown on every poor/lost change will "
                + "flash: add hysteresis before prompting (e.g. show when 3 of the last 5 reports are poor or "
                + "lost, hide only after 10 s without that) and avoid flip-flopping layer downgrades.")
    }

    /// `speakers.mismatch` (S2): the SDK's snapshot at `seq` against the one derived from the updates up to `derivedSeq`.
    package static func speakersMismatch(observed: [Speaker], derived: [Speaker], seq: Int, derivedSeq: Int?,
                                         _ words: LayerWords) -> FindingSentences {
        let source = derivedSeq.map { "from the srv.speakers updates up to seq \($0)" }
            ?? "(no srv.speakers update since the start or the last reconnect)"
        return FindingSentences(
            message: "The SDK's active-speaker snapshot at seq \(seq) lists \(speakerKeys(observed)), but the "
                + "contract derives \(speakerKeys(derived)) \(source) (uid/trackId, loudest first).",
            advice: "Overwrite the speaker highlight from each didChangeActiveSpeakers snapshot as a whole (it is "
                + "already merged and sorted, loudest first) rather than tracking who speaks in the app; this "
                + "snapshot disagrees with the server's updates, so send this trace to the \(words.product) SDK team.")
    }

    /// `speakers.missedSnapshot` (S3)'s message: the snapshot of `count` speakers the update at `seq` derives, not
    /// emitted within `window`; phrased as bytes into one buffer (`Phrase`), since a stressed session's report
    /// phrases thousands.
    package static func missedSnapshotMessage(seq: Int, t: Int64, count: Int, window: Int64) -> String {
        let (snapshot, n): (StaticString, Int?) = count == 0
            ? ("an empty active-speaker snapshot (nobody speaks)", nil) : ("an active-speaker snapshot of ", count)
        let message: Phrase = """
            The srv.speakers update at seq \(seq) (at \(duration: t)) derives \(snapshot)\(ifAny: n), \
            but the SDK emitted no sdk.activeSpeakers for it within \(duration: window).
            """
        return message.string
    }

    /// `speakers.missedSnapshot`'s advice, the same for every one of a trace's: its engine phrases it once.
    package static func missedSnapshotAdvice(participant: String, product: String) -> String {
        """
        didChangeActiveSpeakers fires after every server update, an empty array when nobody speaks; \
        a UI that waits for it keeps highlighting a \(participant) who stopped. Send this trace to the \(product) SDK team.
        """
    }

    /// `layer.targetNotInCandidates` (L2): `call` at `seq` asks for a layer outside `layers`, declared at `subscribeSeq`.
    package static func targetNotInCandidates(call: String, seq: Int, layers: [String], subscribeSeq: Int,
                                              _ words: LayerWords) -> FindingSentences {
        FindingSentences(
            message: "\(call) at seq \(seq) asks for a layer outside the candidates "
                + "[\(layers.joined(separator: ", "))] declared by api.subscribe at seq "
                + "\(subscribeSeq); the SDK does not validate it and the server will not switch.",
            advice: "Pick targetTrackId from the layers declared when subscribing to this \(words.participant)'s "
                + "video, and check which layer the server actually serves (didSwitchLayer reports every switch) "
                + "instead of assuming the call took effect.")
    }

    /// `layer.switchNotConfirmed` (L3): `call` at `seq`, to `target`, not confirmed within `timeout`.
    package static func switchNotConfirmed(call: String, seq: Int, target: String, timeout: Int64, _ words: LayerWords) -> FindingSentences {
        let tail = "no srv.layerSwitched (reason client) to \(target) followed within "
            + "\(formatDuration(timeout))."
        return FindingSentences(
            message: "\(call) at seq \(seq) was accepted, but " + tail,
            advice: "Do not assume the layer changed because the call returned: wait for didSwitchLayer with "
                + "reason client, and request the layer again once the \(words.session) transport is stable if "
                + "the server kept switching on its own (bwe_down / bwe_up).")
    }

    /// `layer.switchNotSent` (L4): `call` at `callSeq`, whose send failed `after` later with `error` at `errorSeq`.
    package static func switchNotSent(call: String, callSeq: Int, after: Int64, error: String, errorSeq: Int,
                                      _ words: LayerWords) -> FindingSentences {
        FindingSentences(
            message: "\(call) at seq \(callSeq) was accepted, but sending it failed \(formatDuration(after)) later "
                + "(sdk.error \(TextCap.clip(error)) at seq \(errorSeq)): the request never reached the server, so the layer did not change.",
            advice: "Handle SRTCError.webrtcError thrown by switchLayer: keep showing the layer the server serves "
                + "(didSwitchLayer), and request the switch again once the \(words.session) transport is back.")
    }

    /// The `switchLayer` call a layer finding cites.
    package static func layerCall(pubUid: String, trackId: String, target: String) -> String {
        "switchLayer(pubUid: \"\(pubUid)\", trackId: \"\(trackId)\", targetTrackId: \"\(target)\")"
    }

    /// At most 8 keys, so a message stays readable.
    static func speakerKeys(_ speakers: [Speaker]) -> String {
        let shown = speakers.prefix(8).map { "\($0.uid)/\($0.trackId)" }
        let more = speakers.count > 8 ? ", … (\(speakers.count) in all)" : ""
        return "[" + shown.joined(separator: ", ") + more + "]"
    }
}
