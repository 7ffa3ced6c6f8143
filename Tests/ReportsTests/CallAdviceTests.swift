import Analysis
import Contract
import Foundation
import Replay
import Reports
import TestSupport
import TraceCodec
import TraceModel
import XCTest

/// What a report tells the app to do about a call is decided once, by the explanation, and every report
/// says the same: `explain --json` (each verdict's `advice`, and the `advice` of the finding that explains
/// it), the HTML report (the call's card and its finding's marker) and the Chrome export. Only `explain`'s
/// text gave a call's outcome advice; the others gave its finding's, phrased at the verdict: for a request
/// dropped by a leave, "The request is applied when the interruption recovers".
final class CallAdviceTests: XCTestCase {
    static let trace = Fixtures.trace("srtc-deferred-call-outcomes.jsonl")

    /// The advice each call of the trace is told with in `explain`'s text, by seq.
    func explained(_ r: ReplayResult) -> [Int: String] {
        let e = Explanation(r)
        var out: [Int: String] = [:]
        for c in e.calls + e.lateCalls { out[c.verdict.seq] = c.lines.first { $0.label == "advice" }?.text }
        return out
    }

    /// The outcome advice the trace's calls must be told with, and the verdict-time advice they must not.
    func checkOutcomeAdvice(_ advice: [Int: String], _ what: String) {
        XCTAssertTrue(advice[29]?.contains("The request is lost: the app left the channel before it took effect") == true, "\(what): \(advice[29] ?? "none")")
        XCTAssertTrue(advice[3]?.contains("a later call changed the same setting before this one took effect") == true, "\(what): \(advice[3] ?? "none")")
        XCTAssertTrue(advice[4]?.hasPrefix("Grey out the earpiece button") == true, "\(what): \(advice[4] ?? "none")")
        XCTAssertTrue(advice[30]?.contains("waited until the app joined the channel") == true, "\(what): \(advice[30] ?? "none")")
        XCTAssertTrue(advice[76]?.hasPrefix("Nothing was decided") == true, "\(what): \(advice[76] ?? "none")")
        for (seq, text) in advice {
            XCTAssertFalse(text.contains("Nothing is lost") || text.contains("The request is applied when the interruption recovers"),
                           "\(what), seq \(seq): the verdict's advice for a call whose outcome says otherwise: \(text)")
        }
    }

    func test_explainJSON_eachVerdictHasTheExplanationsAdvice_andItsFindingTheSame() throws {
        let r = try Replay.run(TraceSession(path: Self.trace))
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(ExplainJSON.render(r).utf8)) as? [String: Any])
        let verdicts = try XCTUnwrap(doc["verdicts"] as? [[String: Any]])
        let findings = try XCTUnwrap(doc["findings"] as? [[String: Any]])
        let text = explained(r)
        var byVerdict: [Int: String] = [:], byFinding: [Int: String] = [:]
        for v in verdicts {
            let seq = try XCTUnwrap(v["seq"] as? Int)
            XCTAssertTrue(v.keys.contains("advice"), "every verdict has the key: \(v)")
            if let advice = v["advice"] as? String { byVerdict[seq] = advice } else { XCTAssertTrue(v["advice"] is NSNull, "\(v)") }
        }
        for f in findings where f["code"] as? String == "route.ineffective" {
            byFinding[try XCTUnwrap((f["seqs"] as? [Int])?.first)] = f["advice"] as? String
        }
        XCTAssertEqual(byVerdict, text, "the verdicts' advice is explain's")
        XCTAssertEqual(byFinding, text, "each call's finding is told with the call's advice")
        XCTAssertTrue(verdicts.first { $0["seq"] as? Int == 7 }?["advice"] is NSNull, "a call that took effect at once needs none")
        checkOutcomeAdvice(byVerdict, "explain --json verdicts")
        checkOutcomeAdvice(byFinding, "explain --json findings")
        // The golden snapshot is the same document.
        let golden = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(ExplainJSON.render(r, golden: true).utf8)) as? [String: Any])
        XCTAssertEqual((golden["verdicts"] as? [[String: Any]])?.compactMap { $0["advice"] as? String }.count, byVerdict.count)
    }

    func test_replayJSONSteps_eachVerdictHasTheAdviceKnownAtTheCall() throws {
        var steps: [ReplayStep] = []
        _ = try Replay.run(TraceSession(path: Self.trace), observer: { steps.append($0) })
        let step = try XCTUnwrap(steps.first { $0.record?.seq == 29 })
        let line = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(TimelineReport.json(step).utf8)) as? [String: Any])
        let verdict = try XCTUnwrap((line["verdicts"] as? [[String: Any]])?.first)
        let finding = try XCTUnwrap((line["findings"] as? [[String: Any]])?.first { $0["code"] as? String == "route.ineffective" })
        XCTAssertEqual(verdict["advice"] as? String, finding["advice"] as? String, "at the call, what became of it is not known yet")
    }

    func test_htmlReport_theCallsFindingMarkerSaysTheCallsAdvice() throws {
        let (r, lanes) = try Fixtures.replayWithLanes(Self.trace)
        let html = HTMLReport.render(r, lanes: lanes)
        var byMarker: [Int: String] = [:]
        for (i, f) in r.findings.enumerated() where f.code == .routeIneffective {
            let open = try XCTUnwrap(html.range(of: "id=\"m-f-\(i)\" class=\"marker finding"), "marker of finding \(i)")
            let title = try XCTUnwrap(html[open.upperBound...].range(of: "<title>"))
            let end = try XCTUnwrap(html[title.upperBound...].range(of: "</title>"))
            let lines = html[title.upperBound..<end.lowerBound].replacingOccurrences(of: "&#39;", with: "'").split(separator: "\n")
            byMarker[try XCTUnwrap(f.seqs.first)] = try XCTUnwrap(lines.first { $0.hasPrefix("advice: ") }).dropFirst("advice: ".count).description
        }
        XCTAssertEqual(byMarker, explained(r))
        checkOutcomeAdvice(byMarker, "report finding markers")
        let cards = html.components(separatedBy: "<p class=\"advice\"><b>advice</b>: ").dropFirst().map { String($0.prefix { $0 != "<" }) }
        for advice in explained(r).values { XCTAssertTrue(cards.contains(advice.replacingOccurrences(of: "'", with: "&#39;")), advice) }
    }

    func test_chromeExport_findingsAndVerdictsSayTheCallsAdvice() throws {
        let recorder = ChromeTraceObserver()
        let r = try Replay.run(TraceSession(path: Self.trace), observer: recorder.observe)
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(ChromeTrace.render(r, observer: recorder).utf8)) as? [String: Any])
        let events = try XCTUnwrap(root["traceEvents"] as? [[String: Any]])
        var byFinding: [Int: String] = [:], byVerdict: [Int: String] = [:]
        for e in events {
            let args = e["args"] as? [String: Any] ?? [:]
            if e["cat"] as? String == "finding", e["name"] as? String == "route.ineffective" {
                byFinding[try XCTUnwrap((args["seqs"] as? [Int])?.first)] = args["advice"] as? String
            }
            if e["cat"] as? String == "verdict", let seq = args["seq"] as? Int,
               let line = (args["explanation"] as? String)?.split(separator: "\n").first(where: { $0.hasPrefix("advice: ") }) {
                byVerdict[seq] = String(line.dropFirst("advice: ".count))
            }
        }
        XCTAssertEqual(byFinding, explained(r))
        XCTAssertEqual(byVerdict, explained(r))
        checkOutcomeAdvice(byFinding, "chrome export findings")
    }
}
