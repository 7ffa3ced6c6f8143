@_spi(FaultInjection) import SystemLayer
import TraceCodec
import TraceModel

/// Writer processes for the robustness tests: they append to a trace the way a recorder does, and
/// are killed, raced against each other and checked from outside. Each mode is a `TestChildRole`
/// run by `WriterHarnessTests` (Tests/RobustnessTests) in a child of the test executable.
///
///   append TRACE SIDEFILE COUNT FLUSH_EVERY [--stop POINT]
///       Opens TRACE (creating it, or repairing and continuing it), appends COUNT records
///       (the record for seq n is always `Support.harnessRecord(n)`), flushes every FLUSH_EVERY and
///       once more before closing, and after each flush overwrites SIDEFILE with the last seq
///       flushed. With --stop it writes up to POINT, prints one line "stopped POINT ..." and blocks
///       until it is killed, so a test decides exactly where a kill lands (StopPoint.swift). Exits 4
///       when the run ends without reaching POINT.
///   race TRACE WRITER_ID COUNT [--wait]
///       Appends COUNT records tagged WRITER_ID, one frame each. Without --wait it exits 3 with the
///       writer's message when another writer holds the trace; with --wait it retries until it may.
///   hold TRACE
///       Opens TRACE for writing, prints "ready" and holds it until standard input closes.
///   read TRACE [MAX_LINE_BYTES HOLD_BYTES MAX_WINDOW_LOG]
///       Reads TRACE and prints `records N problems K kinds A,B peakKB P`: the reader's peak
///       resident memory in a fresh process, for the memory-bound tests.
package enum WriterHarness {
    /// The test that runs these roles in a child.
    package static let entry = "RobustnessTests.WriterHarnessTests/test_writerHarnessRoles"

    /// `append`: appends and flushes, and stops where the test chose.
    package static let append = TestChildRole(name: "append", entry: entry, run: runAppend)
    /// `race`: appends one frame per record, waiting for the lock or not.
    package static let race = TestChildRole(name: "race", entry: entry, run: runRace)
    /// `hold`: holds the writer's lock until standard input closes.
    package static let hold = TestChildRole(name: "hold", entry: entry, run: runHold)
    /// `read`: reads a trace and reports its peak memory.
    package static let read = TestChildRole(name: "read", entry: entry, run: runRead)

    /// Every role, by name.
    package static let roles = [append, race, hold, read]

    /// The role named `name`.
    package static func role(_ name: String) -> TestChildRole? { roles.first { $0.name == name } }
}

/// Ends the child with `message` on standard error.
private func fail(_ message: String, code: Int32 = 1) -> Int32 {
    TestChild.write("Error: \(message)\n", to: 2)
    return code
}

/// One line on standard output, written at once.
func say(_ s: String) {
    TestChild.write(s + "\n", to: 1)
}

/// The process's peak resident set size (VmHWM), in KiB.
private func peakKB() -> Int {
    guard let status = try? OpenFile("/proc/self/status", .readOnly).readAll(limit: 1 << 20) else { return -1 }
    for line in String(decoding: status, as: UTF8.self).split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.dropFirst(6).filter(\.isNumber)) ?? -1
    }
    return -1
}

private func openWriter(_ path: String, frameRecords: Int = 1 << 30) throws -> TraceWriter {
    try TraceWriter(path: path, options: .init(frameRecords: frameRecords, frameBytes: 1 << 30, level: 3))
}

private func runAppend(_ args: [String]) -> Int32 {
    let stopIndex = args.firstIndex(of: "--stop")
    let positional = stopIndex.map { Array(args[..<$0]) } ?? args
    guard positional.count == 4, let count = Int(positional[2]), let every = Int(positional[3]), every > 0 else {
        return fail("usage: append TRACE SIDEFILE COUNT FLUSH_EVERY [--stop POINT]", code: 64)
    }
    var stop: StopPoint?
    if let i = stopIndex {
        guard i + 1 < args.count, let point = StopPoint(args[i + 1]) else {
            return fail("--stop expects open:BYTES, frame:F:BYTES, close:BYTES, appended:N or flushed:F " +
                        "(BYTES: a number, half, last or all)", code: 64)
        }
        stop = point
    }
    guard let side = try? OpenFile(positional[1], .writeOnly, options: [.create, .closeOnExec]) else {
        return fail("cannot open \(positional[1])")
    }
    let plan = StopPlan(stop)
    SystemFaults.injector = plan.injector
    do {
        let options = TraceWriter.Options(frameRecords: 1 << 30, frameBytes: 1 << 30, level: 3)
        plan.stage = .open
        let w = try TraceWriter(path: positional[0], options: options)
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
            try w.append(Support.harnessRecord(w.nextSeq))
            plan.lastAppended = w.nextSeq - 1
            plan.reached(.appended(i + 1))
            if (i + 1) % every == 0 { try flush() }
        }
        try flush()
        plan.stage = .close
        try w.close()
    } catch {
        return fail("\(error)")
    }
    if let stop { return fail("the run ended without reaching --stop \(stop)", code: 4) }
    return 0
}

private func runRace(_ args: [String]) -> Int32 {
    guard args.count >= 3, let count = Int(args[2]) else { return fail("usage: race TRACE WRITER_ID COUNT [--wait]", code: 64) }
    let wait = args.contains("--wait")
    var writer: TraceWriter?
    while writer == nil {
        do { writer = try openWriter(args[0], frameRecords: 1) } catch let e as FileError where e.message.contains("another writer") {
            if !wait { return fail("\(e)", code: 3) }
            Clock.sleep(nanoseconds: 500_000)
        } catch { return fail("\(error)") }
    }
    do {
        let w = writer!
        for _ in 0..<count { try w.append(Support.harnessRecord(w.nextSeq, writer: args[1])) }
        try w.close()
    } catch { return fail("\(error)") }
    return 0
}

private func runHold(_ args: [String]) -> Int32 {
    guard args.count == 1 else { return fail("usage: hold TRACE", code: 64) }
    do {
        let w = try openWriter(args[0])
        try w.append(Support.harnessRecord(w.nextSeq))
        try w.flush()
        say("ready")
        var byte: UInt8 = 0
        while (try? withUnsafeMutableBytes(of: &byte) { try FileDescriptor.standardInput.read(into: $0) }) ?? 0 > 0 {}
        try w.close()
    } catch { return fail("\(error)") }
    return 0
}

private func runRead(_ args: [String]) -> Int32 {
    guard args.count == 1 || args.count == 4 else { return fail("usage: read TRACE [MAX_LINE HOLD WINDOW_LOG]", code: 64) }
    var limits = ReaderLimits.standard
    if args.count == 4, let line = Int(args[1]), let hold = Int(args[2]), let window = Int32(args[3]) {
        limits = ReaderLimits(maxWindowLog: window, maxLineBytes: line, holdBytes: hold)
    }
    do {
        let reader = try TraceReader(path: args[0], limits: limits)
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
    } catch { return fail("\(error)") }
    return 0
}
