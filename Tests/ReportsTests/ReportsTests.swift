import Foundation
import Replay
import Reports
import TestSupport
import TraceCodec
import TraceModel
import XCTest

/// The report tests' own fixtures; the shared ones are in Tests/TestSupport.
extension Fixtures {
    /// Replays a file, collecting the report lanes.
    static func replayWithLanes(_ path: String) throws -> (ReplayResult, [Lane]) {
        let lanes = ReportLanes()
        let r = try Replay.run(TraceSession(path: path), observer: lanes.observe)
        return (r, lanes.lanes(for: r))
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
