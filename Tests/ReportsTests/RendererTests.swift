import Analysis
import Foundation
import Replay
import TestSupport
import Reports
import TraceCodec
import XCTest

/// Every report format has exactly one renderer behind the `Renderer` protocol, and each renderer
/// answers to its own format.
final class RendererTests: XCTestCase {
    /// The renderer each kind of input's lookup gives for `format`, nil when it gives none.
    private func lookups(_ f: ReportFormat) -> [ReportInput: ReportFormat] {
        var found: [ReportInput: ReportFormat] = [:]
        found[.replay] = Renderers.replay(f)?.format
        found[.checkOutcomes] = Renderers.checkOutcomes(f)?.format
        found[.diff] = Renderers.diff(f)?.format
        found[.whatif] = Renderers.whatif(f)?.format
        found[.triageSummary] = Renderers.triageSummary(f)?.format
        found[.triageRow] = Renderers.triageRow(f)?.format
        found[.triageTags] = Renderers.triageTags(f)?.format
        found[.catalogue] = Renderers.catalogue(f)?.format
        found[.traceSummary] = Renderers.traceSummary(f)?.format
        found[.verification] = Renderers.verification(f)?.format
        found[.importLog] = Renderers.importLog(f)?.format
        found[.redaction] = Renderers.redaction(f)?.format
        found[.reduction] = Renderers.reduction(f)?.format
        return found
    }

    /// The registry holds one renderer per identifier, and every format resolves, by its identifier, to
    /// its renderer in the lookup of its kind of input and in no other.
    func test_registryHasOneRendererPerIdentifier() {
        XCTAssertEqual(Set(ReportFormat.allCases.map(\.rawValue)).count, ReportFormat.allCases.count, "identifiers are distinct")
        for f in ReportFormat.allCases {
            XCTAssertEqual(Renderers.format(f.rawValue), f)
            XCTAssertEqual(lookups(f), [f.info.input: f], "\(f.rawValue) resolves to its renderer, in the lookup of \(f.info.input) only")
        }
        XCTAssertNil(Renderers.format("chrome-trace"), "one name per format")
        XCTAssertEqual(ReportFormat.html.fileExtension, "html")
        XCTAssertEqual(ReportFormat.chrome.mediaType, "application/json")
        XCTAssertEqual(ReportFormat.written(by: "export"), [.chrome])
    }

    /// The renderers that draw from the replay's steps say so; the others render from their input alone.
    func test_observersOfTheReplayDeclareIt() {
        let observing = ReportFormat.allCases.filter { Renderers.replay($0)?.observesReplay == true }
        XCTAssertEqual(observing, [.html, .chrome, .timelineText, .timelineJSON])
    }

    /// The Chrome export receives the replay's steps as they happen, through the renderer the registry
    /// gives, and writes what an observer fed beside the replay collects; so does the timeline.
    func test_chromeExportAndTimelineObserveTheReplayAsItRuns() throws {
        let path = Fixtures.trace("srtc-bluetooth-blocks-speaker.jsonl")
        let chrome = try XCTUnwrap(Renderers.replay(.chrome))
        var lines: [String] = []
        let timeline = try XCTUnwrap(Renderers.replay(.timelineText, .init(emit: { lines.append($0) })))
        let separate = ChromeTraceObserver()
        var steps = 0
        let r = try Replay.run(TraceSession(path: path)) { step in
            steps += 1
            chrome.replayObserver?(step)
            timeline.replayObserver?(step)
            separate.observe(step)
        }
        XCTAssertGreaterThan(steps, 0)
        XCTAssertEqual(lines.count, steps, "one line per step, written as it happened")
        XCTAssertEqual(chrome.render(ReplayReport(r)), ChromeTrace.render(r, observer: separate))
        XCTAssertTrue(chrome.render(ReplayReport(r)).contains("\"cat\":\"record\""), "record instants came from the steps")
        var streamed: [UInt8] = []
        let written = try chrome.write(ReplayReport(r)) { streamed.append(contentsOf: $0) }
        XCTAssertEqual(written.bytes, streamed.count)
        XCTAssertEqual(String(decoding: streamed, as: UTF8.self), chrome.render(ReplayReport(r)), "within its budget, streamed is whole")
    }

    /// A golden session is one JUnit case, named once: by the folder of its parts when no other case is in
    /// it, else by its session id; never "part-1".
    func test_junitNamesASessionCaseOnce_byItsFolderOrItsSessionId() {
        var weekly = CheckOutcome(TraceSession(paths: (1...3).map { "traces/weekly/part-\($0).jsonl" }))
        weekly.session = "6c1f0d3a-weekly-sync"
        var loose = CheckOutcome(TraceSession(paths: ["traces/part-1.jsonl", "traces/part-2.jsonl"]))
        loose.session = "b81f33e0"
        let single = CheckOutcome(file: "traces/srtc-speaker.jsonl")
        let xml = JUnitXML.render([weekly, loose, single])
        XCTAssertTrue(xml.contains("name=\"weekly\" file=\"traces/weekly/part-1.jsonl\""), xml)
        XCTAssertTrue(xml.contains("name=\"session b81f33e0\" file=\"traces/part-1.jsonl\""), "traces/ holds another case: \(xml)")
        XCTAssertTrue(xml.contains("name=\"srtc-speaker\""), xml)
        XCTAssertFalse(xml.contains("name=\"part-1\""), xml)
    }

