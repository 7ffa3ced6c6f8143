import Foundation
import TestSupport
import XCTest

/// Outputs never overwrite inputs or special files, never replace a trace being appended to, and
/// folder walks never loop or leave the folder they were given.
final class FileSafetyTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    let fm = FileManager.default

    func copy(_ golden: String, to name: String) throws -> String {
        let dst = dir + "/" + name
        try fm.copyItem(atPath: CLI.root + "/traces/" + golden, toPath: dst)
        return dst
    }

    func bytes(_ path: String) -> Data? { fm.contents(atPath: path) }

    func firstLine(_ s: String) -> String { s.split(separator: "\n").first.map(String.init) ?? "" }

    /// (a) An output that is an input, however spelled (the same path, `./`, a link, a hard link), is
    /// refused with exit 64 naming both, even with --force; the input is left byte for byte.
    func test_outputsResolvingToAnInputAreRefused() throws {
        let trace = try copy("srtc-layer-switch-not-confirmed.trace.zst", to: "a.zst")
        let jsonl = try copy("srtc-bluetooth-blocks-speaker.jsonl", to: "b.jsonl")
        try fm.createSymbolicLink(atPath: dir + "/link.zst", withDestinationPath: "a.zst")
        try fm.linkItem(atPath: trace, toPath: dir + "/hard.zst")
        let before = bytes(trace), beforeJSONL = bytes(jsonl)
        let cases: [[String]] = [
            ["report", "a.zst", "-o", "a.zst"], ["report", "a.zst", "-o", "./a.zst"], ["report", "a.zst", "-o", "link.zst"],
            ["report", "a.zst", "-o", "hard.zst"], ["export", "a.zst", "--format", "chrome", "-o", "hard.zst"],
            ["reduce", "a.zst", "--divergence", "-o", "./a.zst", "--force"], ["redact", "a.zst", "-o", "hard.zst", "--force"],
            ["redact", "a.zst", "-o", "link.zst", "--force"], ["check", "b.jsonl", "--junit", "./b.jsonl"],
            ["record", "b.jsonl", "-o", "b.jsonl", "--force"], ["import-log", "b.jsonl", "-o", "./b.jsonl", "--force"],
        ]
        for args in cases {
            let r = CLI.run(args, cwd: dir)
            XCTAssertEqual(r.status, 64, "\(args): \(r.err)")
            let out = args[args.firstIndex { $0 == "-o" || $0 == "--junit" }! + 1]
            let input = args[1]
            XCTAssertTrue(firstLine(r.err).hasPrefix("Error: \(args.contains("--junit") ? "--junit" : "-o") \(out): is "), r.err)
            XCTAssertTrue(firstLine(r.err).contains(" \(input)") && firstLine(r.err).contains("refusing to overwrite an input"), r.err)
        }
        // import-log's other input: the trace it copies the log into.
        for out in ["hard.zst", "link.zst"] {
            let r = CLI.run(["import-log", "b.jsonl", "--into", "a.zst", "-o", out, "--force"], cwd: dir)
            XCTAssertEqual(r.status, 64, r.err)
            XCTAssertEqual(firstLine(r.err), "Error: -o \(out): is the --into TRACE a.zst (the same file); refusing to overwrite an input")
        }
        XCTAssertEqual(bytes(trace), before)
        XCTAssertEqual(bytes(jsonl), beforeJSONL)
        XCTAssertEqual(try fm.destinationOfSymbolicLink(atPath: dir + "/link.zst"), "a.zst")
    }

    /// (b) A FIFO or character device is written in place and stays what it was; a symbolic link,
    /// a folder or a trace onto a device is refused; `-` and /dev/stdout are standard output.
    func test_specialFileOutputsAreWrittenInPlaceNeverReplaced() throws {
        let trace = try copy("srtc-layer-switch-not-confirmed.trace.zst", to: "a.zst")
        let fifo = dir + "/pipe"
        XCTAssertEqual(CLI.run(["-c", "mkfifo '\(fifo)'"], exe: "/bin/sh").status, 0)
        // A reader on the FIFO: the report arrives there and the FIFO is still a FIFO.
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        let piped = Pipe()
        reader.standardOutput = piped
        try reader.run()
        let r = CLI.runInProcess(["report", trace, "-o", fifo])
        XCTAssertEqual(r.status, 0, r.err)
        // A FIFO replaced by a file never gets a writer: do not wait for its reader forever.
        let deadline = Date().addingTimeInterval(10)
        while reader.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if reader.isRunning { reader.terminate() }
        reader.waitUntilExit()
        let html = piped.fileHandleForReading.readDataToEndOfFile()
        XCTAssertTrue(String(decoding: html, as: UTF8.self).hasPrefix("<!DOCTYPE html>"))
        XCTAssertEqual(CLI.run(["-c", "test -p '\(fifo)'"], exe: "/bin/sh").status, 0, "the FIFO was replaced")
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: dir).sorted(), ["a.zst", "pipe"], "a temporary was left beside the FIFO")
        defer { XCTAssertEqual(try? fm.contentsOfDirectory(atPath: dir).filter { $0.contains(".tmp-") }, [], "a temporary was left behind") }

        // A device node (only root may make one: CI runs as root): written in place, never
        // replaced. This is what `report … -o /dev/null` did to the system's /dev/null.
        let null = dir + "/null"
        if CLI.run(["-c", "mknod '\(null)' c 1 3"], exe: "/bin/sh").status == 0 {
            XCTAssertEqual(CLI.runInProcess(["report", trace, "-o", null]).status, 0)
            XCTAssertEqual(CLI.runInProcess(["export", trace, "--format", "chrome", "-o", null]).status, 0)
            XCTAssertEqual(CLI.run(["-c", "test -c '\(null)'"], exe: "/bin/sh").status, 0, "the device node was replaced by a file")
            let t = CLI.runInProcess(["record", CLI.root + "/traces/srtc-cdn-wangsu.jsonl", "-o", null, "--force"])
            XCTAssertEqual(t.status, 64)
            XCTAssertEqual(firstLine(t.err), "Error: -o \(null): is a character device; a trace is written only to a regular file")
        }
        // A full device of its own (never the system's /dev/full: a regression would replace it).
        let full = dir + "/full"
        if CLI.run(["-c", "mknod '\(full)' c 1 7"], exe: "/bin/sh").status == 0 {
            let r = CLI.runInProcess(["report", trace, "-o", full])
            XCTAssertEqual(r.status, 74, "a write that fails is an I/O failure")
            XCTAssertEqual(firstLine(r.err), "Error: \(full): write failed: No space left on device")
            XCTAssertEqual(CLI.run(["-c", "test -c '\(full)'"], exe: "/bin/sh").status, 0, "the device node was replaced by a file")
        }
        // A symbolic link is refused, and it and its target stay as they were.
        try Data("keep".utf8).write(to: URL(fileURLWithPath: dir + "/target.html"))
        try fm.createSymbolicLink(atPath: dir + "/link.html", withDestinationPath: "target.html")
        let link = CLI.runInProcess(["report", trace, "-o", dir + "/link.html"])
        XCTAssertEqual(link.status, 64)
        XCTAssertEqual(firstLine(link.err), "Error: -o \(dir)/link.html: is a symbolic link; refusing to replace it (give the path of the file it points to)")
        XCTAssertEqual(try fm.destinationOfSymbolicLink(atPath: dir + "/link.html"), "target.html")
        XCTAssertEqual(bytes(dir + "/target.html"), Data("keep".utf8))
        XCTAssertEqual(CLI.runInProcess(["report", trace, "-o", dir]).status, 64)
        // Standard output.
        for spelling in ["-", "/dev/stdout"] {
            let s = CLI.runInProcess(["report", trace, "-o", spelling])
            XCTAssertEqual(s.status, 0, s.err)
            XCTAssertTrue(s.out.hasPrefix("<!DOCTYPE html>"), spelling)
            XCTAssertTrue(s.err.hasPrefix("wrote standard output ("), s.err)
        }
        XCTAssertFalse(fm.fileExists(atPath: dir + "/-"))
        XCTAssertEqual(CLI.run(["record", CLI.root + "/traces/srtc-cdn-wangsu.jsonl", "-o", "-"], cwd: dir).status, 64)
        XCTAssertFalse(fm.fileExists(atPath: dir + "/-"))
    }

    /// (c) A trace another process is appending to (it holds the writer's lock) is not replaced by
    /// record, redact or reduce, even with --force; once it is closed, it is.
    func test_traceBeingAppendedIsNotReplaced() throws {
        let input = try copy("srtc-layer-switch-not-confirmed.trace.zst", to: "in.zst")
        let held = dir + "/held.trace.zst"
        // The writer harness (a child of the test executable) holds the writer's lock until its input closes.
        let holder = Support.harness(["hold", held], stdinPipe: true)
        XCTAssertEqual(holder.readLine(), "ready")
        let before = bytes(held)
        let log = dir + "/device.ndjson"
        try Data(#"{"timestamp":"2026-11-29 10:00:00.000000+0000","processImagePath":"/usr/sbin/mediaserverd","processID":55,"eventMessage":"AudioSessionServerImp.mm:1 { \"action\":\"activate\", \"session\":{\"ID\":\"0x2\",\"name\":\"CommCenter(98)\"}, \"details\":{} }"}"#.utf8)
            .write(to: URL(fileURLWithPath: log))
        for args in [["record", CLI.root + "/traces/srtc-cdn-wangsu.jsonl", "-o", held, "--force"],
                     ["redact", input, "-o", held, "--force"], ["reduce", input, "--divergence", "-o", held, "--force"],
                     ["import-log", log, "-o", held, "--force"]] {
            let r = CLI.runInProcess(args)
            XCTAssertEqual(r.status, 74, "\(args[0]): \(r.err)")
            XCTAssertEqual(firstLine(r.err), "Error: \(held): another writer is appending to this trace (it holds the lock); refusing to replace it")
            XCTAssertEqual(bytes(held), before, "\(args[0]) replaced the trace under its appender")
        }
        XCTAssertEqual(holder.wait().status, 0)
        XCTAssertEqual(CLI.runInProcess(["record", CLI.root + "/traces/srtc-cdn-wangsu.jsonl", "-o", held, "--force"]).status, 0)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: dir).sorted(), ["device.ndjson", "held.trace.zst", "in.zst"])
    }

    /// (d) Two links to `.` made the walk run forever and a link to `..` walked the parent:
    /// directory links are not followed, and the walk ends.
    func test_folderWalkEndsAndStaysInsideDespiteLinkLoops() throws {
        guard fm.isExecutableFile(atPath: "/usr/bin/timeout") else { throw XCTSkip("no timeout(1)") }
        try fm.createDirectory(atPath: dir + "/tree/sub", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir + "/outside", withIntermediateDirectories: true)
        _ = try copy("srtc-bluetooth-blocks-speaker.jsonl", to: "tree/sub/in.jsonl")
        _ = try copy("srtc-cdn-wangsu.jsonl", to: "outside/out.jsonl")
        try fm.createSymbolicLink(atPath: dir + "/tree/sub/self1", withDestinationPath: ".")
        try fm.createSymbolicLink(atPath: dir + "/tree/sub/self2", withDestinationPath: ".")
        try fm.createSymbolicLink(atPath: dir + "/tree/sub/up", withDestinationPath: "..")
        try fm.createSymbolicLink(atPath: dir + "/tree/sub/away", withDestinationPath: "../../outside")
        for args in [["check", dir + "/tree"], ["accept", dir + "/tree"], ["reject", dir + "/tree"]] {
            let r = CLI.run(["20", CLI.binary] + args, exe: "/usr/bin/timeout")
            XCTAssertNotEqual(r.status, 124, "\(args[0]) did not end")
            XCTAssertEqual(r.status, 0, "\(args[0]): \(r.err)")
            if args[0] == "check" {
                XCTAssertEqual(r.out, "PASS \(dir)/tree/sub/in.jsonl (17 expectations)\n1 passed, 0 failed\n")
                XCTAssertTrue(r.err.contains("\(dir)/tree/sub/up: skipped, a link to a folder, not followed"), r.err)
            }
        }
    }
}
