import BenchSupport
import Foundation
import SystemLayer
@_spi(Tools) import TraceCodec
@_spi(Tools) import TraceFixtures
import TraceModel

/// Benchmark harness for `make bench`: each subcommand does one measured piece of work and prints
/// one JSON object with its figures. benchmarks/run.sh runs them and the baselines in one run.

func now() -> Double { Clock.monotonicSeconds() }

func emit(_ pairs: [(String, Any)]) {
    let body = pairs.map { k, v -> String in
        if let s = v as? String { return "\"\(k)\":\"\(s)\"" }
        return "\"\(k)\":\(v)"
    }.joined(separator: ",")
    print("{" + body + "}")
}

func fail(_ s: String) -> Never {
    FileHandle.standardError.write(Data(("rtctrace-bench: " + s + "\n").utf8))
    CurrentProcess.exit(2)
}

/// Writes `count` synthetic records with the given writer options; returns the seconds spent appending.
func synth(count: Int, path: String, options: ToolsWriterOptions, flushEvery: Int64? = nil, seed: UInt64 = 42) throws -> (Double, Int) {
    FileSystem.removeIfPresent(path)
    let w = try ToolsTraceWriter(path: path, options: options)
    var g = ToolsSynth(seed: seed)
    var records: [Record] = []
    records.reserveCapacity(min(count, 2_000_000))
    for (i, b) in g.prologue().enumerated() { records.append(Record(seq: i, t: Int64(i), b)) }
    g.seq = records.count
    g.t = Int64(records.count)
    while records.count < count { records.append(g.nextRecord()) }
    var lastFlush: Int64 = 0
    let start = now()
    for r in records {
        try w.append(r)
        if let every = flushEvery, r.t - lastFlush >= every {
            try w.flush()
            lastFlush = r.t
        }
    }
    try w.close()
    return (now() - start, w.fileSize)
}

let args = Array(CommandLine.arguments.dropFirst())
guard let cmd = args.first else { fail("usage: rtctrace-bench synth|session|fleet|read|parse|skim|phases|flushsweep|recorder-caller|recorder-hour|recorder-realtime|recorder-flood|recorder-age|recorder-kill …") }

