import TraceModel

/// A deterministic fleet of short, realistic traces for triage's summary: SDK versions with their own
/// rates of planted problems (an interruption the SDK does not recover from, I3, by default), a common mix
/// of everything else (clean calls, recovered interruptions, a speaker request blocked by AirPods, a route
/// request before the join that takes effect late; in SMeeting also an audio module left disabled), over
/// several iOS versions, device models and apps chosen independently of the version, with a few simulator
/// and Mac traces. The same seed gives the same fleet.
package struct SyntheticFleet {
    /// One SDK version of the fleet.
    package struct Version: Sendable {
        /// The header's `sdk`, e.g. `SRTC 4.6.2` (the layer follows the product name).
        package var sdk: String
        /// Traces of this version.
        package var traces: Int
        /// Percent of them in each planted scenario (drawn before the common mix).
        package var planted: [(Scenario, Int)]

        /// Percent of them in which the SDK does not recover from an interruption.
        package var notRecoveredPercent: Int { planted.first { $0.0 == .interruptionNotRecovered }?.1 ?? 0 }

        /// Creates a version with one planted error: the SDK does not recover from `notRecoveredPercent`
        /// percent of its traces' interruptions.
        package init(sdk: String, traces: Int, notRecoveredPercent: Int) {
            self.init(sdk: sdk, traces: traces, planted: [(.interruptionNotRecovered, notRecoveredPercent)])
        }

        /// Creates a version with the given planted scenarios and their percentages.
        package init(sdk: String, traces: Int, planted: [(Scenario, Int)]) {
            self.sdk = sdk
            self.traces = traces
            self.planted = planted
        }
    }

    /// The scenario a trace plays.
    package enum Scenario: String, CaseIterable, Sendable {
        /// A call with nothing wrong.
        case clean
        /// A cellular call interrupts; the SDK recovers after it ends.
        case interruptionRecovered
        /// Siri interrupts; the SDK's reactivation fails and nothing recovers (interruption.notRecovered).
        case interruptionNotRecovered
        /// AirPods have the route; the speaker request is ineffective (externalRouteActive).
        case speakerBlockedByAirPods
        /// A speaker request before the join takes effect at the join (deferred, notEngaged, then applied).
        case routeRequestBeforeJoin
        /// The audio module is disabled during the call and never enabled again (audioModule.leftDisabled).
        case audioModuleLeftDisabled
        /// The session is deactivated after the call without notifyOthers (session.missingNotifyOthers).
        case deactivatedWithoutNotifyOthers
        /// The call session is activated in mode `default` (session.wrongMode).
        case wrongSessionMode
        /// A speaker request the device never follows, and nothing recorded says why: an unexplained divergence.
        case speakerIgnored
    }

    /// One generated trace.
    package struct Trace: Sendable {
        /// A file name for it.
        package var name: String
        /// Its SDK version.
        package var sdk: String
        /// Its scenario.
        package var scenario: Scenario
        /// Its records.
        package var records: [Record]

        /// The records as JSON Lines.
        package var jsonLines: String { records.map(\.jsonLine).joined(separator: "\n") + "\n" }
    }

    /// The iOS versions and device models, picked uniformly and independently of the SDK version.
    package static let osVersions = ["iOS 16.7.2", "iOS 17.4.1", "iOS 17.5.1"]
    package static let deviceModels = ["iPhone13,3", "iPhone14,2", "iPhone15,2", "iPhone16,1"]
    /// The apps that embed the SDK, picked uniformly.
    package static let apps = (1...40).map { "com.example.app\($0 < 10 ? "0" : "")\($0)" }
    /// Per mille of traces from a simulator (`arm64`), and from a Mac (`Mac14,2`, `macOS 14.4`): clean calls.
    package static let simulatorPerMille = 20, macPerMille = 15

    /// Percent of the traces of every version in each scenario of the common mix (the rest is clean).
    package static let mix: [(Scenario, Int)] = [(.interruptionRecovered, 20), (.speakerBlockedByAirPods, 15), (.routeRequestBeforeJoin, 15)]
    /// What SMeeting's traces add to the mix: the same share in every version, none in SRTC's.
    package static let meetingMix: [(Scenario, Int)] = [(.audioModuleLeftDisabled, 8)]

    /// The fleet, version by version; `day` is the date of every trace's start.
    package static func make(seed: UInt64, versions: [Version], day: String = "2026-11-29") -> [Trace] {
        var rng = SplitMix64(seed: seed)
        var out: [Trace] = []
        for (v, version) in versions.enumerated() {
            let meeting = version.sdk.hasPrefix("SMeeting")
            for i in 0..<version.traces {
                var scenario = Scenario.clean
                var roll = rng.below(100)
                for (s, percent) in version.planted {
                    if roll < percent { scenario = s; break }
                    roll -= percent
                }
                if scenario == .clean {
                    var roll = rng.below(100)
                    for (s, percent) in (meeting ? meetingMix : []) + mix {
                        if roll < percent { scenario = s; break }
                        roll -= percent
                    }
                }
                var os = rng.pick(osVersions), device = rng.pick(deviceModels), simulator = false
                let odd = rng.below(1000)
                if odd < simulatorPerMille {
                    (scenario, device, simulator) = (.clean, "arm64", true)
                } else if odd < simulatorPerMille + macPerMille {
                    (scenario, device, os) = (.clean, "Mac14,2", "macOS 14.4")
                }
                let header = TraceHeader(layer: meeting ? .smeeting : .srtc, sdk: version.sdk, device: .init(model: device, os: os, simulator: simulator),
                                         app: .init(bundleId: rng.pick(apps), version: "2.\(rng.below(3)).0"),
                                         startedAt: startTime(day: day, minute: (v * 100_000 + i) % 1440))
                out.append(Trace(name: "v\(v)-\(String(i + 100_000).dropFirst())-\(scenario.rawValue).jsonl", sdk: version.sdk,
                                 scenario: scenario, records: trace(scenario, header: header, rng: &rng)))
            }
        }
        return out
    }

    static func startTime(day: String, minute: Int) -> String { "\(day)T\(pad(minute / 60)):\(pad(minute % 60)):00+08:00" }

    /// The records of one trace.
    static func trace(_ scenario: Scenario, header: TraceHeader, rng: inout SplitMix64) -> [Record] {
        let layer = header.layer
        var events: [(Int64, RecordBody)] = []
        func at(_ t: Int64, _ b: RecordBody) { events.append((t, b)) }
        let name = "room-\(rng.below(5000))", uid = "u\(rng.below(100_000))"
        let voice = SessionActivation(ok: true, category: "playAndRecord", mode: scenario == .wrongSessionMode ? "default" : "voiceChat",
                                      options: ["allowBluetooth", "allowBluetoothA2DP"])
        at(0, .header(header))
        at(960, .connEngine(vendor: .seaStart))
        if scenario == .routeRequestBeforeJoin { at(500, .setRoute(target: .speaker, api: "setAudioRoute(.speaker)")) }
        at(1000, layer == .srtc ? .joinChannel(channel: name, uid: uid) : .enterMeeting(room: name, uid: uid))
        at(1010, .connState(state: .connecting))
        at(1035, .micPermission(status: .granted))
        at(1060, .sessionActivated(voice))
        // A simulator has no earpiece: the call path comes up on the speaker.
        at(1075, .routeChanged(route: header.device.simulator ? .speaker : .receiver, previousRoute: .speaker, reason: .categoryChange))
        if scenario == .routeRequestBeforeJoin {
            at(1080, .overrideOutput(port: .speaker))
            at(1095, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .override))
        }
        at(1480, .connState(state: .connected))
        var end: Int64 = 30000
        switch scenario {
        case .clean, .routeRequestBeforeJoin, .deactivatedWithoutNotifyOthers, .wrongSessionMode:
            end = 30000 + Int64(rng.below(20)) * 1000
        case .interruptionRecovered:
            at(20000, .callState(state: .incoming))
            at(20040, .interruptionBegan(cause: .systemCall, wasSuspended: nil))
            at(20050, .sdkInterrupted)
            at(20055, .sdkCallStateChanged(state: .incoming))
            at(24000, .callState(state: .connected))
            at(24010, .sdkCallStateChanged(state: .connected))
            at(30000, .interruptionEnded(shouldResume: true))
            at(60000, .callState(state: .disconnected))
            at(60010, .sdkCallStateChanged(state: .disconnected))
            at(62020, .sessionActivated(voice))
            at(62040, .routeChanged(route: .receiver, previousRoute: .receiver, reason: .categoryChange))
            at(62050, .sdkRecovered)
            end = 80000
        case .interruptionNotRecovered:
            at(9000, .interruptionBegan(cause: .siri, wasSuspended: nil))
            at(9010, .sdkInterrupted)
            at(13000, .interruptionEnded(shouldResume: true))
            at(13040, .sessionActivated(SessionActivation(ok: false, error: "isBusy", category: "playAndRecord", mode: "voiceChat",
                                                          options: ["allowBluetooth", "allowBluetoothA2DP"])))
            end = 40000
        case .speakerBlockedByAirPods:
            at(4200, .deviceConnected(id: "bt-1", kind: .bluetooth, name: "AirPods Pro", port: "BluetoothHFP"))
            at(4260, .routeChanged(route: .bluetooth, previousRoute: .receiver, reason: .newDeviceAvailable))
            at(9000, .setRoute(target: .speaker, api: "setSpeakerOutputPreferred(true)"))
            at(9400, .routeSnapshot(route: .bluetooth, ports: ["BluetoothHFP"]))
            at(16000, .deviceDisconnected(id: "bt-1"))
            at(16020, .overrideOutput(port: .speaker))
            at(16040, .routeChanged(route: .speaker, previousRoute: .bluetooth, reason: .oldDeviceUnavailable))
        case .audioModuleLeftDisabled:
            at(12000, .setAudioModuleEnabled(enabled: false))
        case .speakerIgnored:
            at(9000, .setRoute(target: .speaker, api: "setAudioRoute(.speaker)"))
            at(9400, .routeSnapshot(route: .receiver, ports: ["Receiver"]))
        }
        var t: Int64 = 2600
        while t < end {
            let mos = Double(380 + rng.below(40)) / 100
            let sample = QualitySample(level: .good, score: Double(80 + rng.below(10)), mos: mos, loss: 0.01, rtt: Double(60 + rng.below(60)),
                                       jitter: Double(5 + rng.below(10)), bitrate: Double(600 + rng.below(400)))
            at(t, .qualityReport(pub: sample, sub: sample))
            t += 2000
        }
        at(end, layer == .srtc ? .leaveChannel : .exitMeeting)
        at(end + 40, .sessionDeactivated(notifyOthers: scenario != .deactivatedWithoutNotifyOthers, ok: nil, error: nil))
        at(end + 60, .connState(state: .disconnected))
        // Stable by time: records of one ms keep the order they were made in.
        let sorted = events.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
        return sorted.enumerated().map { Record(seq: $0.offset, t: $0.element.element.0, $0.element.element.1) }
    }

    static func pad(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
}
