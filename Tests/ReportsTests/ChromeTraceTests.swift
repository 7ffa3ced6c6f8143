import Foundation
import Replay
import Reports
import TestSupport
import TraceCodec
import TraceModel
import XCTest

final class ChromeTraceTests: XCTestCase {
    func export(_ path: String) throws -> (ReplayResult, [[String: Any]], [String: Any]) {
        let recorder = ChromeTraceRecorder()
        let r = try Replay.run(TraceSession(path: path), observer: recorder.observe)
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

    /// RTT, loss, jitter, bitrate and MOS are counter tracks (`ph` "C", one per metric, a series per
    /// side) as the Trace Event Format documents them: a name, pid, tid, ts in µs, and `args` holding only
    /// numbers; each sample is its report's values (loss in percent of the recorded ratio).
    func test_export_qualityMetricsAreCounterTracks_withTheReportsValues() throws {
        let path = Fixtures.trace("smeeting-field-service-10min.jsonl.zst")
        let (_, events, _) = try export(path)
        var reports: [(t: Int64, pub: QualitySample, sub: QualitySample)] = []
        for rec in try Fixtures.readAll(path).records { if case let .qualityReport(pub, sub) = rec.body { reports.append((rec.t, pub, sub)) } }
        XCTAssertGreaterThan(reports.count, 100)
        let counters = events.filter { $0["ph"] as? String == "C" }
        for metric in QualityMetric.allCases {
            let samples = counters.filter { $0["name"] as? String == metric.counterName }
            XCTAssertEqual(samples.count, reports.count, "one \(metric.counterName) sample per report")
            for (e, rep) in zip(samples, reports) {
                XCTAssertEqual(e["ts"] as? Int, Int(rep.t) * 1000)
                XCTAssertNotNil(e["pid"] as? Int)
                XCTAssertNotNil(e["tid"] as? Int)
                XCTAssertNil(e["dur"], "a counter has no duration")
                let args = try XCTUnwrap(e["args"] as? [String: Any])
                XCTAssertEqual(Set(args.keys), ["pub", "sub"])
                for (side, sample) in [("pub", rep.pub), ("sub", rep.sub)] {
                    let v = try XCTUnwrap(args[side] as? NSNumber, "a number: \(e)")
                    XCTAssertEqual(v.doubleValue, metric.shown(try XCTUnwrap(metric.value(sample))), accuracy: 1e-9, "\(metric) \(side) at \(rep.t)")
                }
            }
        }
        // Numbers, never booleans or strings, as written (Foundation reads 0 and 1 as either).
        let recorder = ChromeTraceRecorder()
        let raw = ChromeTrace.render(try Replay.run(TraceSession(path: path), observer: recorder.observe), recorder: recorder)
        let counterArgs = try NSRegularExpression(pattern: #"\{"name":"[^"]*","ph":"C"[^{]*"args":\{([^}]*)\}"#)
        let found = counterArgs.matches(in: raw, range: NSRange(raw.startIndex..., in: raw)).map { String(raw[Range($0.range(at: 1), in: raw)!]) }
        XCTAssertEqual(found.count, counters.count)
        for args in found { XCTAssertNotNil(args.range(of: #"^("[a-z]+":-?[0-9][0-9.eE+-]*,?)+$"#, options: .regularExpression), args) }
        XCTAssertEqual(Set(counters.compactMap { $0["name"] as? String }),
                       Set(["quality level (0 unknown … 4 lost)", "active speakers"] + QualityMetric.allCases.map(\.counterName)))
        // The lanes' moments are instants (thread-scoped) on their lane's track.
        let threads = Dictionary(events.filter { $0["name"] as? String == "thread_name" }.map {
            ((($0["args"] as? [String: Any])?["name"] as? String) ?? "", $0["tid"] as? Int ?? -1)
        }, uniquingKeysWith: { a, _ in a })
        for lane in ["route override", "audio session", "CallKit", "media services", "level changes", "SDK callbacks"] {
            XCTAssertNotNil(threads[lane], lane)
        }
        let moments = events.filter { $0["cat"] as? String == "moment" }
        XCTAssertTrue(moments.allSatisfy { $0["ph"] as? String == "i" && $0["s"] as? String == "t" })
        XCTAssertTrue(moments.contains { $0["tid"] as? Int == threads["media services"] && $0["name"] as? String == "media services reset" })
        XCTAssertTrue(moments.contains { $0["tid"] as? Int == threads["SDK callbacks"] && $0["name"] as? String == "recovered" })
    }

    /// The export streams: what it writes in chunks is what `render` returns, and a budget stops adding
    /// events (counted in `otherData.eventsNotExported`), the file still whole JSON and within the budget.
    func test_streamedExportIsTheRenderedOne_andABudgetCapsItWithANote() throws {
        let recorder = ChromeTraceRecorder()
        let r = try Replay.run(TraceSession(path: Fixtures.trace("smeeting-long-meeting-45min.jsonl.zst")), observer: recorder.observe)
        let whole = ChromeTrace.render(r, recorder: recorder)
        var chunks: [[UInt8]] = []
        let written = ChromeTrace.write(r, recorder: recorder, budget: nil) { chunks.append(Array($0)) }
        XCTAssertEqual(String(decoding: chunks.joined(), as: UTF8.self), whole)
        XCTAssertEqual(written.bytes, whole.utf8.count)
        XCTAssertGreaterThan(chunks.count, 1, "written in chunks, never held whole")
        XCTAssertTrue(chunks.allSatisfy { $0.count <= (1 << 16) + 8192 })
        XCTAssertGreaterThan(r.inputBytes, 0)
        XCTAssertEqual(ChromeTrace.budget(for: r), ChromeTrace.budgetBase + ChromeTrace.budgetPerInputByte * r.inputBytes)

        let budget = whole.utf8.count / 3
        var capped: [UInt8] = []
        let cut = ChromeTrace.write(r, recorder: recorder, budget: budget) { capped.append(contentsOf: $0) }
        XCTAssertLessThanOrEqual(capped.count, budget)
        XCTAssertGreaterThan(cut.eventsNotExported, 0)
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(capped)) as? [String: Any])
        XCTAssertEqual((root["otherData"] as? [String: Any])?["eventsNotExported"] as? Int, cut.eventsNotExported)
        let all = try XCTUnwrap((JSONSerialization.jsonObject(with: Data(whole.utf8)) as? [String: Any])?["traceEvents"] as? [Any])
        XCTAssertEqual((root["traceEvents"] as? [Any])?.count, all.count - cut.eventsNotExported)
    }
}
