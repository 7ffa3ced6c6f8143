import TraceFixtures
import TraceModel

/// Random but plausible record sequences: every record type the route engine reads, the kinds and values
/// of contract v3 (AirPlay and CarPlay outputs and the ports that set them, unlisted values of the open
/// vocabularies, stale interruptions, CallKit hold and unhold, deactivation results, other categories, the
/// SDK's callbacks, macOS traces), short bursts that reach the windows (an unplug and its reading, a
/// CallKit answer and iOS's choice), plus noise.
enum RandomTraces {
    static func trace(seed: UInt64, length: Int) -> [Record] {
        var rng = SplitMix64(seed: seed)
        let layer: Layer = rng.chance(50) ? .srtc : .smeeting
        let os: String? = rng.chance(6) ? rng.pick(["macOS 14.5", "MACOS 15.0"]) : rng.pick([nil, "iOS 17.4", "iPadOS 17.4"])
        let head = TraceHeader(
            layer: layer, device: .init(os: os, simulator: rng.chance(20)),
            app: .init(micUsageDescription: !rng.chance(15), backgroundAudio: !rng.chance(25)),
            initialDefaultRoute: rng.pick([nil, RouteTarget.speaker, .earpiece]))
        var records = [Record(seq: 0, t: 0, .header(head))]
        var t: Int64 = 0
        while records.count < length {
            t += Int64(rng.pick([0, 0, 10, 100, 500, 1000, 1001, 1500, 2500, 5001, 6000]))
            for (delay, body) in step(&rng, layer: layer) where records.count < length {
                t += delay
                records.append(Record(seq: records.count, t: t, body))
            }
        }
        return records
    }

    private static func join(_ layer: Layer) -> RecordBody { layer == .srtc ? .joinChannel(channel: "c") : .enterMeeting(room: "r") }
    private static func leave(_ layer: Layer) -> RecordBody { layer == .srtc ? .leaveChannel : .exitMeeting }

    /// One record, or a short burst of them with their delays.
    private static func step(_ rng: inout SplitMix64, layer: Layer) -> [(Int64, RecordBody)] {
        switch rng.below(40) {
        case 0:   // an unplug (or a plug-in) and the device's reading a moment later (R15)
            let device = rng.pick(["bt1", "bt2", "wired"])
            let change: RecordBody = rng.chance(60) ? .deviceDisconnected(id: device) : connect(&rng, id: device)
            return [(0, change), (Int64(rng.pick([10, 30, 500, 501])), reading(&rng))]
        case 1:   // a CallKit answer, its didActivate and iOS's route (I12, I13)
            return [(0, .callKit(event: rng.pick([.answer, .answer, .start]), callId: nil)), (Int64(rng.pick([100, 300])), join(layer)),
                    (Int64(rng.pick([200, 6000])), .callKit(event: .didActivate, callId: nil)),
                    (Int64(rng.pick([50, 1000, 1001])), reading(&rng))]
        case 2:   // a hold and its resumption (I11)
            return [(0, .callKit(event: .hold, callId: nil)), (0, .callKit(event: .didDeactivate, callId: nil)),
                    (Int64(rng.pick([500, 3000])), .callKit(event: .unhold, callId: nil)),
                    (Int64(rng.pick([50, 5000, 5001])), .callKit(event: rng.chance(80) ? .didActivate : .end, callId: nil))]
        default:
            return [(0, body(&rng, layer: layer))]
        }
    }

    private static func connect(_ rng: inout SplitMix64, id: String) -> RecordBody {
        let kind: DeviceKind = id == "wired" ? .headset : rng.pick([.bluetooth, .bluetooth, .airplay, .carAudio, .unlisted("hearingAid")])
        return .deviceConnected(id: id, kind: kind, name: nil, port: rng.pick([nil, nil, "AirPlay", "CarAudio", "BluetoothHFP"]))
    }

    private static func reading(_ rng: inout SplitMix64) -> RecordBody {
        let route = rng.pick(Route.allCases)
        return rng.chance(70) ? .routeChanged(route: route, previousRoute: .speaker, reason: rng.pick([.categoryChange, .override, .oldDeviceUnavailable]))
            : .routeSnapshot(route: route, ports: nil)
    }

    private static func body(_ rng: inout SplitMix64, layer: Layer) -> RecordBody {
        let target = rng.pick(RouteTarget.allCases)
        let device = rng.pick(["bt1", "bt2", "wired", "tv"])
        switch rng.below(37) {
        case 0, 1: return join(layer)
        case 2: return leave(layer)
        case 3, 4, 27: return .setRoute(target: target, api: rng.pick([nil, "setSpeakerOutputEnabled(true)"]))
        case 5, 28: return .setDefaultRoute(target: target)
        case 6: return .clearRouteOverride
        case 7: return .setAudioModuleEnabled(enabled: rng.chance(60))
        case 8: return connect(&rng, id: device)
        case 9: return .deviceDisconnected(id: device)
        case 10: return .micPermission(status: rng.pick(MicPermission.listed + [.unlisted("restricted")]))
        case 11:
            let cause: InterruptionCause? = rng.pick([.systemCall, .siri, .otherApp, .unknown, .appWasSuspended, .unlisted("builtInMicMuted"), nil])
            return .interruptionBegan(cause: cause, wasSuspended: rng.pick([nil, nil, false, true]))
        case 12: return .interruptionEnded(shouldResume: rng.pick([nil, true, false]))
        case 13, 14: return .callState(state: rng.pick(CallState.listed + [.unlisted("ringing")]))
        case 15: return .appState(state: rng.pick(AppState.listed + [.unlisted("inactive")]))
        case 16, 17:
            let options = ["allowBluetooth", "defaultToSpeaker", "allowAirPlay", "overrideMutedMicrophoneInterruption"].filter { _ in rng.chance(50) }
            return .sessionActivated(SessionActivation(
                ok: rng.chance(70), error: rng.pick([nil, "cannotInterruptOthers"]),
                category: rng.pick(["playAndRecord", "playAndRecord", "playback", "multiRoute", "spatialPlayback"]),
                mode: rng.pick(["voiceChat", "videoChat", "default", "voiceChatPro"]), options: options))
        case 18: return .sessionDeactivated(notifyOthers: rng.chance(50), ok: rng.pick([nil, true, false]), error: rng.pick([nil, "isBusy"]))
        case 19: return .sdkRecovered
        case 20: return .sdkInterrupted
        case 21, 22: return reading(&rng)
        case 23: return .expect(Expectation(.route(.speaker)))
        case 24: return .mediaServicesReset
        case 25, 26:
            let events: [CallKitEvent] = [.answer, .start, .end, .didActivate, .didDeactivate, .hold, .unhold, .unlisted("setMuted")]
            return .callKit(event: rng.pick(events), callId: rng.pick([nil, "call-1"]))
        default: return .sdkLog(level: "info", message: "noise")
        }
    }
}
