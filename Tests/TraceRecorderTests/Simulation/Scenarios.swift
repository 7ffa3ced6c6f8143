import TraceFixtures
import TraceModel

/// Realistic sessions for the recorder's end-to-end tests, each with the verdicts and findings it
/// must give. Lanes: 0 the app's calls, 1 the system's notifications, 2 the SDK's own reports, 3 the
/// server and transport.
package enum Scenarios {
    static let app = 0, system = 1, sdk = 2, server = 3

    /// Personal values the scenarios record, which source redaction must keep off the disk.
    package static let alice = "alice.martin@example.com"
    package static let airPods = "Alice Martin's AirPods Pro"
    package static let airPodsId = "7C:04:D0:1A:3F:22"
    /// Another participant.
    package static let bob = "bob.nguyen@example.com"

    /// Every scenario.
    package static var all: [Script] { [bluetoothBlocksSpeaker(), systemCallInterruptsMeeting(), callKitAnswer()] }

    static func good(_ g: inout SplitMix64) -> QualitySample {
        QualitySample(level: .good, score: Double(80 + g.below(10)), mos: 4.0, loss: 0.01, rtt: Double(60 + g.below(60)),
                      jitter: Double(5 + g.below(10)), bitrate: Double(700 + g.below(400)))
    }

    static func excellent(_ g: inout SplitMix64) -> QualitySample {
        QualitySample(level: .excellent, score: Double(92 + g.below(6)), mos: 4.4, loss: 0.0, rtt: Double(30 + g.below(30)),
                      jitter: Double(2 + g.below(5)), bitrate: Double(1000 + g.below(400)))
    }

    /// Server reports every 2 s over `range`, each at the same moment as an SDK log line from another thread.
    static func serverTraffic(_ s: inout Script, _ range: StrideTo<Int64>, seed: UInt64) {
        var g = SplitMix64(seed: seed)
        for t in range {
            s.add(t, server, .qualityReport(pub: good(&g), sub: excellent(&g)))
            s.add(t, sdk, .sdkLog(level: "debug", message: "rtp stats for \(alice): nack=\(g.below(40)) pli=\(g.below(3))"))
        }
    }

    /// SRTC: a bluetooth headset holds the route, so the app's speaker request is ineffective (V1, R4);
    /// after the headset leaves, the override takes the speaker (R5), and an earpiece request applies.
    package static func bluetoothBlocksSpeaker() -> Script {
        var s = Script(name: "bluetooth blocks the speaker", layer: .srtc)
        s.personalValues = [alice, airPods, airPodsId, "family-call-" + alice]
        let bt = airPodsId + "-tsco"
        s.add(300, system, .deviceConnected(id: bt, kind: .bluetooth, name: airPods, port: "BluetoothHFP"))
        s.add(320, sdk, .routeSnapshot(route: .bluetooth, ports: ["BluetoothA2DPOutput:" + airPods]))
        s.add(960, app, .joinChannel(channel: "family-call-" + alice))
        s.add(960, server, .connEngine(.seaStart))
        s.add(1010, server, .connState(.connecting))
        s.add(1035, system, .micPermission(.granted))
        s.add(1060, sdk, .sessionActivated(ok: true, category: "playAndRecord", mode: "voiceChat", options: ["allowBluetooth", "allowBluetoothA2DP"]))
        s.add(1080, sdk, .routeChanged(route: .bluetooth, previous: .bluetooth, reason: .categoryChange))
        s.add(1480, server, .connState(.connected))
        serverTraffic(&s, stride(from: 2600, to: 6000, by: 2000), seed: 1)
        s.add(6000, app, .setRoute(target: .speaker, api: "setSpeakerOutputEnabled(true)"))
        s.add(6001, sdk, .sdkLog(level: "warning", message: "setSpeakerOutputEnabled(true) not applied: \(airPods) has the route"))
        serverTraffic(&s, stride(from: 6600, to: 21000, by: 2000), seed: 2)
        s.add(21000, system, .deviceDisconnected(id: bt))
        s.add(21030, sdk, .overrideOutput(.speaker))
        s.add(21050, sdk, .routeChanged(route: .speaker, previous: .bluetooth, reason: .oldDeviceUnavailable))
        serverTraffic(&s, stride(from: 22600, to: 30000, by: 2000), seed: 3)
        s.add(30000, app, .setRoute(target: .earpiece, api: "setSpeakerOutputEnabled(false)"))
        s.add(30010, sdk, .overrideOutput(.none))
        s.add(30030, sdk, .routeChanged(route: .receiver, previous: .speaker, reason: .override))
        serverTraffic(&s, stride(from: 30600, to: 42000, by: 2000), seed: 4)
        s.add(42000, app, .leaveChannel)
        s.add(42040, sdk, .sessionDeactivated(notifyOthers: true))
        s.add(42055, sdk, .routeChanged(route: .speaker, previous: .receiver, reason: .categoryChange))
        s.add(42060, server, .connState(.disconnected))
        s.expectedVerdicts = [.init("api.setRoute", .ineffective, .externalRouteActive), .init("api.setRoute", .applied)]
        s.expectedFindings = [.init(.routeIneffective, .warning)]
        return s
    }

    /// SMeeting: a cellular call interrupts the meeting; the earpiece request made during it is
    /// deferred (I1), and applied when the SDK recovers after the call (I3).
    package static func systemCallInterruptsMeeting() -> Script {
        var s = Script(name: "a system call interrupts a meeting", layer: .smeeting)
        let room = "Board meeting Q3 with " + alice
        s.personalValues = [alice, room]
        s.add(960, server, .connEngine(.seaStart))
        s.add(1000, app, .enterMeeting(room: room))
        s.add(1010, server, .connState(.connecting))
        s.add(1035, system, .micPermission(.granted))
        s.add(1060, sdk, .sessionActivated(ok: true, category: "playAndRecord", mode: "voiceChat", options: ["allowBluetooth", "allowBluetoothA2DP"]))
        s.add(1075, sdk, .routeChanged(route: .receiver, previous: .speaker, reason: .categoryChange))
        s.add(1480, server, .connState(.connected))
        s.add(2000, server, .speakers(speaking: [Speaker(uid: alice, trackId: "mic-" + alice, level: 0.6)]))
        s.add(5000, app, .setRoute(target: .speaker, api: "setAudioRoute(.speaker)"))
        s.add(5030, sdk, .overrideOutput(.speaker))
        s.add(5050, sdk, .routeChanged(route: .speaker, previous: .receiver, reason: .override))
        serverTraffic(&s, stride(from: 6000, to: 15000, by: 2000), seed: 5)
        s.add(15000, system, .callState(.incoming))
        s.add(15030, system, .interruptionBegan(cause: .systemCall))
        s.add(15040, sdk, .sdkInterrupted)
        s.add(15045, sdk, .sdkCallStateChanged(.incoming))
        s.add(16000, app, .setRoute(target: .earpiece, api: "setAudioRoute(.earpiece)"))
        s.add(18000, system, .callState(.connected))
        s.add(18010, sdk, .sdkCallStateChanged(.connected))
        serverTraffic(&s, stride(from: 20000, to: 40000, by: 2000), seed: 6)
        s.add(40000, system, .callState(.disconnected))
        s.add(40010, sdk, .sdkCallStateChanged(.disconnected))
        s.add(40400, system, .interruptionEnded(shouldResume: true))
        s.add(40430, sdk, .sessionActivated(ok: true, category: "playAndRecord", mode: "voiceChat", options: ["allowBluetooth", "allowBluetoothA2DP"]))
        s.add(40440, sdk, .overrideOutput(.none))
        s.add(40460, sdk, .routeChanged(route: .receiver, previous: .speaker, reason: .override))
        s.add(40470, sdk, .sdkRecovered)
        serverTraffic(&s, stride(from: 42000, to: 60000, by: 2000), seed: 7)
        s.add(60000, app, .exitMeeting)
        s.add(60040, sdk, .sessionDeactivated(notifyOthers: true))
        s.add(60055, sdk, .routeChanged(route: .speaker, previous: .receiver, reason: .categoryChange))
        s.add(60060, server, .connState(.disconnected))
        s.expectedVerdicts = [.init("api.setRoute", .applied), .init("api.setRoute", .deferred, .interrupted)]
        s.expectedFindings = [.init(.routeIneffective, .info)]
        return s
    }

    /// SRTC with CallKit: the user answers the app's call, CallKit activates the session (didActivate)
    /// and the SDK joins; a speaker request applies; the call ends through CallKit.
    package static func callKitAnswer() -> Script {
        var s = Script(name: "a CallKit answer", layer: .srtc)
        let callId = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        let channel = "support-line-" + alice
        s.personalValues = [alice, channel]
        s.add(500, system, .callKit(.answer, callId: callId))
        s.add(520, app, .joinChannel(channel: channel))
        s.add(520, server, .connEngine(.seaStart))
        s.add(540, system, .micPermission(.granted))
        s.add(700, system, .callKit(.didActivate, callId: callId))
        s.add(740, sdk, .routeChanged(route: .receiver, previous: .speaker, reason: .categoryChange))
        s.add(900, server, .connState(.connected))
        serverTraffic(&s, stride(from: 2000, to: 5000, by: 2000), seed: 8)
        s.add(5000, app, .setRoute(target: .speaker, api: "setSpeakerOutputPreferred(true)"))
        s.add(5030, sdk, .overrideOutput(.speaker))
        s.add(5050, sdk, .routeChanged(route: .speaker, previous: .receiver, reason: .override))
        serverTraffic(&s, stride(from: 6000, to: 30000, by: 2000), seed: 9)
        s.add(30000, system, .callKit(.end, callId: callId))
        s.add(30010, app, .leaveChannel)
        s.add(30040, system, .callKit(.didDeactivate, callId: callId))
        s.add(30055, sdk, .routeChanged(route: .speaker, previous: .speaker, reason: .categoryChange))
        s.add(30060, server, .connState(.disconnected))
        s.expectedVerdicts = [.init("api.setRoute", .applied)]
        return s
    }
}
