import Foundation
@testable import LogImport
import TestSupport
import TraceCodec
import TraceModel
import XCTest

/// Every envelope of the device's log gives the same records for the same lines; times without a date
/// or an offset are placed as the options and the trace say; unreadable lines are counted, never guessed.
final class EnvelopeTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Fixtures.tempDir("import") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Imports one log text on its own (no trace) and returns the result.
    func imported(_ text: String, name: String = "log.txt", options: LogImportOptions = LogImportOptions(), into trace: [Record]? = nil) throws
        -> (reading: LogReading, result: ImportResult) {
        let path = dir + "/" + name
        try LogWriter.write(text, path)
        let reading = try LogImport.read([path])
        return (reading, try LogImport.build(reading, into: trace, options: options))
    }

    /// The scenario every envelope carries: the app activates, another process activates, a property is set,
    /// the route changes, the play state and the application state change.
    static let scenario: [LogLine] = {
        let t = Fixtures.startMs
        return [
            LogLine(utcMs: t + 1050, process: "mediaserverd", pid: 55,
                    message: Shapes.sessionServer("activate", owner: "Meet", pid: 412, session: "0x3535e", details: "{\"controlling_PID\":412}")),
            LogLine(utcMs: t + 1052, process: "Meet", pid: 412, path: "/private/var/containers/Bundle/Application/1F2E/Meet.app/Meet",
                    message: Shapes.activated("0x3535e")),
            LogLine(utcMs: t + 3000, process: "locationd", pid: 80, subsystem: "com.apple.locationd", message: "Client com.example.meet authorization status 4"),
            LogLine(utcMs: t + 20650, process: "mediaserverd", pid: 55,
                    message: Shapes.sessionServer("activate", owner: "CommCenter", pid: 98, session: "0x13f0", details: "{\"controlling_PID\":98}", layout: 1,
                                                  prefix: "-CMSUtilities- AudioSessionServerImpCommon.mm:311 ")),
            LogLine(utcMs: t + 20700, process: "mediaserverd", pid: 55,
                    message: Shapes.sessionServer("set_property", owner: "Meet", pid: 412, session: "0x3535e", details: "{\"property\":\"OverrideRoute\",\"value\":\"Speaker\"}")),
            LogLine(utcMs: t + 20990, process: "Meet", pid: 412, message: Shapes.routeChange(session: "0x3535e", reason: "Override")),
            LogLine(utcMs: t + 21500, process: "mediaserverd", pid: 55,
                    message: Shapes.playState(owner: "Meet", pid: 412, session: "0x3535e", playing: true, category: "PlayAndRecord")),
            LogLine(utcMs: t + 22000, process: "mediaserverd", pid: 55,
                    message: Shapes.appState(client: "com.spotify.client", pid: 733, state: "Background Suspended")),
        ]
    }()

    /// The records without `wall`, as JSON lines, sorted by t then text.
    static func facts(_ r: ImportResult) -> [String] {
        r.added.map { rec -> String in
            var body = rec.body
            if case .system(var s) = body { s.wall = ""; s.uncertaintyMs = nil; body = .system(s) }
            return Record(seq: 0, t: rec.t, body).jsonLine
        }
    }

    func test_everyEnvelopeGivesTheSameRecords_apartFromWallAndPid() throws {
        var options = LogImportOptions()
        options.date = "2026-11-29"
        options.utcOffsetMinutes = 60
        options.process = "Meet"
        let lines = Self.scenario
        let texts: [(String, String)] = [("ndjson", LogWriter.ndjson(lines)), ("json", LogWriter.json(lines)), ("show", LogWriter.logShow(lines)),
                                         ("compact", LogWriter.compact(lines)), ("console", LogWriter.console(lines))]
        var results: [String: [String]] = [:]
        for (name, text) in texts {
            let (reading, result) = try imported(text, name: name + ".log", options: options)
            XCTAssertEqual(reading.facts.count, 7, name)
            XCTAssertEqual(reading.skipped.lines, 1, name)
            XCTAssertEqual(result.added.count, 7, name)
            results[name] = Self.facts(result)
        }
        XCTAssertEqual(reading(envelopeOf: texts[0].1, "a.ndjson"), .ndjson)
        XCTAssertEqual(reading(envelopeOf: texts[1].1, "a.json"), .json)
        XCTAssertEqual(reading(envelopeOf: texts[2].1, "a.show"), .logShow)
        XCTAssertEqual(reading(envelopeOf: texts[3].1, "a.compact"), .compact)
        XCTAssertEqual(reading(envelopeOf: texts[4].1, "a.console"), .console)
        for name in ["json", "show", "compact", "console"] { XCTAssertEqual(results[name], results["ndjson"], name) }
        let ndjson = results["ndjson"]!.joined(separator: "\n")
        XCTAssertTrue(ndjson.contains("\"type\":\"sys.sessionActivated\",\"process\":\"CommCenter\",\"pid\":98,\"session\":\"0x13f0\""), ndjson)
        XCTAssertTrue(ndjson.contains("\"type\":\"sys.propertySet\",\"process\":\"Meet\",\"pid\":412"), ndjson)
        XCTAssertTrue(ndjson.contains("\"key\":\"OverrideRoute\",\"value\":\"Speaker\""), ndjson)
        XCTAssertTrue(ndjson.contains("\"type\":\"sys.routeChanged\"") && ndjson.contains("\"reason\":\"override\""), ndjson)
        XCTAssertTrue(ndjson.contains("\"playing\":true,\"category\":\"PlayAndRecord\""), ndjson)
        XCTAssertTrue(ndjson.contains("\"process\":\"com.spotify.client\",\"pid\":733") && ndjson.contains("\"state\":\"Background Suspended\""), ndjson)
        // The app's own lines say self; the other processes' do not.
        XCTAssertEqual(results["ndjson"]!.filter { $0.contains("\"self\":true") }.count, 5)
    }

    func reading(envelopeOf text: String, _ name: String) -> LogEnvelope? {
        let path = dir + "/" + name
        try? LogWriter.write(text, path)
        return (try? LogImport.read([path]))?.files.first?.notes.envelope
    }

    /// A Console copy in French, its lines out of order (as Console copies them), is read by the time's
    /// shape, whatever the level word, and imported in time order.
    func test_aFrenchConsoleCopyOutOfOrder_isReadAndSortedByTime() throws {
        var lines = Self.scenario
        lines.swapAt(0, 5)
        lines.swapAt(3, 6)
        let text = LogWriter.console(Array(lines.prefix(3)), level: "Par défaut") + LogWriter.console(Array(lines.dropFirst(3)), level: "Erreur")
        var options = LogImportOptions()
        options.date = "2026-11-29"
        let (reading, result) = try imported(text, options: options)
        XCTAssertEqual(reading.files[0].notes.envelope, .console)
        XCTAssertEqual(Set(reading.facts.compactMap(\.entry.level)), ["Par défaut", "Erreur"])
        XCTAssertEqual(reading.facts.count, 7)
        XCTAssertEqual(result.added.map(\.t), result.added.map(\.t).sorted())
        XCTAssertEqual(result.added.first?.t, 0, "a log alone starts at its first line")
        XCTAssertEqual(result.added.last?.t, 22000 - 1050)
    }

    /// Times of a Console copy cross midnight: each takes the day that puts it nearest the line before it.
    func test_midnightRollover_movesTheDayForward() throws {
        let midnight = UTCTime.milliseconds("2026-11-30T00:00:00Z")!
        let lines = [
            LogLine(utcMs: midnight - 1500, offset: 0, process: "Meet", pid: 412, message: Shapes.activated("0x1")),
            LogLine(utcMs: midnight - 200, offset: 0, process: "Meet", pid: 412, message: Shapes.routeChange(session: "0x1", reason: "CategoryChange")),
            LogLine(utcMs: midnight + 300, offset: 0, process: "Meet", pid: 412, message: Shapes.routeChange(session: "0x1", reason: "Override")),
            LogLine(utcMs: midnight + 100, offset: 0, process: "Meet", pid: 412, message: Shapes.beginInterruption(suspended: 1)),
        ]
        var options = LogImportOptions()
        options.date = "2026-11-29"
        options.process = "Meet"
        let (_, result) = try imported(LogWriter.console(lines), options: options)
        XCTAssertEqual(result.added.map(\.t), [0, 1300, 1600, 1800])
        guard case .header(let h) = result.records[0].body else { return XCTFail("header first") }
        XCTAssertEqual(h.startedAt, "2026-11-29T23:59:58.500Z")
        // The app's own interruption becomes the os.* record it carries every field of.
        XCTAssertEqual(result.added[2].body, .interruptionBegan(cause: nil, wasSuspended: true))
    }

    /// A Console copy has no date: without --date and without a trace, it cannot be placed.
    func test_aConsoleCopyWithoutADate_isAUsageErrorNamingTheFileAndLine() throws {
        do {
            _ = try imported(LogWriter.console(Self.scenario))
            XCTFail("no date")
        } catch let e as LogImportError {
            XCTAssertEqual(e.kind, .usage)
            XCTAssertTrue(e.description.contains("log.txt: line 1") && e.description.contains("--date"), e.description)
        }
    }

    /// `log show --style compact` writes no offset: the import asks for one, takes `--utc-offset`, or finds it
    /// by anchoring on an activation the trace also holds.
    func test_aMissingOffset_isAskedFor_givenByOption_orFoundByTheAnchor() throws {
        let text = LogWriter.compact(Self.scenario)
        do {
            _ = try imported(text)
            XCTFail("no offset")
        } catch let e as LogImportError {
            XCTAssertTrue(e.description.contains("no UTC offset") && e.description.contains("--utc-offset"), e.description)
        }
        var options = LogImportOptions()
        options.utcOffsetMinutes = 60
        let (_, alone) = try imported(text, options: options)
        guard case .header(let h) = alone.records[0].body else { return XCTFail("header first") }
        XCTAssertEqual(h.startedAt, "2026-11-29T10:00:01.050Z")

        // Into a trace that activated at t=1060 (10:00:01.060Z): the anchor finds the offset, +0100.
        let trace = try Fixtures.readAll(Fixtures.trace("smeeting-other-component-category-change.jsonl")).records
        options = LogImportOptions()
        let (_, into) = try imported(text, options: options, into: trace)
        XCTAssertEqual(into.alignment.source, .anchored)
        XCTAssertEqual(into.alignment.foundOffsetMinutes, 60)
        XCTAssertEqual(into.added.first { if case .system(let s) = $0.body { s.process == "CommCenter" } else { false } }?.t, 20650 + 8)
    }

    /// Lines of no known shape are counted by shape; lines of no envelope are counted as unreadable; a file
    /// with no entry at all is refused, never read as empty.
    func test_unrecognisedLines_areCountedAndSkipped_andAFileWithNoEntryIsRefused() throws {
        var lines = Self.scenario
        for i in 0..<5 { lines.append(LogLine(utcMs: Fixtures.startMs + 30000 + Int64(i), process: "bluetoothd", pid: 90, message: "LE scan \(i) found 0x\(i)f peers")) }
        var options = LogImportOptions()
        options.utcOffsetMinutes = 60
        let text = LogWriter.logShow(lines) + "this line is no entry\n"
        let (reading, _) = try imported(text, options: options)
        XCTAssertEqual(reading.skipped.lines, 6)
        XCTAssertEqual(reading.skipped.top(1).first?.shape, "bluetoothd: LE scan # found 0x# peers")
        XCTAssertEqual(reading.skipped.top(1).first?.count, 5)
        XCTAssertEqual(reading.files[0].notes.envelopeLines, 4, "heading, column titles, rule and totals")
        // A line after `log show`'s totals continues no message: it is unreadable, and said to be.
        XCTAssertEqual(reading.files[0].notes.unreadableLines, 1)
        XCTAssertEqual(reading.files[0].notes.firstUnreadable?.line, lines.count + 5)
        do {
            _ = try imported("nothing here\nat all\n", name: "empty.txt")
            XCTFail("no entry")
        } catch let e as LogImportError {
            XCTAssertEqual(e.kind, .input)
            XCTAssertTrue(e.description.contains("empty.txt: no entry of a device log export found"), e.description)
        }
    }

    /// A log compressed with zstd reads as the same log.
    func test_aCompressedLog_readsAlike() throws {
        let path = dir + "/log.ndjson"
        try LogWriter.write(LogWriter.ndjson(Self.scenario), path)
        let packed = dir + "/log.ndjson.zst"
        let z = Fixtures.run("/usr/bin/env", ["zstd", "-q", "-f", path, "-o", packed])
        XCTAssertEqual(z.status, 0, "the zstd command compresses the log")
        XCTAssertEqual(try LogImport.read([packed]).facts.count, try LogImport.read([path]).facts.count)
    }
}
