import Foundation
import Synchronization
import SystemLayer
@_spi(Tools) import TraceFixtures
import TraceModel
import TraceRecorder

// The recorder's figures for `make bench`: what a call costs its caller, against a plain locked
// append in the same run; the writer's CPU and the bytes per hour of a realistic session; and the
// memory the queue cap bounds.

/// Monotonic nanoseconds.
@inline(__always) func nanos() -> UInt64 { Clock.monotonicNanoseconds() }

/// A /proc/self/status figure in KiB (`VmRSS`, `VmHWM`).
func status(_ key: String) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in text.split(separator: "\n") where line.hasPrefix(key + ":") { return Int(line.filter(\.isNumber)) ?? -1 }
    return -1
}

/// The median, 99th and 99.9th percentiles and the maximum of latencies, in nanoseconds.
func percentiles(_ all: [UInt64]) -> (median: Double, p99: Double, p999: Double, max: Double) {
    let s = all.sorted()
    func at(_ per: Int) -> Double { Double(s[min(s.count - 1, s.count * per / 1000)]) }
    return (at(500), at(990), at(999), Double(s.last ?? 0))
}

/// Threads that keep every core busy while they run (the machine oversubscribed), at the priority of
/// ordinary work; stopped by `stop()`.
final class Spinners: @unchecked Sendable {
    private let running = Atomic<Bool>(true)
    private var threads: [Thread] = []

    init(_ count: Int) {
        for _ in 0..<count {
            let t = Thread { [self] in
                var x: UInt64 = 1
                while running.load(ordering: .relaxed) {
                    for _ in 0..<10_000 { x = x &* 6364136223846793005 &+ 1442695040888963407 }
                }
                if x == 42 { print("") }
            }
            t.start()
            threads.append(t)
        }
    }

    func stop() { running.store(false, ordering: .relaxed) }
}

/// The values of a record of the most frequent kind, which an SDK has at hand when it records.
let benchPub = QualitySample(level: .good, score: 84, mos: 4.02, loss: 0.021, rtt: 91, jitter: 10, bitrate: 631)
let benchSub = QualitySample(level: .excellent, score: 98, mos: 4.26, loss: 0.006, rtt: 52, jitter: 9, bitrate: 1015)
/// That record, made once.
let benchEvent = TraceRecorder.Event.qualityReport(pub: benchPub, sub: benchSub)

/// Runs `threads` threads that each make `perThread` calls of `call` (told its thread's index), `gapNs`
/// apart (busy-waiting, so the pacing does not depend on the scheduler), and returns every call's latency.
func timedCalls(threads: Int, perThread: Int, gapNs: UInt64, _ call: @escaping @Sendable (Int) -> Void) -> [UInt64] {
    final class Box: @unchecked Sendable {
        let lock = NSLock()
        var lat: [[UInt64]] = []
    }
    let box = Box()
    DispatchQueue.concurrentPerform(iterations: threads) { i in
        var lat = [UInt64](repeating: 0, count: perThread)
        var next = nanos()
        for k in 0..<perThread {
            while nanos() < next {}
            let a = nanos()
            call(i)
            let b = nanos()
            lat[k] = b - a
            next = a + gapNs
        }
        box.lock.lock()
        box.lat.append(lat)
        box.lock.unlock()
    }
    return box.lat.flatMap { $0 }
}

