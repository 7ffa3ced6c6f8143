import CommandLineKit
import SystemLayer
import TraceCodec
import TraceModel
import Workflows

/// `rtctrace record` and `rtctrace append`: write validated records into a trace.
enum RecordCommand {
    static let output = Option.output("-o", "path", .trace, HelpWords.recordOutputHelp).required("-o OUT.trace.zst")
    static let frameRecords = Option.integer("--frame-records", "n", OptionRange.count(from: 1), HelpWords.recordsPerZstdFrameDefault)
    static let level = Option.integer("--level", "n", 1...22,
                                      HelpWords.zstdCompressionLevelDefaultASetting)
    static let renumber = Option.flag("--renumber", HelpWords.assignSeqInsteadOfRequiringThe)

    static let merge = Option.flag("--merge", HelpWords.withThePartsOfASession)

    static let spec = CommandSpec(
        name: "record", usage: "record INPUT.jsonl... -o OUT [--frame-records N] [--renumber] [--merge]",
        summary: HelpWords.writeJsonLinesRecordsIntoA,
        options: [output, frameRecords, level, renumber, merge, CommonOptions.force],
        details: HelpWords.everyRecordIsValidatedAnInvalid,
        exits: ExitCodes(failure: HelpWords.aLineIsNotAValid, readsTraces: false))

    static let command = Command(spec: spec) { args, context in
        let parts = try TraceInput.resolve(args.positionals, in: context)
        let options = writerOptions(args)
        let perPart = !args[merge]
        if !perPart, let missing = missingParts(parts) { throw CommandFailure(message: missing) }
        let targets = try args.sessionOutputs(output, parts: parts, perPart: perPart, role: "an input", unit: "trace",
                                              force: args[CommonOptions.force])
        // One trace per part, or one holding every part.
        let groups: [(target: OutputTarget, inputs: [String])] = parts.paths.count > 1 && perPart
            ? zip(targets, parts.paths).map { (target: $0, inputs: [$1]) } : [(target: targets[0], inputs: parts.paths)]
        for g in groups {
            let out = g.target.path
            let (count, size) = try g.target.replaceTrace { out in
                try AtomicFile.replace(out) { tmp in
                    let writer = try TraceWriter(path: tmp, options: options, exclusive: true)
                    var count = 0
                    for (k, input) in g.inputs.enumerated() {
                        try copy(input, into: writer, shownAs: out, renumber: args[renumber], expectHeader: k == 0,
                                 continuing: k == 0 ? nil : parts.id, count: &count)
                    }
                    try writer.close()
                    return (count, writer.fileSize)
                }
            }
            context.err.line(MessageWords.wroteRecords(count, terminalSafe(out), size))
        }
        return .success
    }

    /// Why the parts of a session cannot be merged into one trace: a part is missing between two given
    /// (the merged trace would have to skip its seqs); nil when none is.
    static func missingParts(_ parts: TraceSession) -> String? {
        let numbers = parts.partNumbers, missing = parts.missingParts
        guard let session = parts.id, !missing.isEmpty else { return nil }
        func list(_ n: [Int]) -> String { proseList(n.map(String.init)) }
        return MessageWords.missingParts(missing, listed: list(missing), session: terminalSafe(session))
            + MessageWords.mergeNeedsEveryPart(list(numbers))
            + MessageWords.mergeNeedsEveryPartHint(missing.count == 1 ? "it" : "them")
    }

    /// The writer settings given on the command line (checked when parsed).
    static func writerOptions(_ args: Arguments) -> TraceWriter.Options {
        var o = TraceWriter.Options()
        if let n = args[frameRecords] { o.frameRecords = Int(n) }
        if let l = args[level] { o.level = Int32(l) }
        return o
    }

    /// Copies every record of `input` into `writer`, validating; returns how many were written.
    /// Errors name the writer's file as `shownAs` (the trace a temporary file becomes); `count` says how
    /// many were written so far even when it throws.
    @discardableResult
    static func copy(_ input: String, into writer: TraceWriter, shownAs output: String, renumber: Bool, expectHeader: Bool,
                     continuing session: String? = nil, count: inout Int) throws -> Int {
        let reader: TraceReader
        do { reader = try TraceReader(path: input) } catch { throw commandError(error) }
        func write(_ r: Record) throws {
            if expectHeader, count == 0, case .header(let h) = r.body, let s = h.session, s.part > 1 {
                // A part that continues a session keeps its seqs: the trace starts at the seq its header carries.
                writer.begin(atSeq: r.seq)
            }
            if r.seq == writer.nextSeq {
                try reader.withCurrentLine { line in try writer.appendLine(line, t: r.t, late: r.late) }
            } else if renumber {
                let line = reader.withCurrentLine { Array($0) }
                guard let renumbered = RecordDecoder.replacingSeq(in: line, with: writer.nextSeq) else {
                    throw CommandFailure(message: MessageWords.notRenumberable(input, r.seq))
                }
                try writer.appendLine(renumbered, t: r.t, late: r.late)
            } else if case .header(let h) = r.body, let s = h.session, s.part > 1 {
                // A session's part keeps its seqs: renumbering would break the session, so it is not offered.
                throw CommandFailure(message: MessageWords.partDoesNotFollow(input, r.seq, s.part, s.id, r.seq)
                    + MessageWords.partDoesNotFollowHint(writer.nextSeq))
            } else {
                throw CommandFailure(message: MessageWords.seqDoesNotContinue(input, r.seq, writer.nextSeq))
            }
            count += 1
        }
        while let event = reader.next() {
            switch event {
            case .record(let r):
                // The next part of the trace's session may follow it, its header kept as the part boundary.
                if case .header(let h) = r.body, !expectHeader, session == nil || h.session?.id != session || (h.session?.part ?? 1) <= 1 {
                    throw CommandFailure(message: MessageWords.headerAppendedAtSeq(input, r.seq)
                        + MessageWords.onlyTheHeaderOfALater)
                }
                do { try write(r) } catch let e as WriteError {
                    throw CommandFailure(message: "\(input): \(e.naming(output, insteadOf: writer.path))")
                }
            case .problem(let p):
                if renumber, p.kind == .badRecord, p.field == "seq", let (line, r) = withSeq(reader, writer.nextSeq) {
                    // --renumber assigns seqs, so a line without one is complete once it has its number.
                    if case .header = r.body, !expectHeader {
                        throw CommandFailure(message: MessageWords.headerAppendedAtLine(input, p.line ?? 0))
                    }
                    do { try writer.appendLine(line, t: r.t, late: r.late) } catch let e as WriteError {
                        throw CommandFailure(message: "\(input): \(e.naming(output, insteadOf: writer.path))")
                    }
                    count += 1
                    continue
                }
                if p.kind == .headerMissing && !expectHeader { continue }
                if p.kind == .seqGap && renumber { continue }
                throw CommandFailure(message: p.description)
            }
        }
        return count
    }
}