do {
    switch cmd {
    case "synth":
        // synth N OUT [frameRecords]
        guard args.count >= 3, let n = Int(args[1]) else { fail("synth N OUT [frameRecords]") }
        var o = ToolsWriterOptions()
        if args.count > 3, let f = Int(args[3]) { o.frameRecords = f; o.frameBytes = max(o.frameBytes, f * 400) }
        if args.count > 4, let l = Int32(args[4]) { o.level = l }
        let (secs, bytes) = try synth(count: n, path: args[2], options: o)
        emit([("records", n), ("seconds", secs), ("bytes", bytes), ("recordsPerSec", Double(n) / secs), ("bytesPerRecord", Double(bytes) / Double(n))])
    case "session":
        // session stress|healthy N OUT: one of the two read-path sessions (TraceFixtures.BenchSession)
        guard args.count == 4, let n = Int(args[2]), let bytes = try Sessions.write(args[1], count: n, to: args[3]) else {
            fail("session stress|healthy N OUT")
        }
        emit([("session", args[1]), ("records", n), ("bytes", bytes)])
    case "hostile":
        // hostile SHAPE COUNT BYTES OUT: a trace of TraceFixtures.HostileTraces (long lines; peak memory)
        guard args.count == 5, let n = Int(args[2]), let bytes = Int(args[3]),
              let records = ToolsHostileTraces.records(args[1], count: n, bytes: bytes) else {
            fail("hostile \(ToolsHostileTraces.shapes.joined(separator: "|")) COUNT BYTES OUT")
        }
        FileSystem.removeIfPresent(args[4])
        let w = try ToolsTraceWriter(path: args[4])
        for r in records { try w.append(r) }
        try w.close()
        emit([("shape", args[1]), ("records", n), ("bytes", w.fileSize)])
    case "churn":
        // churn UPDATES SPEAKERS OUT: a speaker set updated whole (HostileTraces.speakerChurn)
        guard args.count == 4, let updates = Int(args[1]), let speakers = Int(args[2]) else { fail("churn UPDATES SPEAKERS OUT") }
        FileSystem.removeIfPresent(args[3])
        let w = try ToolsTraceWriter(path: args[3])
        for r in ToolsHostileTraces.speakerChurn(updates: updates, speakers: speakers) { try w.append(r) }
        try w.close()
        emit([("updates", updates), ("speakers", speakers), ("bytes", w.fileSize)])
    case "fleet":
        // fleet N RECORDS DIR: N traces of RECORDS records each (seeds 1…N), DIR/fNNNNN.trace.zst
        guard args.count == 4, let n = Int(args[1]), let records = Int(args[2]) else { fail("fleet N RECORDS DIR") }
        var total = 0.0
        for i in 1...max(n, 1) {
            let name = String(i); let padded = String(repeating: "0", count: max(0, 5 - name.count)) + name
            total += try synth(count: records, path: "\(args[3])/f\(padded).trace.zst", options: ToolsWriterOptions(), seed: UInt64(i)).0
        }
        emit([("traces", n), ("records", records), ("seconds", total)])
    case "read":
        // read TRACE: streaming read + decode of every record
        guard args.count == 2 else { fail("read TRACE") }
        let start = now()
        let reader = try ToolsTraceReader(path: args[1])
        var n = 0, problems = 0
        while let e = reader.next() { if case .record = e { n += 1 } else { problems += 1 } }
        let secs = now() - start
        emit([("records", n), ("problems", problems), ("seconds", secs), ("recordsPerSec", Double(n) / secs)])
    case "parse":
        // parse TRACE LIMIT: the same lines decoded by the fast decoder and by Foundation's JSONDecoder
        guard args.count == 3, let limit = Int(args[2]) else { fail("parse TRACE LIMIT") }
        let reader = try ToolsTraceReader(path: args[1])
        var lines: [[UInt8]] = []
        while lines.count < limit, let e = reader.next() {
            if case .record = e { lines.append(reader.withCurrentLine { Array($0) }) }
        }
        // The same lines through the decoder's general path (members in any order, every error located)
        // and through its single-pass path for canonical lines, in this run.
        let fast = ToolsRecordDecoder()
        var t0 = now()
        var check = 0
        for l in lines { check &+= try fast.decode(l).seq }
        let fastSecs = now() - t0
        let general = ToolsRecordDecoder(fastPath: false)
        t0 = now()
        var check2 = 0
        for l in lines { check2 &+= try general.decode(l).seq }
        let generalSecs = now() - t0
        guard check == check2 else { fail("decoder paths disagree") }
        emit([("records", lines.count), ("fastSeconds", fastSecs), ("generalSeconds", generalSecs),
              ("fastRecordsPerSec", Double(lines.count) / fastSecs), ("generalRecordsPerSec", Double(lines.count) / generalSecs),
              ("ratio", generalSecs / fastSecs)])
    case "skim":
        // skim TRACE LIMIT: cat's structural check over the same lines with each kernel (best of 5, thread
        // CPU time), the lines side by side in one buffer as the reader holds them
        guard args.count == 3, let limit = Int(args[2]) else { fail("skim TRACE LIMIT") }
        let reader = try ToolsTraceReader(path: args[1])
        var text: [UInt8] = [], lines: [Range<Int>] = []
        while lines.count < limit, let e = reader.next() {
            if case .record = e { reader.withCurrentLine { lines.append(text.count..<text.count + $0.count); text.append(contentsOf: $0) } }
        }
        let bytes = lines.reduce(0) { $0 + $1.count - 1 }
        var pairs: [(String, Any)] = [("lines", lines.count), ("bytes", bytes), ("standard", ToolsLineKernel.standard.name)]
        for kernel in ToolsLineKernel.runnable {
            var best = Double.infinity, passed = 0
            text.withUnsafeBufferPointer { all in
                for _ in 0..<5 {
                    passed = 0
                    // This thread's CPU time: on a shared machine, waiting for the core is not the kernel's.
                    let t0 = Clock.threadCPUSeconds()
                    for r in lines where kernel.closesObject(UnsafeBufferPointer(rebasing: all[r]), from: 1) == true { passed += 1 }
                    best = min(best, Clock.threadCPUSeconds() - t0)
                }
            }
            guard passed == lines.count else { fail("\(kernel.name): \(lines.count - passed) lines failed the structural check") }
            pairs.append(("\(kernel.name)NsPerLine", best / Double(lines.count) * 1e9))
            pairs.append(("\(kernel.name)GBPerSec", Double(bytes) / best / 1e9))
        }
        emit(pairs)
    case "phases":
        // phases TRACE [RUNS]: the read path of explain --json, phase by phase (Phases.swift)
        guard args.count >= 2 else { fail("phases TRACE [RUNS]") }
        try Phases.run(path: args[1], runs: args.count > 2 ? Int(args[2]) ?? 3 : 3)
    case "flushsweep":
        // flushsweep N DIR: compressed size per record at several frame sizes, and at a 1-second flush
        guard args.count == 3, let n = Int(args[1]) else { fail("flushsweep N DIR") }
        for frame in [64, 256, 1024, 4096, 16384, 65536] {
            var o = ToolsWriterOptions()
            o.frameRecords = frame
            let (secs, bytes) = try synth(count: n, path: args[2] + "/sweep.trace.zst", options: o)
            emit([("frameRecords", frame), ("bytesPerRecord", Double(bytes) / Double(n)), ("recordsPerSec", Double(n) / secs)])
        }
        let (secs, bytes) = try synth(count: n, path: args[2] + "/sweep.trace.zst", options: ToolsWriterOptions(), flushEvery: 1000)
        emit([("frameRecords", "1s"), ("bytesPerRecord", Double(bytes) / Double(n)), ("recordsPerSec", Double(n) / secs)])
    case "recorder-caller":
        guard args.count >= 5, let t = Int(args[1]), let n = Int(args[2]), let gap = UInt64(args[3]) else { fail("recorder-caller THREADS PER_THREAD GAP_NS DIR [BUSY]") }
        recorderCaller(threads: t, perThread: n, gapNs: gap, dir: args[4], busy: args.count > 5 ? Int(args[5]) ?? 0 : 0)
    case "recorder-micro":
        guard args.count == 3, let n = Int(args[1]) else { fail("recorder-micro N DIR") }
        recorderMicro(count: n, dir: args[2])
    case "recorder-hour":
        guard args.count >= 4, let rate = Int(args[1]), let secs = Int(args[2]) else { fail("recorder-hour RATE SECONDS DIR [FRAME_MS]") }
        recorderHour(rate: rate, seconds: secs, dir: args[3], frameMs: args.count > 4 ? Int64(args[4]) : nil)
    case "recorder-realtime":
        guard args.count == 4, let rate = Int(args[1]), let secs = Int(args[2]) else { fail("recorder-realtime RATE SECONDS DIR") }
        recorderRealtime(rate: rate, seconds: secs, dir: args[3])
    case "recorder-age":
        guard args.count == 4, let rate = Int(args[1]), let secs = Int(args[2]) else { fail("recorder-age RATE SECONDS DIR") }
        recorderAge(rate: rate, seconds: secs, dir: args[3])
    case "recorder-kill":
        guard args.count == 4, let rate = Int(args[1]), let runs = Int(args[2]) else { fail("recorder-kill RATE RUNS DIR") }
        recorderKill(rate: rate, runs: runs, dir: args[3])
    case "recorder-kill-child":
        guard args.count == 4, let rate = Int(args[1]), let seed = UInt64(args[3]) else { fail("recorder-kill-child RATE DIR SEED") }
        recorderKillChild(rate: rate, dir: args[2], seed: seed)
    case "recorder-flood":
        guard args.count == 3, let n = Int(args[1]) else { fail("recorder-flood N DIR") }
        recorderFlood(count: n, dir: args[2])
    default:
        fail("unknown command \(cmd)")
    }
} catch {
    fail("\(error)")
}
