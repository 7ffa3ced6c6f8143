import Analysis
import Foundation
import TestSupport
import TraceFixtures
import TraceModel
import XCTest

/// No public key: without `--salt`, `--salt-file` or `RTCTRACE_SALT`, triage rows carry no channel, room
/// or uid tokens (a dictionary of the fleet's own values reverses nothing), `redact` uses a random key
/// once; with one key, the same value gets the same token in every shard, run and redacted trace.
final class TokenKeyTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// A small fleet in `dir/fleet`, and every channel, room and uid it holds (the attacker's dictionary).
    func fleet() throws -> (dir: String, traces: [SyntheticFleet.Trace], dictionary: [(PersonalValue.Kind, String)]) {
        let traces = SyntheticFleet.make(seed: 11, versions: [.init(sdk: "SRTC 4.6.2", traces: 30, notRecoveredPercent: 5),
                                                              .init(sdk: "SMeeting 3.2.1", traces: 30, notRecoveredPercent: 5)])
        let d = dir + "/fleet"
        try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        var words: [(PersonalValue.Kind, String)] = []
        for t in traces {
            try t.jsonLines.write(toFile: d + "/" + t.name, atomically: false, encoding: .utf8)
            for r in t.records {
                switch r.body {
                case let .joinChannel(channel, uid): words.append((.channel, channel)); if let uid { words.append((.uid, uid)) }
                case let .enterMeeting(room, uid): words.append((.room, room)); if let uid { words.append((.uid, uid)) }
                default: break
                }
            }
        }
        return (d, traces, words)
    }

    func rows(_ out: String) throws -> [[String: Any]] {
        try out.split(separator: "\n").map { try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    /// How many rows a dictionary attack names: a string column equal to the token of a known value under
    /// a key the attacker can guess (the old built-in key, an empty one), or to the value itself.
    func reversed(_ rows: [[String: Any]], _ words: [(PersonalValue.Kind, String)]) -> Int {
        let guesses = ["rtctrace-redact-v1", ""]
        var table: [String: String] = [:]
        for (kind, w) in words {
            table[w] = w
            for key in guesses { table[PersonalValue.token(key: Array(key.utf8), kind: kind, value: w)] = w }
        }
        return rows.filter { row in row.values.contains { ($0 as? String).map { table[$0] != nil } ?? false } }.count
    }

    func test_unkeyedRowsCannotBeReversedWithTheFleetsOwnDictionary() throws {
        let (d, traces, words) = try fleet()
        XCTAssertGreaterThan(Set(words.map(\.1)).count, 60)
        let r = CLI.runInProcess(["triage", d, "--jobs", "2"])
        XCTAssertEqual(r.status, 0, r.err)
        let unkeyed = try rows(r.out)
        XCTAssertEqual(unkeyed.count, traces.count)
        for row in unkeyed {
            for column in ["channel", "room", "uid"] { XCTAssertTrue(row[column] is NSNull, "\(column) is null without a key: \(row[column]!)") }
        }
        XCTAssertEqual(reversed(unkeyed, words), 0)
        XCTAssertEqual(r.err.components(separatedBy: "no key given").count - 1, 1, "said once: \(r.err)")
        XCTAssertTrue(r.err.contains("--salt, --salt-file or RTCTRACE_SALT"), r.err)
        XCTAssertEqual(CLI.runInProcess(["triage", d, "--jobs", "3"]).out, r.out, "deterministic")
        // The same attack reverses every row keyed with the old public key: the test can fail.
        let publicKey = try rows(CLI.runInProcess(["triage", d, "--salt", "rtctrace-redact-v1"]).out)
        XCTAssertEqual(reversed(publicKey, words), traces.count)
        // A secret key is not in the attacker's guesses.
        XCTAssertEqual(reversed(try rows(CLI.runInProcess(["triage", d, "--salt", "fleet-secret-7f3a"]).out), words), 0)
    }

    func test_oneKeyGivesTheSameTokensInEveryShardRunAndRedactedTrace() throws {
        let (d, traces, _) = try fleet()
        func tokens(_ args: [String], env: [String: String] = [:]) throws -> [String: [String]] {
            let r = CLI.runInProcess(["triage", d] + args, env: env)
            XCTAssertEqual(r.status, 0, r.err)
            XCTAssertFalse(r.err.contains("no key given"), r.err)
            var out: [String: [String]] = [:]
            for row in try rows(r.out) {
                out[row["path"] as! String] = ["channel", "room", "uid"].map { row[$0] as? String ?? "-" }
            }
            return out
        }
        let whole = try tokens(["--salt", "fleet-key"])
        XCTAssertEqual(whole.count, traces.count)
        XCTAssertTrue(whole.values.allSatisfy { $0[2].hasPrefix("uid-") && ($0[0].hasPrefix("chan-") || $0[1].hasPrefix("room-")) })
        try "fleet-key\n".write(toFile: dir + "/key", atomically: true, encoding: .utf8)
        XCTAssertEqual(try tokens(["--salt-file", dir + "/key"]), whole, "--salt-file")
        XCTAssertEqual(try tokens([], env: ["RTCTRACE_SALT": "fleet-key"]), whole, "RTCTRACE_SALT")
        let shards = try tokens(["--salt", "fleet-key", "--shard", "0/2"]).merging(try tokens(["--salt", "fleet-key", "--shard", "1/2"])) { a, _ in a }
        XCTAssertEqual(shards, whole, "shards")
        // redact with the same key writes the same channel token (and the uid's, with its rank).
        let t = try XCTUnwrap(traces.first { $0.sdk.hasPrefix("SRTC") })
        let red = CLI.runInProcess(["redact", d + "/" + t.name, "-o", dir + "/r.trace.zst", "--salt", "fleet-key"])
        XCTAssertEqual(red.status, 0, red.err)
        XCTAssertFalse(red.err.contains("warning"), red.err)
        let cat = CLI.runInProcess(["cat", dir + "/r.trace.zst"]).out
        let row = try XCTUnwrap(whole[d + "/" + t.name])
        XCTAssertTrue(cat.contains("\"channel\":\"\(row[0])\""), "\(row[0]) in \(cat.prefix(600))")
        XCTAssertTrue(cat.contains(String(row[2].dropFirst("uid-".count))), row[2])
        // Two ways to give the key at once is a usage error, and so is an empty key file.
        XCTAssertEqual(CLI.runInProcess(["triage", d, "--salt", "a", "--salt-file", dir + "/key"]).status, 64)
        try "\n".write(toFile: dir + "/empty", atomically: true, encoding: .utf8)
        XCTAssertEqual(CLI.runInProcess(["triage", d, "--salt-file", dir + "/empty"]).status, 64)
        XCTAssertEqual(CLI.runInProcess(["redact", d + "/" + t.name, "-o", dir + "/x.trace.zst", "--salt-file", dir + "/missing"]).status, 64)
    }

    /// `redact` without a key warns and uses a random key once: two runs give different tokens, and
    /// neither is the old public key's.
    func test_redactWithoutAKeyWarnsAndNeverUsesABuiltInKey() throws {
        let (d, traces, _) = try fleet()
        let t = try XCTUnwrap(traces.first { $0.sdk.hasPrefix("SRTC") })
        var channels: [String] = []
        for k in 0..<2 {
            let r = CLI.runInProcess(["redact", d + "/" + t.name, "-o", dir + "/r\(k).trace.zst"])
            XCTAssertEqual(r.status, 0, r.err)
            XCTAssertTrue(r.err.contains("warning: no key given") && r.err.contains("random key used once"), r.err)
            let line = try XCTUnwrap(CLI.runInProcess(["cat", "--type", "api.joinChannel", dir + "/r\(k).trace.zst"]).out.split(separator: "\n").first)
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            channels.append(try XCTUnwrap(json["channel"] as? String))
        }
        XCTAssertNotEqual(channels[0], channels[1])
        guard case .joinChannel(let name, _)? = t.records.first(where: { $0.type == "api.joinChannel" })?.body else { return XCTFail("no join") }
        XCTAssertFalse(channels.contains(PersonalValue.token(key: Array("rtctrace-redact-v1".utf8), kind: .channel, value: name)))
    }
}
