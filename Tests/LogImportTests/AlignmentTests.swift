import Foundation
@testable import LogImport
import TestSupport
import TraceCodec
import TraceFixtures
import TraceModel
import XCTest

/// An import `--into` a trace: the shift most activation pairs agree on wins (a pair that is another
/// event does not move it), the uncertainty is the pairs' spread, no pair leaves the wall clock; the app's
/// own interruption the trace already holds within the match window is not added twice; lines outside the
/// trace's time are counted, not merged.
final class AlignmentTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Fixtures.tempDir("align") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// A trace that started at 10:00:00.000Z (milliseconds written), activated at 1 s, 10 s, 30 s and 50 s,
    /// was interrupted at 20 s, and ended at 60 s.
    func trace() throws -> [Record] {
        let path = dir + "/trace.jsonl"
        let activated = #""type":"obs.sessionActivated","ok":true,"category":"playAndRecord","mode":"voiceChat","options":["allowBluetooth"]"#
        let lines = [
            #"{"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc","sdk":"SRTC 4.6.2","device":{"model":"iPhone14,2","os":"iOS 17.4.1","simulator":false},"app":{"bundleId":"com.example.meet","micUsageDescription":true,"backgroundAudio":true},"startedAt":"2026-11-29T10:00:00.000Z"}"#,
            #"{"seq":1,"t":1000,"# + activated + "}",
            #"{"seq":2,"t":10000,"# + activated + "}",
            #"{"seq":3,"t":20000,"type":"os.interruptionBegan","cause":"unknown"}"#,
            #"{"seq":4,"t":25000,"type":"os.interruptionEnded","shouldResume":true}"#,
            #"{"seq":5,"t":30000,"# + activated + "}",
            #"{"seq":6,"t":50000,"# + activated + "}",
            #"{"seq":7,"t":60000,"type":"os.appState","state":"background"}"#,
        ]
        try LogWriter.write(lines.joined(separator: "\n") + "\n", path)
        return try Fixtures.readAll(path).records
    }

    /// The media server activating the app's session, `ms` after the trace's start on the device's clock.
    static func activation(_ ms: Int64) -> LogLine {
        LogLine(utcMs: Fixtures.startMs + ms, process: "mediaserverd", pid: 55,
                message: Shapes.sessionServer("activate", owner: "Meet", pid: 412, session: "0x3535e", details: "{\"controlling_PID\":412}"))
    }

    func imported(_ lines: [LogLine]) throws -> ImportResult {
        let path = dir + "/log.ndjson"
        try LogWriter.write(LogWriter.ndjson(lines), path)
        return try LogImport.build(try LogImport.read([path]), into: try trace(), options: LogImportOptions())
    }

    /// The device's clock runs 80–84 ms ahead of the trace's for three activations; the fourth activation in
    /// the log lies 1.5 s from the trace's (another event): the anchor takes the shift the three agree on,
    /// their median, and says how far they spread.
    func test_theAnchor_takesTheShiftMostPairsAgreeOn_andStatesTheirSpread() throws {
        let r = try imported([Self.activation(1080), Self.activation(10_082), Self.activation(30_084), Self.activation(51_500)])
        XCTAssertEqual(r.alignment.source, .anchored)
        XCTAssertEqual(r.alignment.anchors, 3)
        XCTAssertEqual(r.alignment.shiftMs, -82)
        XCTAssertEqual(r.alignment.uncertaintyMs, 2)
        let ts = r.added.map(\.t)
        XCTAssertEqual(ts, [998, 10_000, 30_002, 51_418], "every record moves by the shift")
        for rec in r.added {
            guard case .system(let s) = rec.body else { return XCTFail("\(rec.jsonLine)") }
            XCTAssertEqual(s.timeSource, .anchored)
            XCTAssertEqual(s.uncertaintyMs, 2)
        }
        XCTAssertTrue(r.alignment.description.hasPrefix("anchored on 3 activations both the log and the trace hold, -82 ms from the wall clock"),
                      r.alignment.description)
    }

    /// No activation of the app within 2 s of one of the trace's: the times stay the wall clock's, with the
    /// precision of startedAt and of the line as their uncertainty.
    func test_withoutAPair_theTimesStayTheWallClocks() throws {
        let other = LogLine(utcMs: Fixtures.startMs + 15_000, process: "mediaserverd", pid: 55,
                            message: Shapes.sessionServer("activate", owner: "Spotify", pid: 733, session: "0x41a2c", details: "{}"))
        let r = try imported([Self.activation(4_000), other])
        XCTAssertEqual(r.alignment.source, .wall)
        XCTAssertEqual(r.added.map(\.t), [4_000, 15_000])
        for rec in r.added {
            guard case .system(let s) = rec.body else { return XCTFail("\(rec.jsonLine)") }
            XCTAssertEqual(s.timeSource, .wall)
            XCTAssertEqual(s.uncertaintyMs, 2, "1 ms of startedAt's milliseconds and 1 ms of the line's")
        }
    }

    /// The app's interruption near the one the trace holds is that one; another, 20 s later, is new; lines
    /// before the trace's first record or after its last are counted as outside its time.
    func test_anInterruptionTheTraceHolds_isNotAddedTwice_andLinesOutsideAreCounted() throws {
        func interruption(_ ms: Int64) -> LogLine {
            LogLine(utcMs: Fixtures.startMs + ms, process: "Meet", pid: 412, message: Shapes.beginInterruption(suspended: 0))
        }
        let r = try imported([Self.activation(1000), Self.activation(10_000), interruption(20_300), interruption(40_000),
                              interruption(61_000), Self.activation(-5_000)])
        XCTAssertEqual(r.alignment.shiftMs, 0)
        let interruptions = r.added.filter { $0.type == RecordKind.interruptionBegan.rawValue }
        XCTAssertEqual(interruptions.map(\.t), [40_000])
        XCTAssertEqual(interruptions.first?.body, .interruptionBegan(cause: nil, wasSuspended: false))
        let why = Dictionary(r.notImported.map { ($0.reason, $0.count) }, uniquingKeysWith: +)
        XCTAssertEqual(why[NotImported.held.rawValue], 1)
        XCTAssertEqual(why[NotImported.outside.rawValue], 2)
        // The merged trace: the trace's records in their order, the new ones placed by time.
        XCTAssertEqual(r.records.count, 8 + r.added.count)
        XCTAssertEqual(r.records.map(\.seq), Array(0..<r.records.count))
        XCTAssertEqual(r.records.map(\.t), r.records.map(\.t).sorted())
    }

    /// How many trace activations agree with each pair: the one pass over sorted differences answers as
    /// counting, for every pair, the trace activations of the pairs within the agreement (random pairs, ties
    /// and repeats included).
    func test_theAgreementCount_answersAsCountingEveryPairDoes() {
        var g = SplitMix64(seed: 7)
        for _ in 0..<300 {
            let candidates = (0..<g.below(30)).map { _ in (a: g.below(6), d: Int64(g.below(400)) - 200) }
            let expected = candidates.map { c in
                Set(candidates.filter { abs($0.d - c.d) <= TimeAlignment.agreementMs }.map(\.a)).count
            }
            XCTAssertEqual(TimeAlignment.agreement(candidates), expected, "\(candidates)")
        }
    }
}
