import Foundation
import TestSupport
import XCTest

/// `rtctrace triage --from-rows`: the summary of rows alone, as the merge Job publishes it. Over the four
/// shards of a fleet (copies of one upload spread over them, each its shard's original) it is the summary
/// of one unsharded run, field by field, but for the fields that describe a run (what was skipped, where
/// the rows went).
final class TriageFromRowsTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// The fields of a summary that describe the run rather than the traces.
    static let runFields: Set<String> = ["skipped", "output"]

    func object(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    func test_fourShardsMakeTheSummaryOfOneUnshardedRun() throws {
        let runs = try PlantedFleet.week1Runs()
        // The shards' rows mark fewer duplicates than one run: copies that landed in other shards.
        var marked = 0
        for shard in runs.shards {
            let rows = CLI.run(["-dc", shard], exe: "/usr/bin/zstd").out
            marked += rows.split(separator: "\n").filter { !$0.contains("\"duplicateOf\":null") }.count
        }
        let whole = runs.summary
        XCTAssertEqual(whole["duplicates"] as? Int, PlantedFleet.copies - 1)
        XCTAssertLessThan(marked, PlantedFleet.copies - 1, "the copies spread over the shards")

        let r = CLI.runInProcess(["triage", "--from-rows", "--json", "--baseline", runs.baseline] + runs.shards)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(r.err, "")
        let rebuilt = try object(r.out)
        XCTAssertEqual(Set(rebuilt.keys), Set(whole.keys))
        for key in whole.keys.sorted() where !Self.runFields.contains(key) {
            XCTAssertEqual(try canonical(rebuilt[key]), try canonical(whole[key]), "field \(key)")
        }
        XCTAssertEqual((rebuilt["skipped"] as? [String: Any])?["files"] as? Int, 0)
        XCTAssertTrue(rebuilt["output"] is NSNull)
        XCTAssertGreaterThan(((whole["regressions"] as? [String: Any])?["entries"] as? [Any])?.count ?? 0, 0)
        XCTAssertFalse(whole["changes"] is NSNull, "the baseline is compared too")

        // The merged file (shards concatenated, as the merge Job writes it) and the shards one by one, in
        // any order, give the same; and the text is the unsharded run's text.
        var merged = Data()
        for shard in runs.shards.reversed() { merged += try Data(contentsOf: URL(fileURLWithPath: shard)) }
        try merged.write(to: URL(fileURLWithPath: dir + "/merged.jsonl.zst"))
        let fromMerged = CLI.runInProcess(["triage", "--from-rows", dir + "/merged.jsonl.zst", "--json", "--baseline", runs.baseline])
        XCTAssertEqual(fromMerged.out, r.out)
        let text = CLI.runInProcess(["triage", "--from-rows", dir + "/merged.jsonl.zst", "--all"])
        XCTAssertEqual(text.status, 0, text.err)
        XCTAssertEqual(text.out, CLI.runInProcess(["triage", "--from-rows", runs.whole, "--all"]).out)
        XCTAssertTrue(text.out.hasPrefix("Triaged 2312 traces: 2301 readable, 11 duplicate uploads (counted once); "), text.out)
    }

    /// The same value whatever the order of an object's keys.
    func canonical(_ value: Any?) throws -> String {
        guard let value, !(value is NSNull) else { return "null" }
        return String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
    }

    /// Every problem signature has its example: the text a screenful, --all and --json every one.
    func test_everySignatureHasAnExample() throws {
        let runs = try PlantedFleet.week1Runs()
        let open = try XCTUnwrap(runs.summary["openFirst"] as? [[String: Any]])
        XCTAssertEqual(open.count, runs.summary["signatures"] as? Int)
        XCTAssertTrue(open.allSatisfy { ($0["command"] as? String)?.hasPrefix("rtctrace explain ") == true })
        // Rows with more signatures than a screenful: one per error-level finding code, and one of each pair.
        let rules = try object(CLI.runInProcess(["rules", "--json"]).out)
        let errors = try XCTUnwrap(rules["codes"] as? [[String: Any]]).filter { $0["severity"] as? String == "error" }.compactMap { $0["code"] as? String }
        XCTAssertGreaterThan(errors.count, 5, "more than a screenful of signatures")
        var rows: [String] = []
        for (i, code) in errors.enumerated() {
            let pair = [code, errors[(i + 1) % errors.count]].sorted()
            for (j, codes) in [[code], pair].enumerated() {
                let findings = codes.map { "\"\($0)\":1" }.joined(separator: ",")
                rows.append(#"{"schema":"rtctrace.triage/2","path":"t-\#(i)-\#(j).jsonl","size":100,"records":10,"contentHash":"h\#(i)-\#(j)","layer":"srtc","sdk":"SRTC 4.6.2","findings":{\#(findings)},"errors":\#(codes.count),"tags":[]}"#)
            }
        }
        try (rows.joined(separator: "\n") + "\n").write(toFile: dir + "/many.jsonl", atomically: true, encoding: .utf8)
        let many = try object(CLI.runInProcess(["triage", "--from-rows", dir + "/many.jsonl", "--json"]).out)
        let signatures = try XCTUnwrap(many["signatures"] as? Int)
        XCTAssertEqual(signatures, 2 * errors.count)
        XCTAssertEqual((many["openFirst"] as? [Any])?.count, signatures)
        let screen = CLI.runInProcess(["triage", "--from-rows", dir + "/many.jsonl"]).out
        XCTAssertTrue(screen.contains("\n  10. "), screen)
        XCTAssertFalse(screen.contains("\n  11. "), "a screenful: \(screen)")
        XCTAssertTrue(screen.contains("  … \(signatures - 10) more signatures (--all, or --json)"), screen)
        let all = CLI.runInProcess(["triage", "--from-rows", dir + "/many.jsonl", "--all"]).out
        XCTAssertTrue(all.contains("\n  \(signatures). "), all)
    }

    /// Rows that are not rows, a rows file given twice, options that do nothing here: each said, nothing
    /// summarised in silence.
    func test_badRowsAndIdleOptionsAreRefused() throws {
        let runs = try PlantedFleet.week1Runs()
        try "not a row\n".write(toFile: dir + "/notes.jsonl", atomically: true, encoding: .utf8)
        let notes = CLI.runInProcess(["triage", "--from-rows", dir + "/notes.jsonl"])
        XCTAssertEqual(notes.status, 65, notes.err)
        XCTAssertTrue(notes.err.contains("notes.jsonl: byte 0: neither zstd frames nor JSON Lines"), notes.err)
        try "{\"schema\":\"rtctrace.triage/2\",\"path\":\"a.jsonl\"}\n{\"a\":1}\n".write(toFile: dir + "/other.jsonl", atomically: true, encoding: .utf8)
        let other = CLI.runInProcess(["triage", "--from-rows", dir + "/other.jsonl"])
        XCTAssertEqual(other.status, 65, other.err)
        XCTAssertTrue(other.err.contains("other.jsonl: line 2: not a triage row: schema: not a triage row"), other.err)
        try #"{"schema":"rtctrace.triage/2","path":"a.jsonl","tags":["no-such-tag"]}"#.write(toFile: dir + "/newer.jsonl", atomically: true, encoding: .utf8)
        let newer = CLI.runInProcess(["triage", "--from-rows", dir + "/newer.jsonl"])
        XCTAssertEqual(newer.status, 65, newer.err)
        XCTAssertTrue(newer.err.contains("unknown tag 'no-such-tag'"), newer.err)
        let twice = CLI.runInProcess(["triage", "--from-rows", runs.shards[0], runs.shards[0]])
        XCTAssertEqual(twice.status, 65, twice.err)
        XCTAssertTrue(twice.err.contains("has a row already"), twice.err)
        // A rows file cut short (a copy interrupted): its torn frame is an error, not fewer rows.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: runs.shards[1]))
        try bytes.prefix(bytes.count - 100).write(to: URL(fileURLWithPath: dir + "/cut.jsonl.zst"))
        let cut = CLI.runInProcess(["triage", "--from-rows", dir + "/cut.jsonl.zst"])
        XCTAssertEqual(cut.status, 65, cut.err)
        XCTAssertTrue(cut.err.contains("cut.jsonl.zst"), cut.err)
        for idle in [["-o", dir + "/x.jsonl"], ["--shard", "0/2"], ["--jobs", "2"], ["--tolerance-ms", "10"], ["--summary"]] {
            let r = CLI.runInProcess(["triage", "--from-rows", runs.shards[0]] + idle)
            XCTAssertEqual(r.status, 64, "\(idle): \(r.err)")
            XCTAssertTrue(r.err.contains("has no effect with --from-rows"), r.err)
        }
        XCTAssertEqual(CLI.runInProcess(["triage", "--from-rows", dir + "/missing.jsonl"]).status, 64)
        let over = CLI.runInProcess(["triage", CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl", "--baseline", runs.whole, "-o", runs.whole])
        XCTAssertEqual(over.status, 64, "the rows never replace the baseline they compare with: \(over.err)")
        XCTAssertEqual(CLI.runInProcess(["triage", "--from-rows"]).status, 64)
        XCTAssertEqual(CLI.runInProcess(["triage", CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl", "--baseline", dir + "/notes.jsonl"]).status, 65)
        // A threshold over the rows, as over the run.
        let crossed = CLI.runInProcess(["triage", "--from-rows", runs.whole, "--fail-on", "interruption-not-recovered>2%"])
        XCTAssertEqual(crossed.status, 1, crossed.err)
        XCTAssertTrue(crossed.err.contains("Error: --fail-on 'interruption-not-recovered>2%' crossed: "), crossed.err)
    }
}
