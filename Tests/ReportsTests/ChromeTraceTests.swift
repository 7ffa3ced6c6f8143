import Foundation
import Replay
import Reports
import TestSupport
import XCTest

final class ChromeTraceTests: XCTestCase {
    func export(_ path: String) throws -> (ReplayResult, [[String: Any]], [String: Any]) {
        let recorder = ChromeTraceRecorder()
        let r = try Replay.run(path: path, observer: recorder.observe)
        let json = ChromeTrace.render(r, recorder: recorder)
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let events = try XCTUnwrap(root["traceEvents"] as? [[String: Any]])
        return (r, events, root)
    }

    func test_export_everyEventHasTheFieldsTheFormatRequires() throws {
        for name in ["srtc-bluetooth-blocks-speaker.jsonl", "srtc-quality-reconnect.jsonl", "smeeting-long-meeting-45min.jsonl.zst"] {
            let (_, events, root) = try export(Fixtures.trace(name))
            XCTAssertEqual(root["displayTimeUnit"] as? String, "ms")
            XCTAssertFalse(events.isEmpty)
            for e in events {
                let ph = try XCTUnwrap(e["ph"] as? String, "\(e)")
                XCTAssertTrue(["X", "i", "C", "M"].contains(ph), ph)
                XCTAssertNotNil(e["name"] as? String, "\(e)")
                XCTAssertNotNil(e["pid"] as? Int, "\(e)")
                XCTAssertNotNil(e["tid"] as? Int, "\(e)")
                let ts = try XCTUnwrap(e["ts"] as? Int, "\(e)")
                XCTAssertGreaterThanOrEqual(ts, 0)
                let args = e["args"] as? [String: Any]
                switch ph {
                case "X": XCTAssertGreaterThanOrEqual(try XCTUnwrap(e["dur"] as? Int, "\(e)"), 0)
                case "i": XCTAssertTrue(["t", "p", "g"].contains(e["s"] as? String ?? ""), "\(e)")
                case "C":
                    let values = try XCTUnwrap(args, "\(e)")
                    XCTAssertFalse(values.isEmpty)
                    for (_, v) in values { XCTAssertNotNil(v as? NSNumber, "counter values are numbers: \(e)") }
                case "M": XCTAssertNotNil(args?["name"] ?? args?["sort_index"], "\(e)")
                default: break
                }
            }
        }
    }

    func test_export_slicesAreOrderedAndNestProperly_timestampsInMicroseconds() throws {
        let (r, events, _) = try export(Fixtures.trace("srtc-bluetooth-blocks-speaker.jsonl"))
        let timed = events.filter { ($0["ph"] as? String) != "M" }
        let ts = timed.map { $0["ts"] as! Int }
        XCTAssertEqual(ts, ts.sorted(), "events are sorted by time")
        // Per track, complete slices are either disjoint or nested (here: never overlapping at all).
        var byTid: [Int: [(Int, Int)]] = [:]
        for e in timed where e["ph"] as? String == "X" { byTid[e["tid"] as! Int, default: []].append((e["ts"] as! Int, e["dur"] as! Int)) }
        XCTAssertGreaterThanOrEqual(byTid.count, 6, "a track per lane")
        for (tid, slices) in byTid {
            var stack: [Int] = []  // end times of open slices
            for (start, dur) in slices {
                while let last = stack.last, last <= start { stack.removeLast() }
                if let outer = stack.last { XCTAssertLessThanOrEqual(start + dur, outer, "slice on tid \(tid) at \(start) overlaps its parent") }
                stack.append(start + dur)
            }
        }
        // The ineffective call at 9.000 s is an instant at 9 000 000 µs, with its explanation.
        let verdict = try XCTUnwrap(timed.first { $0["cat"] as? String == "verdict" })
        XCTAssertEqual(verdict["ts"] as? Int, 9_000_000)
        let args = try XCTUnwrap(verdict["args"] as? [String: Any])
        XCTAssertEqual(args["cause"] as? String, "externalRouteActive")
        XCTAssertTrue((args["explanation"] as? String ?? "").contains("advice: Grey out the speaker button"))
        // One instant per record, each carrying the record itself (the 3 "at":"end" expectations are
        // evaluated after the replay and do not pass through the observer).
        let records = timed.filter { $0["cat"] as? String == "record" }
        XCTAssertEqual(records.count, r.records - 3)
        let call = try XCTUnwrap(records.first { ($0["args"] as? [String: Any])?["seq"] as? Int == 20 })
        XCTAssertEqual(((call["args"] as? [String: Any])?["record"] as? [String: Any])?["type"] as? String, "api.setRoute")
        let names = Set(events.filter { $0["name"] as? String == "thread_name" }.compactMap { ($0["args"] as? [String: Any])?["name"] as? String })
        for lane in ["predicted route", "actual route", "channel", "interruption", "system call", "app", "audio module", "devices",
                     "quality (pub)", "quality (sub)", "active speakers", "findings", "records"] {
            XCTAssertTrue(names.contains(lane), lane)
        }
        XCTAssertTrue(timed.contains { $0["ph"] as? String == "C" && $0["name"] as? String == "quality level (0 unknown … 4 lost)" })
    }
}
