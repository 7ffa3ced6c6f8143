import TraceModel

/// A deterministic generator of realistic session records: mostly quality reports and speaker
/// updates, some SDK events, and now and then route activity.
package struct Synth {
    var rng: SplitMix64
    /// The time of the last record made.
    package var t: Int64 = 0
    /// The seq the next record gets.
    package var seq = 0
    var level: QualityLevel = .good
    var speaking: [Speaker] = []
    var bluetooth = false
    var override: RouteTarget?
    var route: Route = .speaker
    /// Records that must follow the last one (the device's route change after a request).
    var pending: [RecordBody] = []

    /// A generator; the same seed gives the same records.
    package init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func int(_ n: Int) -> Int { rng.below(n) }
    mutating func unit() -> Double { rng.unit() }
    mutating func round2(_ v: Double) -> Double { (v * 100).rounded() / 100 }

    mutating func sample(_ l: QualityLevel) -> QualitySample {
        let base: Double = l == .excellent ? 95 : l == .good ? 80 : l == .poor ? 45 : 10
        return QualitySample(level: l, score: round2(base + unit() * 5), mos: round2(1 + base / 100 * 3.4 + unit() * 0.1),
                             loss: round2(unit() * (l.isBad ? 0.2 : 0.02)), rtt: Double(40 + int(l.isBad ? 400 : 80)),
                             jitter: Double(2 + int(30)), bitrate: Double(300 + int(1200)))
    }

    /// The first records: header, join, session, connection.
    package mutating func prologue() -> [RecordBody] {
        [.header(TraceHeader(layer: .smeeting, sdk: "SMeeting 3.2.1", device: .init(model: "iPhone15,2", os: "iOS 17.4"),
                             app: .init(bundleId: "com.example.meet"), startedAt: "2026-11-29T10:00:00Z", initialDefaultRoute: .speaker)),
         .micPermission(status: .granted), .enterMeeting(room: "weekly-sync"),
         .sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: "videoChat",
                                             options: ["allowBluetooth", "allowBluetoothA2DP", "defaultToSpeaker"])),
         .routeChanged(route: .speaker, previousRoute: .receiver, reason: .categoryChange),
         .connEngine(vendor: .seaStart), .connState(state: .connected),
         .subscribe(pubUid: "u2", trackId: "cam-u2", layers: ["cam-u2-h", "cam-u2-m", "cam-u2-l"])]
    }

    /// The next record of the steady state.
    package mutating func body() -> RecordBody {
        let r = int(1000)
        switch r {
        case 0..<420:
            if int(200) == 0 { level = [.excellent, .good, .good, .poor][int(4)] }
            let other: QualityLevel = int(10) == 0 ? .excellent : .good
            return .qualityReport(pub: sample(level), sub: sample(other))
        case 420..<780:
            return speakerUpdate()
        case 780..<900:
            return activeSpeakers()
        case 900..<950:
            return .sdkLog(level: "info", message: "rtp stats ssrc=\(int(1 << 30)) nack=\(int(40)) pli=\(int(3))")
        case 950..<965:
            bluetooth.toggle()
            follow()
            return bluetooth ? .deviceConnected(id: "bt-1", kind: .bluetooth, name: "AirPods Pro", port: "BluetoothHFP")
                : .deviceDisconnected(id: "bt-1")
        case 965..<980:
            override = int(2) == 0 ? .speaker : .earpiece
            follow()
            return .setRoute(target: override!, api: override == .speaker ? "setAudioRoute(.speaker)" : "setAudioRoute(.earpiece)")
        case 980..<990:
            override = nil
            follow()
            return .clearRouteOverride
        default:
            return .routeSnapshot(route: route, ports: nil)
        }
    }

    /// Queues the device's route change that follows a route request or a device change (a healthy SDK).
    mutating func follow() {
        let next: Route = bluetooth ? .bluetooth : (override ?? .speaker).route
        guard next != route else { return }
        pending.append(.routeChanged(route: next, previousRoute: route,
                                     reason: bluetooth ? .newDeviceAvailable : override != nil ? .override : .oldDeviceUnavailable))
        route = next
    }

    /// The next record with its seq and time.
    package mutating func nextRecord() -> Record {
        defer { seq += 1 }
        if !pending.isEmpty {
            t += 40
            return Record(seq: seq, t: t, pending.removeFirst())
        }
        t += Int64(50 + int(300))
        return Record(seq: seq, t: t, body())
    }
}
