import TraceModel

extension TraceRecorder {
    /// One thing to record: an app call, what the system said, what the SDK did, or a server message.
    ///
    /// Built only with the factories below, one per record type of the trace format (callers never
    /// write JSON), plus `log` (a message template whose values are each public or private) and `custom`
    /// (the SDK's own events, `x.NAME`); the recorder adds `seq` and `t`.
    public struct Event: Equatable, Sendable {
        /// What the event holds: a record of the format, or one the writer builds (applying the privacy
        /// of each value there, off the caller's thread).
        enum Payload: Equatable, Sendable {
            case record(RecordBody)
            indirect case log(level: String, message: LogMessage)
            indirect case custom(CustomEvent)
        }

        let payload: Payload
        /// The record's kind (nil for a log, a custom event, an expectation): found where the event is
        /// made, so that a factory, which knows its case, holds it as a constant and the caller's path
        /// looks it up nowhere.
        let kind: RecordKind?

        @inline(__always)
        init(_ body: RecordBody) {
            payload = .record(body)
            kind = body.inlinedKind
        }

        init(payload: Payload) {
            self.payload = payload
            if case .record(let b) = payload { kind = b.kind } else { kind = nil }
        }

        /// The record's typed content as it is written with privacy off (a custom event: a record of a
        /// type the format does not know, as its JSON at seq 0 and t 0).
        public var body: RecordBody {
            switch payload {
            case .record(let b): b
            case .log(let level, let message): .sdkLog(level: level, message: message.text)
            case .custom(let c): .unknown(type: c.type, json: c.jsonLine(seq: 0, t: 0, token: nil))
            }
        }

        /// The record's `type`, e.g. `api.setRoute` or `x.rtpStats`.
        public var type: String {
            switch payload {
            case .record(let b): b.type
            case .log: RecordKind.sdkLog.rawValue
            case .custom(let c): c.type
            }
        }

        // MARK: Extensions: template logs and custom events

        /// `sdk.log` from a template whose interpolated values are each public or private, as OSLog has it:
        /// `.log(level: "debug", "rtp stats for \(uid) nack=\(nack)")`. Strings are private unless marked
        /// `privacy: .public`, numbers and booleans public unless marked `.private`. With privacy on, only
        /// the private values are replaced by tokens; the template's text and the public values stay.
        public static func log(level: String = "info", _ message: LogMessage) -> Event {
            Event(payload: .log(level: level, message: message))
        }

        /// A custom event, `x.NAME` (ASCII letters, digits, `.`, `_`, `-`; others become `_`; at most 64
        /// characters), with typed values under their names (at most 32; a name like those above, at
        /// most 64 characters; `seq`, `t`, `type` and `late` are taken, so they become `_seq`, `_t`, `_type`, `_late`).
        /// Readers keep and count such records as types the format does not list; the engines ignore them.
        public static func custom(_ name: String, _ values: KeyValuePairs<String, CustomValue> = [:]) -> Event {
            Event(payload: .custom(CustomEvent(name: name, values: values.map { ($0.key, $0.value) })))
        }

        // MARK: api.* — the app's calls into the SDK

