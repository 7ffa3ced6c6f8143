// The quality engine's findings, worded in the trace's layer (SRTC: channel/join/leave/user;
// SMeeting: meeting/enter/exit/member). Prose never mixes the two.
import Contract
import TraceModel

/// Builds the engine's findings: codes, rules, severities, messages and advice.
struct QualityFindings {
    let words: LayerWords
    let options: QualityEngine.Options

    init(layer: Layer, options: QualityEngine.Options) {
        self.words = LayerWords(layer)
        self.options = options
    }

    func spurious(previous: QualityLevel, overall: QualityLevel, seq: Int, t: Int64,
                  lastDerived: QualityEngine.LevelChange?) -> Finding {
        let window = options.matchWindowMs, product = words.product
        return Finding(code: .qualitySpuriousChange, severity: .warning, rule: .Q2,
                       seqs: lastDerived.map { [seq, $0.seq] } ?? [seq], t: t) { part in
            switch part {
            case .message:
                var message = "The SDK emitted a connection-quality change \(previous.rawValue) → \(overall.rawValue) "
                    + "(seq \(seq)) that the contract does not derive: no srv.qualityReport in the preceding "
                    + "\(formatDuration(window)) moved the level from \(previous.rawValue) to \(overall.rawValue)."
                if let last = lastDerived {
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
    }

    func missed(_ change: QualityEngine.LevelChange, t: Int64) -> Finding {
        let window = options.matchWindowMs, product = words.product
        return Finding(code: .qualityMissedChange, severity: .warning, rule: .Q2, seqs: [change.seq], t: t) { part in
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
    }

    func flapping(_ marks: [QualityEngine.ChangeMark]) -> Finding {
        let first = marks.first!, last = marks.last!
        let path = marks.map(\.overall.rawValue).joined(separator: " → ")
        return Finding(
            code: .qualityFlapping, severity: .warning, rule: .Q2,
            seqs: [last.seq] + marks.dropLast().map(\.seq), t: last.t,
            message: "The connection-quality level changed \(marks.count) times within "
                + "\(formatDuration(last.t - first.t)) (seq \(first.seq) to \(last.seq)): \(path); more than "
                + "\(options.flappingChanges) changes within \(formatDuration(options.flappingWindowMs)) is flapping.",
            advice: "The \(words.participant)'s network is unstable around a level threshold. Each change is a "
                + "genuine didChangeConnectionQuality event, so a prompt shown on every poor/lost change will "
                + "flash: add hysteresis before prompting (e.g. show when 3 of the last 5 reports are poor or "
                + "lost, hide only after 10 s without that) and avoid flip-flopping layer downgrades.")
    }

    func speakersMismatch(observed: [Speaker], derived: [Speaker], seq: Int, derivedSeq: Int?,
                          t: Int64) -> Finding {
        let source = derivedSeq.map { "from the srv.speakers updates up to seq \($0)" }
            ?? "(no srv.speakers update since the start or the last reconnect)"
        return Finding(
            code: .speakersMismatch, severity: .warning, rule: .S2, seqs: [seq] + (derivedSeq.map { [$0] } ?? []),
            t: t,
            message: "The SDK's active-speaker snapshot at seq \(seq) lists \(Self.keys(observed)), but the "
                + "contract derives \(Self.keys(derived)) \(source) (uid/trackId, loudest first).",
            advice: "Overwrite the speaker highlight from each didChangeActiveSpeakers snapshot as a whole (it is "
                + "already merged and sorted, loudest first) rather than tracking who speaks in the app; this "
                + "snapshot disagrees with the server's updates, so send this trace to the \(words.product) SDK team.")
    }

    func targetNotInCandidates(key: QualityEngine.TrackKey, target: String, seq: Int, t: Int64,
                               subscription: QualityEngine.Subscription) -> Finding {
        Finding(
            code: .layerTargetNotInCandidates, severity: .warning, rule: .L2, seqs: [seq, subscription.seq], t: t,
            message: "\(Self.call(key, target)) at seq \(seq) asks for a layer outside the candidates "
                + "[\(subscription.layers.joined(separator: ", "))] declared by api.subscribe at seq "
                + "\(subscription.seq); the SDK does not validate it and the server will not switch.",
            advice: "Pick targetTrackId from the layers declared when subscribing to this \(words.participant)'s "
                + "video, and check which layer the server actually serves (didSwitchLayer reports every switch) "
                + "instead of assuming the call took effect.",
            call: seq)
    }

    func switchNotConfirmed(_ pending: QualityEngine.PendingSwitch, t: Int64) -> Finding {
        let tail = "no srv.layerSwitched (reason client) to \(pending.target) followed within "
            + "\(formatDuration(options.layerConfirmTimeoutMs))."
        return Finding(
            code: .layerSwitchNotConfirmed, severity: .warning, rule: .L3, seqs: [pending.seq], t: t,
            message: "\(Self.call(pending.key, pending.target)) at seq \(pending.seq) was accepted, but " + tail,
            advice: "Do not assume the layer changed because the call returned: wait for didSwitchLayer with "
                + "reason client, and request the layer again once the \(words.session) transport is stable if "
                + "the server kept switching on its own (bwe_down / bwe_up).")
    }

    /// L4: an accepted switch whose send on the signalling channel failed.
    func switchNotSent(callSeq: Int, callT: Int64, pending: QualityEngine.PendingSwitch?, errorSeq: Int, error: String,
                       t: Int64) -> Finding {
        let call = pending.map { Self.call($0.key, $0.target) } ?? "switchLayer"
        return Finding(
            code: .layerSwitchNotSent, severity: .warning, rule: .L4, seqs: [errorSeq, callSeq], t: t,
            message: "\(call) at seq \(callSeq) was accepted, but sending it failed \(formatDuration(t - callT)) later "
                + "(sdk.error \(TextCap.clip(error)) at seq \(errorSeq)): the request never reached the server, so the layer did not change.",
            advice: "Handle SRTCError.webrtcError thrown by switchLayer: keep showing the layer the server serves "
                + "(didSwitchLayer), and request the switch again once the \(words.session) transport is back.",
            call: callSeq)
    }

    /// S3: a derived active-speaker snapshot the SDK did not emit.
    func missedSnapshot(_ s: QualityEngine.DerivedSnapshot, t: Int64) -> Finding {
        let window = options.matchWindowMs, participant = words.participant, product = words.product
        return Finding(code: .speakersMissedSnapshot, severity: .warning, rule: .S3, seqs: [s.seq], t: t) { part in
            switch part {
            case .message:
                "The srv.speakers update at seq \(s.seq) (at \(formatDuration(s.t))) derives "
                    + (s.count == 0 ? "an empty active-speaker snapshot (nobody speaks)" : "an active-speaker snapshot of \(s.count)")
                    + ", but the SDK emitted no sdk.activeSpeakers for it within \(formatDuration(window))."
            case .advice:
                "didChangeActiveSpeakers fires after every server update, an empty array when nobody speaks; "
                    + "a UI that waits for it keeps highlighting a \(participant) who stopped. Send this trace to the "
                    + "\(product) SDK team."
            }
        }
    }

    /// T2: a value outside its documented range.
    func valueOutOfRange(field: String, value: Double, range: ClosedRange<Double>, seq: Int, t: Int64) -> Finding {
        let allowed = range.upperBound == .infinity ? "at least \(fixed(range.lowerBound, 1))"
            : "\(fixed(range.lowerBound, range.lowerBound == 1 ? 1 : 0)) to \(fixed(range.upperBound, range.upperBound == 4.5 ? 1 : 0))"
        return Finding(
            code: .traceValueOutOfRange, severity: .warning, rule: .T2, seqs: [seq], t: t,
            message: "\(field) is \(value) at seq \(seq), outside its documented range (\(allowed)); it is used as recorded.",
            advice: "Check the \(words.product) SDK's conversion of the server's values; the documents give \(field) as \(allowed).")
    }

    /// An engine limit was reached (`speakers` or `subscriptions`); the addition was ignored.
    func limitExceeded(_ what: String, limit: Int, seq: Int, t: Int64) -> Finding {
        Finding(
            code: .traceLimitExceeded, severity: .warning, rule: nil, seqs: [seq], t: t,
            message: "The limit of \(limit) \(what) was reached at seq \(seq): additions beyond it are ignored, so "
                + "\(what == "speakers" ? "speaker snapshots" : "layer verdicts") past this point are approximate.",
            advice: "Treat results after seq \(seq) as approximate; no real \(words.session) has this many \(what), so "
                + "check the recorder (or the server) for a loop.")
    }

    static func call(_ key: QualityEngine.TrackKey, _ target: String) -> String {
        "switchLayer(pubUid: \"\(key.pubUid)\", trackId: \"\(key.trackId)\", targetTrackId: \"\(target)\")"
    }

    /// At most 8 keys, so a message stays readable.
    static func keys(_ speakers: [Speaker]) -> String {
        let shown = speakers.prefix(8).map { "\($0.uid)/\($0.trackId)" }
        let more = speakers.count > 8 ? ", … (\(speakers.count) in all)" : ""
        return "[" + shown.joined(separator: ", ") + more + "]"
    }

}