/// The reader's current line with `"seq":N` put first, and its record, when that makes it valid.
private func withSeq(_ reader: TraceReader, _ seq: Int) -> ([UInt8], Record)? {
    let line: [UInt8] = reader.withCurrentLine { Array($0) }
    guard let brace = line.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }), line[brace] == UInt8(ascii: "{") else { return nil }
    let rest = line[(brace + 1)...]
    let empty = rest.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "}")
    let fixed = Array("{\"seq\":\(seq)\(empty ? "" : ",")".utf8) + rest
    guard let record = try? RecordDecoder().decode(fixed), record.seq == seq else { return nil }
    return (fixed, record)
}

/// `rtctrace append`: add records to an existing trace.
enum AppendCommand {
    static let renumber = Option.flag("--renumber", HelpWords.continueTheTraceSSeqInstead)

    static let spec = CommandSpec(
        name: "append", usage: "append TRACE [INPUT.jsonl | -] [--renumber]",
        summary: HelpWords.appendJsonLinesRecordsFromA,
        options: [RecordCommand.frameRecords, RecordCommand.level, renumber],
        details: HelpWords.theFirstAppendedRecordMustCarry,
        exits: ExitCodes(failure: HelpWords.appendFailureMeaning, readsTraces: false))

    static let command = Command(spec: spec) { args, context in
        guard (1...2).contains(args.positionals.count) else { throw UsageError(message: MessageWords.expectedTraceAndAnOptionalInput) }
        let trace = args.positionals[0]
        let input = args.positionals.count == 2 ? args.positionals[1] : "-"
        guard FileSystem.exists(trace) else { throw CommandFailure(message: MessageWords.noTraceToAppendTo(trace)) }
        // The trace written is never the one read, by any name (the output layer's one check).
        try OutputTarget.refuseInput(trace, option: "TRACE", inputs: [(role: "the input", path: input)])
        let session = try requireHeader(trace)?.id
        let writer = try TraceWriter(path: trace, options: RecordCommand.writerOptions(args), create: false)
        let repaired = writer.openReport
        if repaired.truncatedBytes > 0 {
            context.err.line(MessageWords.tornTailRepaired(trace, repaired.truncatedBytes, repaired.rescuedLines))
        }
        var count = 0
        let firstSeq = writer.nextSeq
        /// How many of the records handed to the writer are in the file: the buffered ones are not.
        func inTheFile() -> Int { writer.nextSeq - writer.unflushedRecords - firstSeq }
        func failedWrite(_ error: any Error) -> IOFailure {
            let n = inTheFile()
            return IOFailure(message: MessageWords.appendStopped(commandError(error).message, inFile: n, of: count, into: trace)
                + MessageWords.appendStoppedAtFrame(firstSeq + n))
        }
        do {
            try RecordCommand.copy(input, into: writer, shownAs: trace, renumber: args[renumber], expectHeader: false,
                                   continuing: session, count: &count)
        } catch let e as CommandFailure {
            // The records before the bad one are valid and already written: say so, and keep them.
            do { try writer.close() } catch { throw failedWrite(error) }
            throw CommandFailure(message: e.message + MessageWords.appendStoppedPartly(count, to: trace)
                + MessageWords.appendStoppedNextSeq(writer.nextSeq))
        } catch let e as FileError {
            // A write failed part-way (a full disk): say how many records went in before it.
            throw failedWrite(e)
        } catch let e as SystemError {
            throw failedWrite(e)
        }
        do { try writer.close() } catch { throw failedWrite(error) }
        context.err.line(MessageWords.appended(count, trace, writer.nextSeq))
        return .success
    }

    /// Appending to a trace whose header was lost would make a headerless trace nothing can explain.
    /// Returns the session the header names, if any (the next part of it may be appended).
    @discardableResult
    static func requireHeader(_ trace: String) throws -> TraceHeader.Session? {
        let reader: TraceReader
        do { reader = try TraceReader(path: trace) } catch { throw commandError(error) }
        while let event = reader.next() {
            guard case .record(let r) = event else { continue }
            if case .header(let h) = r.body { return h.session }
            throw CommandFailure(message: MessageWords.headerNotFirst(trace, r.seq, r.type)
                + MessageWords.frameIsDamagedOrMissingAppending)
        }
        throw CommandFailure(message: MessageWords.noHeaderToAppendTo(trace))
    }
}
