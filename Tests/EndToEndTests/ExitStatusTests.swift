import CommandLineKit
import Foundation
import rtctrace
import TestSupport
import XCTest

/// One truth about exit codes: each command's `--help` states the codes its spec declares, in the
/// table's words (`ExitCode.meaning`, and its own for 1); the README says the same; and each command
/// ends with each code it declares, exercised here.
final class ExitStatusTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    static let specs = Commands.all.map(\.spec)

    func test_helpStatesTheDeclaredCodesInTheTablesWords() {
        for spec in Self.specs {
            let r = CLI.runInProcess([spec.name, "--help"])
            XCTAssertEqual(r.status, 0, spec.name)
            XCTAssertTrue(r.out.hasSuffix("\nEXIT STATUS:\n" + spec.exitStatus + "\n"), "\(spec.name): \(r.out)")
            for code in spec.exitCodes where code != .failure && code != .usage {
                XCTAssertEqual(spec.meaning(code), code.meaning, "\(spec.name) \(code)")
            }
            // 64 names an existing output only where --force exists to allow it (triage replaces its rows).
            XCTAssertEqual(spec.meaning(.usage), ExitCode.usageMeaning(force: spec.option(named: "--force") != nil), spec.name)
            XCTAssertFalse(spec.details.contains("Exit"), "\(spec.name): exit codes come from the table, not from its details")
        }
    }

    /// The README states the table once and each command's 1 in the words its --help uses; docs/triage.md
    /// states triage's codes in the same words.
    func test_theReadmeAndDocsSayWhatHelpSays() throws {
        let readme = try String(contentsOfFile: CLI.root + "/README.md", encoding: .utf8)
        for code in ExitCode.allCases {
            XCTAssertTrue(readme.contains("| \(code.rawValue) | \(code == .failure ? "the command ran and its answer is no (per command below)" : code.meaning) |"),
                          "README's table row for \(code.rawValue)")
        }
        for spec in Self.specs {
            let one = spec.exitCodes.contains(.failure) ? spec.meaning(.failure) : "never"
            XCTAssertTrue(readme.contains("| `\(spec.name)` | \(one) |"), "README: what 1 means for \(spec.name)")
        }
        let triage = try String(contentsOfFile: CLI.root + "/docs/triage.md", encoding: .utf8)
        let spec = try XCTUnwrap(Self.specs.first { $0.name == "triage" })
        XCTAssertFalse(spec.exitStatus.contains("--force"), "triage has no --force and replaces its rows file: \(spec.exitStatus)")
        for code in spec.exitCodes {
            XCTAssertTrue(triage.contains("`\(code.rawValue)` \(spec.meaning(code))"), "docs/triage.md states \(code.rawValue)")
        }
    }

    /// Runs rtctrace outside CI mode with standard output on `/dev/full`: every write fails.
    func runIntoFullDevice(_ args: [String]) throws -> Int32 {
        guard let r = try CLI.runIntoFullDevice(args) else { throw XCTSkip("no /dev/full on this system") }
        return r.status
    }

    /// Every command, every code it declares: a command line that ends with it.
    func test_eachCommandEndsWithEachCodeItDeclares() throws {
        let fm = FileManager.default
        let traces = CLI.root + "/traces"
        let clean = traces + "/srtc-field-clean-5min.jsonl.zst"
        let blocked = traces + "/srtc-bluetooth-blocks-speaker.jsonl"
        let late = traces + "/srtc-setroute-before-join.jsonl"
        let superseded = traces + "/srtc-field-default-speaker-deferred-then-superseded.jsonl.zst"
        let long = try Data(contentsOf: URL(fileURLWithPath: traces + "/srtc-long-call-20min.jsonl.zst"))
        let torn = dir + "/torn.jsonl.zst"
        try long.prefix(long.count - 500).write(to: URL(fileURLWithPath: torn))
        let empty = dir + "/empty.jsonl"
        try Data().write(to: URL(fileURLWithPath: empty))
        let notes = dir + "/notes.txt"
        try Data("not a record\n".utf8).write(to: URL(fileURLWithPath: notes))
        let blocker = dir + "/plain-file"
        try Data().write(to: URL(fileURLWithPath: blocker))
        let golden = dir + "/golden"
        try fm.createDirectory(atPath: golden, withIntermediateDirectories: true)
        try fm.copyItem(atPath: blocked, toPath: golden + "/t.jsonl")
        try fm.copyItem(atPath: traces + "/srtc-bluetooth-blocks-speaker.golden.json", toPath: golden + "/t.golden.json")
        let failing = dir + "/failing.jsonl"
        try (String(contentsOfFile: blocked, encoding: .utf8).replacingOccurrences(of: "\"verdict\":\"ineffective\"", with: "\"verdict\":\"applied\""))
            .write(toFile: failing, atomically: true, encoding: .utf8)
        // A gzip'd trace (gzip's magic and a deflate stream: the reader names the archive) and a folder with no trace.
        let gzip = dir + "/t.jsonl.gz"
        try Data([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 0x03] + Array(repeating: 0x20, count: 64)).write(to: URL(fileURLWithPath: gzip))
        let emptyFolder = dir + "/no-traces"
        try fm.createDirectory(atPath: emptyFolder, withIntermediateDirectories: true)
        try Data("notes\n".utf8).write(to: URL(fileURLWithPath: emptyFolder + "/README.txt"))
        let appendable = dir + "/appendable.trace.zst"
        XCTAssertEqual(CLI.runInProcess(["record", late, "-o", appendable]).status, 0)
        let more = dir + "/more.jsonl"
        try #"{"seq":999,"t":40000,"type":"api.leaveChannel"}"#.write(toFile: more, atomically: true, encoding: .utf8)

        // A device log of the trace's day (a Console copy), and the trace with a record lost.
        let importLog = dir + "/console.txt"
        try "Default\t11:00:01.500000+0100\tmediaserverd\tAudioSessionServerImp.mm:1283 { \"action\":\"activate\", \"session\":{\"ID\":\"0x1\",\"name\":\"CommCenter(98)\"}, \"details\":{} }\n"
            .write(toFile: importLog, atomically: true, encoding: .utf8)
        let damaged = dir + "/damaged.jsonl"
        let lateLines = try String(contentsOfFile: late, encoding: .utf8).split(separator: "\n")
        try (lateLines.prefix(3) + lateLines.dropFirst(4)).joined(separator: "\n").write(toFile: damaged, atomically: true, encoding: .utf8)

        // (arguments, code, environment); "FULL" first runs with standard output on /dev/full.
        let cases: [(String, [String], ExitCode, [String: String])] = [
            ("record", ["record", late, "-o", dir + "/r.trace.zst"], .success, [:]),
            ("record", ["record", notes, "-o", dir + "/bad.trace.zst"], .failure, [:]),
            ("record", ["record", late, "-o", dir + "/r.trace.zst"], .usage, [:]),
            ("record", ["record", late, "-o", blocker + "/r.trace.zst"], .ioError, [:]),
            ("append", ["append", appendable, more, "--renumber"], .success, [:]),
            ("append", ["append", appendable, more], .failure, [:]),
            ("append", ["append", appendable, more, "--nope"], .usage, [:]),
            ("cat", ["cat", late], .success, [:]),
            ("cat", ["cat", torn, "--strict"], .failure, [:]),
            ("cat", ["cat", dir + "/missing.jsonl"], .usage, [:]),
            ("cat", ["FULL", "cat", late], .ioError, [:]),
            ("cat", ["cat", gzip], .dataError, [:]),
            ("info", ["info", late], .success, [:]),
            ("info", ["info", torn, "--strict"], .failure, [:]),
            ("info", ["info"], .usage, [:]),
            ("info", ["FULL", "info", late], .ioError, [:]),
            ("info", ["info", gzip], .dataError, [:]),
            ("verify", ["verify", appendable], .success, [:]),
            ("verify", ["verify", torn], .failure, [:]),
            ("verify", ["verify"], .usage, [:]),
            ("verify", ["FULL", "verify", appendable], .ioError, [:]),
            ("verify", ["verify", emptyFolder], .dataError, [:]),
            ("verify", ["verify", gzip], .dataError, [:]),
            ("replay", ["replay", late], .success, [:]),
            ("replay", ["replay", torn, "--strict"], .failure, [:]),
            ("replay", ["replay", late, "--tolerance-ms", "-1"], .usage, [:]),
            ("replay", ["replay", empty], .dataError, [:]),
            ("replay", ["FULL", "replay", late], .ioError, [:]),
            ("explain", ["explain", clean], .success, [:]),
            ("explain", ["explain", late], .success, [:]),
            ("explain", ["explain", blocked], .failure, [:]),
            ("explain", ["explain", superseded], .failure, [:]),
            ("explain", ["explain", dir + "/missing.jsonl"], .usage, [:]),
            ("explain", ["explain", empty], .dataError, [:]),
            ("explain", ["FULL", "explain", late], .ioError, [:]),
            ("check", ["check", golden], .success, [:]),
            ("check", ["check", failing], .failure, [:]),
            ("check", ["check", dir + "/nope"], .usage, [:]),
            ("check", ["FULL", "check", golden], .ioError, [:]),
            ("check", ["check", emptyFolder], .dataError, [:]),
            ("accept", ["accept", golden], .success, [:]),
            ("accept", ["accept", golden], .failure, ["CI": "true"]),
            ("accept", ["accept", "--nope"], .usage, [:]),
            ("accept", ["accept", dir + "/nonexistent"], .usage, [:]),
            ("accept", ["FULL", "accept", golden], .ioError, [:]),
            ("reject", ["reject", golden], .success, [:]),
            ("reject", ["reject", golden], .failure, ["CI": "true"]),
            ("reject", ["reject", "--nope"], .usage, [:]),
            ("reject", ["reject", dir + "/nonexistent"], .usage, [:]),
            ("reject", ["FULL", "reject", golden], .ioError, [:]),
            ("report", ["report", late, "-o", dir + "/r.html"], .success, [:]),
            ("report", ["report", torn, "--strict", "-o", dir + "/t.html"], .failure, [:]),
            ("report", ["report", late], .usage, [:]),
            ("report", ["report", empty, "-o", dir + "/e.html"], .dataError, [:]),
            ("report", ["report", late, "-o", blocker + "/r.html"], .ioError, [:]),
            ("export", ["export", late, "--format", "chrome", "-o", dir + "/r.json"], .success, [:]),
            ("export", ["export", torn, "--strict", "--format", "chrome", "-o", dir + "/t.json"], .failure, [:]),
            ("export", ["export", late, "--format", "svg", "-o", dir + "/r.json"], .usage, [:]),
            ("export", ["export", empty, "--format", "chrome", "-o", dir + "/e.json"], .dataError, [:]),
            ("export", ["export", late, "--format", "chrome", "-o", blocker + "/r.json"], .ioError, [:]),
            ("redact", ["redact", late, "-o", dir + "/red.trace.zst", "--salt", "s"], .success, [:]),
            ("redact", ["redact", late, "-o", dir + "/red.trace.zst", "--salt", "s"], .usage, [:]),
            ("redact", ["redact", late, "-o", blocker + "/red.trace.zst", "--salt", "s"], .ioError, [:]),
            ("reduce", ["reduce", blocked, "--finding", "route.ineffective", "-o", dir + "/min.trace.zst"], .success, [:]),
            ("reduce", ["reduce", late, "--finding", "interruption.notRecovered", "-o", dir + "/none.trace.zst"], .failure, [:]),
            ("reduce", ["reduce", late, "-o", dir + "/x.trace.zst"], .usage, [:]),
            ("reduce", ["reduce", blocked, "--finding", "route.ineffective", "-o", blocker + "/min.trace.zst"], .ioError, [:]),
            ("import-log", ["import-log", importLog, "--into", late, "-o", dir + "/imported.trace.zst"], .success, [:]),
            ("import-log", ["import-log", importLog, "--into", damaged, "-o", dir + "/imported2.trace.zst"], .failure, [:]),
            ("import-log", ["import-log", importLog, "--process", "A", "--pid", "1", "-o", dir + "/imported3.trace.zst"], .usage, [:]),
            ("import-log", ["import-log", notes, "-o", dir + "/imported4.trace.zst"], .dataError, [:]),
            ("import-log", ["import-log", importLog, "--into", late, "-o", blocker + "/imported.trace.zst"], .ioError, [:]),
            ("rules", ["rules"], .success, [:]),
            ("rules", ["rules", "R99"], .usage, [:]),
            ("rules", ["FULL", "rules"], .ioError, [:]),
            ("triage", ["triage", traces, "-o", dir + "/rows.jsonl"], .success, [:]),
            ("triage", ["triage", traces, "--fail-on", "unexplained-divergence>0", "-o", dir + "/rows2.jsonl"], .failure, [:]),
            ("triage", ["triage", traces, "--fail-on", "nonsense>0"], .usage, [:]),
            ("triage", ["triage", late, "-o", blocker + "/rows.jsonl"], .ioError, [:]),
            ("triage", ["triage", "--from-rows", notes], .dataError, [:]),
            ("diff", ["diff", late, late], .success, [:]),
            ("diff", ["diff", late, blocked], .failure, [:]),
            ("diff", ["diff", late], .usage, [:]),
            ("diff", ["diff", late, empty], .dataError, [:]),
            ("diff", ["FULL", "diff", late, late], .ioError, [:]),
            ("whatif", ["whatif", blocked, "--move", "20", "--after", "11"], .success, [:]),
            ("whatif", ["whatif", blocked], .failure, [:]),
            ("whatif", ["whatif", blocked, "--move", "20", "--after", "999"], .usage, [:]),
            ("whatif", ["whatif", empty, "--drop", "1"], .dataError, [:]),
            ("whatif", ["FULL", "whatif", blocked], .ioError, [:]),
            ("version", ["version"], .success, [:]),
            ("version", ["version", "--nope"], .usage, [:]),
            ("version", ["FULL", "version"], .ioError, [:]),
        ]
        var covered: [String: Set<ExitCode>] = [:]
        for (name, args, code, env) in cases {
            if args.first == "FULL" {
                XCTAssertEqual(try runIntoFullDevice(Array(args.dropFirst())), code.rawValue, "\(args)")
            } else {
                let r = CLI.runInProcess(args, env: env)
                XCTAssertEqual(r.status, code.rawValue, "\(args): \(r.err)")
            }
            covered[name, default: []].insert(code)
        }
        // Codes a command declares but that are not provoked here, and why.
        let notProvoked: [String: Set<ExitCode>] = [
            "append": [.ioError],   // needs the disk to fill while appending; the writer's failures are those of record
            "redact": [.failure],   // needs a trace whose redaction changes the replay, which the redaction's design prevents
        ]
        for spec in Self.specs {
            let declared = Set(spec.exitCodes)
            XCTAssertEqual(covered[spec.name, default: []].union(notProvoked[spec.name] ?? []), declared, "\(spec.name) declares \(spec.exitCodes)")
            XCTAssertTrue(covered[spec.name, default: []].isSubset(of: declared), "\(spec.name) ends with a code it does not declare")
        }
    }
}
