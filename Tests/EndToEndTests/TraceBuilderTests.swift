import Foundation
import TestSupport
import TraceModel
import XCTest

/// The typed trace builder (Tests/TestSupport/TraceBuilder.swift) writes traces that `rtctrace`
/// reads back record for record and checks like any golden trace, deterministically.
final class TraceBuilderTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Fixtures.tempDir("builder") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// A 20-minute SRTC call: reports every 2 s (poor every 40 s), a log line after each, a wired
    /// headset plugged in and out, a speaker request that applies, with what the contract says
    /// at each point pinned.
    static func longCall() -> TraceBuilder {
        var b = TraceBuilder(header: TraceHeader(layer: .srtc, sdk: "SRTC 4.6.2", device: .init(model: "iPhone14,5", os: "iOS 17.5"),
                                                 app: .init(bundleId: "com.example.app"), startedAt: "2026-11-29T10:00:00Z"))
        b.add(900, .connEngine(vendor: .seaStart))
        b.add(1000, .joinChannel(channel: "support-42"))
        b.add(1035, .micPermission(status: .granted))
        b.add(1060, Fixtures.callSession)
        b.add(1075, .routeChanged(route: .receiver, previousRoute: .speaker, reason: .categoryChange))
        b.add(1480, .connState(state: .connected))
        b.expect(1500, .route(.receiver), rule: .R8)
        let end: Int64 = 20 * 60_000
        for t in stride(from: Int64(2000), to: end, by: 2000) {
            b.add(t, Fixtures.report(t % 40_000 == 0 ? .poor : .excellent))
            b.add(t + 100, .sdkLog(level: "info", message: "stats tick \(t)"))
            switch t {
            case 60_000:
                b.add(t + 300, .deviceConnected(id: "wired-1", kind: .headset, name: "EarPods", port: "Headphones"))
                b.add(t + 340, .routeChanged(route: .headset, previousRoute: .receiver, reason: .newDeviceAvailable))
                b.expect(t + 400, .route(.headset), rule: .R4)
            case 90_000:
                b.add(t + 300, .deviceDisconnected(id: "wired-1"))
                b.add(t + 340, .routeChanged(route: .receiver, previousRoute: .headset, reason: .oldDeviceUnavailable))
                b.expect(t + 400, .route(.receiver), rule: .R5)
            case 120_000:
                let call = b.add(t + 300, .setRoute(target: .speaker, api: "setAudioRoute(.speaker)"))
                b.expect(t + 300, .verdict(ref: call, verdict: .applied, cause: nil), rule: .V1)
                b.add(t + 350, .routeChanged(route: .speaker, previousRoute: .receiver, reason: .override))
                b.expect(t + 400, .route(.speaker), rule: .R2)
            case 160_000:
                b.expect(t + 200, .quality(.init(overall: .poor)), rule: .Q1)
            case 162_000:
                b.expect(t + 200, .quality(.init(overall: .good)), rule: .Q1)
            default: break
            }
        }
        b.add(end, .leaveChannel)
        b.expect(end, .engaged(false), rule: .R6)
        b.expect(end, .divergences(count: 0), rule: .X2, atEnd: true)
        b.expect(end, .noFinding(code: .routeIneffective), atEnd: true)
        return b
    }

    func test_builtTraceIsDeterministicAndPassesCheckPlainAndCompressed() throws {
        let b = Self.longCall()
        XCTAssertEqual(b.jsonLines, Self.longCall().jsonLines, "building twice gives the same bytes")
        XCTAssertGreaterThan(b.records.count, 1200)
        XCTAssertEqual(b.records.map(\.seq), Array(0..<b.records.count))
        XCTAssertEqual(b.replay().failedExpectations.map(\.type), [])

        let plain = dir + "/long-call.jsonl", packed = dir + "/long-call.trace.zst"
        try b.write(to: plain)
        try b.write(to: packed, frameRecords: 256)
        XCTAssertEqual(try String(contentsOfFile: plain, encoding: .utf8), b.jsonLines)
        let verify = CLI.runInProcess(["verify", packed])
        XCTAssertEqual(verify.status, 0, verify.out + verify.err)
        XCTAssertTrue(verify.out.contains("OK (\(b.records.count) records, 5 frames)"), verify.out)
        XCTAssertEqual(CLI.runInProcess(["cat", packed]).out, b.jsonLines, "the compressed trace reads back record for record")
        let check = CLI.runInProcess(["check", plain, packed])
        XCTAssertEqual(check.status, 0, check.out + check.err)
    }
}
