import CommandLineKit
import XCTest

/// `--help` is generated from the declarations: each option's synopsis, its help sentence and what
/// it allows (the range parsing enforces, the shape, standard output for a document).
final class HelpTextTests: XCTestCase {
    enum Mode: String, CaseIterable, Sendable { case warn, fail }

    func test_helpListsEveryOptionWithWhatItAllows() {
        let spec = CommandSpec(
            name: "demo", usage: "demo FILE [--jobs N]", summary: "Demonstrate help.",
            options: [Option.integer("--jobs", "n", 1...4096, "Jobs in parallel."),
                      Option.integer("--from", "ms", Int64.min...Int64.max, "From MS."),
                      Option.flag("--json", "Print JSON."),
                      Option.choice("--mode", "mode", Mode.self, "What to do: warn or fail."),
                      Option.output("-o", "file", .document, "The file to write."),
                      Option.output("--trace", "path", .trace, "The trace to write.").required("--trace T"),
                      Option.string("--type", "prefix", "Only PREFIX.").repeatable(),
                      Option<Int>.shaped("--k", "k/n", shape: "Range: 1 ≤ k ≤ n.", "A ratio.", invalid: "is not k/n") { Int($0) }],
            details: "Exit: 0 fine, 1 not.", exits: ExitCodes(failure: nil))
        XCTAssertEqual(spec.help, """
            OVERVIEW: Demonstrate help.

            USAGE: rtctrace demo FILE [--jobs N]

            OPTIONS:
              --jobs <n>       Jobs in parallel. Range: 1…4096.
              --from <ms>      From MS. Range: any 64-bit integer.
              --json           Print JSON.
              --mode <mode>    What to do: warn or fail.
              -o <file>        The file to write. '-' is standard output.
              --trace <path>   The trace to write.
              --type <prefix>  Only PREFIX.
              --k <k/n>        A ratio. Range: 1 ≤ k ≤ n.
              -h, --help       Show help information.

            Exit: 0 fine, 1 not.

            EXIT STATUS:
            \(spec.exitStatus)

            """)
        XCTAssertEqual(Self.unwrapped(spec.exitStatus), ["0 \(ExitCode.success.meaning)", "64 \(ExitCode.usageMeaning(force: false))", "74 \(ExitCode.ioError.meaning)"])
    }

    func test_aCommandWithoutOptionsOrDetailsHasOnlyItsOverviewAndUsage() {
        XCTAssertEqual(CommandSpec(name: "version", usage: "version", summary: "Print the version.", exits: ExitCodes(failure: nil)).help,
                       "OVERVIEW: Print the version.\n\nUSAGE: rtctrace version\n\nEXIT STATUS:\n"
                        + CommandSpec(name: "version", usage: "version", summary: "Print the version.", exits: ExitCodes(failure: nil)).exitStatus + "\n")
    }

    /// The EXIT STATUS lines as `CODE meaning`, continuation lines joined.
    static func unwrapped(_ text: String) -> [String] {
        var out: [String] = []
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ").joined(separator: " ")
            if line.hasPrefix("      ") { out[out.count - 1] += " " + words } else { out.append(words) }
        }
        return out
    }

    /// Each command's EXIT STATUS comes from the table: the codes it can end with, 1 in its own words,
    /// and with --strict the damage that makes it 1.
    func test_exitStatusIsGeneratedFromTheTable() {
        let strict = Option.flag("--strict", "Fail on damage.")
        let judge = CommandSpec(name: "judge", usage: "judge", summary: "Judges.", options: [strict],
                                exits: ExitCodes(failure: "the trace needs attention", readsTraces: true))
        XCTAssertEqual(judge.exitCodes, [.success, .failure, .usage, .dataError, .ioError])
        XCTAssertEqual(judge.meaning(.failure), "the trace needs attention; with --strict, damage in the input")
        XCTAssertEqual(Self.unwrapped(judge.exitStatus), ["0 \(ExitCode.success.meaning)", "1 the trace needs attention; with --strict, damage in the input",
                                                          "64 \(ExitCode.usageMeaning(force: false))", "65 \(ExitCode.dataError.meaning)", "74 \(ExitCode.ioError.meaning)"])
        XCTAssertTrue(judge.help.hasSuffix("\nEXIT STATUS:\n" + judge.exitStatus + "\n"), judge.help)
        XCTAssertTrue(judge.exitStatus.split(separator: "\n").allSatisfy { $0.count <= 110 }, "wrapped")
        let reader = CommandSpec(name: "cat", usage: "cat", summary: "Prints.", options: [strict], exits: ExitCodes(failure: nil, readsTraces: false))
        XCTAssertEqual(reader.exitCodes, [.success, .failure, .usage, .ioError], "1 only through --strict")
        XCTAssertEqual(reader.meaning(.failure), "with --strict, damage in the input")
    }

    /// 64 names an output that exists without --force only for a command that has --force: triage, whose
    /// rows file is replaced and which has no --force, said it did.
    func test_usageNamesAnExistingOutputOnlyForACommandWithForce() {
        let creates = CommandSpec(name: "make", usage: "make", summary: "Makes.", options: [Option.flag("--force", "Overwrite.")],
                                  exits: ExitCodes(failure: nil))
        let replaces = CommandSpec(name: "rows", usage: "rows", summary: "Writes rows.", options: [Option.output("-o", "file", .document, "Rows.")],
                                   exits: ExitCodes(failure: nil))
        XCTAssertTrue(creates.meaning(.usage).hasSuffix("an output that is one of the inputs or exists without --force)"), creates.meaning(.usage))
        XCTAssertTrue(replaces.meaning(.usage).hasSuffix("an output that is one of the inputs)"), replaces.meaning(.usage))
        XCTAssertFalse(replaces.exitStatus.contains("--force"), replaces.exitStatus)
        XCTAssertTrue(ExitCode.usage.meaning.contains("for a command with --force"), "the shared table says which commands it is")
    }

    func test_theErasedDeclarationKeepsWhatTheTypedOneSays() {
        let jobs = AnyOption(Option.integer("--jobs", "n", 1...4096, "Jobs."))
        XCTAssertEqual(jobs.kind, .integer(1...4096))
        XCTAssertEqual(jobs.synopsis, "--jobs <n>")
        XCTAssertTrue(jobs.takesValue)
        XCTAssertFalse(jobs.isRepeated)
        let mode = AnyOption(Option.choice("--mode", "m", Mode.self, "Mode.").repeatable())
        XCTAssertEqual(mode.kind, .choice(["warn", "fail"]))
        XCTAssertTrue(mode.isRepeated)
        let flag = AnyOption(Option.flag("--json", "JSON."))
        XCTAssertEqual(flag.synopsis, "--json")
        XCTAssertFalse(flag.takesValue)
        XCTAssertThrowsError(try jobs.check("0")) { XCTAssertEqual(($0 as? UsageError)?.message, "--jobs: 0 is out of range 1…4096") }
        XCTAssertNoThrow(try mode.check("fail"))
    }

    func test_rangeText() {
        XCTAssertEqual(OptionRange.text(OptionRange.windowMs), "0…86400000")
        XCTAssertEqual(OptionRange.text(OptionRange.count(from: 1)), "1…1000000")
        XCTAssertEqual(OptionRange.text(Int64.min...Int64.max), "any 64-bit integer")
    }
}
