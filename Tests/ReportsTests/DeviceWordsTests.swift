import Analysis
import Contract
import Foundation
import Replay
import Reports
import TestSupport
import TraceCodec
import TraceModel
import XCTest

/// Device words (contract v4): an external device is named by its kind and name, and no output calls
/// AirPlay or CarPlay (or any device) "bluetooth or wired headset".
final class DeviceWordsTests: XCTestCase {
    func outputs(_ name: String) throws -> [String] {
        let lanes = ReportLanes()
        let r = try Replay.run(TraceSession(path: Fixtures.trace(name)), observer: { lanes.observe($0) })
        return [ExplainText.render(r, colour: false), ExplainJSON.render(r), HTMLReport.render(r, lanes: lanes.lanes(for: r))]
    }

    func test_noGoldenTraceOutputSaysBluetoothOrWiredHeadset() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.root + "/traces")
            .filter { $0.hasSuffix(".jsonl") || $0.hasSuffix(".zst") }.sorted()
        XCTAssertGreaterThan(names.count, 20)
        for name in names {
            for out in try outputs(name) {
                XCTAssertFalse(out.contains("bluetooth or wired headset"), name)
                XCTAssertFalse(out.contains("bluetooth device or wired headset"), name)
            }
        }
    }

    func test_carPlayAndAirPlayAreNamedByKindAndName() throws {
        let car = try outputs("srtc-v4-carplay-tap-audible-at-disconnect.jsonl")
        XCTAssertTrue(car[0].contains(#"CarPlay ("Toyota CarPlay") had the route"#), car[0])
        XCTAssertFalse(car[0].contains("a bluetooth device"), car[0])
        let tv = try outputs("smeeting-v4-airplay-blocks-earpiece.jsonl")
        XCTAssertTrue(tv[0].contains(#"an AirPlay output ("Living Room TV") had the route"#), tv[0])
    }

    /// The override an ineffective tap left behind becomes audible at the device's disconnect (R5): the
    /// explanation links the two in text, JSON and HTML.
    func test_laterEffectLinksTheTapToTheDisconnect() throws {
        let car = try outputs("srtc-v4-carplay-tap-audible-at-disconnect.jsonl")
        XCTAssertTrue(car[0].contains("the speaker override from seq 7 took the call at seq 11"), car[0])
        XCTAssertTrue(car[1].contains(#""laterEffect":{"seq":11,"t":30000,"route":"speaker""#), car[1])
        XCTAssertTrue(car[2].contains("the speaker override from seq 7 took the call at seq 11"))
    }

    /// The override ends at the first route call, leave or exit after the tap: then nothing became audible
    /// at the disconnect. The answer is the same with the result's index as without.
    func test_laterEffectEndsAtTheFirstRecordThatEndsTheOverride() throws {
        let path = Fixtures.trace("srtc-v4-carplay-tap-audible-at-disconnect.jsonl")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        func laterEffects(_ lines: [String]) throws -> [LaterEffect?] {
            let file = NSTemporaryDirectory() + "later-effect-\(getpid()).jsonl"
            try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: file) }
            let r = try Replay.run(TraceSession(path: file))
            let v = try XCTUnwrap(r.verdicts.first { $0.seq == 7 })
            // The tap is still one the device blocked: only the override's end can leave it without an effect.
            XCTAssertEqual(v.outcome?.cause ?? v.cause, .externalRouteActive)
            return [Explanation.laterEffect(v, r), Explanation.laterEffect(v, r, lookups: Explanation.Lookups(r))]
        }
        XCTAssertEqual(try laterEffects(lines).map { $0?.seq }, [11, 11])
        // Only the records before the disconnect end the override; one after it (the leave) does not.
        for ender in [#""type":"api.clearRouteOverride""#, #""type":"api.setRoute","target":"earpiece""#,
                      #""type":"api.leaveChannel""#] {
            var edited = lines
            edited[10] = #"{"seq":10,"t":6000,"# + ender + "}"
            XCTAssertEqual(try laterEffects(edited).map { $0?.seq }, [nil, nil], ender)
        }
    }

    func test_deviceKindWords() {
        XCTAssertEqual(DeviceKind.carAudio.words(named: "Toyota CarPlay"), #"CarPlay ("Toyota CarPlay")"#)
        XCTAssertEqual(DeviceKind.airplay.words, "an AirPlay output")
        XCTAssertEqual(DeviceKind.unlisted("USBAudio").words, "a USB audio device")
        XCTAssertEqual(VerdictCause.externalRouteActive.reason(LayerWords(.srtc), device: .headset, name: nil),
                       "a wired headset had the route, and iOS does not let an app take the output back from it")
    }
}
