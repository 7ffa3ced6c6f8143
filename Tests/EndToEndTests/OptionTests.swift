import CommandLineKit
import Foundation
import TestSupport
import TraceModel
import XCTest
import rtctrace

/// Options are declared once: every command's declarations, read from the registry the tool runs
/// (`Commands.all`, no list kept here), drive `--help` and parsing. `--help` prints each numeric
/// option's range, and parsing enforces exactly that range (exit 64 naming the option, the value
/// and the range), so no value can reach the engines' arithmetic and trap.
final class OptionTests: XCTestCase {
    /// Every command of the tool, as the tool runs them.
    let commands = Commands.all.map(\.spec)

    /// Every integer option of every command: (command, option, range).
    var numericOptions: [(spec: CommandSpec, option: AnyOption, range: ClosedRange<Int64>)] {
        commands.flatMap { spec in
            spec.options.compactMap { o -> (CommandSpec, AnyOption, ClosedRange<Int64>)? in
                guard case .integer(let r) = o.kind else { return nil }
                return (spec, o, r)
            }
        }
    }

    /// A value each required option accepts, so that a line can be parsed for one other option.
    func requiredArguments(_ spec: CommandSpec, except name: String? = nil) -> [String] {
        spec.options.filter { $0.isRequired && $0.name != name }.flatMap { o -> [String] in
            switch o.kind {
            case .integer(let r): [o.name, String(r.lowerBound)]
            case .choice(let words): [o.name, words[0]]
            case .flag: [o.name]
            case .text, .output, .shaped: [o.name, "out.x"]
            }
        }
    }

    /// The usage error parsing `args` (with the required options) gives, or nil when it parses.
    func refusal(_ spec: CommandSpec, _ args: [String]) -> String? {
        do { _ = try Arguments(args + requiredArguments(spec), spec: spec); return nil } catch { return error.message }
    }

    func test_theRegistryHoldsEveryCommandTheToolLists() {
        let names = commands.map(\.name)
        for name in ["record", "append", "cat", "info", "verify", "replay", "explain", "check", "accept", "reject",
                     "report", "export", "redact", "reduce", "rules", "triage", "diff", "import-log", "version"] {
            XCTAssertTrue(names.contains(name), "\(name) is not in the registry")
        }
        XCTAssertEqual(Set(names).count, names.count, "a command is listed twice")
        // The built tool lists the registry's commands, in its order, and nothing else.
        let help = CLI.run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertEqual(help.out, Dispatcher(commands: Commands.all).help + "\n")
        for spec in commands {
            XCTAssertTrue(spec.usage.hasPrefix(spec.name), spec.usage)
            XCTAssertEqual(Set(spec.options.map(\.name)).count, spec.options.count, "\(spec.name) declares an option twice")
            for o in spec.options { XCTAssertFalse(o.help.isEmpty, "\(spec.name) \(o.name) has no help") }
        }
    }

    /// The built tool's `--help` of each command is the one generated from its declarations.
    func test_everyCommandsHelpIsGeneratedFromItsDeclarations() {
        for spec in commands {
            let r = CLI.run([spec.name, "--help"])
            XCTAssertEqual(r.status, 0, spec.name)
            XCTAssertEqual(r.out, spec.help, spec.name)
            XCTAssertEqual(r.err, "", spec.name)
        }
    }

    func test_everyNumericOptionHasAPrintedRangeThatParsingEnforces() {
        let options = numericOptions
        // The replay tunables on each replaying command, plus the counts and levels.
        XCTAssertGreaterThanOrEqual(options.count, 48, "\(options.map { "\($0.spec.name) \($0.option.name)" })")
        for name in ["--tolerance-ms", "--retry-delay-ms", "--recovery-window-ms", "--match-window-ms", "--flapping-changes",
                     "--flapping-window-ms", "--layer-timeout-ms", "--jobs", "--frame-records", "--level", "--max-replays",
                     "--seq", "--from", "--to"] {
            XCTAssertTrue(options.contains { $0.option.name == name }, "\(name) declares no range")
        }
        for (spec, option, r) in options {
            let what = "\(spec.name) \(option.name)"
            // --help prints the range on the option's own row.
            let row = spec.help.split(separator: "\n").first { $0.hasPrefix("  \(option.synopsis) ") }
            XCTAssertNotNil(row, what)
            XCTAssertTrue(row?.hasSuffix(" Range: \(OptionRange.text(r)).") ?? false, "\(what): \(row ?? "")")
            // Parsing takes both ends and nothing beyond them.
            XCTAssertNil(refusal(spec, [option.name, String(r.lowerBound)]), what)
            XCTAssertNil(refusal(spec, ["\(option.name)=\(r.upperBound)"]), what)
            for bad in [r.upperBound == Int64.max ? nil : r.upperBound + 1, r.lowerBound == Int64.min ? nil : r.lowerBound - 1,
                        Int64.max, Int64.min].compactMap({ $0 }) where !r.contains(bad) {
                XCTAssertEqual(refusal(spec, [option.name, String(bad)]), "\(option.name): \(bad) is out of range \(OptionRange.text(r))", what)
            }
            XCTAssertEqual(refusal(spec, [option.name, "99999999999999999999999"]),
                           "\(option.name): 99999999999999999999999 is out of range \(OptionRange.text(r))", what)
            XCTAssertEqual(refusal(spec, [option.name, "soon"]), "\(option.name): 'soon' is not an integer (\(OptionRange.text(r)))", what)
        }
    }

