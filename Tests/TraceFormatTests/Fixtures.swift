import Foundation
import TraceFormat

/// Records of every type, for round trips and container tests.
enum Fixtures {
    static let header = TraceHeader(layer: .smeeting, sdk: "SMeeting 3.2.1",
                                    device: .init(model: "iPhone15,2", os: "iOS 17.4", simulator: false),
                                    app: .init(bundleId: "com.example.meet", micUsageDescription: true, backgroundAudio: false),
                                    startedAt: "2026-11-29T10:00:00Z", initialDefaultRoute: .speaker)

    static let bodies: [RecordBody] = [
        .header(header),
        .joinChannel(channel: "ch-1"), .leaveChannel, .enterMeeting(room: "room \"A\"\n"), .exitMeeting,
        .setDefaultRoute(target: .speaker), .setRoute(target: .earpiece, api: "setSpeakerOutputEnabled(false)"),
        .setRoute(target: .speaker, api: nil), .clearRouteOverride, .setAudioModuleEnabled(enabled: false),
        .subscribe(pubUid: "u1", trackId: "v1", layers: ["v1-h", "v1-m", "v1-l"]),
        .switchLayer(pubUid: "u1", trackId: "v1", targetTrackId: "v1-l"),
        .deviceConnected(id: "bt-1", kind: .bluetooth, name: "AirPods Pro ☃", port: "BluetoothHFP"),
        .deviceConnected(id: "hs-1", kind: .headset, name: nil, port: nil), .deviceDisconnected(id: "bt-1"),
        .micPermission(status: .denied), .interruptionBegan(cause: .systemCall), .interruptionBegan(cause: nil),
        .interruptionEnded(shouldResume: true), .interruptionEnded(shouldResume: nil),
        .callState(state: .connected), .appState(state: .background),
        .mediaServicesReset, .callKit(event: .answer, callId: "8C1F0A5E-4F4B-4D39-9E1B-1B6A4C4F2D10"), .callKit(event: .didActivate, callId: nil),
        .dropped(count: 17, fromT: 1200, toT: 1450),
        .routeChanged(route: .bluetooth, previousRoute: .speaker, reason: .newDeviceAvailable),
        .routeSnapshot(route: .receiver, ports: ["BuiltInReceiver"]), .routeSnapshot(route: .unknown, ports: nil),
        .sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: "voiceChat", options: ["allowBluetooth", "defaultToSpeaker"])),
        .sessionActivated(SessionActivation(ok: false, error: "cannotInterruptOthers", category: "playAndRecord", mode: "voiceChat", options: [])),
        .sessionDeactivated(notifyOthers: false), .overrideOutput(port: .speaker), .overrideOutput(port: .none),
        .sdkInterrupted, .sdkRecovered, .sdkCallStateChanged(state: .held),
        .sdkQualityChanged(overall: .poor, previous: .good, mos: 3.25), .sdkQualityChanged(overall: .good, previous: .unknown, mos: nil),
        .sdkActiveSpeakers(speakers: [Speaker(uid: "u2", trackId: "a2", level: 0.75), Speaker(uid: "u1", trackId: "a1", level: 0.5)]),
        .sdkLayerSwitched(LayerSwitch(pubUid: "u1", trackId: "v1", fromTrackId: "v1-h", toTrackId: "v1-l", reason: "client", latencyMs: 120)),
        .sdkError(api: "switchLayer", error: "transportNotReady"), .sdkLog(level: "warn", message: "route \u{1B}[31m red"),
        .connEngine(vendor: .wangsu), .connState(state: .reconnecting),
        .qualityReport(pub: QualitySample(level: .good, score: 82, mos: 4.1, loss: 0.012, rtt: 85, jitter: 6.5, bitrate: 820),
                       sub: QualitySample(level: .poor, score: 41, mos: 3.05, loss: 0.08, rtt: 210, jitter: 31, bitrate: 310)),
        .qualityReport(pub: QualitySample(level: .unknown), sub: QualitySample(level: .lost, mos: 1.0)),
        .speakers(speaking: [Speaker(uid: "u1", trackId: "a1", level: 0.5)], stopped: [SpeakerKey(uid: "u3", trackId: "a3")]),
        .srvLayerSwitched(LayerSwitch(pubUid: "u1", trackId: "v1", toTrackId: "v1-m", reason: "bwe_down")),
        .expect(Expectation(.route(.bluetooth), rule: "R4")), .expect(Expectation(.route(nil), atEnd: true)),
        .expect(Expectation(.target(.earpiece))), .expect(Expectation(.override(nil))), .expect(Expectation(.override(.speaker))),
        .expect(Expectation(.engaged(true))), .expect(Expectation(.audioModule(false))), .expect(Expectation(.interrupted(true))),
        .expect(Expectation(.verdict(ref: 6, verdict: .ineffective, cause: .externalRouteActive), rule: "V1")),
        .expect(Expectation(.verdict(ref: 5, verdict: .applied, cause: nil))),
        .expect(Expectation(.quality(nil))), .expect(Expectation(.quality(.init(overall: .poor, mos: 3.05)), rule: "Q1")),
        .expect(Expectation(.qualityChanges([.init(previous: .unknown, overall: .good), .init(previous: .good, overall: .poor)]))),
        .expect(Expectation(.speakers([SpeakerKey(uid: "u2", trackId: "a2")]))),
        .expect(Expectation(.finding(code: "route.ineffective", count: 2))), .expect(Expectation(.finding(code: "x", count: nil))),
        .expect(Expectation(.noFinding(code: "route.divergence"))), .expect(Expectation(.divergences(count: 1), atEnd: true)),
        .unknown(type: "custom.thing", json: "{\"seq\":0,\"t\":0,\"type\":\"custom.thing\",\"x\":[1,{\"y\":null}]}"),
    ]

    /// `count` records cycling through `bodies` (header first), with consecutive seqs.
    static func records(_ count: Int, step: Int64 = 10) -> [Record] {
        (0..<count).map { i in
            var body = i == 0 ? bodies[0] : bodies[1 + (i - 1) % (bodies.count - 2)]
            if case .header = body, i != 0 { body = .leaveChannel }
            return Record(seq: i, t: Int64(i) * step, body)
        }
    }

    static func tempDir() -> String {
        let dir = NSTemporaryDirectory() + "rtctrace-tests-\(getpid())-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Runs a command, returning exit status and stdout.
    @discardableResult
    static func run(_ exe: String, _ args: [String], stdin: Data? = nil) -> (status: Int32, out: Data, err: Data) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardError = err
        if stdin != nil { p.standardInput = inp }
        try! p.run()
        if let stdin { inp.fileHandleForWriting.write(stdin); try? inp.fileHandleForWriting.close() }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, o, e)
    }

    /// Reads every event of a trace.
    static func readAll(_ path: String) throws -> (records: [Record], problems: [TraceProblem]) {
        let reader = try TraceReader(path: path)
        var records: [Record] = [], problems: [TraceProblem] = []
        while let e = reader.next() {
            switch e {
            case .record(let r): records.append(r)
            case .problem(let p): problems.append(p)
            }
        }
        return (records, problems)
    }
}
