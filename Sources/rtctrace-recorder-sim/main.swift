import Foundation
import RecorderSimulation
import TraceRecorder

// A simulated device for the recorder's tests: it plays a scenario into a TraceRecorder with a
// manual clock, then closes, or (with --block) makes sure what it recorded is written, says "ready"
// and waits on standard input, so that a test can kill it at a moment of its choosing.
//
//   rtctrace-recorder-sim DIR SCRIPT [--from MS] [--until MS] [--session-wall MS] [--rotate BYTES]
//                         [--resume-within SECONDS] [--compression automatic|stored] [--block]
//
// SCRIPT is meeting30, bluetooth, syscall or callkit. Steps with FROM <= t < UNTIL are played; the
// wall clock reads SESSION-WALL + FROM when the recorder starts (the session began at SESSION-WALL).

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
    exit(64)
}

var args = Array(CommandLine.arguments.dropFirst())
guard args.count >= 2 else { fail("usage: rtctrace-recorder-sim DIR SCRIPT [--from MS] [--until MS] [--session-wall MS] [--rotate BYTES] [--resume-within S] [--compression automatic|stored] [--block]") }
let dir = args.removeFirst(), name = args.removeFirst()
var from: Int64 = 0, until = Int64.max, sessionWall: Int64 = 1_764_410_400_000, rotate: Int?, resumeWithin: Double?, block = false
var stored = false
while let a = args.first {
    args.removeFirst()
    func value() -> String {
        guard !args.isEmpty else { fail("\(a) needs a value") }
        return args.removeFirst()
    }
    switch a {
    case "--from": from = Int64(value()) ?? 0
    case "--until": until = Int64(value()) ?? .max
    case "--session-wall": sessionWall = Int64(value()) ?? sessionWall
    case "--rotate": rotate = Int(value())
    case "--resume-within": resumeWithin = Double(value())
    case "--block": block = true
    case "--compression": stored = value() == "stored"
    default: fail("unknown option \(a)")
    }
}
let script: Script
switch name {
case "meeting30": script = Scenarios.thirtyMinuteMeeting()
case "bluetooth": script = Scenarios.bluetoothBlocksSpeaker()
case "syscall": script = Scenarios.systemCallInterruptsMeeting()
case "callkit": script = Scenarios.callKitAnswer()
default: fail("unknown script \(name)")
}

let clock = ManualClock(monotonicMilliseconds: 5_000_000, wallMilliseconds: sessionWall + from)
var config = script.configuration(directory: dir, clock: clock)
config.sessionId = "sim-session"
if let rotate { config.files.maxFileBytes = rotate }
if let resumeWithin { config.resume = .leftOpen(withinSeconds: resumeWithin) }
if stored { config.compression = .stored }
config.log = { FileHandle.standardError.write(Data("\($0)\n".utf8)) }
let recorder = TraceRecorder(config)
let driver = ScriptDriver(clock: clock, now: from)
driver.play(script.steps, into: recorder, range: from..<until)

if block {
    guard recorder.flush(timeout: 60) else { fail("the recorder did not flush in time") }
    let s = recorder.statistics
    FileHandle.standardOutput.write(Data("ready written=\(s.written) files=\(s.files)\n".utf8))
    while FileHandle.standardInput.availableData.count > 0 {}
    exit(0)
}
guard recorder.close(timeout: 60) else { fail("the recorder did not close in time") }
let s = recorder.statistics
print("closed written=\(s.written) files=\(s.files) dropped=\(s.dropped)")
