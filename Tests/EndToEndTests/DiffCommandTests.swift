import Foundation
import TestSupport
import XCTest

/// `rtctrace diff` as a support engineer runs it on two recordings of one scenario.
final class DiffCommandTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    static let srtcHeader = #"{"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"srtc","sdk":"SRTC 4.6.2","device":{"model":"iPhone15,2","os":"iOS 17.4"}}"#
    static let start = [#"{"seq":1,"t":100,"type":"os.micPermission","status":"granted"}"#,
                        #"{"seq":2,"t":200,"type":"api.joinChannel","channel":"c"}"#,
                        #"{"seq":3,"t":300,"type":"obs.sessionActivated","ok":true,"category":"playAndRecord","mode":"voiceChat","options":["allowBluetooth"]}"#,
                        #"{"seq":4,"t":350,"type":"obs.routeChanged","route":"receiver","previousRoute":"speaker","reason":"categoryChange"}"#]

    func write(_ name: String, _ lines: [String]) throws -> String {
        let p = dir + "/" + name
        try (lines.joined(separator: "\n") + "\n").write(toFile: p, atomically: true, encoding: .utf8)
        return p
    }

    /// The same call, once with setRoute(speaker) before the headset connects and once after.
    func pair() throws -> (String, String) {
        let a = try write("speaker-first.jsonl", [Self.srtcHeader] + Self.start + [
            #"{"seq":5,"t":2000,"type":"api.setRoute","target":"speaker","api":"setSpeakerOutputEnabled(true)"}"#,
            #"{"seq":6,"t":2100,"type":"obs.routeChanged","route":"speaker","previousRoute":"receiver","reason":"override"}"#,
            #"{"seq":7,"t":4000,"type":"os.deviceConnected","id":"bt-1","kind":"bluetooth","name":"AirPods"}"#,
            #"{"seq":8,"t":4100,"type":"obs.routeChanged","route":"bluetooth","previousRoute":"speaker","reason":"newDeviceAvailable"}"#,
            #"{"seq":9,"t":8000,"type":"api.leaveChannel"}"#])
        let b = try write("headset-first.jsonl", [Self.srtcHeader] + Self.start + [
            #"{"seq":5,"t":2000,"type":"os.deviceConnected","id":"bt-1","kind":"bluetooth","name":"AirPods"}"#,
            #"{"seq":6,"t":2100,"type":"obs.routeChanged","route":"bluetooth","previousRoute":"receiver","reason":"newDeviceAvailable"}"#,
            #"{"seq":7,"t":4000,"type":"api.setRoute","target":"speaker","api":"setSpeakerOutputEnabled(true)"}"#,
            #"{"seq":8,"t":8000,"type":"api.leaveChannel"}"#])
        return (a, b)
    }

    func test_theOrderOfAHeadsetAndASpeakerRequestIsTheFirstBehaviouralDifference() throws {
        let (a, b) = try pair()
        let r = CLI.runInProcess(["diff", a, b])
        XCTAssertEqual(r.status, 1, r.err)
        XCTAssertTrue(r.out.contains("""
            The behaviour differs: 3 differences.

            First difference at 2.000s: the verdict on api.setRoute speaker [R4]
              A  seq 5 api.setRoute at 2.000s: applied
              B  seq 7 api.setRoute at 4.000s: ineffective (externalRouteActive): an external device had the route, and iOS does not let an app take the output back from it
            """), r.out)
        XCTAssertTrue(r.out.contains("2. 2.000s  the predicted route [R8], until 4.000s"), r.out)

        let json = CLI.runInProcess(["diff", a, b, "--json"])
        XCTAssertEqual(json.status, 1)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        XCTAssertEqual(doc["schema"] as? String, "rtctrace.diff/2")
        XCTAssertEqual(doc["same"] as? Bool, false)
        let first = try XCTUnwrap((doc["differences"] as? [[String: Any]])?.first)
        XCTAssertEqual(first["kind"] as? String, "verdict")
        XCTAssertEqual(first["rule"] as? String, "R4")
        XCTAssertEqual((first["a"] as? [String: Any])?["value"] as? String, "applied")
        XCTAssertEqual((first["b"] as? [String: Any])?["cause"] as? String, "externalRouteActive")
        XCTAssertEqual(((first["b"] as? [String: Any])?["record"] as? [String: Any])?["seq"] as? Int, 7)

        let same = CLI.runInProcess(["diff", a, a])
        XCTAssertEqual(same.status, 0)
        XCTAssertTrue(same.out.contains("The traces behave the same"), same.out)
        XCTAssertEqual(CLI.runInProcess(["diff", a, b, "--tolerance-ms", "3000"]).status, 1, "a verdict is not a matter of timing")
    }

    func test_textIsInTheLayersWords() throws {
        let header = #"{"seq":0,"t":0,"type":"trace.header","format":"rtctrace","version":1,"layer":"smeeting","sdk":"SMeeting 3.2.1","device":{"model":"iPhone15,2","os":"iOS 17.4"}}"#
        let early = try write("early.jsonl", [header, #"{"seq":1,"t":100,"type":"api.setRoute","target":"speaker"}"#,
                                              #"{"seq":2,"t":1000,"type":"api.enterMeeting","room":"r"}"#, #"{"seq":3,"t":5000,"type":"api.exitMeeting"}"#])
        let late = try write("late.jsonl", [header, #"{"seq":1,"t":1000,"type":"api.enterMeeting","room":"r"}"#,
                                            #"{"seq":2,"t":1100,"type":"api.setRoute","target":"speaker"}"#, #"{"seq":3,"t":5000,"type":"api.exitMeeting"}"#])
        let r = CLI.runInProcess(["diff", early, late])
        XCTAssertEqual(r.status, 1, r.err)
        XCTAssertTrue(r.out.contains("A  seq 1 api.setRoute at 0.100s: deferred (notEngaged): the app had not entered the meeting yet"), r.out)
        XCTAssertTrue(r.out.contains("[R6]"), r.out)
        for word in ["channel", "joined", "user"] { XCTAssertFalse(r.out.contains(word), word) }
    }

    func test_inputThatIsNotATraceExits65() throws {
        let (a, _) = try pair()
        let empty = try write("empty.jsonl", [])
        let r = CLI.runInProcess(["diff", a, empty])
        XCTAssertEqual(r.status, 65)
        XCTAssertTrue(r.err.contains("cannot be compared"), r.err)
        XCTAssertEqual(CLI.runInProcess(["diff", a]).status, 64)
        XCTAssertEqual(CLI.runInProcess(["diff", a, dir + "/missing.jsonl"]).status, 64)
    }

    /// A field trace whose records after 60 s are 2 s late in the copy: one difference, at the shift, as the
    /// diff said before it learnt pure shifts (taking one offset for the whole trace gave five, from -1 s on).
    func test_aCopyShiftedFromMidTraceOnIsOneDifferenceAtTheShift() throws {
        let source = CLI.runInProcess(["cat", CLI.root + "/traces/smeeting-field-service-10min.jsonl.zst"])
        XCTAssertEqual(source.status, 0, source.err)
        let lines = source.out.split(separator: "\n").map(String.init)
        let shifted = try lines.map { line -> String in
            var record = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let t = try XCTUnwrap(record["t"] as? Int)
            guard record["type"] as? String != "trace.header", t > 60_000 else { return line }
            record["t"] = t + 2000
            return String(decoding: try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]), as: UTF8.self)
        }
        let a = try write("service.jsonl", lines), b = try write("service-late.jsonl", shifted)
        let r = CLI.runInProcess(["diff", a, b])
        XCTAssertEqual(r.status, 1, r.err)
        XCTAssertTrue(r.out.contains("The behaviour differs: 1 difference.\n\nFirst difference at 1m 00.924s: B's clock moves against A's: B 2.000s behind A from here on"), r.out)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(CLI.runInProcess(["diff", a, b, "--json"]).out.utf8)) as? [String: Any])
        XCTAssertEqual(json["differenceCount"] as? Int, 1)
        XCTAssertEqual(json["offsetMs"] as? Int, 0)
        XCTAssertEqual((json["differences"] as? [[String: Any]])?.first?["kind"] as? String, "shift")
    }
}