/// recorder-caller THREADS PER_THREAD GAP_NS DIR [BUSY]: the caller's cost of `record(_:)` with THREADS
/// threads at once and the writer busy, against appending the same record to an array under a lock (each
/// side makes its record at the call, as an SDK does), with
/// BUSY more threads spinning meanwhile (more busy threads than cores: a lock holder may be descheduled).
/// Three rounds, each running the baseline, the same append of a record stamped with a clock reading
/// (what the bare append leaves out, reported beside it), and then the recorder; then the same calls
/// through one real-time producer per thread.
func recorderCaller(threads: Int, perThread: Int, gapNs: UInt64, dir: String, busy: Int) {
    final class Locked: @unchecked Sendable {
        let lock = NSLock()
        var items: [(UInt64, RecordBody)] = []
    }
    final class Producers: @unchecked Sendable {
        var list: [TraceRecorder.RealtimeProducer] = []
    }
    let spinners = Spinners(busy)
    defer { spinners.stop() }
    var baseline: [UInt64] = [], stamped: [UInt64] = [], measured: [UInt64] = [], realtime: [UInt64] = []
    var written = 0, dropped = 0, frames = 0, realtimeDropped = 0
    for round in 0..<3 {
        let base = Locked()
        base.items.reserveCapacity(threads * perThread)
        let b = timedCalls(threads: threads, perThread: perThread, gapNs: gapNs) { _ in
            base.lock.lock()
            base.items.append((0, .qualityReport(pub: benchPub, sub: benchSub)))
            base.lock.unlock()
        }
        // Not the target's baseline, but what it leaves out: the same append of a record stamped with
        // a clock reading (which every record takes and the bare append does not).
        let stampedBase = Locked()
        stampedBase.items.reserveCapacity(threads * perThread)
        let st = timedCalls(threads: threads, perThread: perThread, gapNs: gapNs) { _ in
            stampedBase.lock.lock()
            stampedBase.items.append((nanos(), .qualityReport(pub: benchPub, sub: benchSub)))
            stampedBase.lock.unlock()
        }
        var config = RecorderConfiguration(directory: dir + "/\(round)", layer: .smeeting, sdk: "bench")
        config.files.maxDirectoryBytes = 1 << 40
        config.files.minimumFreeBytes = 0
        let recorder = TraceRecorder(config)
        let m = timedCalls(threads: threads, perThread: perThread, gapNs: gapNs) { _ in recorder.record(.qualityReport(pub: benchPub, sub: benchSub)) }
        recorder.close(timeout: 120)
        let s = recorder.statistics
        written += s.written
        dropped += s.dropped
        frames += s.frames
        baseline += b
        stamped += st
        measured += m
    }
    for round in 0..<3 {
        var config = RecorderConfiguration(directory: dir + "/rt\(round)", layer: .smeeting, sdk: "bench")
        config.files.maxDirectoryBytes = 1 << 40
        config.files.minimumFreeBytes = 0
        let rtRecorder = TraceRecorder(config)
        let producers = Producers()
        producers.list = (0..<threads).map { _ in rtRecorder.makeRealtimeProducer() }
        realtime += timedCalls(threads: threads, perThread: perThread, gapNs: gapNs) { i in producers.list[i].record(.qualityReport(pub: benchPub, sub: benchSub)) }
        producers.list = []
        rtRecorder.close(timeout: 120)
        realtimeDropped += rtRecorder.statistics.dropped
    }
    // What the timing itself costs, and a clock reading (which a record must take and the baseline does not).
    let empty = percentiles(timedCalls(threads: threads, perThread: perThread / 10, gapNs: gapNs) { _ in })
    let clockRead = percentiles(timedCalls(threads: threads, perThread: perThread / 10, gapNs: gapNs) { _ in _ = nanos() })
    let b = percentiles(baseline), sb = percentiles(stamped), m = percentiles(measured), r = percentiles(realtime)
    emit([("threads", threads), ("busy", busy), ("cores", CurrentProcess.usableProcessorCount), ("calls", measured.count),
          ("emptyCallMedianNs", empty.median), ("clockReadMedianNs", clockRead.median - empty.median),
          ("medianNs", m.median), ("p99Ns", m.p99), ("p999Ns", m.p999), ("maxNs", m.max),
          ("baselineMedianNs", b.median), ("baselineP99Ns", b.p99), ("baselineP999Ns", b.p999), ("baselineMaxNs", b.max),
          ("stampedMedianNs", sb.median), ("stampedP999Ns", sb.p999), ("stampedMedianRatio", m.median / sb.median),
          ("medianRatio", m.median / b.median), ("p99Ratio", m.p99 / b.p99), ("p999Ratio", m.p999 / b.p999), ("maxRatio", m.max / b.max),
          ("written", written), ("dropped", dropped), ("frames", frames),
          ("realtimeMedianNs", r.median), ("realtimeP99Ns", r.p99), ("realtimeP999Ns", r.p999), ("realtimeMaxNs", r.max),
          ("realtimeMedianRatio", r.median / b.median), ("realtimeP999Ratio", r.p999 / b.p999), ("realtimeDropped", realtimeDropped)])
}

