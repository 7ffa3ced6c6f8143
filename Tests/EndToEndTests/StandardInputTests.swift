import Foundation
import TestSupport
import XCTest

/// Every command that reads `-` or a pipe reads it once: `zstd -dc t | rtctrace record - -o u` writes
/// every record, and each reading and writing command given a pipe says what it says of the file.
final class StandardInputTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Runs a bash command line in the test folder, with `R` the built rtctrace.
    @discardableResult
    func sh(_ script: String) -> CLI.Result {
        CLI.run(["-c", "set -o pipefail; " + script], env: ["R": CLI.binary], cwd: dir, exe: "/bin/bash")
    }

    /// A zstd trace of a golden trace, and its records as `cat` prints them.
    func trace(_ name: String = "smeeting-bluetooth-blocks-speaker.jsonl") throws -> String {
        let r = CLI.runInProcess(["record", CLI.root + "/traces/" + name, "-o", dir + "/t.trace.zst"])
        XCTAssertEqual(r.status, 0, r.err)
        return CLI.runInProcess(["cat", dir + "/t.trace.zst"]).out
    }

    func test_recordFromAPipeWritesEveryRecord() throws {
        let lines = try trace()
        XCTAssertGreaterThan(lines.split(separator: "\n").count, 40)
        for (name, line) in [("u", "zstd -dc t.trace.zst | \"$R\" record - -o u.trace.zst"),
                             ("v", "\"$R\" record <(zstd -dc t.trace.zst) -o v.trace.zst"),
                             ("w", "\"$R\" record - -o w.trace.zst < <(zstd -dc t.trace.zst)"),
                             ("x", "\"$R\" record - -o x.trace.zst < t.trace.zst")] {
            let r = sh(line)
            XCTAssertEqual(r.status, 0, "\(line): \(r.err)")
            XCTAssertEqual(CLI.runInProcess(["cat", dir + "/\(name).trace.zst"]).out, lines, line)
        }
        // A named pipe, too.
        XCTAssertEqual(mkfifo(dir + "/fifo", 0o600), 0)
        let r = sh("zstd -dc t.trace.zst > fifo & \"$R\" record fifo -o f.trace.zst; s=$?; wait; exit $s")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(CLI.runInProcess(["cat", dir + "/f.trace.zst"]).out, lines)
    }

    /// A part that continues a session keeps its seqs when it comes through a pipe: where it starts is
    /// read from its own header, not by reading the pipe ahead.
    func test_aContinuationPartFromAPipeKeepsItsSeqs() throws {
        let part = CLI.root + "/traces/smeeting-session-weekly/part-2.jsonl"
        let r = sh("cat '\(part)' | \"$R\" record - -o p2.trace.zst")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(CLI.runInProcess(["cat", dir + "/p2.trace.zst"]).out, try String(contentsOfFile: part, encoding: .utf8))
    }

    func test_appendFromAPipe() throws {
        let lines = try trace().split(separator: "\n", omittingEmptySubsequences: false)
        let head = lines.prefix(20).joined(separator: "\n") + "\n", tail = lines.dropFirst(20).joined(separator: "\n")
        try head.write(toFile: dir + "/head.jsonl", atomically: true, encoding: .utf8)
        try tail.write(toFile: dir + "/tail.jsonl", atomically: true, encoding: .utf8)
        XCTAssertEqual(CLI.runInProcess(["record", dir + "/head.jsonl", "-o", dir + "/a.trace.zst"]).status, 0)
        let r = sh("cat tail.jsonl | \"$R\" append a.trace.zst -")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(CLI.runInProcess(["cat", dir + "/a.trace.zst"]).out, lines.joined(separator: "\n"))
    }

    /// Each reading command says of a pipe what it says of the file (the pipe named `-`).
    func test_everyReadingCommandReadsAPipeOnce() throws {
        _ = try trace()
        let file = dir + "/t.trace.zst"
        for args in [["cat"], ["explain"], ["explain", "--json"], ["info"], ["verify"], ["replay"]] {
            let viaFile = CLI.runInProcess(args + [file])
            let viaPipe = sh("cat t.trace.zst | \"$R\" \(args.joined(separator: " ")) -")
            XCTAssertEqual(viaPipe.status, viaFile.status, "\(args): \(viaPipe.err)")
            XCTAssertEqual(viaPipe.out, Self.named(viaFile.out, file), "\(args)")
        }
        // The writing commands: what they write from a pipe is what they write from the file.
        for (args, out) in [(["report"], "r.html"), (["export"], "e.json"), (["reduce", "--finding", "route.ineffective", "--salt", "k"], "m.trace.zst"),
                            (["redact", "--salt", "k"], "d.trace.zst")] {
            let viaFile = CLI.runInProcess(args + [file, "-o", dir + "/file-" + out])
            let viaPipe = sh("cat t.trace.zst | \"$R\" \(args.joined(separator: " ")) - -o pipe-\(out)")
            XCTAssertEqual(viaPipe.status, viaFile.status, "\(args): \(viaPipe.err)")
            XCTAssertEqual(viaPipe.status, 0, "\(args): \(viaPipe.err)")
            if out.hasSuffix(".trace.zst") {
                XCTAssertEqual(CLI.runInProcess(["cat", dir + "/pipe-" + out]).out, CLI.runInProcess(["cat", dir + "/file-" + out]).out, "\(args)")
            } else {
                let a = try String(contentsOfFile: dir + "/pipe-" + out, encoding: .utf8)
                let b = try String(contentsOfFile: dir + "/file-" + out, encoding: .utf8)
                XCTAssertGreaterThan(a.count, 1000, "\(args)")
                XCTAssert(a == Self.named(b, file), "\(args): what it writes from a pipe differs")
            }
        }
        // explain of the decompressed lines, from a pipe, concludes what it concludes of the trace.
        XCTAssertEqual(sh("zstd -dc t.trace.zst | \"$R\" explain --json - | grep -c '\"verdict\"'").out,
                       sh("\"$R\" explain --json t.trace.zst | grep -c '\"verdict\"'").out)
        // redact from a process substitution (a pipe named /dev/fd/N) too, and diff with one side a pipe.
        XCTAssertEqual(sh("\"$R\" redact <(zstd -dc t.trace.zst) --salt k -o s.trace.zst").status, 0)
        XCTAssertEqual(CLI.runInProcess(["cat", dir + "/s.trace.zst"]).out, CLI.runInProcess(["cat", dir + "/file-d.trace.zst"]).out)
        let diff = sh("zstd -dc t.trace.zst | \"$R\" diff - t.trace.zst")
        XCTAssertEqual(diff.status, 0, diff.out + diff.err)
        XCTAssertTrue(diff.out.contains("The traces behave the same"), diff.out)
        XCTAssertEqual(sh("\"$R\" diff - - < t.trace.zst").status, 64)
    }

    /// What a command says of `file`, with the file named as standard input is named, `-`.
    static func named(_ text: String, _ file: String) -> String {
        text.replacingOccurrences(of: file, with: "-").replacingOccurrences(of: "t.trace.zst", with: "-")
    }
}
