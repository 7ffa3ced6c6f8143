import Foundation
import Replay
import TraceCodec
import TraceFixtures
import TraceModel

/// Where the tests find the project's files, where they write theirs, and records to test with.
package enum Fixtures {
    /// The package root (this file is Tests/TestSupport/Fixtures.swift).
    package static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The golden corpus folder.
    package static var traces: String { root + "/traces" }

    /// A golden trace by file name.
    package static func trace(_ name: String) -> String { traces + "/" + name }

    /// Every golden trace (`.jsonl`, `.jsonl.zst`, `.trace.zst`) as a path relative to traces/, sorted.
    package static func goldenTraceNames() -> [String] {
        var names: [String] = []
        for case let f as String in FileManager.default.enumerator(atPath: traces)! where f.hasSuffix(".jsonl") || f.hasSuffix(".zst") {
            names.append(f)
        }
        return names.sorted()
    }

    /// The artifacts folder (git-ignored) for files a human may want to look at, created when missing.
    package static var artifacts: String {
        let dir = root + "/artifacts"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A fresh, uniquely named temporary folder.
    package static func tempDir(_ purpose: String = "tests") -> String {
        let dir = NSTemporaryDirectory() + "rtctrace-\(purpose)-\(getpid())-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Every event of a trace: its records and the problems the reader reported, in order of kind.
    package static func readAll(_ path: String, limits: ReaderLimits = .standard) throws
        -> (records: [Record], problems: [TraceProblem]) {
        let reader = try TraceReader(path: path, limits: limits)
        var records: [Record] = [], problems: [TraceProblem] = []
        while let e = reader.next() {
            switch e {
            case .record(let r): records.append(r)
            case .problem(let p): problems.append(p)
            }
        }
        return (records, problems)
    }

    /// Writes `count` records of a generated bench session to a compressed trace at `path`, `frameRecords`
    /// to a frame, and returns the path.
    package static func writeBenchSession(_ kind: BenchSession.Kind, _ count: Int, to path: String, frameRecords: Int) throws -> String {
        var o = TraceWriter.Options()
        o.frameRecords = frameRecords
        let w = try TraceWriter(path: path, options: o)
        var g = BenchSession(kind)
        for _ in 0..<count { try w.append(g.nextRecord()) }
        try w.close()
        return path
    }

    /// Two damaged copies of the trace at `path`, written beside it: its last frame torn short (as a crash
    /// mid-write leaves it) and a byte flipped inside a frame in the middle (its checksum or its decoding
    /// fails). Returns their paths.
    package static func damagedCopies(of path: String) throws -> (torn: String, flipped: String) {
        let full = try Data(contentsOf: URL(fileURLWithPath: path))
        let dir = (path as NSString).deletingLastPathComponent
        let torn = dir + "/torn.trace.zst"
        try full.prefix(full.count - 700).write(to: URL(fileURLWithPath: torn))
        var d = full
        d[full.count / 2] ^= 0x5A
        let flipped = dir + "/flipped.trace.zst"
        try d.write(to: URL(fileURLWithPath: flipped))
        return (torn, flipped)
    }

    /// Writes records to a compressed trace with the project's writer.
    package static func write(_ records: [Record], _ path: String, options: TraceWriter.Options = .init()) throws {
        let w = try TraceWriter(path: path, options: options)
        for r in records { try w.append(r) }
        try w.close()
    }

    /// Replays a golden trace by file name.
    package static func replay(_ name: String, options: ReplayOptions = ReplayOptions()) throws -> ReplayResult {
        try Replay.run(TraceSession(path: trace(name)), options: options)
    }
}

// MARK: Records

extension Fixtures {
    /// A header with every field set.
    package static let header = TraceHeader(layer: .smeeting, sdk: "SMeeting 3.2.1",
                                           device: .init(model: "iPhone15,2", os: "iOS 17.4", simulator: false),
                                           app: .init(bundleId: "com.example.meet", micUsageDescription: true, backgroundAudio: false),
                                           startedAt: "2026-11-29T10:00:00Z", initialDefaultRoute: .speaker)

    /// A body of every record type (and of most cases of each), for round trips and container tests.
    package static let bodies: [RecordBody] = [
        .header(header),
        .joinChannel(channel: "ch-1"), .leaveChannel, .enterMeeting(room: "room \"A\"\n"), .exitMeeting,
        .setDefaultRoute(target: .speaker), .setRoute(target: .earpiece, api: "setSpeakerOutputEnabled(false)"),
        .setRoute(target: .speaker, api: nil), .clearRouteOverride, .setAudioModuleEnabled(enabled: false),
        .subscribe(pubUid: "u1", trackId: "v1", layers: ["v1-h", "v1-m", "v1-l"]),
        .switchLayer(pubUid: "u1", trackId: "v1", targetTrackId: "v1-l"),
        .deviceConnected(id: "bt-1", kind: .bluetooth, name: "AirPods Pro ☃", port: "BluetoothHFP"),
        .deviceConnected(id: "hs-1", kind: .headset, name: nil, port: nil), .deviceDisconnected(id: "bt-1"),
        .micPermission(status: .denied), .interruptionBegan(cause: .systemCall, wasSuspended: nil), .interruptionBegan(cause: nil, wasSuspended: nil),
        .interruptionEnded(shouldResume: true), .interruptionEnded(shouldResume: nil),
        .callState(state: .connected), .appState(state: .background),
        .mediaServicesReset, .callKit(event: .answer, callId: "8C1F0A5E-4F4B-4D39-9E1B-1B6A4C4F2D10"), .callKit(event: .didActivate, callId: nil),
        .dropped(count: 17, fromT: 1200, toT: 1450),
        .routeChanged(route: .bluetooth, previousRoute: .speaker, reason: .newDeviceAvailable),
        .routeSnapshot(route: .receiver, ports: ["BuiltInReceiver"]), .routeSnapshot(route: .unknown, ports: nil),
        .sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: "voiceChat", options: ["allowBluetooth", "defaultToSpeaker"])),
        .sessionActivated(SessionActivation(ok: false, error: "cannotInterruptOthers", category: "playAndRecord", mode: "voiceChat", options: [])),
        .sessionDeactivated(notifyOthers: false, ok: nil, error: nil), .overrideOutput(port: .speaker), .overrideOutput(port: .none),
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
        .expect(Expectation(.route(.bluetooth), rule: .R4)), .expect(Expectation(.route(nil), atEnd: true)),
        .expect(Expectation(.target(.earpiece))), .expect(Expectation(.override(nil))), .expect(Expectation(.override(.speaker))),
        .expect(Expectation(.engaged(true))), .expect(Expectation(.audioModule(false))), .expect(Expectation(.interrupted(true))),
        .expect(Expectation(.verdict(ref: 6, verdict: .ineffective, cause: .externalRouteActive), rule: .V1)),
        .expect(Expectation(.verdict(ref: 5, verdict: .applied, cause: nil))),
        .expect(Expectation(.quality(nil))), .expect(Expectation(.quality(.init(overall: .poor, mos: 3.05)), rule: .Q1)),
        .expect(Expectation(.qualityChanges([.init(previous: .unknown, overall: .good), .init(previous: .good, overall: .poor)]))),
        .expect(Expectation(.speakers([SpeakerKey(uid: "u2", trackId: "a2")]))),
        .expect(Expectation(.finding(code: .routeIneffective, count: 2))), .expect(Expectation(.finding(code: .speakersMissedSnapshot, count: nil))),
        .expect(Expectation(.noFinding(code: .routeDivergence))), .expect(Expectation(.divergences(count: 1), atEnd: true)),
        .unknown(type: "custom.thing", json: "{\"seq\":0,\"t\":0,\"type\":\"custom.thing\",\"x\":[1,{\"y\":null}]}"),
    ]

    /// `count` records cycling through `bodies` (header first), with consecutive seqs, `step` ms apart.
    package static func records(_ count: Int, step: Int64 = 10) -> [Record] {
        (0..<count).map { i in
            var body = i == 0 ? bodies[0] : bodies[1 + (i - 1) % (bodies.count - 2)]
            if case .header = body, i != 0 { body = .leaveChannel }
            return Record(seq: i, t: Int64(i) * step, body)
        }
    }

    /// Records from (t, body) pairs after an SRTC-device header, seqs from 0.
    package static func records(layer: Layer = .srtc, bundleId: String = "com.example.app",
                               _ bodies: [(Int64, RecordBody)]) -> [Record] {
        var b = TraceBuilder(header: TraceHeader(layer: layer, sdk: "SRTC 4.6.2", device: .init(model: "iPhone14,5", os: "iOS 17.5"),
                                                 app: .init(bundleId: bundleId), startedAt: "2026-11-29T10:00:00Z"))
        for (t, body) in bodies { b.add(t, body) }
        return b.records
    }

    /// A call session activation with bluetooth allowed.
    package static let callSession = RecordBody.sessionActivated(SessionActivation(ok: true, category: "playAndRecord",
                                                                                  mode: "voiceChat", options: ["allowBluetooth"]))

    /// A quality report with every statistic set.
    package static func report(_ level: QualityLevel, _ sub: QualityLevel = .good) -> RecordBody {
        .qualityReport(pub: QualitySample(level: level, score: 90, mos: 4.2, loss: 0.01, rtt: 50, jitter: 5, bitrate: 1000),
                       sub: QualitySample(level: sub, score: 80, mos: 4.0, loss: 0.02, rtt: 60, jitter: 6, bitrate: 800))
    }
}
