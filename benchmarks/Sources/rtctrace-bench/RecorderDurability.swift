import Foundation
import SystemLayer
@_spi(Tools) import TraceCodec
@_spi(Tools) import TraceFixtures
import TraceModel
import TraceRecorder

// The recorder's durability for `make bench`: how old a record gets before its frame is in the file,
// with the default configuration and irregular arrivals, and what SIGKILL loses, measured from outside
// the recorder (the file's index marks say which seq each frame ends at).

/// Gaps between arrivals at `rate` records a second on average, irregular: exponential (bursts and pauses).
struct Arrivals {
    var g: ToolsRandom
    let rate: Double
    init(rate: Int, seed: UInt64) { g = ToolsRandom(seed: seed); self.rate = Double(rate) }
    mutating func nextGapNanos() -> UInt64 {
        let u = Double(g.next() >> 11) / Double(1 << 53)
        return UInt64(-log(1 - u) / rate * 1e9)
    }
}

/// Synthetic records of a realistic mix, without the app's calls (written through at once, they would
/// only make frames earlier): what waits longest for its frame.
struct Traffic {
    var synth = ToolsSynth(seed: 7)
    mutating func next() -> TraceRecorder.Event {
        while true {
            let b = synth.nextRecord().body
            if b.kind?.family != .api { return TraceRecorder.Event(replaying: b) }
        }
    }
}

/// The seq the last frame of the open part ends at, from the index mark that ends the file (nil while it
/// ends otherwise, e.g. at the end mark).
func framedSeq(_ path: String) -> Int? {
    guard let f = try? OpenFile(path, .readOnly), let size = try? f.status().size, size >= 36 else { return nil }
    var tail = [UInt8](repeating: 0, count: 36)
    guard (tail.withUnsafeMutableBytes { try? f.read(into: $0, at: Int64(size) - 36) }) == 36 else { return nil }
    let magic = UInt32(tail[0]) | UInt32(tail[1]) << 8 | UInt32(tail[2]) << 16 | UInt32(tail[3]) << 24
    if case .frameIndex(let seq, _)? = TraceMark.parse(magic: magic, payload: tail[8...]) { return Int(seq) }
    return nil
}

/// recorder-age RATE SECONDS DIR: records at RATE a second, irregularly, for SECONDS on the system clock
/// with the default configuration, and watches the open part: each record's age when the frame holding
/// it was in the file (polled every 2 ms, so ages are up to 2 ms high).
func recorderAge(rate: Int, seconds: Int, dir: String) {
    var config = RecorderConfiguration(directory: dir, layer: .smeeting, sdk: "bench")
    config.files.maxDirectoryBytes = 1 << 40
    let recorder = TraceRecorder(config)
    var path: String?
    while path == nil {
        path = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).first { $0.hasSuffix(".trace.zst") }.map { dir + "/" + $0 }
        if path == nil { Clock.sleep(nanoseconds: 1_000_000) }
    }
    final class Seen: @unchecked Sendable {
        let lock = Lock()
        var events: [(nanos: UInt64, seq: Int)] = []
        var stop = false
    }
    let seen = Seen()
    let watched = path!
    let poller = Thread {
        var last = -1
        while !seen.lock.withLock({ seen.stop }) {
            if let s = framedSeq(watched), s != last {
                last = s
                let t = nanos()
                seen.lock.withLock { seen.events.append((t, s)) }
            }
            Clock.sleep(nanoseconds: 2_000_000)
        }
    }
    poller.start()
    var arrivals = Arrivals(rate: rate, seed: UInt64(rate) &* 2654435761)
    var traffic = Traffic()
    var made: [UInt64] = []
    let start = nanos(), end = start + UInt64(seconds) * 1_000_000_000
    var due = start
    while true {
        due += arrivals.nextGapNanos()
        if due > end { break }
        let n = nanos()
        if due > n { Clock.sleep(nanoseconds: due - n) }
        recorder.record(traffic.next())
        made.append(nanos())
    }
    // The last records' frames come at their age limit: wait past it with the recorder still open.
    Clock.sleep(nanoseconds: UInt64(config.frame.milliseconds + 500) * 1_000_000)
    seen.lock.withLock { seen.stop = true }
    recorder.close(timeout: 60)
    let events = seen.lock.withLock { seen.events }
    var ages: [Double] = []
    var k = 0
    for (i, t) in made.enumerated() {
        while k < events.count && events[k].seq < i + 1 { k += 1 }
        guard k < events.count else { break }
        ages.append(Double(events[k].nanos - min(t, events[k].nanos)) / 1e6)
    }
    let sorted = ages.sorted()
    emit([("rate", rate), ("seconds", seconds), ("records", made.count), ("framedRecords", ages.count), ("frameIntervalMs", config.frame.milliseconds),
          ("worstAgeMs", sorted.last ?? -1), ("p99AgeMs", sorted.isEmpty ? -1 : sorted[sorted.count * 99 / 100]),
          ("medianAgeMs", sorted.isEmpty ? -1 : sorted[sorted.count / 2]), ("frames", recorder.statistics.frames)])
}

