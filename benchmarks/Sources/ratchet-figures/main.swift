import BenchSupport
import SystemLayer

/// The ratchet's helper (benchmarks/ratchet.sh): writes the bench sessions, and prints the replay's
/// counted figures of a trace as one JSON object.
///   ratchet-figures session stress|healthy N OUT
///   ratchet-figures replay TRACE        {"records":…,"timersFired":…,"recordStride":…}

func fail(_ message: String) -> Never {
    try? FileDescriptor.standardError.writeAll(string: "ratchet-figures: " + message + "\n")
    CurrentProcess.exit(2)
}

let args = Array(CurrentProcess.arguments.dropFirst())
do {
    switch args.first {
    case "session":
        guard args.count == 4, let n = Int(args[2]), let bytes = try Sessions.write(args[1], count: n, to: args[3]) else {
            fail("session stress|healthy N OUT")
        }
        print("{\"session\":\"\(args[1])\",\"records\":\(n),\"bytes\":\(bytes)}")
    case "replay":
        guard args.count == 2 else { fail("replay TRACE") }
        let (records, timers) = try ReplayFigures.timersFired(path: args[1])
        print("{\"records\":\(records),\"timersFired\":\(timers),\"recordStride\":\(ReplayFigures.recordStride)}")
    default:
        fail("usage: ratchet-figures session stress|healthy N OUT | replay TRACE")
    }
} catch {
    fail("\(error)")
}
