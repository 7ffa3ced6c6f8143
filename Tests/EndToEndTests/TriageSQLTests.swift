import Foundation
import TestSupport
import TraceFixtures
import XCTest

/// Triage rows and traces in an existing SQL engine: DuckDB (its Python package, from PyPI) reads
/// merged multi-frame rows and a golden trace, counts the same tags as triage's own summary, and
/// runs every query docs/triage.md shows.
final class TriageSQLTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    static let python = "/usr/bin/env"

    /// DuckDB's Python package is installed by `make test-deps` (as `make test` runs it); the test
    /// installs nothing, and without the package it fails saying what to run.
    func requireDuckDB() throws {
        struct Missing: Error {}
        let check = CLI.run(["python3", "-c", "import duckdb"], exe: Self.python)
        guard check.status == 0 else {
            XCTFail("DuckDB's Python package is missing: run 'make test-deps' (it installs it with pip)\n" + check.err)
            throw Missing()
        }
    }

    static let script = #"""
    import duckdb, json, re, sys
    rows, trace, doc = sys.argv[1:4]
    con = duckdb.connect()
    def q(sql): return con.execute(sql).fetchall()
    out = {
        "rows": q(f"SELECT count(*) FROM read_ndjson('{rows}')")[0][0],
        "tags": dict(q(f"SELECT t.tag, count(*) FROM read_ndjson('{rows}') r, unnest(r.tags) AS t(tag) GROUP BY t.tag")),
        "traceRecords": q(f"SELECT count(*) FROM read_ndjson('{trace}', union_by_name = true)")[0][0],
        "traceTypes": dict(q(f"SELECT type, count(*) FROM read_ndjson('{trace}', union_by_name = true, map_inference_threshold = -1) GROUP BY type")),
        "queries": [len(q(sql)) for sql in re.findall(r"```sql\n(.*?)```", open(doc).read(), re.S)],
        "joins": {
            "tickets": [[t, p or "-"] for t, p in q("SELECT t.ticket, r.path FROM read_csv('tickets.csv', header = true) t "
                                                   "LEFT JOIN read_ndjson('rows.jsonl.zst') r ON r.session = t.session ORDER BY t.ticket")],
            "acrossDays": [],
            "byReport": [[t, p or "-"] for t, p in q("SELECT t.ticket, r.path FROM read_csv('tickets.csv', header = true) t "
                                                    "LEFT JOIN (SELECT path, unnest(reportIds) AS reportId FROM read_ndjson('rows.jsonl.zst')) r "
                                                    "ON r.reportId = t.reportId ORDER BY t.ticket")],
        },
    }
    for block in re.findall(r"```sql\n(.*?)```", open(doc).read(), re.S):
        if "rows/*.jsonl.zst" in block:
            out["joins"]["acrossDays"] = [[r[0], str(r[1]), str(r[2]), ",".join(r[3]), str(r[5]).lower()] for r in q(block)]
    print(json.dumps(out))
    """#

    func test_duckDBReadsMergedRowsAndTracesAndCountsWhatTriageCounts() throws {
        try requireDuckDB()
        let traces = CLI.root + "/traces"
        // Two shards, merged by concatenation: a rows file of several zstd frames.
        var merged = Data()
        for i in 0..<2 {
            let part = dir + "/shard-\(i).jsonl.zst"
            let r = CLI.run(["triage", traces, "--shard", "\(i)/2", "-o", part])
            XCTAssertEqual(r.status, 0, r.err)
            merged += try Data(contentsOf: URL(fileURLWithPath: part))
        }
        try merged.write(to: URL(fileURLWithPath: dir + "/rows.jsonl.zst"))
        let magic = Data([0x28, 0xB5, 0x2F, 0xFD])
        var frames = 0, from = merged.startIndex
        while let r = merged.range(of: magic, in: from..<merged.endIndex) { frames += 1; from = r.upperBound }
        XCTAssertGreaterThanOrEqual(frames, 2, "a multi-frame rows file")
        let golden = "smeeting-long-meeting-45min.jsonl.zst"
        try FileManager.default.copyItem(atPath: traces + "/" + golden, toPath: dir + "/trace.jsonl.zst")
        // The tables the session joins read: support tickets, and two days' rows with one session's
        // parts uploaded on each.
        try "ticket,session,reportId\nSUP-1042,6c1f0d3a-weekly-sync,\nSUP-1043,no-such-session,R-2041\n"
            .write(toFile: dir + "/tickets.csv", atomically: true, encoding: .utf8)
        let weekly = traces + "/smeeting-session-weekly"
        XCTAssertEqual(CLI.run(["triage", weekly + "/part-1.jsonl", "-o", dir + "/rows/2026-11-29.jsonl.zst"]).status, 0)
        XCTAssertEqual(CLI.run(["triage", weekly + "/part-2.jsonl", weekly + "/part-3.jsonl", traces + "/srtc-bluetooth-blocks-speaker.jsonl",
                                "-o", dir + "/rows/2026-11-30.jsonl.zst"]).status, 0)

        let whole = CLI.run(["triage", traces, "--summary", "--json"])
        XCTAssertEqual(whole.status, 0, whole.err)
        let summaryLine = try XCTUnwrap(whole.err.split(separator: "\n").first { $0.hasPrefix("{") })
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(summaryLine.utf8)) as? [String: Any])
        let goldenRow = try XCTUnwrap(whole.out.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.first { ($0["path"] as? String)?.hasSuffix(golden) == true })

        let sql = CLI.run(["python3", "-c", Self.script, "rows.jsonl.zst", "trace.jsonl.zst", CLI.root + "/docs/triage.md"],
                          cwd: dir, exe: Self.python)
        XCTAssertEqual(sql.status, 0, sql.err)
        let got = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(sql.out.utf8)) as? [String: Any], sql.out)
        XCTAssertEqual(got["rows"] as? Int, summary["traces"] as? Int)
        let expected = (summary["tags"] as? [[String: Any]] ?? []).map { ($0["tag"] as! String, $0["traces"] as! Int) }
        XCTAssertFalse(expected.isEmpty)
        XCTAssertEqual(got["tags"] as? [String: Int], Dictionary(uniqueKeysWithValues: expected), "DuckDB's per-tag counts are triage's")
        XCTAssertEqual(got["traceRecords"] as? Int, goldenRow["records"] as? Int, "DuckDB reads every record of the golden trace")
        let types = try XCTUnwrap(got["traceTypes"] as? [String: Int])
        XCTAssertEqual(types["trace.header"], 1)
        XCTAssertEqual(types.values.reduce(0, +), goldenRow["records"] as? Int)
        let queries = try XCTUnwrap(got["queries"] as? [Int])
        XCTAssertGreaterThanOrEqual(queries.count, 10, "docs/triage.md shows its queries")
        XCTAssertTrue(queries.allSatisfy { $0 > 0 }, "every documented query returns rows: \(queries)")
        let joins = try XCTUnwrap(got["joins"] as? [String: Any])
        XCTAssertEqual(joins["tickets"] as? [[String]], [["SUP-1042", CLI.root + "/traces/smeeting-session-weekly/part-1.jsonl"], ["SUP-1043", "-"]],
                       "each ticket with its session's row, or none")
        XCTAssertEqual(joins["byReport"] as? [[String]], [["SUP-1042", "-"], ["SUP-1043", CLI.root + "/traces/smeeting-report-marked-in-call.jsonl"]],
                       "a ticket quoting a report id finds the trace the report was marked in, whatever its session")
        XCTAssertEqual(joins["acrossDays"] as? [[String]],
                       [["6c1f0d3a-weekly-sync", "2", "3", "rows/2026-11-29.jsonl.zst,rows/2026-11-30.jsonl.zst", "true"]])
    }

    static let fleetScript = #"""
    import duckdb, json, re, sys
    doc = open(sys.argv[1]).read()
    blocks = re.findall(r"```sql\n(.*?)```", doc, re.S)
    def query(title):
        sql = next(b for b in blocks if b.startswith("-- " + title + "\n"))
        return [list(r) for r in duckdb.connect().execute(sql).fetchall()]
    print(json.dumps({"bySdk": query("Regressions by SDK version"), "byDevice": query("Regressions by device model")}, default=str))
    """#

    /// The documented regression queries on a generated fleet with one planted regression (SRTC 4.6.2
    /// loses audio after 9 % of its interruptions, the other versions after 1-2 %): the version query
    /// ranks it first, with the counts triage's summary has; the device query, on models picked
    /// independently of the version, finds nothing as large.
    func test_theRegressionQueriesRankThePlantedRegressionFirst() throws {
        try requireDuckDB()
        let fleet = SyntheticFleet.make(seed: 24, versions: TriageFleetTests.versions)
        let d = dir + "/fleet"
        try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        for t in fleet { try t.jsonLines.write(toFile: d + "/" + t.name, atomically: false, encoding: .utf8) }
        let r = CLI.run(["triage", d, "-o", dir + "/rows.jsonl.zst", "--json"])
        XCTAssertEqual(r.status, 0, r.err)
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.err.utf8)) as? [String: Any])
        let planted = try XCTUnwrap(((summary["regressions"] as? [String: Any])?["entries"] as? [[String: Any]])?.first)

        let sql = CLI.run(["python3", "-c", Self.fleetScript, CLI.root + "/docs/triage.md"], cwd: dir, exe: Self.python)
        XCTAssertEqual(sql.status, 0, sql.err)
        let got = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(sql.out.utf8)) as? [String: [[Any]]], sql.out)
        let top = try XCTUnwrap(got["bySdk"]?.first)
        XCTAssertEqual(top[0] as? String, "SRTC 4.6.2")
        XCTAssertEqual(top[1] as? String, "interruption-not-recovered")
        XCTAssertEqual(top[2] as? Int, planted["tagged"] as? Int, "the same count as the summary")
        XCTAssertEqual(top[3] as? Int, planted["traces"] as? Int)
        let z = try XCTUnwrap(top[8] as? Double)
        XCTAssertGreaterThan(z, 4)
        let device = try XCTUnwrap(got["byDevice"]?.first)
        XCTAssertLessThan(try XCTUnwrap(device[8] as? Double), z / 2, "no device model stands out as the planted version does: \(device)")
    }
}
