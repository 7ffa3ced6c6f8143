import Foundation
import Replay
import Reports
import TraceFormat
import XCTest

/// Shared fixtures of the report, export, redaction and reduction tests.
enum Fixtures {
    /// The package root (this file is Tests/ReportsTests/ReportsTests.swift).
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    static func trace(_ name: String) -> String { root + "/traces/" + name }

    /// A fresh temporary directory.
    static func tempDir() -> String {
        let dir = NSTemporaryDirectory() + "rtctrace-reports-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The artifacts folder (git-ignored), created when missing.
    static var artifacts: String {
        let dir = root + "/artifacts"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Records from (t, body) pairs, seqs from 0, a header first.
    static func records(layer: Layer = .srtc, bundleId: String = "com.example.app", _ bodies: [(Int64, RecordBody)]) -> [Record] {
        let header = TraceHeader(layer: layer, sdk: "SRTC 4.6.2", device: .init(model: "iPhone14,5", os: "iOS 17.5"),
                                 app: .init(bundleId: bundleId), startedAt: "2026-11-29T10:00:00Z")
        var out = [Record(seq: 0, t: 0, .header(header))]
        for (t, b) in bodies { out.append(Record(seq: out.count, t: t, b)) }
        return out
    }

    /// Writes records to a trace file.
    static func write(_ records: [Record], _ path: String) throws {
        let w = try TraceWriter(path: path)
        for r in records { try w.append(r) }
        try w.close()
    }

    /// Replays a file, collecting the report lanes.
    static func replayWithLanes(_ path: String) throws -> (ReplayResult, [Lane]) {
        let lanes = ReportLanes()
        let r = try Replay.run(path: path, observer: lanes.observe)
        return (r, lanes.lanes(for: r))
    }

    /// A call session activation with bluetooth allowed.
    static let callSession = RecordBody.sessionActivated(SessionActivation(ok: true, category: "playAndRecord", mode: "voiceChat",
                                                                           options: ["allowBluetooth"]))

    static func report(_ level: QualityLevel, _ sub: QualityLevel = .good) -> RecordBody {
        .qualityReport(pub: QualitySample(level: level, score: 90, mos: 4.2, loss: 0.01, rtt: 50, jitter: 5, bitrate: 1000),
                       sub: QualitySample(level: sub, score: 80, mos: 4.0, loss: 0.02, rtt: 60, jitter: 6, bitrate: 800))
    }

    /// A long SRTC call (about `minutes` minutes) with one unexplained divergence: the app's speaker
    /// request is applied, later the device falls back to the receiver for 5 s with nothing recorded
    /// that explains it. Everything else (headset, quality, speakers, logs) behaves.
    static func longCallWithOneDivergence(minutes: Int = 10) -> (records: [Record], keySeq: Int) {
        var b: [(Int64, RecordBody)] = [
            (900, .connEngine(vendor: .seaStart)), (1000, .joinChannel(channel: "support-room-42")),
            (1010, .connState(state: .connecting)), (1035, .micPermission(status: .granted)), (1060, callSession),
            (1075, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange)),
            (1480, .connState(state: .connected)),
        ]
        let end = Int64(minutes) * 60_000
        var t: Int64 = 2000
        while t < end {
            b.append((t, report(t % 40_000 == 0 ? .poor : .excellent)))
            b.append((t + 100, .sdkLog(level: "info", message: "stats tick \(t)")))
            if t % 10_000 == 0 {
                b.append((t + 200, .speakers(speaking: [Speaker(uid: "u-\(t % 3)", trackId: "a-\(t % 3)", level: 0.5)], stopped: [])))
            }
            if t == 60_000 { b.append((t + 300, .setRoute(target: .speaker, api: "setAudioRoute(.speaker)"))) }
            if t == 60_000 { b.append((t + 350, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .override))) }
            if t == 120_000 {
                b.append((t + 300, .deviceConnected(id: "wired-1", kind: .headset, name: "EarPods", port: "Headphones")))
                b.append((t + 340, .routeChanged(route: .headset, previousRoute: .speaker, reason: .newDeviceAvailable)))
            }
            if t == 150_000 {
                b.append((t + 300, .deviceDisconnected(id: "wired-1")))
                b.append((t + 340, .routeChanged(route: .speaker, previousRoute: .headset, reason: .oldDeviceUnavailable)))
            }
            if t == 300_000 {
                b.append((t + 500, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .routeConfigurationChange)))
                b.append((t + 5500, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .routeConfigurationChange)))
            }
            t += 2000
        }
        b.append((end, .leaveChannel))
        let sorted = b.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element)
        let recs = records(sorted)
        let keySeq = recs.first { if case .routeChanged(.receiver, .speaker, .routeConfigurationChange) = $0.body { return true }; return false }!.seq
        return (recs, keySeq)
    }
}
