import CommandLineKit
import TraceCodec
import TraceModel
import Workflows

/// `rtctrace cat`: the records as JSON Lines.
enum CatCommand {
    static let type = Option.string("--type", "prefix",
                                    HelpWords.onlyRecordsWhoseTypeStartsWith)
        .repeatable()
    static let from = Option.integer("--from", "ms", Int64.min...Int64.max, HelpWords.onlyRecordsWithMs)
    static let to = Option.integer("--to", "ms", Int64.min...Int64.max, HelpWords.untilMsHelp)

    static let spec = CommandSpec(
        name: "cat", usage: "cat TRACE|PARTS... [--type PREFIX] [--from MS] [--to MS] [--strict]",
        summary: HelpWords.printATraceSRecordsAs,
        options: [type, from, to, CommonOptions.strict],
        details: HelpWords.damagedFramesAndInvalidRecordsAre,
        exits: ExitCodes(failure: nil, readsTraces: true))

    static let command = Command(spec: spec) { args, context in
        // The parts of one session print in part order, each with its own header, as recorded.
        let parts = try TraceInput.resolve(args.positionals, in: context)
        let prefixes = args[type]
        let first = args[from]
        let last = args[to]
        let out = context.out
        let terminal = out.isTerminal
        let strict = args[CommonOptions.strict]
        for part in parts.paths {
            if strict {
                // --strict fails on the first invalid record: every line is decoded in full.
                _ = try readRecords(part, strict: true, in: context) { r, reader in
                    guard keep(r.t, r.type, from: first, to: last, prefixes: prefixes) else { return }
                    reader.withCurrentLine { write($0, to: out, terminal: terminal) }
                }
                continue
            }
            // Frames, checksums, line structure, seq, time and the header are checked as always; a line of a
            // high-rate type is passed through without decoding the fields no filter reads.
            let reader: TraceReader
            var notATrace: TraceProblem?
            do { reader = try TraceReader(path: part) } catch { throw CommandFailure(message: "\(error)") }
            let noteProblem: (TraceProblem) -> Void = { p in
                if p.kind == .notATrace { notATrace = notATrace ?? p } else { context.warn(p) }
            }
            if prefixes.isEmpty && first == nil && last == nil && !terminal {
                // Every line is printed as it is: runs of skimmed lines go out as one span.
                try reader.forEachLine(run: { span in
                    try out.throwIfFailed()
                    write(span, to: out, terminal: false)
                }, record: { _ in
                    try out.throwIfFailed()
                    reader.withCurrentLine { write($0, to: out, terminal: false) }
                }, problem: noteProblem)
                if let notATrace { throw DataError(message: notATrace.description) }
                continue
            }
            try reader.forEachLine(skimmed: { line in
                try out.throwIfFailed()
                guard keep(line.t, line.kind.rawValue, from: first, to: last, prefixes: prefixes) else { return }
                reader.withCurrentLine { write($0, to: out, terminal: terminal) }
            }, record: { r in
                try out.throwIfFailed()
                guard keep(r.t, r.type, from: first, to: last, prefixes: prefixes) else { return }
                reader.withCurrentLine { write($0, to: out, terminal: terminal) }
            }, problem: noteProblem)
            // An archive or a file that is not a trace printed nothing and exited 0.
            if let notATrace { throw DataError(message: notATrace.description) }
        }
        return .success
    }
}

/// Whether a record with this time and type passes `--from`, `--to` and `--type`.
@inline(__always)
private func keep(_ t: Int64, _ type: @autoclosure () -> String, from first: Int64?, to last: Int64?, prefixes: [String]) -> Bool {
    if let first, t < first { return false }
    if let last, t > last { return false }
    if prefixes.isEmpty { return true }
    let type = type()
    return prefixes.contains { type.hasPrefix($0) }
}

/// Writes one line as recorded (terminal controls escaped on a terminal) and its newline.
@inline(__always)
private func write(_ line: UnsafeBufferPointer<UInt8>, to out: Output, terminal: Bool) {
    if terminal, let safe = escapingTerminalControls(line) { out.write(safe) } else { out.write(bytes: line) }
    out.write(byte: 0x0A)
}

/// On a terminal, a line with DEL or C1 control characters (which JSON may carry unescaped) is
/// printed with them as `\u` escapes, so it stays the same JSON and cannot drive the terminal.
func escapingTerminalControls(_ line: UnsafeBufferPointer<UInt8>) -> String? {
    var needs = false
    for (i, b) in line.enumerated() where b == 0x7F || (b == 0xC2 && i + 1 < line.count && (0x80...0x9F).contains(line[i + 1])) {
        needs = true
        break
    }
    guard needs else { return nil }
    var out = ""
    for u in String(decoding: line, as: UTF8.self).unicodeScalars {
        if u.value == 0x7F || (0x80...0x9F).contains(u.value) {
            out += "\\u00" + String(u.value, radix: 16)
        } else {
            out.unicodeScalars.append(u)
        }
    }
    return out
}
