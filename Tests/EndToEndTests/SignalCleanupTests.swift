import Foundation
import TestSupport
import XCTest

/// SIGINT or SIGTERM in the middle of a write removes the command's own temporary and ends it with
/// 128 + the signal's number; what was under the output's name stays as it was. Each command is stopped
/// at its first write to a temporary by a debug build's fault hook (`RTCTRACE_FAULT_STALL_TEMPORARY`),
/// so the signal always lands during the write, whatever the machine's speed.
final class SignalCleanupTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = CLI.tempDir() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// The temporaries (`.NAME.tmp-…`) in a folder.
    func temporaries(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.contains(".tmp-") }
    }

    /// Runs `rtctrace args` until it says it stalled writing a temporary, sends `signal`, and returns its
    /// exit status, what it said, and the temporaries seen while it stalled.
    func interrupt(_ args: [String], with signal: Int32, outputFolder: String) throws -> (status: Int32, err: String, seen: [String]) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CLI.binary)
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["RTCTRACE_FAULT_STALL_TEMPORARY"] = "1"
        env["CI"] = nil
        p.environment = env
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        var said = Data()
        // A guard against a command that never writes (never a measure of speed).
        let deadline = Date().addingTimeInterval(120)
        while !String(decoding: said, as: UTF8.self).contains("stalled writing a temporary") && p.isRunning && Date() < deadline {
            said += err.fileHandleForReading.availableData
        }
        let seen = temporaries(outputFolder)
        XCTAssertTrue(p.isRunning, "\(args[0]) ended before the signal: \(String(decoding: said, as: UTF8.self))")
        kill(p.processIdentifier, signal)
        p.waitUntilExit()
        said += err.fileHandleForReading.readDataToEndOfFile()
        let status = p.terminationReason == .uncaughtSignal ? -p.terminationStatus : p.terminationStatus
        return (status, String(decoding: said, as: UTF8.self), seen)
    }

    func test_SIGINT_and_SIGTERM_removeEveryWritingCommandsTemporary() throws {
        let golden = CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl"
        let trace = dir + "/in.trace.zst"
        XCTAssertEqual(CLI.run(["record", golden, "-o", trace]).status, 0)
        // A device log of one activation, for import-log.
        let log = dir + "/device.ndjson"
        try Data(#"{"timestamp":"2026-11-29 10:00:00.000000+0000","processImagePath":"/usr/sbin/mediaserverd","processID":55,"eventMessage":"AudioSessionServerImp.mm:1 { \"action\":\"activate\", \"session\":{\"ID\":\"0x2\",\"name\":\"CommCenter(98)\"}, \"details\":{} }"}"#.utf8)
            .write(to: URL(fileURLWithPath: log))
        for signal in [SIGINT, SIGTERM] {
            let out = dir + "/out-\(signal)"
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let commands: [(String, [String], String)] = [
                ("record", ["record", golden, "-o", out + "/r.trace.zst", "--force"], out + "/r.trace.zst"),
                ("redact", ["redact", trace, "-o", out + "/d.trace.zst", "--salt", "k", "--force"], out + "/d.trace.zst"),
                ("report", ["report", trace, "-o", out + "/p.html"], out + "/p.html"),
                ("export", ["export", trace, "-o", out + "/e.json"], out + "/e.json"),
                ("triage -o", ["triage", trace, "-o", out + "/rows.jsonl"], out + "/rows.jsonl"),
                ("import-log", ["import-log", log, "-o", out + "/i.trace.zst", "--force"], out + "/i.trace.zst"),
            ]
            for (name, args, output) in commands {
                // What the output's name held before stays as it was.
                try Data("before\n".utf8).write(to: URL(fileURLWithPath: output))
                let r = try interrupt(args, with: signal, outputFolder: out)
                XCTAssertFalse(r.seen.isEmpty, "\(name): a temporary while it wrote")
                XCTAssertEqual(r.status, 128 + signal, "\(name), signal \(signal): \(r.err)")
                XCTAssertEqual(temporaries(out), [], "\(name), signal \(signal): its temporary is removed")
                XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), "before\n", name)
            }
        }
    }

    /// Without the fault hook the commands write as before (the handlers change nothing else).
    func test_withoutASignalEveryCommandWritesItsOutput() throws {
        let golden = CLI.root + "/traces/srtc-bluetooth-blocks-speaker.jsonl"
        XCTAssertEqual(CLI.run(["record", golden, "-o", dir + "/t.trace.zst"]).status, 0)
        XCTAssertEqual(CLI.run(["export", dir + "/t.trace.zst", "-o", dir + "/e.json"]).status, 0)
        XCTAssertEqual(temporaries(dir), [])
    }
}