        /// `api.joinChannel`: SRTC join; `uid` is the local user's uid, when the SDK has it.
        public static func joinChannel(channel: String, uid: String? = nil) -> Event { Event(.joinChannel(channel: channel, uid: uid)) }
        /// `api.leaveChannel`: SRTC leave.
        public static let leaveChannel = Event(.leaveChannel)
        /// `api.enterMeeting`: SMeeting enter; `uid` is the local member's uid, when the SDK has it.
        public static func enterMeeting(room: String, uid: String? = nil) -> Event { Event(.enterMeeting(room: room, uid: uid)) }
        /// `api.exitMeeting`: SMeeting exit.
        public static let exitMeeting = Event(.exitMeeting)
        /// `api.setDefaultRoute`: `defaultAudioRoute = target`.
        public static func setDefaultRoute(target: RouteTarget) -> Event { Event(.setDefaultRoute(target: target)) }
        /// `api.setRoute`: a temporary route request; `api` is the literal call, e.g. `setSpeakerOutputEnabled(true)`.
        public static func setRoute(target: RouteTarget, api: String? = nil) -> Event { Event(.setRoute(target: target, api: api)) }
        /// `api.clearRouteOverride`.
        public static let clearRouteOverride = Event(.clearRouteOverride)
        /// `api.setAudioModuleEnabled`.
        public static func setAudioModuleEnabled(_ enabled: Bool) -> Event { Event(.setAudioModuleEnabled(enabled: enabled)) }
        /// `api.subscribe`: a remote video with its simulcast candidate layers.
        public static func subscribe(pubUid: String, trackId: String, layers: [String]) -> Event {
            Event(.subscribe(pubUid: pubUid, trackId: trackId, layers: layers))
        }
        /// `api.switchLayer`.
        public static func switchLayer(pubUid: String, trackId: String, targetTrackId: String) -> Event {
            Event(.switchLayer(pubUid: pubUid, trackId: trackId, targetTrackId: targetTrackId))
        }

        // MARK: os.* — what the system told the SDK

        /// `os.deviceConnected`: an external output appeared; `port` is the system port type, e.g. `BluetoothHFP`.
        public static func deviceConnected(id: String, kind: DeviceKind, name: String? = nil, port: String? = nil) -> Event {
            Event(.deviceConnected(id: id, kind: kind, name: name, port: port))
        }
        /// `os.deviceDisconnected`.
        public static func deviceDisconnected(id: String) -> Event { Event(.deviceDisconnected(id: id)) }
        /// `os.micPermission`: the microphone permission as of now.
        public static func micPermission(_ status: MicPermission) -> Event { Event(.micPermission(status: status)) }
        /// `os.interruptionBegan`: the reason (AVAudioSessionInterruptionReasonKey) and, on iOS 10.3–14.5,
        /// AVAudioSessionInterruptionWasSuspendedKey.
        public static func interruptionBegan(cause: InterruptionCause? = nil, wasSuspended: Bool? = nil) -> Event {
            Event(.interruptionBegan(cause: cause, wasSuspended: wasSuspended))
        }
        /// `os.interruptionEnded`.
        public static func interruptionEnded(shouldResume: Bool? = nil) -> Event { Event(.interruptionEnded(shouldResume: shouldResume)) }
        /// `os.callState`: another call's state (never the app's own call, which is `callKit`).
        public static func callState(_ state: CallState) -> Event { Event(.callState(state: state)) }
        /// `os.appState`.
        public static func appState(_ state: AppState) -> Event { Event(.appState(state: state)) }
        /// `os.mediaServicesReset`: `AVAudioSession.mediaServicesWereResetNotification`.
        public static let mediaServicesReset = Event(.mediaServicesReset)
        /// `os.callKit`: the app's own call as CallKit reports it (`hold` / `unhold`: CXSetHeldCallAction).
        public static func callKit(_ event: CallKitEvent, callId: String? = nil) -> Event { Event(.callKit(event: event, callId: callId)) }

        // MARK: obs.* — what the SDK actually did