    /// `check`'s text, an item at a time: a pass (hidden when quiet), a failure with its lines, a session's
    /// other parts, then the counts; the whole is the items and the counts.
    func test_checkTextWritesEachOutcomeThenTheCounts() throws {
        var pass = CheckOutcome(file: "traces/a.jsonl")
        pass.expectations = 3
        pass.snapshot = .matched
        var fail = CheckOutcome(TraceSession(paths: ["traces/s/part-1.jsonl", "traces/s/part-2.jsonl"]))
        fail.failures = ["traces/s/part-1.jsonl: seq 4: expect.route: expected speaker, got receiver"]
        let text = try XCTUnwrap(Renderers.checkOutcomes(.checkText))
        XCTAssertEqual(text.item(pass, at: 0), "PASS traces/a.jsonl (3 expectations, snapshot)\n")
        XCTAssertEqual(text.item(fail, at: 1), "FAIL traces/s/part-1.jsonl (+1 part of its session)\n"
            + "traces/s/part-1.jsonl: seq 4: expect.route: expected speaker, got receiver\n")
        XCTAssertEqual(text.closing([pass, fail]), "1 passed, 1 failed\n")
        XCTAssertEqual(text.render([pass, fail]), text.item(pass, at: 0) + text.item(fail, at: 1) + "1 passed, 1 failed\n")
        let quiet = try XCTUnwrap(Renderers.checkOutcomes(.checkText, quiet: true))
        XCTAssertEqual(quiet.render([pass, fail]), text.item(fail, at: 1) + "1 passed, 1 failed\n")
        // The formats that need every outcome write nothing per item, and their whole at the close.
        let junit = try XCTUnwrap(Renderers.checkOutcomes(.junit))
        XCTAssertEqual(junit.item(fail, at: 0), "")
        XCTAssertEqual(junit.closing([pass, fail]), JUnitXML.render([pass, fail]))
    }

    /// `info`'s renderers lay out the summary read from a trace: the text's aligned lines with the counts
    /// read, a blank line between parts; the JSON one object per part with the same counts.
    func test_infoRenderersLayOutTheSummaryOfEachPart() throws {
        let path = Fixtures.trace("srtc-bluetooth-blocks-speaker.jsonl")
        let s = try TraceSummary.read(path)
        XCTAssertGreaterThan(s.records, 0)
        let text = try XCTUnwrap(Renderers.traceSummary(.infoText)).render([s, s])
        XCTAssertTrue(text.hasPrefix("trace     \(path)\nlayer     srtc (SRTC: channels that users join and leave)\n"), text)
        XCTAssertTrue(text.contains("\nrecords   \(s.records)\n"), text)
        XCTAssertTrue(text.contains("problems  none\n\ntrace     \(path)\n"), "a blank line between parts: \(text)")
        let json = try XCTUnwrap(Renderers.traceSummary(.infoJSON)).render([s, s])
        let lines = json.split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        XCTAssertEqual(object["records"] as? Int, s.records)
        XCTAssertEqual(object["file"] as? String, path)
        XCTAssertEqual((object["byType"] as? [String: Int])?.values.reduce(0, +), s.records)
    }

    /// `verify`'s renderers: a trace that reads whole is OK with its counts, one that could not be read is
    /// damaged saying why, a session's missing parts are named; the JSON says the same, one object each.
    func test_verifyRenderersSayEachVerdict() throws {
        var s = TraceSummary(file: "a.jsonl")
        s.records = 1
        let text = try XCTUnwrap(Renderers.verification(.verifyText))
        let json = try XCTUnwrap(Renderers.verification(.verifyJSON))
        XCTAssertEqual(text.item(.trace(s), at: 0), "a.jsonl: OK (1 record, 0 frames)\n")
        XCTAssertEqual(json.item(.trace(s), at: 0), #"{"file":"a.jsonl","ok":true,"records":1,"problems":[]}"# + "\n")
        let unreadable = Verification.unreadable(file: "b.jsonl", message: "b.jsonl: is a directory")
        XCTAssertFalse(unreadable.ok)
        XCTAssertEqual(text.item(unreadable, at: 1), "b.jsonl: DAMAGED: b.jsonl: is a directory\n")
        let missing = Verification.missingParts(session: "weekly", missing: [2, 3], of: 4)
        XCTAssertEqual(text.item(missing, at: 2), "session weekly: parts 2, 3 missing (of parts 1–4 given)\n")
        XCTAssertEqual(json.item(missing, at: 2), #"{"session":"weekly","ok":false,"missingParts":[2,3]}"# + "\n")
        XCTAssertEqual(text.render([.trace(s), missing]), text.item(.trace(s), at: 0) + text.item(missing, at: 1))
    }

    /// `redact`'s report names every file written, the session when there are several, each kind of field
    /// replaced, and says the replay is unchanged only when the redacted trace's replay was handed to it.
    func test_redactReportSaysWhatWasReplacedAndTheReplayOnlyWhenUnchanged() throws {
        var redaction = RedactionReport()
        redaction.records = 12
        redaction.changed = [(kind: "uid", count: 1), (kind: "device id", count: 2)]
        let renderer = try XCTUnwrap(Renderers.redaction(.redactText))
        let differs = renderer.render(RedactReport(written: ["out/part-1.trace.zst", "out/part-2.trace.zst"], session: "weekly",
                                                   redaction: redaction, unchanged: nil))
        XCTAssertEqual(differs, "wrote out/part-1.trace.zst\nwrote out/part-2.trace.zst\n12 records, one redacted file per part of session weekly\n"
            + "  uid: 1 field replaced\n  device id: 2 fields replaced\n")
        let r = try Fixtures.replay("srtc-bluetooth-blocks-speaker.jsonl")
        let same = renderer.render(RedactReport(written: ["a.jsonl"], session: nil, redaction: RedactionReport(), unchanged: r))
        XCTAssertEqual(same, "wrote a.jsonl\n0 records\nno personal fields found\n"
            + "replay unchanged: \(r.verdicts.count) verdicts, \(r.divergenceCount) divergences, \(r.findings.count) findings\n")
    }
}
