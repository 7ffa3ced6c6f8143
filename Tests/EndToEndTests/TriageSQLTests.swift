import Foundation
import TestSupport
import TraceFixtures
import XCTest

/// Triage rows and traces in an existing SQL engine: DuckDB (its Python package, from PyPI) runs every
/// query docs/triage.md shows, verbatim, on merged multi-frame rows with duplicate uploads (within a day
/// and across shards) and a session uploaded over two days, and its counts are those of triage's summary.
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
    rows, doc = sys.argv[1:3]
    damaged = sys.argv[3:]
    con = duckdb.connect()
    def q(sql): return con.execute(sql).fetchall()
    blocks = re.findall(r"```sql\n(.*?)```", open(doc).read(), re.S)
    out = {
        "rows": q(f"SELECT count(*) FROM read_ndjson('{rows}')")[0][0],
        "tags": dict(q(f"SELECT t.tag, count(*) FROM read_ndjson('{rows}') r, unnest(r.tags) AS t(tag) GROUP BY t.tag")),
        "queries": [len(q(sql)) if not sql.startswith("-- Regressions by SDK version") else -1 for sql in blocks],
        "joins": {
            "tickets": [[t, p or "-"] for t, p in q("SELECT t.ticket, r.path FROM read_csv('tickets.csv', header = true) t "
                                                   "LEFT JOIN read_ndjson('rows.jsonl.zst') r ON r.session = t.session ORDER BY t.ticket")],
            "acrossDays": [],
            "byReport": [[t, p or "-"] for t, p in q("SELECT t.ticket, r.path FROM read_csv('tickets.csv', header = true) t "
                                                    "LEFT JOIN (SELECT path, unnest(reportIds) AS reportId FROM read_ndjson('rows.jsonl.zst')) r "
                                                    "ON r.reportId = t.reportId ORDER BY t.ticket")],
        },
        "records": {},
    }
    for block in blocks:
        if "rows/*.jsonl.zst" in block:
            out["joins"]["acrossDays"] = [[r[0], str(r[1]), str(r[2]), ",".join(r[3]), str(r[5]).lower()] for r in q(block)]
        if "'records.jsonl'" in block:
            out["records"] = {t: n for t, n in q(block)}
    out["damaged"] = []
    for trace in damaged:
        try:
            q(f"SELECT count(*) FROM read_ndjson('{trace}', union_by_name = true, map_inference_threshold = -1)")
            out["damaged"].append("read")
        except Exception as e:
            out["damaged"].append(str(e).split("\n")[0])
    print(json.dumps(out))
    """#

    /// The golden traces' rows merged from two shards, two days of a session's rows (with a part uploaded
    /// twice on one day), tickets, and the records of a damaged trace as `rtctrace cat` reads them.
    func test_everyDocumentedQueryRunsAndCountsWhatTriageCounts() throws {
        try requireDuckDB()
        let traces = CLI.root + "/traces"
        var merged = Data()
        for i in 0..<2 {
            let part = dir + "/shard-\(i).jsonl.zst"
            let r = CLI.runInProcess(["triage", traces, "--shard", "\(i)/2", "-o", part])
            XCTAssertEqual(r.status, 0, r.err)
            merged += try Data(contentsOf: URL(fileURLWithPath: part))
        }
        try merged.write(to: URL(fileURLWithPath: dir + "/rows.jsonl.zst"))
        let magic = Data([0x28, 0xB5, 0x2F, 0xFD])
        var frames = 0, from = merged.startIndex
        while let r = merged.range(of: magic, in: from..<merged.endIndex) { frames += 1; from = r.upperBound }
        XCTAssertGreaterThanOrEqual(frames, 2, "a multi-frame rows file")
        try "ticket,session,reportId\nSUP-1042,6c1f0d3a-weekly-sync,\nSUP-1043,no-such-session,R-2041\n"
            .write(toFile: dir + "/tickets.csv", atomically: true, encoding: .utf8)
        // Day 1: part 1 of the weekly session, uploaded twice, and a lone part uploaded twice (one day only).
        // Day 2: parts 2 and 3, and another trace.
        let weekly = traces + "/smeeting-session-weekly", uploads = dir + "/uploads"
        try FileManager.default.createDirectory(atPath: uploads, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: weekly + "/part-1.jsonl", toPath: uploads + "/part-1-again.jsonl")
        let lone = traces + "/smeeting-session-part-with-checkpoint.jsonl"
        try FileManager.default.copyItem(atPath: lone, toPath: uploads + "/lone-again.jsonl")
        XCTAssertEqual(CLI.runInProcess(["triage", weekly + "/part-1.jsonl", uploads + "/part-1-again.jsonl", lone, uploads + "/lone-again.jsonl",
                                "-o", dir + "/rows/2026-11-29.jsonl.zst"]).status, 0)
        XCTAssertEqual(CLI.runInProcess(["triage", weekly + "/part-2.jsonl", weekly + "/part-3.jsonl", traces + "/srtc-bluetooth-blocks-speaker.jsonl",
                                "-o", dir + "/rows/2026-11-30.jsonl.zst"]).status, 0)
        let sameDay = CLI.run(["-dc", dir + "/rows/2026-11-29.jsonl.zst"], exe: "/usr/bin/zstd").out
        XCTAssertEqual(sameDay.split(separator: "\n").filter { $0.contains("\"session\":\"6c1f0d3a-weekly-sync\"") }.count, 2,
                       "the part uploaded twice is two rows of one day")
        // A trace with a line that is not JSON and a corrupt frame in the middle, and its records through rtctrace cat.
        let (damaged, plain) = try damagedTraces()
        let cat = CLI.runInProcess(["cat", damaged])
        XCTAssertEqual(cat.status, 0, cat.err)
        XCTAssertTrue(cat.err.contains("not a JSON object") && cat.err.contains("frame"), "cat names what it skipped: \(cat.err)")
        try cat.out.write(toFile: dir + "/records.jsonl", atomically: true, encoding: .utf8)

        let whole = CLI.runInProcess(["triage", traces, "--json"])
        XCTAssertEqual(whole.status, 0, whole.err)
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(whole.err.utf8)) as? [String: Any])

        let sql = CLI.run(["python3", "-c", Self.script, "rows.jsonl.zst", CLI.root + "/docs/triage.md", damaged, plain], cwd: dir, exe: Self.python)
        XCTAssertEqual(sql.status, 0, sql.err)
        let got = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(sql.out.utf8)) as? [String: Any], sql.out)
        XCTAssertEqual(got["rows"] as? Int, summary["traces"] as? Int)
        let expected = (summary["tags"] as? [[String: Any]] ?? []).map { ($0["tag"] as! String, $0["traces"] as! Int) }
        XCTAssertFalse(expected.isEmpty)
        XCTAssertEqual(got["tags"] as? [String: Int], Dictionary(uniqueKeysWithValues: expected), "DuckDB's per-tag counts are triage's")
        let queries = try XCTUnwrap(got["queries"] as? [Int])
        XCTAssertGreaterThanOrEqual(queries.count, 13, "docs/triage.md shows its queries")
        // The golden corpus has one version per product: the version query runs on the generated fleet below.
        XCTAssertTrue(queries.allSatisfy { $0 > 0 || $0 == -1 }, "every documented query returns rows: \(queries)")
        let joins = try XCTUnwrap(got["joins"] as? [String: Any])
        XCTAssertEqual(joins["tickets"] as? [[String]], [["SUP-1042", CLI.root + "/traces/smeeting-session-weekly/part-1.jsonl"], ["SUP-1043", "-"]],
                       "each ticket with its session's row, or none")
        XCTAssertEqual(joins["byReport"] as? [[String]], [["SUP-1042", "-"], ["SUP-1043", CLI.root + "/traces/smeeting-report-marked-in-call.jsonl"]],
                       "a ticket quoting a report id finds the trace the report was marked in, whatever its session")
        XCTAssertEqual(joins["acrossDays"] as? [[String]],
                       [["6c1f0d3a-weekly-sync", "2", "3", "rows/2026-11-29.jsonl.zst,rows/2026-11-30.jsonl.zst", "true"]],
                       "the session over two days, once; not the lone part uploaded twice on one day")
        // DuckDB's own reader gives up on the corrupt frame and on the bad line; the documented way reads every
        // record cat could.
        let refused = try XCTUnwrap(got["damaged"] as? [String])
        XCTAssertTrue(refused.count == 2 && refused[0].contains("corruption"), "\(refused)")
        XCTAssertTrue(refused.count == 2 && refused[1].contains("Malformed JSON"), "\(refused)")
        let records = try XCTUnwrap(got["records"] as? [String: Int])
        XCTAssertEqual(records.values.reduce(0, +), cat.out.split(separator: "\n").count)
        XCTAssertEqual(records["trace.header"], 1)
        XCTAssertGreaterThan(records.values.reduce(0, +), 1000)
    }

    /// A long golden trace as zstd frames of 500 lines, the first with a line that is not JSON and one in the
    /// middle corrupted; and the same lines, bad one included, as plain JSON Lines.
    func damagedTraces() throws -> (String, String) {
        let source = CLI.runInProcess(["cat", CLI.root + "/traces/smeeting-long-meeting-45min.jsonl.zst"]).out
        var lines = source.split(separator: "\n").map(String.init)
        lines.insert(#"{"seq":100,"t":1,"type":"srv.qualityReport", broken"#, at: 100)
        let plain = dir + "/bad-line.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: plain, atomically: true, encoding: .utf8)
        var frames: [Data] = []
        for start in stride(from: 0, to: lines.count, by: 500) {
            let chunk = dir + "/chunk.jsonl"
            try (lines[start..<min(start + 500, lines.count)].joined(separator: "\n") + "\n").write(toFile: chunk, atomically: true, encoding: .utf8)
            let z = CLI.run(["-q", "-f", chunk, "-o", chunk + ".zst"], exe: "/usr/bin/zstd")
            XCTAssertEqual(z.status, 0, z.err)
            frames.append(try Data(contentsOf: URL(fileURLWithPath: chunk + ".zst")))
        }
        XCTAssertGreaterThan(frames.count, 3)
        var middle = frames[frames.count / 2]
        for k in 40..<60 { middle[middle.startIndex + k] ^= 0xFF }
        frames[frames.count / 2] = middle
        let path = dir + "/damaged.trace.zst"
        try frames.reduce(Data(), +).write(to: URL(fileURLWithPath: path))
        return (path, plain)
    }

    static let fleetScript = #"""
    import duckdb, json, re, sys
    doc, entries = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
    blocks = re.findall(r"```sql\n(.*?)```", doc, re.S)
    con = duckdb.connect()
    def titled(title):
        sql = next(b for b in blocks if b.startswith("-- " + title + "\n"))
        return [list(r) for r in con.execute(sql).fetchall()]
    print(json.dumps({"bySdk": titled("Regressions by SDK version"), "byDevice": titled("Regressions by device model"),
                      "signatures": titled("Problem signatures"), "uploads": titled("Each upload once"),
                      "entries": [[list(r) for r in con.execute(e).fetchall()] for e in entries]}, default=str))
    """#

    /// The generated week with a regression planted in each layer and an old-version problem in each, triaged
    /// in four shards and merged by concatenation (copies of one upload in several shards, each unmarked in
    /// its own): the documented queries over the merged rows agree with one unsharded run's summary. The
    /// version query ranks the four planted problems first with the summary's counts; the device query finds
    /// nothing as large and never tests a tag the model implies; every listed entry's own query gives its
    /// counts; the signatures are the summary's open-first list.
    func test_theDocumentedQueriesOverShardsAgreeWithTheSummary() throws {
        try requireDuckDB()
        let runs = try PlantedFleet.week1Runs()
        var merged = Data()
        for shard in runs.shards { merged += try Data(contentsOf: URL(fileURLWithPath: shard)) }
        try merged.write(to: URL(fileURLWithPath: dir + "/rows.jsonl.zst"))
        let summary = runs.summary
        let entries = try XCTUnwrap((summary["regressions"] as? [String: Any])?["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 4)
        try JSONSerialization.data(withJSONObject: entries.map { $0["query"] as! String }).write(to: URL(fileURLWithPath: dir + "/entries.json"))

        let sql = CLI.run(["python3", "-c", Self.fleetScript, CLI.root + "/docs/triage.md", "entries.json"], cwd: dir, exe: Self.python)
        XCTAssertEqual(sql.status, 0, sql.err)
        let got = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(sql.out.utf8)) as? [String: [[Any]]], sql.out)

        // Every upload once, though the shards marked fewer of the copies than one run does.
        let uploads = try XCTUnwrap(got["uploads"]?.first)
        XCTAssertEqual(uploads[0] as? Int, (summary["traces"] as! Int) - (summary["duplicates"] as! Int))
        XCTAssertEqual(uploads[1] as? Int, summary["traces"] as? Int)
        XCTAssertLessThan(uploads[2] as? Int ?? 99, summary["duplicates"] as! Int, "copies in different shards are not marked there")

        // layer, sdk, tag, traces, of, pct, baseline_traces, baseline_of, baseline_pct, baseline, z
        let bySdk = try XCTUnwrap(got["bySdk"])
        let top = bySdk.prefix(entries.count)
        XCTAssertEqual(Set(top.map { "\($0[1]) \($0[2])" }), Set(entries.map { "\($0["group"]!) \($0["tag"]!)" }), "\(bySdk)")
        for e in entries {
            let row = try XCTUnwrap(bySdk.first { $0[1] as? String == e["group"] as? String && $0[2] as? String == e["tag"] as? String })
            XCTAssertEqual(row[3] as? Int, e["tagged"] as? Int, "\(e["group"]!)")
            XCTAssertEqual(row[4] as? Int, e["traces"] as? Int)
            XCTAssertEqual(row[6] as? Int, e["baselineTagged"] as? Int)
            XCTAssertEqual(row[7] as? Int, e["baselineTraces"] as? Int)
            XCTAssertGreaterThan(try XCTUnwrap(row[10] as? Double), 4)
            if let previous = e["baseline"] as? String {
                XCTAssertEqual(row[9] as? [String], [previous])
            }
        }
        // layer, product, device, tag, traces, of, pct, rest_traces, rest_of, rest_pct, z
        let byDevice = try XCTUnwrap(got["byDevice"])
        XCTAssertLessThan(try XCTUnwrap(byDevice.first?[10] as? Double), 4, "no device model stands out: \(byDevice.first ?? [])")
        XCTAssertFalse(byDevice.contains { ["simulator-trace", "not-ios"].contains($0[3] as? String) }, "the tags a model implies are not compared")

        // Each entry's own query: the group's row, then its baseline's, with the entry's counts.
        for (e, result) in zip(entries, try XCTUnwrap(got["entries"]) as [[Any]]) {
            let result = try XCTUnwrap(result as? [[Any]])
            XCTAssertEqual(result.count, 2)
            XCTAssertEqual(result.first.map { [$0[1] as? Int, $0[2] as? Int] }, [e["traces"] as? Int, e["tagged"] as? Int], "\(e["query"]!)")
            XCTAssertEqual(result.last.map { [$0[1] as? Int, $0[2] as? Int] }, [e["baselineTraces"] as? Int, e["baselineTagged"] as? Int])
        }

        // signature, traces, example, command: the open-first list, all of it, in the summary's order of counts.
        let signatures = try XCTUnwrap(got["signatures"])
        let open = try XCTUnwrap(summary["openFirst"] as? [[String: Any]])
        XCTAssertEqual(signatures.count, summary["signatures"] as? Int)
        XCTAssertEqual(Set(signatures.map { "\($0[0]) \($0[1]) \($0[2]) \($0[3])" }),
                       Set(open.map { "\($0["key"]!) \($0["traces"]!) \($0["path"]!) \($0["command"]!)" }))
    }
}
