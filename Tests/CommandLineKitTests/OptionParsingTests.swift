import CommandLineKit
import XCTest

/// What the parser accepts and refuses for each kind of option, read back typed: the way
/// swift-argument-parser tests its parser, in this process, without starting rtctrace.
final class OptionParsingTests: XCTestCase {
    enum Colour: String, CaseIterable, Sendable { case red, green, blue }

    static let count = Option.integer("--count", "n", 1...10, "How many.")
    static let offset = Option.integer("--offset", "ms", Int64.min...Int64.max, "Any offset.")
    static let name = Option.string("--name", "s", nonEmpty: true, "A name.")
    static let note = Option.string("--note", "s", "Any text.")
    static let colour = Option.choice("--colour", "c", Colour.self, "A colour.")
    static let tags = Option.string("--tag", "t", "A tag; repeatable.").repeatable()
    static let colours = Option.choice("--paint", "c", Colour.self, "Colours; repeatable.").repeatable()
    static let verbose = Option.flag("--verbose", "Say more.")
    static let out = Option.output("-o", "file", .document, "Where to write.")
    static let trace = Option.output("--trace", "path", .trace, "The trace to write.").required("--trace OUT.trace.zst")
    static let pair = Option<(Int, Int)>.shaped("--pair", "a/b", shape: "Shape: a/b with a ≤ b.", "A pair.",
                                                invalid: "is not a/b with a ≤ b") { s in
        let p = s.split(separator: "/").compactMap { Int($0) }
        return p.count == 2 && p[0] <= p[1] ? (p[0], p[1]) : nil
    }

    static let spec = CommandSpec(name: "demo", usage: "demo [options] FILE...", summary: "A command to parse with.",
                                  options: [count, offset, name, note, colour, tags, colours, verbose, out, pair], exits: ExitCodes(failure: nil))
    static let strictSpec = CommandSpec(name: "write", usage: "write --trace OUT.trace.zst", summary: "Needs an output.",
                                        options: [trace, verbose], exits: ExitCodes(failure: nil))

    func parse(_ args: [String], _ spec: CommandSpec = spec) throws(UsageError) -> Arguments { try Arguments(args, spec: spec) }

    /// The usage error `args` gives, or nil when they parse.
    func refusal(_ args: [String], _ spec: CommandSpec = spec) -> String? {
        do { _ = try parse(args, spec); return nil } catch { return error.message }
    }

    func test_integersInRangeReadBackTyped() throws {
        let a = try parse(["--count", "1", "--offset", "-5"])
        XCTAssertEqual(a[Self.count], 1)
        XCTAssertEqual(a[Self.offset], -5)
        XCTAssertEqual(try parse(["--count", "10"])[Self.count], 10)
        XCTAssertEqual(try parse(["--count", "+7"])[Self.count], 7)
        XCTAssertEqual(try parse(["--offset", String(Int64.min)])[Self.offset], Int64.min)
        XCTAssertNil(try parse([])[Self.count])
        // The last one given counts.
        XCTAssertEqual(try parse(["--count", "2", "--count", "3"])[Self.count], 3)
    }

    func test_integersOutOfRangeOrNotNumbersAreUsageErrorsNamingTheRange() {
        XCTAssertEqual(refusal(["--count", "0"]), "--count: 0 is out of range 1…10")
        XCTAssertEqual(refusal(["--count", "11"]), "--count: 11 is out of range 1…10")
        XCTAssertEqual(refusal(["--count", "-1"]), "--count: -1 is out of range 1…10")
        XCTAssertEqual(refusal(["--count", "99999999999999999999999"]), "--count: 99999999999999999999999 is out of range 1…10")
        XCTAssertEqual(refusal(["--offset", "99999999999999999999999"]),
                       "--offset: 99999999999999999999999 is out of range any 64-bit integer")
        for word in ["soon", "", "1.5", "1e3", "0x10", "--1", "+-1", " 1", "١"] {
            XCTAssertEqual(refusal(["--count", word]), "--count: '\(word)' is not an integer (1…10)", word)
        }
        // Every value is checked, not only the last.
        XCTAssertEqual(refusal(["--count", "0", "--count", "3"]), "--count: 0 is out of range 1…10")
    }

    func test_textAndChoicesAreCheckedWhenParsed() throws {
        XCTAssertEqual(refusal(["--name", ""]), "--name: must not be empty")
        XCTAssertEqual(try parse(["--note", ""])[Self.note], "")
        XCTAssertEqual(try parse(["--name", "x y"])[Self.name], "x y")
        let chosen: Colour? = try parse(["--colour", "green"])[Self.colour]
        XCTAssertEqual(chosen, .green)
        XCTAssertEqual(refusal(["--colour", "Green"]), "--colour: 'Green' is not one of red, green, blue")
        XCTAssertEqual(refusal(["--colour", ""]), "--colour: '' is not one of red, green, blue")
        XCTAssertEqual(refusal(["--pair", "3/2"]), "--pair: '3/2' is not a/b with a ≤ b")
        let pair = try XCTUnwrap(try parse(["--pair", "2/3"])[Self.pair])
        XCTAssertEqual(pair.0, 2)
        XCTAssertEqual(pair.1, 3)
    }

