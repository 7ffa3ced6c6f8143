import Replay
import TraceModel

/// Which record shows on which lane, and how: the one table of the moments the contract reads
/// (session activations and deactivations with ok or error, CallKit events, media-services resets,
/// interruptions with their cause, the SDK's callbacks, the SDK's output-port calls) and of the lane
/// states that come straight from records (the audio session, the CallKit call, quality levels).
extension ReportLanes {
    func record(_ r: Record, _ step: ReplayStep) {
        let t = step.t, seq = r.seq
        func put(_ lane: String, _ value: String, _ tone: String) {
            mark(lane, LaneMark(t: t, seq: seq, what: r.type, value: value, tone: tone))
        }
        guard let topic = r.body.kind?.topic else { return }
        switch topic {
        case .audioSession:
            if case .sessionActivated(let a) = r.body {
                // A failed activation names what it tried as well as its error (the summary holds only the error).
                let tried = a.ok || (a.category == nil && a.mode == nil) ? "" : " (tried \(a.category ?? "?")/\(a.mode ?? "?"))"
                put("session", a.ok ? "activated " + r.body.summary : "activation " + r.body.summary + tried, a.ok ? "activated" : "failed")
                if a.ok { set("session", "\(a.category ?? "?")/\(a.mode ?? "?")", t, seq, tone: a.isCallSession ? "on" : "sessionOther") }
            } else if case let .sessionDeactivated(_, ok, _) = r.body {
                put("session", ok == false ? "deactivation " + r.body.summary : "deactivated (\(r.body.summary))", ok == false ? "failed" : "deactivated")
                if ok != false { set("session", "", t, seq) }
            }
        case .reset:
            put("resets", ReportPageWords.mediaServicesReset, "reset")
            set("session", "", t, seq)
        case .callKit:
            guard case let .callKit(event, _) = r.body else { return }
            let tone = switch event {
            case .didActivate: "activated"
            case .didDeactivate: "deactivated"
            case .answer, .start, .end, .hold, .unhold, .unlisted: "callkit"
            }
            put("callKit", r.body.summary, tone)
            callKitState(event, t, seq)
        case .interruption:
            if case let .interruptionBegan(cause, _) = r.body {
                put("interruption", "began (\(cause == nil ? "no cause" : r.body.summary))", "interruption")
            } else if case .interruptionEnded(let shouldResume) = r.body {
                put("interruption", "ended" + (shouldResume.map { " (shouldResume \($0))" } ?? ""), "interruption")
            }
        case .sdkEvent:
            let event = sdkEvent(r.body)
            put("sdk", event.text, event.tone)
        case .speakerSnapshot:
            guard case .sdkActiveSpeakers(let speakers) = r.body else { return }
            let names = speakers.prefix(3).map { "\(TextCap.identifier($0.uid))/\(TextCap.identifier($0.trackId))" }.joined(separator: ", ")
            put("speakers", "SDK snapshot: " + (speakers.isEmpty ? "nobody" : names + (speakers.count > 3 ? " (+\(speakers.count - 3) more)" : "")),
                "speakersAnswer")
        case .outputPort:
            if case .overrideOutput(let port) = r.body { put("override", "overrideOutputAudioPort(.\(port.rawValue))", "overridePort") }
        case .device:
            if case let .deviceConnected(id, _, name?, _) = r.body { deviceNames[id] = name }
        case .quality:
            guard case let .qualityReport(pub, sub) = r.body else { return }
            set("qualityPub", pub.level.rawValue, t, seq)
            set("qualitySub", sub.level.rawValue, t, seq)
            sample(pub, sub, t, seq)
        case .systemLog:
            guard case .system(let s) = r.body else { return }
            let failed: Bool
            if case .sessionActivated(false, _, _, _) = s.event { failed = true } else { failed = false }
            put(Self.systemLane, (s.isSelf ? "the app (\(s.processName))" : s.processName) + ": " + s.summary,
                failed ? "failed" : s.isSelf ? "systemSelf" : "systemOther")
        case .other:
            break
        }
    }

    /// An SDK event's moment on the sdk lane: what it says, and its tone (the events of the sdkEvent topic).
    private func sdkEvent(_ body: RecordBody) -> (text: String, tone: String) {
        if case .sdkInterrupted = body { return ("interrupted", "sdkInterrupted") }
        if case .sdkRecovered = body { return ("recovered", "sdkRecovered") }
        if case .sdkError = body { return ("error " + body.summary, "failed") }
        if case .sdkCallStateChanged = body { return ("call state " + body.summary, "sdkOther") }
        if case .sdkQualityChanged(_, _, let mos) = body {
            return ("quality " + body.summary + (mos.map { " (mos \(fixed($0, 2)))" } ?? ""), "sdkOther")
        }
        if case .sdkLayerSwitched(let s) = body { return ("layer switched \(s.trackId) → \(s.toTrackId) (\(s.reason))", "sdkOther") }
        return (body.summary, "sdkOther")
    }

    /// The app's own call as CallKit reports it: answered or started (CallKit owns the activation),
    /// audio activated, held or deactivated, resumed, ended.
    private func callKitState(_ event: CallKitEvent, _ t: Int64, _ seq: Int) {
        let inCall = builders["callKit"].map { !$0.currentValue.isEmpty } ?? false
        switch event {
        case .answer: set("callKit", ReportPageWords.answeredAwaitingDidactivate, t, seq)
        case .start: set("callKit", ReportPageWords.startedAwaitingDidactivate, t, seq)
        case .didActivate:
            set("callKit", "audio activated", t, seq)
            set("session", ReportPageWords.activatedByCallkitDidactivate, t, seq, tone: "on")
        case .didDeactivate:
            if inCall { set("callKit", "audio deactivated", t, seq) }
            set("session", "", t, seq)
        case .hold: if inCall { set("callKit", "held", t, seq) }
        case .unhold: if inCall { set("callKit", ReportPageWords.resumedAwaitingDidactivate, t, seq) }
        case .end: set("callKit", "", t, seq)
        case .unlisted: break
        }
    }

    /// The interruption lane's words for the record that interrupted: its cause.
    static func interruptionWords(_ record: Record?) -> String {
        guard let body = record?.body else { return "interrupted" }
        if case let .interruptionBegan(cause, _) = body { return "interrupted (\(cause == nil ? "no cause" : body.summary))" }
        if case .mediaServicesReset = body { return ReportPageWords.interruptedMediaServicesReset }
        if case .callKit(.didDeactivate, _) = body { return ReportPageWords.interruptedCallkitHold }
        return "interrupted"
    }
}
