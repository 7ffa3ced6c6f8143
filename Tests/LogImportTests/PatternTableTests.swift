import Foundation
@testable import LogImport
import Replay
import TestSupport
import TraceCodec
import TraceModel
import XCTest

/// `import-log --format`: a table of line shapes reads an SDK's own text log without code. The example
/// the project ships (docs/examples) is held to the records its log must give; a table that cannot be
/// used is refused naming the shape and what is wrong; a match that makes no valid record is counted.
final class PatternTableTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Fixtures.tempDir("pattern") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    static let example = Fixtures.root + "/docs/examples/srtc-sdk-log.format.json"
    static let exampleLog = Fixtures.root + "/docs/examples/srtc-sdk-log.txt"

    func test_theShippedExample_readsItsLogIntoTheRecordsItDescribes() throws {
        let table = try PatternTable.load(Self.example)
        let reading = try LogImport.read([Self.exampleLog], table: table)
        XCTAssertEqual(reading.skipped.lines, 2, "the engine banner and a stats line have no shape")
        XCTAssertEqual(reading.files[0].notes.unreadableLines, 0)
        let result = try LogImport.build(reading, into: nil, options: LogImportOptions(), utcOffset: table.utcOffsetMinutes, layer: table.layer)
        XCTAssertEqual(result.added.map { "\($0.t) \($0.jsonLine.split(separator: ",", maxSplits: 2).last!)" }, [
            "0 \"type\":\"api.joinChannel\",\"channel\":\"night-shift-handover\",\"uid\":\"1042\"}",
            "60 \"type\":\"obs.sessionActivated\",\"ok\":true,\"category\":\"playAndRecord\",\"mode\":\"voiceChat\",\"options\":[\"allowBluetooth\",\"allowBluetoothA2DP\"]}",
            "75 \"type\":\"obs.routeChanged\",\"route\":\"receiver\",\"previousRoute\":\"speaker\",\"reason\":\"categoryChange\"}",
            "3000 \"type\":\"api.setRoute\",\"target\":\"speaker\",\"api\":\"setAudioRoute(.speaker)\"}",
            "3010 \"type\":\"obs.overrideOutput\",\"port\":\"speaker\"}",
            "3030 \"type\":\"obs.routeChanged\",\"route\":\"speaker\",\"previousRoute\":\"receiver\",\"reason\":\"override\"}",
            "19040 \"type\":\"os.interruptionBegan\",\"cause\":\"systemCall\"}",
            "44000 \"type\":\"os.interruptionEnded\",\"shouldResume\":true}",
            "44020 \"type\":\"obs.sessionActivated\",\"ok\":false,\"error\":\"insufficientPriority\",\"options\":[]}",
            "45000 \"type\":\"obs.sessionActivated\",\"ok\":true,\"category\":\"playAndRecord\",\"mode\":\"voiceChat\",\"options\":[\"allowBluetooth\",\"allowBluetoothA2DP\"]}",
            "49000 \"type\":\"obs.routeSnapshot\",\"route\":\"speaker\",\"ports\":[\"Speaker\",\"MicrophoneBuiltIn\"]}",
            "59000 \"type\":\"api.leaveChannel\"}",
        ])
        // The log replays as a trace of its own: the route call applies, and nothing in it is unexplained.
        let replay = Replay.run(records: result.records)
        XCTAssertEqual(replay.verdicts.map(\.verdict), [.applied])
        XCTAssertEqual(replay.unexplainedDivergenceCount, 0)
    }

    /// Into the trace it came with, the SDK's records that trace already holds are not added twice.
    func test_recordsTheTraceAlreadyHolds_areNotAddedTwice() throws {
        let table = try PatternTable.load(Self.example)
        let alone = try LogImport.build(try LogImport.read([Self.exampleLog], table: table), into: nil, options: LogImportOptions(),
                                        utcOffset: table.utcOffsetMinutes)
        // A recorded trace of the same call: the log's own records, from the same clock.
        let result = try LogImport.build(try LogImport.read([Self.exampleLog], table: table), into: alone.records, options: LogImportOptions())
        XCTAssertEqual(result.added, [])
        XCTAssertEqual(result.notImported.first?.reason, "the trace already holds it (within the match window)")
        XCTAssertEqual(result.alignment.source, .anchored)
    }

    func test_aBlockOfSeveralLines_needsItsEndWithinMaxLines() throws {
        let table = try PatternTable.parse("""
            {"patternTable":1,"shapes":[{"name":"snapshot","start":"^(?<time>\\\\S+) snapshot \\\\{$","end":"^\\\\}$","maxLines":3,
             "match":"route: (?<route>\\\\w+)","type":"obs.routeSnapshot","fields":{"route":"$route"}}]}
            """, file: "t.json")
        let log = dir + "/b.txt"
        try "10:00:00.000+0000 snapshot {\n route: bluetooth\n}\n10:00:01.000+0000 snapshot {\n a\n b\n c\n}\n10:00:02.000+0000 snapshot {\n route: headset\n".write(toFile: log, atomically: true, encoding: .utf8)
        let reading = try LogImport.read([log], table: table)
        XCTAssertEqual(reading.facts.count, 1)
        XCTAssertEqual(reading.files[0].notes.unreadableLines, 2)
        XCTAssertEqual(reading.files[0].notes.firstUnreadable?.line, 4)
        XCTAssertEqual(reading.files[0].notes.firstUnreadable?.why, "snapshot: no end line within 3 lines")
    }

    func test_aTableThatCannotBeUsed_isRefusedNamingTheShape_andAMatchThatMakesNoRecordIsCounted() throws {
        func refused(_ json: String) -> String {
            do { _ = try PatternTable.parse(json, file: "t.json"); return "accepted" } catch let e as LogImportError {
                XCTAssertEqual(e.kind, .usage)
                return e.description
            } catch { return "\(error)" }
        }
        XCTAssertTrue(refused("{\"shapes\":[]}").contains("\"patternTable\": 1 is missing"))
        XCTAssertTrue(refused("{\"patternTable\":1,\"shapes\":[{\"name\":\"x\",\"match\":\"(\",\"type\":\"api.leaveChannel\"}]}").contains("t.json: shape 1 (x): \"match\""))
        XCTAssertTrue(refused("{\"patternTable\":1,\"shapes\":[{\"match\":\"a\",\"type\":\"api.teleport\"}]}").contains("shape 1: \"type\" must be a record type"))
        XCTAssertTrue(refused("{\"patternTable\":1,\"shapes\":[{\"match\":\"a\",\"type\":\"trace.dropped\"}]}").contains("the recorder's own records"))
        XCTAssertTrue(refused("{\"patternTable\":1,\"shapes\":[{\"start\":\"a\",\"type\":\"api.leaveChannel\"}]}").contains("a block needs both"))
        XCTAssertTrue(refused("{\"patternTable\":1,\"shapes\":[{\"match\":\"a\",\"type\":\"api.setRoute\",\"fields\":{\"target\":[1]}}]}").contains("field target"))

        let table = try PatternTable.parse("""
            {"patternTable":1,"shapes":[{"name":"route","match":"^(?<time>\\\\S+) route (?<route>\\\\w+)","type":"obs.routeSnapshot","fields":{"route":"$route"}},
             {"name":"untimed","match":"^untimed (?<x>\\\\w+)","type":"api.leaveChannel"}]}
            """, file: "t.json")
        let log = dir + "/r.txt"
        try "10:00:00.000+0000 route loudspeaker\n10:00:01.000+0000 route speaker\nuntimed here\n".write(toFile: log, atomically: true, encoding: .utf8)
        let reading = try LogImport.read([log], table: table)
        XCTAssertEqual(reading.facts.count, 1)
        XCTAssertEqual(reading.files[0].notes.unreadableLines, 2)
        let why = reading.files[0].notes.firstUnreadable?.why ?? ""
        XCTAssertTrue(why.contains("route: obs.routeSnapshot: field route:") && why.contains("loudspeaker"), why)
    }

    func test_templatesFillCaptures_andLeaveOutFieldsWhoseCaptureDidNotTakePart() {
        XCTAssertEqual(PatternTable.fill("setAudioRoute(.$t) ${t}x $$", ["t": "speaker"]), "setAudioRoute(.speaker) speakerx $")
        XCTAssertNil(PatternTable.fill("$missing", [:]))
        XCTAssertEqual(PatternTable.value(.split("$o", separator: ","), ["o": "a, b,,c"]), .array([.string("a"), .string("b"), .string("c")]))
        XCTAssertEqual(PatternTable.value(.map(["spk": .string("speaker")], from: "$r", fallback: .string("earpiece")), ["r": "rcv"]), .string("earpiece"))
        XCTAssertEqual(PatternTable.value(.int("$n"), ["n": "42"]), .number(42))
        XCTAssertNil(PatternTable.value(.int("$n"), ["n": "many"]))
        XCTAssertEqual(PatternTable.value(.bool("$b"), ["b": "YES"]), .bool(true))
    }
}
