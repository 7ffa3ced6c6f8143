import TraceFixtures
import TraceModel
import TraceRecorder

extension Scenarios {
    /// When the 30-minute meeting's app is killed and when it starts again (ms since the session began).
    package static let meetingKillAt: Int64 = 12 * 60_000
    package static let meetingRestartAt: Int64 = 12 * 60_000 + 5000

    /// SMeeting, 30 minutes, ~6,000 records: bluetooth blocks a speaker request, the app is killed at
    /// minute 12 (no record between `meetingKillAt` and `meetingRestartAt`) and re-enters the meeting
    /// when restarted, restoring its speaker choice; a system call then defers an earpiece request, and
    /// a last speaker request applies.
    package static func thirtyMinuteMeeting() -> Script {
        var s = Script(name: "a 30-minute meeting", layer: .smeeting)
        let room = "Quarterly review – " + alice
        s.personalValues = [alice, bob, room, airPods, airPodsId]
        var g = SplitMix64(seed: 30)
        var events: [(Int64, Int, TraceRecorder.Event)] = []
        func at(_ t: Int64, _ lane: Int, _ e: TraceRecorder.Event) { events.append((t, lane, e)) }
        func activation(_ t: Int64) {
            at(t, sdk, .sessionActivated(ok: true, category: "playAndRecord", mode: "voiceChat", options: ["allowBluetooth", "allowBluetoothA2DP"]))
        }
        let min: Int64 = 60_000
        // Entering.
        at(960, server, .connEngine(.seaStart))
        at(1000, app, .enterMeeting(room: room))
        at(1010, server, .connState(.connecting))
        at(1035, system, .micPermission(.granted))
        activation(1060)
        at(1075, sdk, .routeChanged(route: .receiver, previous: .speaker, reason: .categoryChange))
        at(1480, server, .connState(.connected))
        // Bluetooth arrives and blocks the speaker, then leaves: the override takes the speaker (R5).
        let bt = airPodsId + "-tsco"
        at(3 * min, system, .deviceConnected(id: bt, kind: .bluetooth, name: airPods, port: "BluetoothHFP"))
        at(3 * min + 40, sdk, .routeChanged(route: .bluetooth, previous: .receiver, reason: .newDeviceAvailable))
        at(4 * min + 100, app, .setRoute(target: .speaker, api: "setAudioRoute(.speaker)"))
        at(8 * min + 100, system, .deviceDisconnected(id: bt))
        at(8 * min + 130, sdk, .overrideOutput(.speaker))
        at(8 * min + 150, sdk, .routeChanged(route: .speaker, previous: .bluetooth, reason: .oldDeviceUnavailable))
        // Killed at meetingKillAt; restarted, the Apple adapter records what iOS says as it starts (the
        // permission), and the app re-enters and restores its speaker choice.
        let r = meetingRestartAt
        at(r, system, .micPermission(.granted))
        at(r, app, .enterMeeting(room: room))
        at(r + 10, server, .connState(.connecting))
        activation(r + 40)
        at(r + 60, sdk, .routeChanged(route: .receiver, previous: .speaker, reason: .categoryChange))
        at(r + 300, app, .setRoute(target: .speaker, api: "setAudioRoute(.speaker)"))
        at(r + 330, sdk, .overrideOutput(.speaker))
        at(r + 350, sdk, .routeChanged(route: .speaker, previous: .receiver, reason: .override))
        at(r + 480, server, .connState(.connected))
        // A system call: the earpiece request during it is deferred, and applied at the recovery.
        at(15 * min + 100, system, .callState(.incoming))
        at(15 * min + 130, system, .interruptionBegan(cause: .systemCall))
        at(15 * min + 140, sdk, .sdkInterrupted)
        at(15 * min + 30_100, app, .setRoute(target: .earpiece, api: "setAudioRoute(.earpiece)"))
        at(16 * min + 100, system, .callState(.connected))
        at(20 * min + 100, system, .callState(.disconnected))
        at(20 * min + 500, system, .interruptionEnded(shouldResume: true))
        activation(20 * min + 530)
        at(20 * min + 540, sdk, .overrideOutput(.none))
        at(20 * min + 560, sdk, .routeChanged(route: .receiver, previous: .speaker, reason: .override))
        at(20 * min + 570, sdk, .sdkRecovered)
        // A last speaker request, then the exit.
        at(25 * min + 100, app, .setRoute(target: .speaker, api: "setAudioRoute(.speaker)"))
        at(25 * min + 130, sdk, .overrideOutput(.speaker))
        at(25 * min + 150, sdk, .routeChanged(route: .speaker, previous: .receiver, reason: .override))
        at(30 * min - 1000, app, .exitMeeting)
        at(30 * min - 960, sdk, .sessionDeactivated(notifyOthers: true))
        at(30 * min - 945, sdk, .routeChanged(route: .speaker, previous: .speaker, reason: .categoryChange))
        at(30 * min - 940, server, .connState(.disconnected))
        // Traffic while in the meeting: server reports every 2 s with an SDK log line at the same moment
        // (another thread), speaker updates every 1.5 s, an SDK debug line every 0.5 s. The SDK reports
        // its level changes and speaker snapshots from its own state, which the kill wipes: after the
        // restart its baseline is unknown again and its speaker set empty, as the part marked resumed says.
        let up = { (t: Int64) in t > 1500 && t < 30 * min - 1000 && !(t >= meetingKillAt && t <= r + 500) }
        var sdkBaseline = QualityLevel.unknown
        var restartedQuality = false
        for t in stride(from: Int64(2000), to: 30 * min, by: 2000) where up(t) {
            if t > r && !restartedQuality {
                restartedQuality = true
                sdkBaseline = .unknown
            }
            at(t, server, .qualityReport(pub: good(&g), sub: excellent(&g)))
            at(t, sdk, .sdkLog(level: "debug", message: "rtp stats for \(alice): nack=\(g.below(40)) pli=\(g.below(3))"))
            if sdkBaseline != .good {
                at(t + 5, sdk, .sdkQualityChanged(overall: .good, previous: sdkBaseline, mos: 4.0))
                sdkBaseline = .good
            }
        }
        var sdkSpeakers: [SpeakerKey: Double] = [:]
        var restartedSpeakers = false
        for t in stride(from: Int64(2750), to: 30 * min, by: 1500) where up(t) {
            if t > r && !restartedSpeakers {
                restartedSpeakers = true
                sdkSpeakers = [:]
                // Someone else speaks first in the new process: its snapshot knows nothing of before.
                let bobKey = SpeakerKey(uid: bob, trackId: "mic-" + bob)
                sdkSpeakers[bobKey] = 0.7
                at(t - 500, server, .speakers(speaking: [Speaker(uid: bob, trackId: "mic-" + bob, level: 0.7)]))
                at(t - 495, sdk, .sdkActiveSpeakers(snapshot(sdkSpeakers)))
            }
            let level = Double(g.below(100)) / 100
            let key = SpeakerKey(uid: alice, trackId: "mic-" + alice)
            if g.below(4) == 0 {
                at(t, server, .speakers(speaking: [], stopped: [key]))
                sdkSpeakers[key] = nil
            } else {
                at(t, server, .speakers(speaking: [Speaker(uid: alice, trackId: "mic-" + alice, level: level)]))
                sdkSpeakers[key] = level
            }
            at(t + 5, sdk, .sdkActiveSpeakers(snapshot(sdkSpeakers)))
        }
        for t in stride(from: Int64(2250), to: 30 * min, by: 500) where up(t) && t % 2000 != 0 {
            at(t, sdk, .sdkLog(level: "debug", message: "audio level \(g.below(100)) jitter buffer \(20 + g.below(60)) ms"))
        }
        // Stable: records at the same time keep their order of creation, lanes aside.
        for (t, lane, e) in events.enumerated().sorted(by: { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }).map(\.element) {
            s.add(t, lane, e)
        }
        s.restartAt = r
        // The restored speaker choice is applied: the new process started without the dead one's override.
        s.expectedVerdicts = [.init("api.setRoute", .ineffective, .externalRouteActive), .init("api.setRoute", .applied),
                              .init("api.setRoute", .deferred, .interrupted), .init("api.setRoute", .applied)]
        s.expectedFindings = [.init(.routeIneffective, .warning), .init(.routeIneffective, .info)]
        return s
    }

    /// A speaker snapshot as the SDK emits it: by level, highest first, then uid and track id (S2).
    static func snapshot(_ set: [SpeakerKey: Double]) -> [Speaker] {
        set.map { Speaker(uid: $0.key.uid, trackId: $0.key.trackId, level: $0.value) }
            .sorted { ($0.level, $1.uid, $1.trackId) > ($1.level, $0.uid, $0.trackId) }
    }
}