/// recorder-kill-child RATE DIR SEED: records irregularly at RATE a second until killed, saying the
/// number of each record on standard output once `record` returned.
func recorderKillChild(rate: Int, dir: String, seed: UInt64) -> Never {
    var config = RecorderConfiguration(directory: dir, layer: .smeeting, sdk: "bench")
    config.sessionId = "killed"
    let recorder = TraceRecorder(config)
    var arrivals = Arrivals(rate: rate, seed: seed)
    var traffic = Traffic()
    var due = nanos()
    var i = 0
    while true {
        due += arrivals.nextGapNanos()
        let n = nanos()
        if due > n { Clock.sleep(nanoseconds: due - n) }
        recorder.record(traffic.next())
        FileHandle.standardOutput.write(Data("\(i)\n".utf8))
        i += 1
    }
}

/// recorder-kill RATE RUNS DIR: RUNS times, a child records at RATE a second and is SIGKILLed after 3
/// to 8 seconds; a new recorder in its folder repairs the part it left; what the part lacks of what the
/// child had recorded is the loss, in records and in seconds (from the first lost record to the kill).
func recorderKill(rate: Int, runs: Int, dir: String) {
    var g = ToolsRandom(seed: UInt64(rate) &* 7919)
    var lostRecords: [Int] = [], lostSeconds: [Double] = [], made: [Int] = []
    for run in 0..<runs {
        let sub = "\(dir)/run\(run)"
        final class Lines: @unchecked Sendable {
            let lock = Lock()
            var at: [UInt64] = []
            var partial = ""
        }
        let lines = Lines()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        p.arguments = ["recorder-kill-child", String(rate), sub, String(1000 + run)]
        let out = Pipe()
        p.standardOutput = out
        do { try p.run() } catch { fail("cannot start the child: \(error)") }
        out.fileHandleForReading.readabilityHandler = { h in
            let data = h.availableData
            let t = nanos()
            lines.lock.withLock {
                lines.partial += String(decoding: data, as: UTF8.self)
                while let nl = lines.partial.firstIndex(of: "\n") {
                    lines.at.append(t)
                    lines.partial = String(lines.partial[lines.partial.index(after: nl)...])
                }
            }
        }
        Clock.sleep(nanoseconds: 3_000_000_000 + UInt64(g.below(5000)) * 1_000_000)
        try? Signal.kill.send(to: p.processIdentifier)
        let killedAt = nanos()
        p.waitUntilExit()
        out.fileHandleForReading.readabilityHandler = nil
        let received = lines.lock.withLock { lines.at }
        // The next recorder in the folder repairs the part and hands it on.
        var config = RecorderConfiguration(directory: sub, layer: .smeeting)
        config.sessionId = "after"
        TraceRecorder(config).close(timeout: 60)
        let crashed = TraceRecorder.outbox(in: sub).first { $0.contains("-killed-") }
        var written = 0
        if let crashed, let reader = try? ToolsTraceReader(path: crashed) {
            while let e = reader.next() {
                if case .record(let r) = e, r.seq > 0 { written += 1 }
            }
        }
        let lost = max(0, received.count - written)
        made.append(received.count)
        lostRecords.append(lost)
        // A line read after the kill was written before it (the pipe held it): its record was made at most the
        // pipe's delay before the kill, counted as none.
        let firstLost = lost > 0 ? received[written] : killedAt
        lostSeconds.append(firstLost < killedAt ? Double(killedAt - firstLost) / 1e9 : 0)
    }
    func median<T: Comparable>(_ v: [T]) -> T { v.sorted()[v.count / 2] }
    emit([("rate", rate), ("runs", runs), ("recordsMadeMedian", median(made)), ("lostRecordsMedian", median(lostRecords)),
          ("lostRecordsMax", lostRecords.max() ?? 0), ("lostSecondsMedian", median(lostSeconds)), ("lostSecondsMax", lostSeconds.max() ?? 0)])
}