        /// `obs.routeChanged`: the route the device switched to, in the five-state mapping.
        public static func routeChanged(route: Route, previous: Route, reason: RouteChangeReason) -> Event {
            Event(.routeChanged(route: route, previousRoute: previous, reason: reason))
        }
        /// `obs.routeSnapshot`: a reading of the current route; ports as `PORTTYPE` or `PORTTYPE:PORTNAME`.
        public static func routeSnapshot(route: Route, ports: [String]? = nil) -> Event { Event(.routeSnapshot(route: route, ports: ports)) }
        /// `obs.sessionActivated`: the SDK (re)activated the audio session with this configuration.
        public static func sessionActivated(ok: Bool, error: String? = nil, category: String? = nil, mode: String? = nil,
                                            options: [String] = []) -> Event {
            Event(.sessionActivated(SessionActivation(ok: ok, error: error, category: category, mode: mode, options: options)))
        }
        /// `obs.sessionDeactivated`: whether it succeeded, and the error when it did not (e.g. `isBusy`).
        public static func sessionDeactivated(notifyOthers: Bool, ok: Bool = true, error: String? = nil) -> Event {
            Event(.sessionDeactivated(notifyOthers: notifyOthers, ok: ok ? nil : false, error: error))
        }
        /// `obs.overrideOutput`: the SDK called `overrideOutputAudioPort`.
        public static func overrideOutput(_ port: OverridePort) -> Event { Event(.overrideOutput(port: port)) }

        // MARK: sdk.* — what the SDK reported to the app

        /// `sdk.interrupted`: the "was interrupted" callback fired.
        public static let sdkInterrupted = Event(.sdkInterrupted)
        /// `sdk.recovered`: the "did recover from interruption" callback fired.
        public static let sdkRecovered = Event(.sdkRecovered)
        /// `sdk.callStateChanged`.
        public static func sdkCallStateChanged(_ state: CallState) -> Event { Event(.sdkCallStateChanged(state: state)) }
        /// `sdk.qualityChanged`.
        public static func sdkQualityChanged(overall: QualityLevel, previous: QualityLevel, mos: Double? = nil) -> Event {
            Event(.sdkQualityChanged(overall: overall, previous: previous, mos: mos))
        }
        /// `sdk.activeSpeakers`.
        public static func sdkActiveSpeakers(_ speakers: [Speaker]) -> Event { Event(.sdkActiveSpeakers(speakers: speakers)) }
        /// `sdk.layerSwitched`.
        public static func sdkLayerSwitched(pubUid: String, trackId: String, fromTrackId: String? = nil, toTrackId: String,
                                            reason: String, latencyMs: Double? = nil) -> Event {
            Event(.sdkLayerSwitched(LayerSwitch(pubUid: pubUid, trackId: trackId, fromTrackId: fromTrackId, toTrackId: toTrackId,
                                                reason: reason, latencyMs: latencyMs)))
        }
        /// `sdk.error`: an SDK call threw.
        public static func sdkError(api: String, error: String) -> Event { Event(.sdkError(api: api, error: error)) }
        /// `sdk.log`: a line the SDK logged, private as a whole (with privacy on, it becomes one token);
        /// `log(level:_:)` keeps what is public.
        public static func sdkLog(level: String, message: String) -> Event { Event(.sdkLog(level: level, message: message)) }

        // MARK: conn.*, srv.* — transport and server

        /// `conn.engine`: which media engine this session uses.
        public static func connEngine(_ vendor: EngineVendor) -> Event { Event(.connEngine(vendor: vendor)) }
        /// `conn.state`: the signalling transport state.
        public static func connState(_ state: ConnState) -> Event { Event(.connState(state: state)) }
        /// `srv.qualityReport`: one raw server report.
        public static func qualityReport(pub: QualitySample, sub: QualitySample) -> Event { Event(.qualityReport(pub: pub, sub: sub)) }
        /// `srv.speakers`: the server's incremental active-speaker update.
        public static func speakers(speaking: [Speaker], stopped: [SpeakerKey] = []) -> Event {
            Event(.speakers(speaking: speaking, stopped: stopped))
        }
        /// `srv.layerSwitched`: the server switched a simulcast layer.
        public static func srvLayerSwitched(pubUid: String, trackId: String, fromTrackId: String? = nil, toTrackId: String,
                                            reason: String, latencyMs: Double? = nil) -> Event {
            Event(.srvLayerSwitched(LayerSwitch(pubUid: pubUid, trackId: trackId, fromTrackId: fromTrackId, toTrackId: toTrackId,
                                                reason: reason, latencyMs: latencyMs)))
        }
    }
}