    func test_repeatedOptionsKeepEveryValueInOrder() throws {
        let a = try parse(["--tag", "b", "--paint", "blue", "--tag", "a", "--paint", "red", "--tag", "b"])
        XCTAssertEqual(a[Self.tags], ["b", "a", "b"])
        XCTAssertEqual(a[Self.colours], [.blue, .red])
        XCTAssertEqual(try parse([])[Self.tags], [])
        XCTAssertEqual(refusal(["--paint", "red", "--paint", "pink"]), "--paint: 'pink' is not one of red, green, blue")
    }

    func test_flags() throws {
        XCTAssertTrue(try parse(["--verbose"])[Self.verbose])
        XCTAssertFalse(try parse(["x"])[Self.verbose])
        XCTAssertEqual(refusal(["--verbose=yes"]), "unknown option '--verbose'")
        XCTAssertTrue(try parse(["--verbose"]).isGiven(Self.verbose))
        XCTAssertFalse(try parse(["--count", "2"]).isGiven(Self.verbose))
    }

    func test_inlineValuesDashesAndPositionals() throws {
        let a = try parse(["--count=4", "a", "-", "--note=x=y", "--tag=", "b"])
        XCTAssertEqual(a[Self.count], 4)
        XCTAssertEqual(a[Self.note], "x=y")
        XCTAssertEqual(a[Self.tags], [""])
        XCTAssertEqual(a.positionals, ["a", "-", "b"])
        XCTAssertEqual(refusal(["--count=0"]), "--count: 0 is out of range 1…10")
        // After `--` everything is positional, options included.
        let rest = try parse(["--verbose", "--", "--count", "0", "-o", "--help"])
        XCTAssertTrue(rest[Self.verbose])
        XCTAssertNil(rest[Self.count])
        XCTAssertEqual(rest.positionals, ["--count", "0", "-o", "--help"])
        XCTAssertFalse(rest.wantsHelp)
        // A value may look like an option: it is the value.
        XCTAssertEqual(try parse(["--note", "--count"])[Self.note], "--count")
    }

    func test_unknownOptionsAndMissingValues() {
        XCTAssertEqual(refusal(["--colour"]), "missing value for '--colour <c>'")
        XCTAssertEqual(refusal(["--nope"]), "unknown option '--nope'")
        XCTAssertEqual(refusal(["-x"]), "unknown option '-x'")
        XCTAssertEqual(refusal(["--nope=1"]), "unknown option '--nope'")
        // An option another command declares is unknown here.
        XCTAssertEqual(refusal(["--count", "1"], Self.strictSpec), "unknown option '--count'")
    }

    func test_requiredOptionsNameWhatIsMissing() throws {
        XCTAssertEqual(refusal([], Self.strictSpec), "missing '--trace OUT.trace.zst'")
        XCTAssertEqual(refusal(["--verbose", "x"], Self.strictSpec), "missing '--trace OUT.trace.zst'")
        let a = try parse(["--trace", "t.zst"], Self.strictSpec)
        let path: OutputPath = a[Self.trace]
        XCTAssertEqual(path, OutputPath(path: "t.zst", option: "--trace", content: .trace))
        // Without an example, the option is named by its synopsis.
        let plain = Option.integer("--n", "n", 0...1, "N.").required()
        XCTAssertEqual(refusal([], CommandSpec(name: "n", usage: "n", summary: "N.", options: [plain], exits: ExitCodes(failure: nil))), "missing '--n <n>'")
        XCTAssertTrue(AnyOption(plain).isRequired)
        XCTAssertFalse(AnyOption(Self.count).isRequired)
    }

    /// Asking for help checks nothing: a bad value or a missing required option still shows it.
    func test_helpWinsOverBadValuesAndMissingOptions() throws {
        XCTAssertTrue(try parse(["--count", "0", "--help"]).wantsHelp)
        XCTAssertTrue(try parse(["-h", "--colour", "pink"]).wantsHelp)
        XCTAssertTrue(try parse(["--help"], Self.strictSpec).wantsHelp)
        // Unknown options are still unknown.
        XCTAssertEqual(refusal(["--help", "--nope"]), "unknown option '--nope'")
    }

    func test_outputOptionsReadBackAsPaths() throws {
        XCTAssertEqual(try parse(["-o", "-"])[Self.out], OutputPath(path: "-", option: "-o", content: .document))
        XCTAssertNil(try parse([])[Self.out])
        XCTAssertNil(try parse([]).output(Self.out))
        let target = try XCTUnwrap(try parse(["-o", "-"]).output(Self.out))
        XCTAssertEqual(refusal(["-o", ""]), "-o: an empty path names no file")
        XCTAssertEqual(target.destination, .standardOutput)
    }
}
