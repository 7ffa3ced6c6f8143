import Foundation
import TestSupport
import TraceRecorder
import XCTest

/// A simulated device for the recorder's tests, run as a child of the test executable (`TestChild`),
/// so that `swift build` builds no simulator: it plays a scenario into a `TraceRecorder` with a
/// manual clock, then closes, or (with --block) makes sure what it recorded is written, says "ready"
/// and waits on standard input, so that a test can kill it at a moment of its choosing.
///
///     DIR SCRIPT [--from MS] [--until MS] [--session-wall MS] [--rotate BYTES]
///                [--resume-within SECONDS] [--compression system|stored|injected] [--block]
///
/// SCRIPT is meeting30, bluetooth, syscall or callkit. Steps with FROM <= t < UNTIL are played; the
/// wall clock reads SESSION-WALL + FROM when the recorder starts (the session began at SESSION-WALL).
enum SimulatedDevice {
    static let usage = "usage: DIR SCRIPT [--from MS] [--until MS] [--session-wall MS] [--rotate BYTES] [--resume-within S] [--compression system|stored|injected] [--block]"
    static let role = TestChildRole(name: "recorder-sim", entry: "TraceRecorderTests.SimulatedDeviceTests/test_simulatedDevice", run: run)

    /// Starts the simulated device with `arguments`; its standard input is a pipe the test closes.
    static func start(_ arguments: [String]) -> Child {
        TestChild.start(role, arguments, stdinPipe: true)
    }

    static func say(_ text: String, to handle: FileHandle) {
        handle.write(Data((text + "\n").utf8))
    }

    static func run(_ arguments: [String]) -> Int32 {
        func fail(_ message: String) -> Int32 {
            say("Error: \(message)", to: .standardError)
            return 64
        }
        var args = arguments
        guard args.count >= 2 else { return fail(usage) }
        let dir = args.removeFirst(), name = args.removeFirst()
        var from: Int64 = 0, until = Int64.max, sessionWall: Int64 = 1_764_410_400_000, rotate: Int?, resumeWithin: Double?
        var block = false, compression: String? = nil
        while let a = args.first {
            args.removeFirst()
            let needsValue = ["--from", "--until", "--session-wall", "--rotate", "--resume-within", "--compression"].contains(a)
            if needsValue && args.isEmpty { return fail("\(a) needs a value") }
            switch a {
            case "--from": from = Int64(args.removeFirst()) ?? 0
            case "--until": until = Int64(args.removeFirst()) ?? .max
            case "--session-wall": sessionWall = Int64(args.removeFirst()) ?? sessionWall
            case "--rotate": rotate = Int(args.removeFirst())
            case "--resume-within": resumeWithin = Double(args.removeFirst())
            case "--compression": compression = args.removeFirst()
            case "--block": block = true
            default: return fail("unknown option \(a)")
            }
        }
        let script: Script
        switch name {
        case "meeting30": script = Scenarios.thirtyMinuteMeeting()
        case "bluetooth": script = Scenarios.bluetoothBlocksSpeaker()
        case "syscall": script = Scenarios.systemCallInterruptsMeeting()
        case "callkit": script = Scenarios.callKitAnswer()
        default: return fail("unknown script \(name)")
        }

        let clock = ManualClock(monotonicMilliseconds: 5_000_000, wallMilliseconds: sessionWall + from)
        var config = script.configuration(directory: dir, clock: clock)
        config.sessionId = "sim-session"
        if let rotate { config.files.maxFileBytes = rotate }
        if let resumeWithin { config.resume = .leftOpen(withinSeconds: resumeWithin) }
        // The test's own way of making frames unless told (a child inherits RTCTRACE_RECORDER_COMPRESSION).
        config.compression = Support.compression(named: compression ?? Support.compression)
        config.log = { say($0.description, to: .standardError) }
        let recorder = TraceRecorder(config)
        let driver = ScriptDriver(clock: clock, now: from)
        driver.play(script.steps, into: recorder, range: from..<until)

        if block {
            guard recorder.flush(timeout: 60) else { return fail("the recorder did not flush in time") }
            let s = recorder.statistics
            say("ready written=\(s.written) files=\(s.files)", to: .standardOutput)
            while FileHandle.standardInput.availableData.count > 0 {}
            return 0
        }
        guard recorder.close(timeout: 60) else { return fail("the recorder did not close in time") }
        let s = recorder.statistics
        say("closed written=\(s.written) files=\(s.files) dropped=\(s.dropped)", to: .standardOutput)
        return 0
    }
}

/// The simulated device's entry: in a child it runs the device; as a test it checks the device's
/// command line and that a short scenario records and closes.
final class SimulatedDeviceTests: XCTestCase {
    func test_simulatedDevice() throws {
        if TestChild.runIfAsked([SimulatedDevice.role]) { return }
        let dir = Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let ran = SimulatedDevice.start([dir, "bluetooth"]).wait()
        XCTAssertEqual(ran.status, 0, ran.err)
        XCTAssertTrue(ran.out.hasPrefix("closed written="), ran.out)
        XCTAssertFalse(Support.traceFiles(dir).isEmpty, "the device wrote its trace")
        let unknown = SimulatedDevice.start([dir, "nope"]).wait()
        XCTAssertEqual(unknown.status, 64)
        XCTAssertEqual(unknown.err, "Error: unknown script nope\n")
    }
}