    /// Every choice takes exactly its words; a required option's absence is named.
    func test_choicesTakeTheirWordsAndRequiredOptionsAreRequired() {
        var choices = 0
        for spec in commands {
            for o in spec.options {
                if case .choice(let words) = o.kind {
                    choices += 1
                    for w in words { XCTAssertNil(refusal(spec, [o.name, w]), "\(spec.name) \(o.name) \(w)") }
                    XCTAssertEqual(refusal(spec, [o.name, "keep-nothing"]),
                                   "\(o.name): 'keep-nothing' is not one of \(words.joined(separator: ", "))", "\(spec.name) \(o.name)")
                }
                if o.isRequired {
                    XCTAssertThrowsError(try Arguments(requiredArguments(spec, except: o.name), spec: spec), "\(spec.name) \(o.name)") { e in
                        XCTAssertEqual((e as? UsageError)?.message, "missing '\(o.requiredAs ?? "")'")
                    }
                }
            }
        }
        XCTAssertGreaterThanOrEqual(choices, 3, "check --unreferenced, export --format, replay --lane")
        for name in ["record", "redact", "reduce", "report", "export", "import-log"] {
            XCTAssertTrue(commands.first { $0.name == name }?.option(named: "-o")?.isRequired ?? false, "\(name) -o")
        }
    }

    /// The built tool: a usage error's exit code and stderr, as users and scripts see them.
    func test_usageErrorsEndToEnd() {
        let trace = CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl"
        let range = CLI.run(["explain", trace, "--retry-delay-ms", "9223372036854775807"])
        XCTAssertEqual(range.status, 64)
        XCTAssertEqual(range.out, "")
        XCTAssertEqual(range.err, """
            Error: --retry-delay-ms: 9223372036854775807 is out of range 0…86400000
            Usage: rtctrace \(commands.first { $0.name == "explain" }!.usage)
              See 'rtctrace explain --help'.

            """)
        XCTAssertEqual(CLI.run(["check", trace, "--unreferenced", "keep"]).err.split(separator: "\n").first,
                       "Error: --unreferenced: 'keep' is not one of warn, fail, delete")
        XCTAssertEqual(CLI.run(["export", trace, "--format", "svg", "-o", "x.json"]).err.split(separator: "\n").first,
                       "Error: --format: 'svg' is not one of chrome")
        XCTAssertEqual(CLI.run(["redact", trace, "-o", "x.trace.zst", "--salt", ""]).err.split(separator: "\n").first,
                       "Error: --salt: must not be empty")
        let missing = CLI.run(["report", trace])
        XCTAssertEqual(missing.status, 64)
        XCTAssertEqual(missing.err.split(separator: "\n").first, "Error: missing '-o REPORT.html'")
        XCTAssertEqual(missing.err.split(separator: "\n").last, "  See 'rtctrace report --help'.")
        let unknown = CLI.run(["cat", trace, "--nope"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertEqual(unknown.err.split(separator: "\n").first, "Error: unknown option '--nope'")
        let command = CLI.run(["nope"])
        XCTAssertEqual(command.status, 64)
        XCTAssertEqual(command.err, "Error: unknown command 'nope'\nSee 'rtctrace --help'.\n")
        // --help wins over a bad value and a missing required option, as it always did.
        XCTAssertEqual(CLI.run(["check", "--jobs", "0", "--help"]).status, 0)
        XCTAssertEqual(CLI.run(["report", "--help"]).status, 0)
        // Input that is not a trace at all is a data error (65), not a usage error.
        let notATrace = CLI.tempDir() + "/notes.jsonl"
        XCTAssertTrue(FileManager.default.createFile(atPath: notATrace, contents: Data("hello\n".utf8)))
        let data = CLI.run(["explain", notATrace])
        XCTAssertEqual(data.status, 65, data.err)
        XCTAssertTrue(data.err.split(separator: "\n").last?.hasPrefix("Error: \(notATrace): cannot be explained: ") ?? false, data.err)
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

    func test_versionIsPrintedByTheFlagAndTheCommand() {
        let flag = CLI.run(["--version"]), command = CLI.run(["version"])
        XCTAssertEqual(flag.status, 0)
        XCTAssertEqual(flag.out, command.out)
        XCTAssertEqual(flag.out, "rtctrace \(rtctraceVersion)\n")
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
