import TraceFixtures
import TraceModel


/// Random but plausible record sequences: every record type the route engine reads, plus noise.
enum RandomTraces {
    static func trace(seed: UInt64, length: Int) -> [Record] {
        var rng = SplitMix64(seed: seed)
        let layer: Layer = rng.chance(50) ? .srtc : .smeeting
        let head = TraceHeader(
            layer: layer, device: .init(simulator: rng.chance(20)),
            app: .init(micUsageDescription: !rng.chance(15), backgroundAudio: !rng.chance(25)),
            initialDefaultRoute: rng.pick([nil, RouteTarget.speaker, .earpiece]))
        var records = [Record(seq: 0, t: 0, .header(head))]
        var t: Int64 = 0
        for seq in 1..<length {
            t += Int64(rng.pick([0, 0, 10, 100, 500, 1500, 2500, 6000]))
            records.append(Record(seq: seq, t: t, body(&rng, layer: layer)))
        }
        return records
    }

    private static func body(_ rng: inout SplitMix64, layer: Layer) -> RecordBody {
        let target = rng.pick(RouteTarget.allCases)
        let device = rng.pick(["bt1", "bt2", "wired"])
        switch rng.below(26) {
        case 0, 1: return layer == .srtc ? .joinChannel(channel: "c") : .enterMeeting(room: "r")
        case 2: return layer == .srtc ? .leaveChannel : .exitMeeting
        case 3, 4: return .setRoute(target: target, api: rng.pick([nil, "setSpeakerOutputEnabled(true)"]))
        case 5: return .setDefaultRoute(target: target)
        case 6: return .clearRouteOverride
        case 7: return .setAudioModuleEnabled(enabled: rng.chance(60))
        case 8: return .deviceConnected(id: device, kind: device == "wired" ? .headset : .bluetooth, name: nil, port: nil)
        case 9: return .deviceDisconnected(id: device)
        case 10: return .micPermission(status: rng.pick(MicPermission.listed))
        case 11: return .interruptionBegan(cause: rng.pick([InterruptionCause.systemCall, .siri, .otherApp, .unknown]), wasSuspended: nil)
        case 12: return .interruptionEnded(shouldResume: rng.pick([nil, true, false]))
        case 13, 14: return .callState(state: rng.pick(CallState.listed))
        case 15: return .appState(state: rng.pick(AppState.listed))
        case 16:
            let options = ["allowBluetooth", "defaultToSpeaker", "mixWithOthers"].filter { _ in rng.chance(60) }
            return .sessionActivated(SessionActivation(
                ok: rng.chance(70), category: rng.pick(["playAndRecord", "playback"]),
                mode: rng.pick(["voiceChat", "videoChat", "default"]), options: options))
        case 17: return .sessionDeactivated(notifyOthers: rng.chance(50), ok: nil, error: nil)
        case 18: return .sdkRecovered
        case 19: return .routeChanged(route: .speaker, previousRoute: .receiver, reason: .override)
        case 20: return .expect(Expectation(.route(.speaker)))
        case 22: return .mediaServicesReset
        case 23: return .callKit(event: rng.pick([CallKitEvent.answer, .start, .end, .didActivate, .didDeactivate]), callId: rng.pick([nil, "call-1"]))
        case 24: return .routeChanged(route: rng.pick(Route.allCases), previousRoute: .speaker,
                                      reason: rng.pick([.categoryChange, .override, .newDeviceAvailable]))
        default: return .sdkLog(level: "info", message: "noise")
        }
    }
}
