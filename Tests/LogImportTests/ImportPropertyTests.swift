import Foundation
@testable import LogImport
import TestSupport
import TraceCodec
import TraceFixtures
import TraceModel
import XCTest

/// The import's property: for random logs of every envelope, mixing every line shape with lines of no
/// shape, importing and then reading the records back (`cat`) gives every recognised line's facts:
/// its time, process, session and what it says, and nothing else.
final class ImportPropertyTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Fixtures.tempDir("import-property") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// A random log: its lines, and for each recognised one the record it must give (its `t` relative to the first line).
    static func randomLog(_ g: inout SplitMix64) -> (lines: [LogLine], expected: [Record]) {
        let others = [("CommCenter", 98), ("Spotify", 733), ("assistantd", 301), ("com.apple.WebKit.GPU", 745)]
        var lines: [LogLine] = [], expected: [Record] = []
        var t = Fixtures.startMs + Int64(g.below(86_400_000))
        let first = t
        let offset = [-480, -300, 0, 60, 330, 540][g.below(6)]
        func sys(_ e: SystemLogRecord.Event, _ process: String, _ pid: Int?, _ session: String?, isSelf: Bool) {
            expected.append(Record(seq: 0, t: t - first, .system(SystemLogRecord(e, process: process, pid: pid, session: session, wall: "", isSelf: isSelf))))
        }
        // The app is named with its pid first, as the media server does when it activates it.
        lines.append(LogLine(utcMs: t, offset: offset, process: "mediaserverd", pid: 55,
                             message: Shapes.sessionServer("activate", owner: "Meet", pid: 412, session: "0x3535e", details: "{\"controlling_PID\":412}")))
        sys(.sessionActivated(ok: true, error: nil, controllingPid: 412, controllingProcess: "Meet"), "Meet", 412, "0x3535e", isSelf: true)
        for _ in 0..<(5 + g.below(25)) {
            t += Int64(1 + g.below(5000))
            let (other, otherPid) = others[g.below(others.count)]
            let own = g.below(2) == 0
            let (who, pid) = own ? ("Meet", 412) : (other, otherPid)
            let session = "0x" + String(0x1000 + g.below(0xffff), radix: 16)
            switch g.below(9) {
            case 0:
                let error = g.below(3) == 0
                lines.append(LogLine(utcMs: t, offset: offset, process: "mediaserverd", pid: 55,
                                     message: Shapes.sessionServer("activate", owner: who, pid: pid, session: session, details: "{\"controlling_PID\":150,\"controlling_name\":\"callservicesd\"}",
                                                                   layout: g.below(2), extra: error ? ", \"error\":\"'!int'\"" : "")))
                sys(.sessionActivated(ok: !error, error: error ? "cannotInterruptOthers" : nil, controllingPid: 150, controllingProcess: "callservicesd"),
                    who, pid, session, isSelf: own)
            case 1:
                let key = ["OverrideRoute", "Category", "Mode"][g.below(3)], value = ["Speaker", "PlayAndRecord", "VoiceChat", "a4:83:e7:12:34:56"][g.below(4)]
                lines.append(LogLine(utcMs: t, offset: offset, process: "mediaserverd", pid: 55,
                                     message: Shapes.sessionServer(["set_property", "set_server_property", "property_change"][g.below(3)], owner: who, pid: pid,
                                                                   session: session, details: "{\"property\":\"\(key)\",\"value\":\"\(value)\"}")))
                sys(.propertySet(key: key, value: value), who, pid, session, isSelf: own)
            case 2:
                let playing = g.below(2) == 0
                lines.append(LogLine(utcMs: t, offset: offset, process: "mediaserverd", pid: 55,
                                     message: Shapes.sessionServer("set_play_state", owner: who, pid: pid, session: session,
                                                                   details: "{\"play_state\":\"\(playing ? "playing" : "stopped")\",\"category\":\"Playback\"}")))
                sys(.playing(playing, category: "Playback"), who, pid, session, isSelf: own)
            case 3:
                let reasons: [(String, RouteChangeReason)] = [("CategoryChange", .categoryChange), ("Override", .override), ("NewDeviceAvailable", .newDeviceAvailable),
                                                              ("OldDeviceUnavailable", .oldDeviceUnavailable), ("RouteConfigurationChange", .routeConfigurationChange)]
                let r = reasons[g.below(reasons.count)]
                // A process's own line: in a Console copy its pid is known only for the app (the media server named it).
                lines.append(LogLine(utcMs: t, offset: offset, process: "Meet", pid: 412, message: Shapes.routeChange(session: session, reason: r.0)))
                sys(.routeChanged(reason: r.1), "Meet", 412, session, isSelf: true)
            case 4:
                let suspended = g.below(2)
                lines.append(LogLine(utcMs: t, offset: offset, process: "Meet", pid: 412, message: Shapes.beginInterruption(suspended: suspended)))
                expected.append(Record(seq: 0, t: t - first, .interruptionBegan(cause: nil, wasSuspended: suspended == 1)))
            case 5:
                lines.append(LogLine(utcMs: t, offset: offset, process: "Meet", pid: 412, message: Shapes.activated(session)))
                sys(.sessionActivated(ok: true, error: nil, controllingPid: nil, controllingProcess: nil), "Meet", 412, session, isSelf: true)
            case 6:
                let playing = g.below(2) == 0
                lines.append(LogLine(utcMs: t, offset: offset, process: "mediaserverd", pid: 55,
                                     message: Shapes.playState(owner: who, pid: pid, session: session, playing: playing, category: "PlayAndRecord")))
                sys(.playing(playing, category: "PlayAndRecord"), who, pid, session, isSelf: own)
            case 7:
                let state = ["Foreground Running", "Background Running", "Background Suspended", "Not Running"][g.below(4)]
                lines.append(LogLine(utcMs: t, offset: offset, process: "mediaserverd", pid: 55, message: Shapes.appState(client: who, pid: pid, state: state)))
                if own && state.hasPrefix("Foreground") {
                    expected.append(Record(seq: 0, t: t - first, .appState(state: .foreground)))
                } else if own && state.hasPrefix("Background") {
                    expected.append(Record(seq: 0, t: t - first, .appState(state: .background)))
                } else {
                    sys(.appState(state: state), who, pid, nil, isSelf: own)
                }
            default:
                lines.append(LogLine(utcMs: t, offset: offset, process: ["bluetoothd", "locationd", "SpringBoard"][g.below(3)], pid: 90,
                                     message: "state \(g.below(100)) changed for client \(g.below(9))"))
            }
        }
        return (lines, expected)
    }

    /// A record without what depends on the envelope or the import: the time text, a pid a Console copy
    /// does not give, how the time was placed.
    static func normalised(_ r: Record, keepPid: Bool) -> String {
        var body = r.body
        if case .system(var s) = body {
            s.wall = ""
            s.uncertaintyMs = nil
            s.timeSource = .wall
            if !keepPid { s.pid = nil }
            body = .system(s)
        }
        return Record(seq: 0, t: r.t, body).jsonLine
    }

    func test_importThenCat_givesBackEveryRecognisedLinesFacts() throws {
        let envelopes: [(String, ([LogLine]) -> String)] = [("ndjson", LogWriter.ndjson), ("json", LogWriter.json), ("show", LogWriter.logShow),
                                                            ("compact", LogWriter.compact), ("console", { LogWriter.console($0) })]
        var checked = 0, viaCat = 0
        for seed in 0..<40 {
            var g = SplitMix64(seed: UInt64(seed))
            let (lines, expected) = Self.randomLog(&g)
            let (name, render) = envelopes[seed % envelopes.count]
            let path = dir + "/log-\(seed).\(name)"
            try LogWriter.write(render(lines), path)
            var options = LogImportOptions()
            options.process = "Meet"
            options.utcOffsetMinutes = lines[0].offset
            options.date = String(UTCTime.iso(lines[0].utcMs + Int64(lines[0].offset) * 60_000).prefix(10))
            let reading = try LogImport.read([path])
            let result = try LogImport.build(reading, into: nil, options: options)
            // A Console copy gives no pid of the lines a process logs itself: the app's comes from the media server's lines.
            let keepPid = name != "console"
            let want = expected.map { Self.normalised($0, keepPid: keepPid) }.sorted()
            var got = result.added.map { Self.normalised($0, keepPid: keepPid) }.sorted()
            XCTAssertEqual(got, want, "seed \(seed), \(name)")
            XCTAssertEqual(reading.facts.count, expected.count, "seed \(seed), \(name): every recognised line is one record")
            checked += want.count

            // Every fifth log also goes through the command and `cat`, as a support engineer runs them.
            guard seed % 5 == 0 else { continue }
            let out = dir + "/out-\(seed).trace.zst"
            let run = CLI.run(["import-log", path, "-o", out, "--process", "Meet", "--date", options.date!,
                               "--utc-offset", LogClock.offsetText(lines[0].offset)])
            XCTAssertEqual(run.status, 0, run.err)
            let cat = CLI.run(["cat", out])
            XCTAssertEqual(cat.status, 0, cat.err)
            let decoder = RecordDecoder()
            got = try cat.out.split(separator: "\n").dropFirst().map { try decoder.decode(String($0)) }.map { Self.normalised($0, keepPid: keepPid) }.sorted()
            XCTAssertEqual(got, want, "seed \(seed), \(name), through cat")
            viaCat += got.count
        }
        XCTAssertGreaterThan(checked, 400)
        XCTAssertGreaterThan(viaCat, 60)
    }
}