/// recorder-hour RATE SECONDS DIR [FRAME_MS]: a session of SECONDS at RATE records/s, simulated with a
/// manual clock (so it runs fast): the writer's CPU, and the bytes on disk at the default frame policy
/// (or frames of FRAME_MS).
func recorderHour(rate: Int, seconds: Int, dir: String, frameMs: Int64? = nil) {
    let clock = ManualClock()
    var config = RecorderConfiguration(directory: dir, layer: .smeeting, sdk: "SMeeting 3.2.1",
                                       device: .init(model: "iPhone15,2", os: "iOS 17.4"), app: .init(bundleId: "com.example.meet"))
    config.clock = clock
    // The hour is played ~1000 times faster than real time, so the queue must hold what a real
    // writer would have written meanwhile; the output does not depend on it (frames are cut by t).
    config.queue = .init(records: 1 << 20, bytes: 1 << 30)
    config.files.maxDirectoryBytes = 1 << 40
    if let frameMs { config.frame.milliseconds = frameMs }
    let count = rate * seconds
    var g = ToolsSynth(seed: 7)
    var bodies = g.prologue().dropFirst().map { $0 }
    while bodies.count < count { bodies.append(g.nextRecord().body) }
    let events = bodies.map(TraceRecorder.Event.init(replaying:))
    let step = Int64(1000 / rate)
    precondition(step * Int64(rate) == 1000, "RATE must divide 1000")
    let cpu0 = Clock.processCPUSeconds(), caller0 = Clock.threadCPUSeconds()
    let recorder = TraceRecorder(config)
    for e in events {
        recorder.record(e)
        clock.advance(milliseconds: step)
    }
    let caller = Clock.threadCPUSeconds() - caller0
    recorder.close(timeout: 600)
    let writer = Clock.processCPUSeconds() - cpu0 - caller
    let s = recorder.statistics
    emit([("records", count), ("simulatedSeconds", seconds), ("writerCpuSeconds", writer), ("callerCpuSeconds", caller),
          ("bytes", s.bytes), ("files", s.files), ("frames", s.frames), ("syncs", s.syncs), ("dropped", s.dropped)])
}

/// recorder-realtime RATE SECONDS DIR: the same kind of session in real time on the system clock,
/// for the writer's CPU with its real wake-ups (a few per frame).
func recorderRealtime(rate: Int, seconds: Int, dir: String) {
    var config = RecorderConfiguration(directory: dir, layer: .smeeting, sdk: "SMeeting 3.2.1")
    config.files.maxDirectoryBytes = 1 << 40
    var g = ToolsSynth(seed: 7)
    let events = (0..<(rate * seconds)).map { _ in TraceRecorder.Event(replaying: g.nextRecord().body) }
    let cpu0 = Clock.processCPUSeconds(), caller0 = Clock.threadCPUSeconds()
    let recorder = TraceRecorder(config)
    let start = nanos(), gap = UInt64(1_000_000_000 / rate)
    for (i, e) in events.enumerated() {
        let due = start + UInt64(i) * gap
        let now = nanos()
        if due > now { Clock.sleep(nanoseconds: due - now) }
        recorder.record(e)
    }
    let caller = Clock.threadCPUSeconds() - caller0
    recorder.close(timeout: 60)
    let writer = Clock.processCPUSeconds() - cpu0 - caller
    let s = recorder.statistics
    emit([("records", events.count), ("seconds", seconds), ("writerCpuSeconds", writer), ("wakeups", s.wakeups),
          ("frames", s.frames), ("syncs", s.syncs), ("bytes", s.bytes)])
}

