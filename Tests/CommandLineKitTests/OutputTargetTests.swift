import CommandLineKit
import Foundation
import TestSupport
import XCTest

/// Where an output option may point, decided before any work: never an input (by any name), never
/// through a link, never a folder; a trace only to a regular file.
final class OutputTargetTests: XCTestCase {
    var dir = ""
    let fm = FileManager.default
    override func setUp() { dir = Fixtures.tempDir("cli-out") }
    override func tearDown() { try? fm.removeItem(atPath: dir) }

    func file(_ name: String, _ text: String = "keep") -> String {
        let path = dir + "/" + name
        XCTAssertTrue(fm.createFile(atPath: path, contents: Data(text.utf8)))
        return path
    }

    /// The usage error resolving `path` gives, or nil when it resolves.
    func refusal(_ path: String, _ content: OutputTarget.Content = .document, inputs: [(role: String, path: String)] = []) -> String? {
        do {
            let target = try OutputPath(path: path, option: "-o", content: content).resolve(inputs: inputs)
            target.release()
            return nil
        } catch let e as UsageError {
            return e.message
        } catch {
            return "not a usage error: \(error)"
        }
    }

    func test_anOutputThatIsAnInputIsRefusedByAnyName() throws {
        let input = file("in.jsonl")
        XCTAssertEqual(refusal(input, inputs: [("the input TRACE", input)]),
                       "-o \(input): is the input TRACE \(input); refusing to overwrite an input")
        let dotted = dir + "/./in.jsonl"
        XCTAssertEqual(refusal(dotted, inputs: [("the input TRACE", input)]),
                       "-o \(dotted): is the input TRACE \(input) (the same file); refusing to overwrite an input")
        let hard = dir + "/hard.jsonl"
        try fm.linkItem(atPath: input, toPath: hard)
        XCTAssertEqual(refusal(hard, .trace, inputs: [("the input", input)]),
                       "-o \(hard): is the input \(input) (the same file); refusing to overwrite an input")
        // A link to an input is named as that input, before it is refused as a link.
        let link = dir + "/link.jsonl"
        try fm.createSymbolicLink(atPath: link, withDestinationPath: "in.jsonl")
        XCTAssertEqual(refusal(link, inputs: [("the input TRACE", input)]),
                       "-o \(link): is the input TRACE \(input) (the same file); refusing to overwrite an input")
        XCTAssertEqual(try String(contentsOfFile: input, encoding: .utf8), "keep")
    }

    func test_linksFoldersAndStandardOutputForATraceAreRefused() throws {
        let target = file("target.html")
        let link = dir + "/link.html"
        try fm.createSymbolicLink(atPath: link, withDestinationPath: "target.html")
        XCTAssertEqual(refusal(link), "-o \(link): is a symbolic link; refusing to replace it (give the path of the file it points to)")
        XCTAssertEqual(refusal(dir), "-o \(dir): is a folder; refusing to write to it")
        XCTAssertEqual(refusal("-", .trace), "-o -: a trace is written only to a regular file, not to standard output")
        XCTAssertEqual(refusal("/dev/null", .trace), "-o /dev/null: is a character device; a trace is written only to a regular file")
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "keep")
    }

    func test_whatMayBeWrittenResolvesToWhereItGoes() throws {
        XCTAssertEqual(try OutputPath(path: "-", option: "-o", content: .document).resolve(inputs: []).destination, .standardOutput)
        XCTAssertEqual(try OutputPath(path: "/dev/stdout", option: "-o", content: .document).resolve(inputs: []).destination, .standardOutput)
        XCTAssertEqual(try OutputPath(path: "/dev/stderr", option: "-o", content: .document).resolve(inputs: []).destination, .standardError)
        XCTAssertEqual(try OutputPath(path: "/dev/null", option: "-o", content: .document).resolve(inputs: []).destination,
                       .inPlace(.characterDevice))
        let fresh = try OutputPath(path: dir + "/new.html", option: "-o", content: .document).resolve(inputs: [])
        XCTAssertEqual(fresh.destination, .file)
        XCTAssertFalse(fresh.exists)
        try fresh.write("<p>", in: .inMemory())
        XCTAssertEqual(try String(contentsOfFile: dir + "/new.html", encoding: .utf8), "<p>")
        let existing = file("old.zst")
        let replaced = try OutputPath(path: existing, option: "-o", content: .trace).resolve(inputs: [("the input", file("in.jsonl"))])
        XCTAssertEqual(replaced.destination, .file)
        XCTAssertTrue(replaced.exists)
        replaced.release()
    }
}
