import CommandLineKit
import Foundation
import SystemLayer
import TestSupport
import XCTest

/// Errors map to exit codes in one place, and the dispatcher prints them the way the tool's users
/// read them: `Error: …`, then for a usage error the usage line and where the help is.
final class DispatcherTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Fixtures.tempDir("cli") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func test_everyExitCodeHasItsDocumentedNumber() {
        XCTAssertEqual(ExitCode.allCases.map(\.rawValue), [0, 1, 64, 65, 74])
        XCTAssertEqual(ExitCode.for(UsageError(message: "u")), .usage)
        XCTAssertEqual(ExitCode.for(DataError(message: "d")), .dataError)
        XCTAssertEqual(ExitCode.for(CommandFailure(message: "f")), .failure)
        XCTAssertEqual(ExitCode.for(IOFailure(message: "i")), .ioError)
        struct Other: Error {}
        XCTAssertEqual(ExitCode.for(Other()), .failure)
    }

    static let level = Option.integer("--level", "n", 1...22, "The level.")
    static let out = Option.output("-o", "file", .document, "The file.").required("-o FILE")

    /// A tool whose commands end each way a command can.
    static let tool = Dispatcher(commands: [
        Command(spec: CommandSpec(name: "ok", usage: "ok [--level N]", summary: "Succeeds.", options: [level], exits: ExitCodes(failure: nil))) { args, _ in
            args[level] == 22 ? .failure : .success
        },
        Command(spec: CommandSpec(name: "write", usage: "write -o FILE", summary: "Needs -o.", options: [out], exits: ExitCodes(failure: nil))) { _, _ in .success },
        Command(spec: CommandSpec(name: "usage", usage: "usage X", summary: "Refuses its line.", exits: ExitCodes(failure: nil))) { _, _ in throw UsageError(message: "expected X") },
        Command(spec: CommandSpec(name: "data", usage: "data", summary: "Not a trace.", exits: ExitCodes(failure: nil))) { _, _ in throw DataError(message: "t: not a trace") },
        Command(spec: CommandSpec(name: "fail", usage: "fail", summary: "Fails.", exits: ExitCodes(failure: nil))) { _, _ in throw CommandFailure(message: "it broke\u{1B}[2J") },
        Command(spec: CommandSpec(name: "io", usage: "io", summary: "Cannot write.", exits: ExitCodes(failure: nil))) { _, _ in throw IOFailure(message: "r/x: No space left on device") },
        Command(spec: CommandSpec(name: "other", usage: "other", summary: "Throws something else.", exits: ExitCodes(failure: nil))) { _, _ in
            struct Odd: Error, CustomStringConvertible { var description: String { "odd" } }
            throw Odd()
        },
    ])

    /// Runs `args` with both streams captured.
    /// With `unwritable`, standard output is a descriptor open for reading only: every write fails.
    func run(_ args: [String], unwritable: Bool = false) throws -> (code: ExitCode, out: String, err: String) {
        let outPath = dir + "/out", errPath = dir + "/err"
        let outFile = unwritable ? try OpenFile("/dev/null", .readOnly)
            : try OpenFile(outPath, .writeOnly, options: [.create, .truncate, .closeOnExec])
        let errFile = try OpenFile(errPath, .writeOnly, options: [.create, .truncate, .closeOnExec])
        defer { try? outFile.close(); try? errFile.close() }
        let context = CommandContext(out: Output(outFile.descriptor, name: "standard output"),
                                     err: Output(errFile.descriptor, name: "standard error"),
                                     input: .standardInput, environment: [:], executable: "")
        let code = Self.tool.run(args, in: context)
        let text = { (p: String) in (try? String(contentsOfFile: p, encoding: .utf8)) ?? "" }
        return (code, unwritable ? "" : text(outPath), text(errPath))
    }

    func test_successAndFailureAreWhatTheCommandReturns() throws {
        XCTAssertEqual(try run(["ok"]).code, .success)
        XCTAssertEqual(try run(["ok", "--level", "22"]).code, .failure)
        XCTAssertEqual(try run(["ok", "--level=3"]).err, "")
    }

    func test_usageErrorsPrintTheUsageLineAndWhereTheHelpIs() throws {
        for (args, message, usage) in [(["ok", "--level", "23"], "--level: 23 is out of range 1…22", "ok [--level N]"),
                                       (["ok", "--nope"], "unknown option '--nope'", "ok [--level N]"),
                                       (["write"], "missing '-o FILE'", "write -o FILE"),
                                       (["usage"], "expected X", "usage X")] {
            let r = try run(args)
            XCTAssertEqual(r.code, .usage, "\(args)")
            XCTAssertEqual(r.out, "")
            XCTAssertEqual(r.err, "Error: \(message)\nUsage: rtctrace \(usage)\n  See 'rtctrace \(args[0]) --help'.\n")
        }
    }

    func test_otherErrorsPrintOneLineAndTheirCode() throws {
        for (args, code, line) in [(["data"], ExitCode.dataError, "Error: t: not a trace\n"),
                                   (["fail"], .failure, "Error: it broke\u{FFFD}[2J\n"),
                                   (["io"], .ioError, "Error: r/x: No space left on device\n"),
                                   (["other"], .failure, "Error: odd\n")] {
            let r = try run(args)
            XCTAssertEqual(r.code, code, "\(args)")
            XCTAssertEqual(r.err, line, "\(args)")
        }
    }

    func test_unknownCommandsHelpAndNoCommand() throws {
        let unknown = try run(["nope"])
        XCTAssertEqual(unknown.code, .usage)
        XCTAssertEqual(unknown.err, "Error: unknown command 'nope'\nSee 'rtctrace --help'.\n")
        let none = try run([])
        XCTAssertEqual(none.code, .usage)
        XCTAssertEqual(none.out, "")
        XCTAssertEqual(none.err, Self.tool.help + "\n")
        for spelling in ["--help", "-h", "help"] {
            let help = try run([spelling])
            XCTAssertEqual(help.code, .success)
            XCTAssertEqual(help.out, Self.tool.help + "\n")
            XCTAssertTrue(help.out.contains("\n  ok        Succeeds.\n"), help.out)
            XCTAssertTrue(help.out.contains("\n  other     Throws something else.\n"), help.out)
        }
        let commandHelp = try run(["write", "--help"])
        XCTAssertEqual(commandHelp.code, .success)
        XCTAssertEqual(commandHelp.out, Self.tool.command(named: "write")!.spec.help)
    }

    /// Output that cannot be written is an I/O failure (74), naming the stream, whatever the command answered.
    func test_aFailedWriteOfStandardOutputIsAnIOFailure() throws {
        let r = try run(["write", "--help"], unwritable: true)
        XCTAssertEqual(r.code, .ioError)
        XCTAssertEqual(try run(["ok", "--level", "22"], unwritable: true).code, .failure, "nothing written, so the answer stands")
        XCTAssertTrue(r.err.hasPrefix("Error: standard output: write failed: "), r.err)
    }
}
