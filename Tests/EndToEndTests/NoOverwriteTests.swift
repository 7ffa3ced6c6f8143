import CommandLineKit
import Foundation
import rtctrace
import TestSupport
import XCTest

/// No command writes over a file it reads, however the output and the input are named: every
/// command that writes (read from the registry the tool runs, so none is left out) is run with its
/// output naming each of its inputs by the same path, another spelling, a symbolic link, a hard
/// link, through a folder and through `@LIST`; each run is refused (exit 64, naming the input) and
/// every input stays byte for byte.
final class NoOverwriteTests: XCTestCase {
    var dir = ""
    let fm = FileManager.default
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? fm.removeItem(atPath: dir) }

    /// How an output may name an input.
    enum Naming: String, CaseIterable {
        case samePath, otherSpelling, symbolicLink, hardLink, throughFolder, throughList
    }

    /// How each writing command is run with an input `IN` (a path, a folder or `@LIST`) and its output
    /// at `OUT`, and which namings its inputs can take (a command of one file takes no folder or list).
    struct Case {
        var arguments: (_ input: String, _ output: String) -> [String]
        var namings: [Naming]
        /// The input file the output names (the zstd trace for commands that want one).
        var zstd = false
    }

    let all = Naming.allCases
    let single: [Naming] = [.samePath, .otherSpelling, .symbolicLink, .hardLink]

    var cases: [String: Case] {
        [
            "record": Case(arguments: { ["record", $0, "-o", $1, "--force"] }, namings: single),
            "append": Case(arguments: { ["append", $1, $0] }, namings: single, zstd: true),
            "redact": Case(arguments: { ["redact", $0, "-o", $1, "--force"] }, namings: single),
            "reduce": Case(arguments: { ["reduce", $0, "--divergence", "-o", $1, "--force"] }, namings: single),
            "report": Case(arguments: { ["report", $0, "-o", $1] }, namings: all),
            "export": Case(arguments: { ["export", $0, "--format", "chrome", "-o", $1] }, namings: all),
            "triage": Case(arguments: { ["triage", $0, "-o", $1] }, namings: all),
            "check": Case(arguments: { ["check", $0, "--junit", $1] }, namings: [.samePath, .otherSpelling, .symbolicLink, .hardLink, .throughFolder]),
            // The trace a device log is imported into (a Console copy of the trace's day).
            "import-log": Case(arguments: { [self] in ["import-log", consoleLog(), "--into", $0, "-o", $1, "--force"] }, namings: single),
        ]
    }

    /// A device log to import: one line copied from Console, written once.
    func consoleLog() -> String {
        let path = dir + "/console.txt"
        if !fm.fileExists(atPath: path) {
            try? "Default\t11:00:01.500000+0100\tmediaserverd\tAudioSessionServerImp.mm:1283 { \"action\":\"activate\", \"session\":{\"ID\":\"0x1\",\"name\":\"CommCenter(98)\"}, \"details\":{} }\n"
                .write(toFile: path, atomically: true, encoding: .utf8)
        }
        return path
    }

    func bytes(_ path: String) -> Data? { fm.contents(atPath: path) }

    func test_everyCommandThatWritesRefusesEveryNameOfEachOfItsInputs() throws {
        // Every command with an output option has a case here; `append` writes its TRACE argument.
        let writing = Commands.all.filter { c in c.spec.options.contains { if case .output = $0.kind { true } else { false } } }.map(\.spec.name)
        XCTAssertEqual(Set(cases.keys), Set(writing + ["append"]), "a command that writes has no case here")

        let folder = dir + "/t"
        try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let plain = folder + "/a.jsonl", zstd = folder + "/b.trace.zst"
        try fm.copyItem(atPath: CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl", toPath: plain)
        let made = CLI.runInProcess(["record", plain, "-o", zstd])
        XCTAssertEqual(made.status, 0, made.err)
        let list = dir + "/list.txt"
        try Data("\(plain)\n\(zstd)\n".utf8).write(to: URL(fileURLWithPath: list))
        let files = [plain, zstd, list]
        let before = files.map(bytes)

        for (name, c) in cases.sorted(by: { $0.key < $1.key }) {
            let target = c.zstd ? zstd : plain
            let base = (target as NSString).lastPathComponent
            let link = dir + "/link-" + base, hard = dir + "/hard-" + base
            try? fm.removeItem(atPath: link)
            try? fm.removeItem(atPath: hard)
            try fm.createSymbolicLink(atPath: link, withDestinationPath: target)
            try fm.linkItem(atPath: target, toPath: hard)
            for naming in c.namings {
                let (input, output): (String, String) = switch naming {
                case .samePath: (target, target)
                case .otherSpelling: (target, folder + "/../t/./" + base)
                case .symbolicLink: (target, link)
                case .hardLink: (target, hard)
                case .throughFolder: (folder, target)
                case .throughList: ("@" + list, hard)
                }
                let args = c.arguments(input, output)
                let r = CLI.runInProcess(args)
                XCTAssertEqual(r.status, 64, "\(name) (\(naming)): \(args): \(r.err)")
                XCTAssertTrue(r.err.contains("refusing to overwrite an input"), "\(name) (\(naming)): \(r.err)")
                XCTAssertEqual(files.map(bytes), before, "\(name) (\(naming)) changed an input")
                XCTAssertEqual(try fm.destinationOfSymbolicLink(atPath: link), target)
            }
        }
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: folder).sorted(), ["a.jsonl", "b.trace.zst"], "nothing was left beside the inputs")
    }

    /// An output given as the empty string is a usage error before any work, not a failed write after it.
    func test_anEmptyOutputPathIsAUsageErrorBeforeAnyWork() {
        let trace = CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl"
        for args in [["report", trace, "-o", ""], ["export", trace, "--format", "chrome", "-o", ""], ["triage", trace, "-o", ""],
                     ["check", trace, "--junit", ""], ["record", trace, "-o", ""]] {
            let r = CLI.runInProcess(args)
            XCTAssertEqual(r.status, 64, "\(args): \(r.err)")
            XCTAssertTrue(r.err.hasPrefix("Error: \(args[args.count - 2]): an empty path names no file"), r.err)
            XCTAssertTrue(r.out.isEmpty, "\(args): no work was done: \(r.out)")
        }
    }
}
