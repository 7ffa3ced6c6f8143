import SystemLayer
import TraceCodec
import TraceModel

// Writer processes for the robustness tests (Tests/RobustnessTests): they append to a trace the
// way a recorder does, and are killed, raced against each other and checked from outside.
//
//   rtctrace-harness append TRACE SIDEFILE COUNT FLUSH_EVERY [--stop POINT]
//       Opens TRACE (creating it, or repairing and continuing it), appends COUNT records
//       (the record for seq n is always `record(n)`), flushes every FLUSH_EVERY and once more
//       before closing, and after each flush overwrites SIDEFILE with the last seq flushed.
//       With --stop it writes up to POINT, prints one line "stopped POINT ..." and blocks until
//       it is killed, so a test decides exactly where a kill lands (StopPoint.swift). Exits 4
//       when the run ends without reaching POINT.
//   rtctrace-harness race TRACE WRITER_ID COUNT [--wait]
//       Appends COUNT records tagged WRITER_ID, one frame each. Without --wait it exits 3 with the
//       writer's message when another writer holds the trace; with --wait it retries until it may.
//   rtctrace-harness hold TRACE
//       Opens TRACE for writing, prints "ready" and holds it until standard input closes.
//   rtctrace-harness read TRACE [MAX_LINE_BYTES HOLD_BYTES MAX_WINDOW_LOG]
//       Reads TRACE and prints `records N problems K kinds A,B peakKB P`: the reader's peak
//       resident memory in a fresh process, for the memory-bound tests.

func fail(_ message: String, code: Int32 = 1) -> Never {
    try? FileDescriptor.standardError.writeAll(string: "Error: \(message)\n")
    CurrentProcess.exit(code)
}

func say(_ s: String) {
    try? FileDescriptor.standardOutput.writeAll(string: s + "\n")
}

/// The process's peak resident set size (VmHWM), in KiB.
func peakKB() -> Int {
    guard let status = try? OpenFile("/proc/self/status", .readOnly).readAll(limit: 1 << 20) else { return -1 }
    for line in String(decoding: status, as: UTF8.self).split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.dropFirst(6).filter(\.isNumber)) ?? -1
    }
    return -1
}

/// The record every harness writes at `seq`, so a test can tell exactly what must be in the file.
func record(_ seq: Int, writer: String = "a") -> Record {
    if seq == 0 {
        return Record(seq: 0, t: 0, .header(TraceHeader(layer: .srtc, sdk: "harness", startedAt: "2026-11-29T10:00:00Z")))
    }
    let pad = String(repeating: "x", count: (seq * 7919) % 61)
    return Record(seq: seq, t: Int64(seq), .sdkLog(level: writer, message: "record \(seq) \(pad)"))
}

func openWriter(_ path: String, frameRecords: Int = 1 << 30) throws -> TraceWriter {
    try TraceWriter(path: path, options: .init(frameRecords: frameRecords, frameBytes: 1 << 30, level: 3))
}

let args = Array(CommandLine.arguments.dropFirst())
guard let mode = args.first else { fail("usage: rtctrace-harness append|race|hold ...", code: 64) }

switch mode {
case "append":
    let stopIndex = args.firstIndex(of: "--stop")
    let positional = stopIndex.map { Array(args[..<$0]) } ?? args
    guard positional.count == 5, let count = Int(positional[3]), let every = Int(positional[4]), every > 0 else {
        fail("usage: rtctrace-harness append TRACE SIDEFILE COUNT FLUSH_EVERY [--stop POINT]", code: 64)
    }
    var stop: StopPoint?
    if let i = stopIndex {
        guard i + 1 < args.count, let point = StopPoint(args[i + 1]) else {
            fail("--stop expects open:BYTES, frame:F:BYTES, close:BYTES, appended:N or flushed:F " +
                 "(BYTES: a number, half, last or all)", code: 64)
        }
        stop = point
    }
    guard let side = try? OpenFile(positional[2], .writeOnly, options: [.create, .closeOnExec]) else {
        fail("cannot open \(positional[2])")
    }
    let plan = StopPlan(stop)
    SystemFaults.injector = plan.injector
    do {
        let options = TraceWriter.Options(frameRecords: 1 << 30, frameBytes: 1 << 30, level: 3)
        plan.stage = .open
        let w = try TraceWriter(path: positional[1], options: options)
        plan.lastAppended = w.nextSeq - 1
        var flushes = 0
        func flush() throws {
            guard w.unflushedRecords > 0 else { return }
            flushes += 1
            plan.stage = .frame(flushes)
            try w.flush()
            // One pwrite of a fixed-width field: a kill leaves either the old or the new value.
            var text = String(w.nextSeq - 1)
            text += String(repeating: " ", count: 20 - text.utf8.count)
            _ = try? Array(text.utf8).withUnsafeBytes { try side.writeAll($0, at: 0) }
            plan.reached(.flushed(flushes))
        }
        plan.stage = .appending
        for i in 0..<count {
            try w.append(record(w.nextSeq))
            plan.lastAppended = w.nextSeq - 1
            plan.reached(.appended(i + 1))
            if (i + 1) % every == 0 { try flush() }
        }
        try flush()
        plan.stage = .close
        try w.close()
    } catch {
        fail("\(error)")
    }
    if let stop { fail("the run ended without reaching --stop \(stop)", code: 4) }
case "race":
    guard args.count >= 4, let count = Int(args[3]) else { fail("usage: rtctrace-harness race TRACE WRITER_ID COUNT [--wait]", code: 64) }
    let wait = args.contains("--wait")
    var writer: TraceWriter?
    while writer == nil {
        do { writer = try openWriter(args[1], frameRecords: 1) } catch let e as FileError where e.message.contains("another writer") {
            if !wait { fail("\(e)", code: 3) }
            Clock.sleep(nanoseconds: 500_000)
        } catch { fail("\(error)") }
    }
    do {
        let w = writer!
        for _ in 0..<count { try w.append(record(w.nextSeq, writer: args[2])) }
        try w.close()
    } catch { fail("\(error)") }
case "hold":
    guard args.count == 2 else { fail("usage: rtctrace-harness hold TRACE", code: 64) }
    do {
        let w = try openWriter(args[1])
        try w.append(record(w.nextSeq))
        try w.flush()
        say("ready")
        var byte: UInt8 = 0
        while (try? withUnsafeMutableBytes(of: &byte) { try FileDescriptor.standardInput.read(into: $0) }) ?? 0 > 0 {}
        try w.close()
    } catch { fail("\(error)") }
case "read":
    guard args.count == 2 || args.count == 5 else { fail("usage: rtctrace-harness read TRACE [MAX_LINE HOLD WINDOW_LOG]", code: 64) }
    var limits = ReaderLimits.standard
    if args.count == 5, let line = Int(args[2]), let hold = Int(args[3]), let window = Int32(args[4]) {
        limits = ReaderLimits(maxWindowLog: window, maxLineBytes: line, holdBytes: hold)
    }
    do {
        let reader = try TraceReader(path: args[1], limits: limits)
        var records = 0, problems = 0
        var kinds: [String] = []
        while let e = reader.next() {
            switch e {
            case .record: records += 1
            case .problem(let p):
                problems += 1
                if !kinds.contains(p.kind.rawValue) { kinds.append(p.kind.rawValue) }
            }
        }
        say("records \(records) problems \(problems) kinds \(kinds.isEmpty ? "-" : kinds.joined(separator: ",")) peakKB \(peakKB())")
    } catch { fail("\(error)") }
default:
    fail("unknown mode '\(mode)'", code: 64)
}
