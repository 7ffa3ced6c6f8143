import Foundation
import TestSupport
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
    }
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
        XCTAssertGreaterThanOrEqual(queries.count, 5, "docs/triage.md shows its queries")
        XCTAssertTrue(queries.allSatisfy { $0 > 0 }, "every documented query returns rows: \(queries)")
    }
}
