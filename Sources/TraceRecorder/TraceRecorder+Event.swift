import TraceModel

extension TraceRecorder {
    /// One thing to record: an app call, what the system said, what the SDK did, or a server message.
    ///
    /// Built only with the factories below, one per record type of the trace format (callers never
    /// write JSON); the recorder adds `seq` and `t`.
    public struct Event: Equatable, Sendable {
        /// The record's typed content.
        public let body: RecordBody

        init(_ body: RecordBody) { self.body = body }

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
        /// `os.callKit`: the app's own call as CallKit reports it.
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
        /// `sdk.log`: a line the SDK logged.
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

extension RecordBody {
    /// What a record costs while it waits in the queue: its inline size plus the heap storage of its
    /// strings (Swift keeps strings of up to 15 UTF-8 bytes inline) and of the lists that hold them. An
    /// estimate, cheap enough for the caller's path: it walks the string fields the personal-field map
    /// names, and native strings know their UTF-8 length.
    var queuedBytes: Int {
        var bytes = MemoryLayout<RecordBody>.stride + 8
        forEachString { value, _ in
            let n = value.utf8.count
            bytes += n > 15 ? n + 48 : 16
        }
        return bytes
    }
}
