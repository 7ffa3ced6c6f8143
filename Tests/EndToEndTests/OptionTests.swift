import CommandLineKit
import Foundation
import TestSupport
import XCTest

/// Options are declared once: `--help` prints each numeric option's range, and parsing enforces
/// exactly that range (exit 64 naming the option, the value and the range), so no value can
/// reach the engines' arithmetic and trap.
final class OptionTests: XCTestCase {
    static let commands = ["record", "append", "cat", "info", "verify", "replay", "explain", "check", "accept", "reject",
                           "report", "export", "redact", "reduce", "version"]

    /// Every integer option of every command, read from its `--help`: (command, option, low, high).
    func numericOptions() throws -> [(command: String, option: String, low: Int64, high: Int64)] {
        let row = try NSRegularExpression(pattern: #"^  (-{1,2}[a-z-]+) <[^>]+>\s+.*Range: (-?\d+)…(-?\d+)\.$"#, options: .anchorsMatchLines)
        var found: [(String, String, Int64, Int64)] = []
        for c in Self.commands {
            let help = CLI.run([c, "--help"]).out
            for m in row.matches(in: help, range: NSRange(help.startIndex..., in: help)) {
                let s = { (i: Int) in String(help[Range(m.range(at: i), in: help)!]) }
                found.append((c, s(1), Int64(s(2))!, Int64(s(3))!))
            }
        }
        return found
    }

    func test_everyNumericOptionHasAPrintedRangeThatParsingEnforces() throws {
        let options = try numericOptions()
        // The replay tunables on each replaying command, plus the counts and levels.
        XCTAssertGreaterThanOrEqual(options.count, 48, "\(options)")
        for name in ["--tolerance-ms", "--retry-delay-ms", "--recovery-window-ms", "--match-window-ms", "--flapping-changes",
                     "--flapping-window-ms", "--layer-timeout-ms", "--jobs", "--frame-records", "--level", "--max-replays"] {
            XCTAssertTrue(options.contains { $0.option == name }, "\(name) prints no range")
        }
        for (command, option, low, high) in options {
            for bad in [high == Int64.max ? nil : high + 1, low == 0 ? -1 : nil, Int64.max, Int64.min].compactMap({ $0 })
            where bad > high || bad < low {
                let r = CLI.run([command, option, String(bad)])
                XCTAssertEqual(r.status, 64, "\(command) \(option) \(bad)")
                XCTAssertEqual(r.err.split(separator: "\n").first.map(String.init),
                               "Error: \(option): \(bad) is out of range \(low)…\(high)", "\(command) \(option) \(bad)")
            }
            let huge = CLI.run([command, option, "99999999999999999999999"])
            XCTAssertEqual(huge.err.split(separator: "\n").first.map(String.init),
                           "Error: \(option): 99999999999999999999999 is out of range \(low)…\(high)")
            let word = CLI.run([command, option, "soon"])
            XCTAssertEqual(word.status, 64)
            XCTAssertEqual(word.err.split(separator: "\n").first.map(String.init), "Error: \(option): 'soon' is not an integer (\(low)…\(high))")
        }
    }

    /// These trapped with an arithmetic overflow (exit 132) before the ranges existed.
    func test_hugeWindowsAreUsageErrorsNotCrashes() {
        let trace = CLI.root + "/traces/smeeting-call-background-recovery.jsonl"
        for option in ["--retry-delay-ms", "--recovery-window-ms", "--match-window-ms", "--flapping-window-ms", "--layer-timeout-ms",
                       "--flapping-changes", "--tolerance-ms"] {
            let r = CLI.run(["explain", trace, option, "9223372036854775807"])
            XCTAssertEqual(r.status, 64, "\(option): \(r.err.prefix(300))")
        }
        for h in ["3/5/9223372036854775807", "65/65/0", "6/5/0", "0/5/0", "3/5", "3/5/-1", "a/b/c", "3/5/10000/1"] {
            let r = CLI.run(["explain", trace, "--hysteresis", h])
            XCTAssertEqual(r.status, 64, h)
            XCTAssertTrue(r.err.hasPrefix("Error: --hysteresis: '\(h)' is not k/n/holdMs with 1 ≤ k ≤ n ≤ 64 and holdMs 0…86400000"), r.err)
        }
    }

    /// The largest and smallest values of every range replay every golden trace without a crash.
    func test_rangeBoundsReplayEveryGoldenTrace() {
        let traces = CLI.root + "/traces"
        let high = ["--tolerance-ms", "86400000", "--retry-delay-ms", "86400000", "--recovery-window-ms", "86400000",
                    "--match-window-ms", "86400000", "--flapping-changes", "1000000", "--flapping-window-ms", "86400000",
                    "--layer-timeout-ms", "86400000", "--hysteresis", "64/64/86400000"]
        let low = ["--tolerance-ms", "0", "--retry-delay-ms", "0", "--recovery-window-ms", "0", "--match-window-ms", "0",
                   "--flapping-changes", "0", "--flapping-window-ms", "0", "--layer-timeout-ms", "0", "--hysteresis", "1/1/0"]
        for bounds in [high, low] {
            let r = CLI.run(["check", traces, "--quiet"] + bounds)
            XCTAssertTrue([0, 1].contains(r.status), "\(bounds): exit \(r.status) \(r.err.prefix(500))")
        }
    }

    func test_choicesAndTextAreCheckedWhenParsed() {
        let trace = CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl"
        XCTAssertEqual(CLI.run(["check", trace, "--unreferenced", "keep"]).err.split(separator: "\n").first,
                       "Error: --unreferenced: 'keep' is not one of warn, fail, delete")
        XCTAssertEqual(CLI.run(["export", trace, "--format", "svg", "-o", "x.json"]).err.split(separator: "\n").first,
                       "Error: --format: 'svg' is not one of chrome")
        XCTAssertEqual(CLI.run(["redact", trace, "-o", "x.trace.zst", "--salt", ""]).err.split(separator: "\n").first,
                       "Error: --salt: must not be empty")
        // --help wins over a bad value, as it always did.
        XCTAssertEqual(CLI.run(["check", "--jobs", "0", "--help"]).status, 0)
    }

    func test_versionIsPrintedByTheFlagAndTheCommand() {
        let flag = CLI.run(["--version"]), command = CLI.run(["version"])
        XCTAssertEqual(flag.status, 0)
        XCTAssertEqual(flag.out, command.out)
        XCTAssertNotNil(flag.out.range(of: #"^rtctrace \d+\.\d+\.\d+\n$"#, options: .regularExpression), flag.out)
        XCTAssertTrue(CLI.run(["--help"]).out.contains("  version "))
    }

    /// Colour only on a terminal, and never with NO_COLOR set to anything non-empty.
    func test_colourOnlyOnATerminalAndNeverUnderNoColor() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no script(1) to give rtctrace a terminal") }
        let trace = CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl"
        func explainOnTerminal(_ env: [String: String]) -> String {
            // script(1) runs the command on a pseudo-terminal and copies what it printed.
            CLI.run(["-qec", "'\(CLI.binary)' explain '\(trace)'", "/dev/null"], env: env, exe: "/usr/bin/script").out
        }
        let bold = "\u{1B}[1m"
        XCTAssertTrue(explainOnTerminal(["NO_COLOR": ""]).contains(bold), "no colour on a terminal")
        XCTAssertFalse(explainOnTerminal(["NO_COLOR": "1"]).contains(bold), "colour despite NO_COLOR=1")
        XCTAssertFalse(explainOnTerminal(["NO_COLOR": "yes"]).contains(bold), "colour despite NO_COLOR=yes")
        XCTAssertFalse(CLI.run(["explain", trace]).out.contains(bold), "colour into a pipe")
    }
}
