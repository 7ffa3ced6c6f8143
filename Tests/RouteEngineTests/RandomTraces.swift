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

/// Random call sessions for the windows of contract v3: mostly engaged, with a temporary route set, device
/// changes followed by readings near the tolerance (R15), interruptions, resets and CallKit holds followed
/// by activations and callbacks near the match and recovery windows (I11, I14, R17), leaves followed by
/// deactivations near the recovery window (R18), long interruptions left open (I10), and records of one
/// ms in either order (the same-ms rule).
enum RandomSessions {
    static func trace(seed: UInt64, length: Int) -> [Record] {
        var rng = SplitMix64(seed: seed)
        let layer: Layer = rng.chance(50) ? .srtc : .smeeting
        let head = TraceHeader(layer: layer, device: .init(os: "iOS 17.4", simulator: rng.chance(5)),
                               initialDefaultRoute: rng.pick([nil, RouteTarget.speaker, .earpiece]))
        var records = [Record(seq: 0, t: 0, .header(head))]
        var t: Int64 = 0
        func add(_ delay: Int64, _ body: RecordBody) {
            t += delay
            records.append(Record(seq: records.count, t: t, body))
        }
        add(100, join(layer))
        if rng.chance(80) { add(rng.pick([0, 10, 200]), activation(&rng)) }
        if rng.chance(80) { add(100, .setRoute(target: rng.pick(RouteTarget.allCases), api: nil)) }
        while records.count < length {
            t += rng.pick([0, 0, 1, 10, 300, 1000, 2500, 6000])
            for (delay, body) in burst(&rng, layer: layer) { add(delay, body) }
        }
        return Array(records.prefix(length))
    }

    private static func join(_ layer: Layer) -> RecordBody { layer == .srtc ? .joinChannel(channel: "c") : .enterMeeting(room: "r") }
    private static func leave(_ layer: Layer) -> RecordBody { layer == .srtc ? .leaveChannel : .exitMeeting }
    private static let expectation = RecordBody.expect(Expectation(.route(.speaker)))

    /// A delay near a window's edge: the tolerance (500), the match window (1000), the recovery window (5000).
    private static func near(_ rng: inout SplitMix64, _ w: Int64) -> Int64 { rng.pick([0, 1, w - 1, w, w + 1, w + 1, w / 2]) }

    private static func activation(_ rng: inout SplitMix64) -> RecordBody {
        .sessionActivated(SessionActivation(ok: !rng.chance(15), error: "cannotInterruptOthers",
                                            category: rng.pick(["playAndRecord", "playAndRecord", "playAndRecord", "playback"]),
                                            mode: rng.pick(["voiceChat", "voiceChat", "videoChat"]), options: ["allowBluetooth"]))
    }

    private static func reading(_ rng: inout SplitMix64) -> RecordBody {
        let route = rng.pick([Route.speaker, .speaker, .receiver, .receiver, .bluetooth, .headset, .unknown])
        let reason = rng.pick([RouteChangeReason.oldDeviceUnavailable, .override, .newDeviceAvailable])
        return rng.chance(70) ? .routeChanged(route: route, previousRoute: .speaker, reason: reason)
            : .routeSnapshot(route: route, ports: nil)
    }

    /// Readings after an event: each near the tolerance after the one before, sometimes one logged first.
    private static func readings(_ rng: inout SplitMix64) -> [(Int64, RecordBody)] {
        (0..<rng.pick([0, 1, 1, 2, 2, 3])).map { _ in (near(&rng, 500), reading(&rng)) }
    }

    /// Callbacks and activations after a beginning or a recovery, near their windows.
    private static func sdk(_ rng: inout SplitMix64, _ body: RecordBody, window: Int64, percent: Int) -> [(Int64, RecordBody)] {
        rng.chance(percent) ? [(near(&rng, window), body)] : []
    }