/// recorder-flood N DIR: N records as fast as one thread can make them, with the default queue caps:
/// the queue fills and drops, and resident memory stays bounded whatever N.
func recorderFlood(count: Int, dir: String) {
    let before = status("VmRSS")
    var config = RecorderConfiguration(directory: dir, layer: .smeeting)
    config.files.maxDirectoryBytes = 1 << 40
    let recorder = TraceRecorder(config)
    let line = TraceRecorder.Event.sdkLog(level: "debug", message: "rtp stats ssrc=123456789 nack=12 pli=1 jitter=23ms")
    for i in 0..<count { recorder.record(i % 2 == 0 ? benchEvent : line) }
    recorder.close(timeout: 600)
    let s = recorder.statistics
    emit([("offered", count), ("written", s.written), ("dropped", s.dropped), ("peakQueuedRecords", s.peakQueuedRecords),
          ("peakQueuedBytes", s.peakQueuedBytes), ("rssBeforeKiB", before), ("peakRssKiB", status("VmHWM"))])
}

extension TraceRecorder.Event {
    /// An event for a synthetic record body (the bench's generator builds bodies directly).
    init(replaying body: RecordBody) {
        switch body {
        case .qualityReport(let p, let s): self = .qualityReport(pub: p, sub: s)
        case .speakers(let on, let off): self = .speakers(speaking: on, stopped: off)
        case .sdkActiveSpeakers(let v): self = .sdkActiveSpeakers(v)
        case .sdkLog(let l, let m): self = .sdkLog(level: l, message: m)
        case .deviceConnected(let id, let k, let n, let p): self = .deviceConnected(id: id, kind: k, name: n, port: p)
        case .deviceDisconnected(let id): self = .deviceDisconnected(id: id)
        case .setRoute(let t, let a): self = .setRoute(target: t, api: a)
        case .clearRouteOverride: self = .clearRouteOverride
        case .routeChanged(let r, let p, let why): self = .routeChanged(route: r, previous: p, reason: why)
        case .routeSnapshot(let r, let p): self = .routeSnapshot(route: r, ports: p)
        case .micPermission(let s): self = .micPermission(s)
        case let .enterMeeting(room, uid): self = .enterMeeting(room: room, uid: uid)
        case .sessionActivated(let a): self = .sessionActivated(ok: a.ok, error: a.error, category: a.category, mode: a.mode, options: a.options)
        case .connEngine(let v): self = .connEngine(v)
        case .connState(let c): self = .connState(c)
        case .subscribe(let u, let t, let l): self = .subscribe(pubUid: u, trackId: t, layers: l)
        default: self = .sdkLog(level: "debug", message: body.type)
        }
    }
}

/// recorder-micro N DIR: N calls of `record(_:)` on one thread, each making its record at the call as an
/// SDK does, in bursts of 200 timed together with a
/// pause between them for the writer: the mean cost of a call, beside a clock reading's.
func recorderMicro(count: Int, dir: String) {
    var config = RecorderConfiguration(directory: dir, layer: .smeeting, sdk: "bench")
    config.files.maxDirectoryBytes = 1 << 40
    let recorder = TraceRecorder(config)
    recorder.record(benchEvent)
    var spent: UInt64 = 0, clockSpent: UInt64 = 0
    for _ in 0..<(count / 200) {
        let a = nanos()
        for _ in 0..<200 { recorder.record(.qualityReport(pub: benchPub, sub: benchSub)) }
        let b = nanos()
        for _ in 0..<200 { _ = nanos() }
        let c = nanos()
        spent += b - a
        clockSpent += c - b
        Clock.sleep(nanoseconds: 2_000_000)
    }
    recorder.close(timeout: 120)
    emit([("nsPerCall", Double(spent) / Double(count)), ("nsPerClockRead", Double(clockSpent) / Double(count)), ("dropped", recorder.statistics.dropped)])
}
