import Foundation
import TestSupport
import TraceModel
import XCTest

/// The redaction property, end to end: a trace of every record type with a marker in every string field
/// (open vocabularies and a custom type name that follows no rule included) is redacted, and no marker
/// of a field the personal-field map does not keep in clear is left in what any command makes of the
/// redacted trace: `cat`, `explain` (text and JSON), `report`, `export`, `reduce` and the triage row.
final class RedactionPropertyTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// The marked records as one trace: the header first, as the first part of its session.
    func markedTrace() throws -> (path: String, records: [Record]) {
        var records = RecordGenerator.markedRecords()
        guard case .header(var h) = records[0].body else { XCTFail("the header comes first"); return ("", []) }
        h.session?.part = 1
        h.session?.resumed = false
        h.redacted = nil
        records[0].body = .header(h)
        let path = dir + "/marked.trace.zst"
        try Fixtures.write(records, path)
        return (path, records)
    }

    func test_noPersonalMarkerSurvivesRedactInAnyOutput() throws {
        let (raw, records) = try markedTrace()
        let clear = RecordGenerator.clearMarkers(records)
        let all = RecordGenerator.markers(in: records.map(\.jsonLine).joined(separator: "\n"))
        XCTAssertGreaterThan(all.subtracting(clear).count, 80, "markers in personal fields, open values and the custom type name")
        let red = dir + "/red.trace.zst"
        let redact = CLI.runInProcess(["redact", raw, "-o", red, "--salt", "case-key"])
        XCTAssertEqual(redact.status, 0, redact.out + redact.err)

        var outputs: [(String, String)] = [("redact", redact.out + redact.err)]
        func run(_ name: String, _ args: [String]) {
            let r = CLI.runInProcess(args)
            XCTAssertLessThanOrEqual(r.status, 1, "\(name): \(r.err)")
            outputs.append((name, r.out + r.err))
        }
        func file(_ name: String, _ path: String) throws {
            outputs.append((name, try String(decoding: Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)))
        }
        run("cat", ["cat", red])
        run("explain", ["explain", red])
        run("explain --json", ["explain", "--json", red])
        run("report", ["report", red, "-o", dir + "/r.html"])
        try file("report.html", dir + "/r.html")
        run("export", ["export", red, "-o", dir + "/e.json"])
        try file("export.json", dir + "/e.json")
        let explained = try JSONSerialization.jsonObject(with: Data(CLI.runInProcess(["explain", "--json", red]).out.utf8)) as? [String: Any]
        let code = try XCTUnwrap((explained?["findings"] as? [[String: Any]])?.first?["code"] as? String, "the marked trace has a finding to reduce to")
        run("reduce", ["reduce", red, "--finding", code, "-o", dir + "/min.trace.zst"])
        run("cat reduced", ["cat", dir + "/min.trace.zst"])
        run("triage", ["triage", red, "--salt", "case-key", "-o", dir + "/rows.jsonl"])
        try file("triage row", dir + "/rows.jsonl")

        for (name, text) in outputs {
            XCTAssertFalse(text.isEmpty, name)
            let left = RecordGenerator.markers(in: text).subtracting(clear)
            XCTAssertEqual(left, [], "\(name) shows personal values: \(left.sorted().prefix(5))")
        }
        // The raw trace's own outputs do show them: the test can fail.
        XCTAssertFalse(RecordGenerator.markers(in: CLI.runInProcess(["cat", raw]).out).subtracting(clear).isEmpty)
    }
}