    // swiftlint:disable:next function_body_length
    private static func burst(_ rng: inout SplitMix64, layer: Layer) -> [(Int64, RecordBody)] {
        let target = rng.pick(RouteTarget.allCases)
        switch rng.below(16) {
        case 0, 1, 2:   // a device change and its readings (R15 a)
            let id = rng.pick(["bt1", "bt2", "wired"])
            let change: RecordBody = rng.chance(50) ? .deviceDisconnected(id: id)
                : .deviceConnected(id: id, kind: id == "wired" ? .headset : rng.pick([.bluetooth, .bluetooth, .airplay]), name: nil, port: nil)
            let before = (0..<rng.pick([0, 0, 0, 1, 2])).map { _ in (Int64(0), reading(&rng)) }
            return before + [(0, change)] + readings(&rng)
        case 3, 4:      // a route call, now and then right after a reading of its ms
            let call: RecordBody = rng.pick([.setRoute(target: target, api: nil), .setRoute(target: target, api: nil),
                                             .clearRouteOverride, .setDefaultRoute(target: target)])
            return [(0, call)] + readings(&rng)
        case 5, 6:      // an interruption, its callback, its end or a call, the recovery's activation and callbacks
            // A callback logged before the record of its ms stays before it only with an expectation between.
            var out: [(Int64, RecordBody)] = rng.chance(15) ? [(Int64(0), RecordBody.sdkInterrupted), (Int64(0), expectation)] : []
            let stale = rng.chance(15)
            out.append((0, .interruptionBegan(cause: stale ? .appWasSuspended : rng.pick([.systemCall, .siri, .otherApp]), wasSuspended: nil)))
            out += sdk(&rng, .sdkInterrupted, window: 1000, percent: 70)
            if rng.chance(20) { out.append((10, .setRoute(target: target, api: nil))) }
            if rng.chance(15) { out.append((rng.pick([0, 100]), .interruptionBegan(cause: .siri, wasSuspended: rng.chance(30) ? true : nil))) }
            if rng.chance(30) {
                out.append((100, .callState(state: .incoming)))
                out.append((rng.pick([100, 3000]), .callState(state: rng.pick([.disconnected, .disconnected, .idle]))))
            }
            if rng.chance(20) { out.append((100, .appState(state: .background))) }
            if rng.chance(10) { out += [(rng.pick([0, 500]), .sdkRecovered), (0, expectation)] + (rng.chance(30) ? [(0, .sdkRecovered)] : []) }
            if rng.chance(75) { out.append((rng.pick([0, 500, 6000]), .interruptionEnded(shouldResume: true))) }
            if rng.chance(20) { out.append((rng.pick([0, 2500]), .appState(state: .foreground))) }
            out += sdk(&rng, activation(&rng), window: 5000, percent: 70)
            out += sdk(&rng, .sdkRecovered, window: 5000, percent: 60)
            out += sdk(&rng, .sdkRecovered, window: 5000, percent: 15)
            return out + readings(&rng)
        case 7:         // a media services reset, its callback, the rebuild
            var out: [(Int64, RecordBody)] = [(0, .mediaServicesReset)]
            out += sdk(&rng, .sdkInterrupted, window: 1000, percent: 60)
            out += sdk(&rng, activation(&rng), window: 5000, percent: 80)
            out += sdk(&rng, .sdkRecovered, window: 5000, percent: 60)
            return out + readings(&rng)
        case 8:         // a CallKit hold, unholds, the reactivation or the call's end
            var out: [(Int64, RecordBody)] = [(0, .callKit(event: .hold, callId: nil)), (0, .callKit(event: .didDeactivate, callId: nil))]
            if rng.chance(20) { out.append((100, .setRoute(target: target, api: nil))) }
            for _ in 0..<rng.pick([0, 1, 1, 2]) { out.append((rng.pick([100, 3000]), .callKit(event: .unhold, callId: nil))) }
            if rng.chance(15) { out.append((100, .callKit(event: .end, callId: nil))) }
            if rng.chance(80) { out.append((near(&rng, 5000), .callKit(event: .didActivate, callId: nil))) }
            return out + readings(&rng)
        case 9:         // a leave, the deactivation near the window, a rejoin
            var out: [(Int64, RecordBody)] = []
            if rng.chance(15) { out.append((0, .sessionDeactivated(notifyOthers: true, ok: true, error: nil))) }
            out.append((0, leave(layer)))
            if rng.chance(70) {
                out.append((near(&rng, 5000), rng.chance(15) ? .callKit(event: .didDeactivate, callId: nil)
                    : .sessionDeactivated(notifyOthers: true, ok: rng.pick([nil, true, false]), error: nil)))
            }
            out.append((rng.pick([0, 10, 2500, 6000]), join(layer)))
            if rng.chance(70) { out.append((near(&rng, 5000), activation(&rng))) }
            if rng.chance(60) { out.append((100, .setRoute(target: target, api: nil))) }
            return out
        case 10:        // an interruption that never ends, then a leave (I10)
            var out: [(Int64, RecordBody)] = [(0, .interruptionBegan(cause: .otherApp, wasSuspended: nil))]
            if rng.chance(30) { out.append((1000, .interruptionBegan(cause: .siri, wasSuspended: nil))) }
            if rng.chance(20) { out.append((100, .callState(state: rng.pick([.incoming, .idle])))) }
            if rng.chance(20) { out.append((100, .appState(state: .background))) }
            out.append((near(&rng, 5000), leave(layer)))
            out.append((rng.pick([0, 100]), join(layer)))
            if rng.chance(60) { out.append((100, activation(&rng))) }
            if rng.chance(60) { out.append((100, .setRoute(target: target, api: nil))) }
            return out
        case 11:        // a CallKit call (I7, I12) and its activation
            return [(0, .callKit(event: rng.pick([.answer, .start]), callId: nil)),
                    (near(&rng, 5000), .callKit(event: rng.chance(80) ? .didActivate : .end, callId: nil))] + readings(&rng)
        case 12:        // the app in the background and back
            return [(0, .appState(state: rng.pick([.background, .foreground]))), (rng.pick([0, 100, 3000]), .appState(state: .foreground))]
        case 13:        // the SDK's callbacks and activations on their own
            return [(0, rng.pick([.sdkRecovered, .sdkInterrupted, activation(&rng),
                                  .sessionDeactivated(notifyOthers: true, ok: true, error: nil)]))]
        default:        // readings on their own, and the state R8 reads
            let other: RecordBody = rng.pick([.micPermission(status: rng.pick([.granted, .denied])),
                                              .setAudioModuleEnabled(enabled: rng.chance(70)), activation(&rng)])
            return (rng.chance(30) ? [(Int64(0), other)] : []) + [(0, reading(&rng))] + readings(&rng)
        }
    }
}
