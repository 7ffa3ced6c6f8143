import TraceModel

/// A deterministic fleet of short, realistic traces for triage's summary: SDK versions with their own
/// rate of one planted error (an interruption the SDK does not recover from, I3), and a common mix of
/// everything else (clean calls, recovered interruptions, a speaker request blocked by AirPods, a route
/// request before the join that takes effect late), over several iOS versions and device models chosen
/// independently of the version. The same seed gives the same fleet.
public struct SyntheticFleet {
    /// One SDK version of the fleet.
    public struct Version: Sendable {
        /// The header's `sdk`, e.g. `SRTC 4.6.2` (the layer follows the product name).
        public var sdk: String
        /// Traces of this version.
        public var traces: Int
        /// Percent of them in which the SDK does not recover from an interruption (the planted error).
        public var notRecoveredPercent: Int

        /// Creates a version.
        public init(sdk: String, traces: Int, notRecoveredPercent: Int) {
            self.sdk = sdk
            self.traces = traces
            self.notRecoveredPercent = notRecoveredPercent
        }
    }

    /// The scenario a trace plays.
    public enum Scenario: String, CaseIterable, Sendable {
        /// A call with nothing wrong.
        case clean
        /// A cellular call interrupts; the SDK recovers after it ends.
        case interruptionRecovered
        /// Siri interrupts; the SDK's reactivation fails and nothing recovers (interruption.notRecovered): the planted error.
        case interruptionNotRecovered
        /// AirPods have the route; the speaker request is ineffective (externalRouteActive).
        case speakerBlockedByAirPods
        /// A speaker request before the join takes effect at the join (deferred, notEngaged, then applied).
        case routeRequestBeforeJoin
    }

    /// One generated trace.
    public struct Trace: Sendable {
        /// A file name for it.
        public var name: String
        /// Its SDK version.
        public var sdk: String
        /// Its scenario.
        public var scenario: Scenario
        /// Its records.
        public var records: [Record]

        /// The records as JSON Lines.
        public var jsonLines: String { records.map(\.jsonLine).joined(separator: "\n") + "\n" }
    }

    /// The iOS versions and device models, picked uniformly and independently of the SDK version.
    public static let osVersions = ["iOS 16.7.2", "iOS 17.4.1", "iOS 17.5.1"]
    public static let deviceModels = ["iPhone13,3", "iPhone14,2", "iPhone15,2", "iPhone16,1"]

    /// Percent of the traces of every version in each scenario other than the planted one (the rest is clean).
    public static let mix: [(Scenario, Int)] = [(.interruptionRecovered, 20), (.speakerBlockedByAirPods, 15), (.routeRequestBeforeJoin, 15)]

    /// The fleet, version by version.
    public static func make(seed: UInt64, versions: [Version]) -> [Trace] {
        var rng = SplitMix64(seed: seed)
        var out: [Trace] = []
        for (v, version) in versions.enumerated() {
            for i in 0..<version.traces {
                var scenario = Scenario.clean
                if rng.below(100) < version.notRecoveredPercent {
                    scenario = .interruptionNotRecovered
                } else {
                    var roll = rng.below(100)
                    for (s, percent) in mix {
                        if roll < percent { scenario = s; break }
                        roll -= percent
                    }
                }
                let records = trace(scenario, sdk: version.sdk, os: rng.pick(osVersions), device: rng.pick(deviceModels),
                                    index: v * 100_000 + i, rng: &rng)
                out.append(Trace(name: "v\(v)-\(String(i + 100_000).dropFirst())-\(scenario.rawValue).jsonl", sdk: version.sdk,
                                 scenario: scenario, records: records))
            }
        }
        return out
    }

    /// The records of one trace.
    static func trace(_ scenario: Scenario, sdk: String, os: String, device: String, index: Int, rng: inout SplitMix64) -> [Record] {
        let layer: Layer = sdk.hasPrefix("SMeeting") ? .smeeting : .srtc
        let minute = index % 1440
        let started = "2026-11-29T\(pad(minute / 60)):\(pad(minute % 60)):00+08:00"
        var events: [(Int64, RecordBody)] = []
        func at(_ t: Int64, _ b: RecordBody) { events.append((t, b)) }
        let name = "room-\(rng.below(5000))", uid = "u\(rng.below(100_000))"
        let voice = SessionActivation(ok: true, category: "playAndRecord", mode: "voiceChat", options: ["allowBluetooth", "allowBluetoothA2DP"])
        at(0, .header(TraceHeader(layer: layer, sdk: sdk, device: .init(model: device, os: os),
                                  app: .init(bundleId: "com.example.rtcdemo", version: "2.\(rng.below(3)).0"), startedAt: started)))
        at(960, .connEngine(vendor: .seaStart))
        if scenario == .routeRequestBeforeJoin { at(500, .setRoute(target: .speaker, api: "setAudioRoute(.speaker)")) }
        at(1000, layer == .srtc ? .joinChannel(channel: name, uid: uid) : .enterMeeting(room: name, uid: uid))
        at(1010, .connState(state: .connecting))
        at(1035, .micPermission(status: .granted))
        at(1060, .sessionActivated(voice))
        at(1075, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange))
        if scenario == .routeRequestBeforeJoin {
            at(1080, .overrideOutput(port: .speaker))
            at(1095, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .override))
        }
        at(1480, .connState(state: .connected))
        var end: Int64 = 30000
        switch scenario {
        case .clean, .routeRequestBeforeJoin:
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
        at(end + 40, .sessionDeactivated(notifyOthers: true, ok: nil, error: nil))
        at(end + 60, .connState(state: .disconnected))
        // Stable by time: records of one ms keep the order they were made in.
        let sorted = events.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
        return sorted.enumerated().map { Record(seq: $0.offset, t: $0.element.element.0, $0.element.element.1) }
    }

    static func pad(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
}
